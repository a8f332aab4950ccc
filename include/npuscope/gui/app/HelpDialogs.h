// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>
#include <QString>

class QDialog;
class QWidget;

namespace npuscope::gui {

// The Help menu's texts and windows: the shortcut sheet (F1, ?), the metric definitions (query::MetricDefinitions,
// the same words as docs/metrics.md), "What can I open?" and the About box (versions and licenses). The texts are
// HTML built on the GUI thread; the show functions open a non-modal window (a child of parent, deleted on close) and
// return it. GUI thread only.
class HelpDialogs {
    Q_DECLARE_TR_FUNCTIONS(HelpDialogs)

public:
    static QString shortcutsHtml();
    static QString metricsHtml();
    static QString formatsHtml();
    // "npuscope 0.1.0 · Qt 6.4.2 · SQLite 3.40.1" and the licenses of the parts it ships with.
    static QString aboutHtml();

    // objectName "shortcutSheet": the shortcuts, then the metric definitions.
    static QDialog* showShortcuts(QWidget* parent);
    // objectName "formatsHelp".
    static QDialog* showFormats(QWidget* parent);
    // objectName "aboutBox".
    static QDialog* showAbout(QWidget* parent);

private:
    static QDialog* showHtml(QWidget* parent, const char* objectName, const QString& title, const QString& html);
};

} // namespace npuscope::gui
