// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QPushButton;
class QVBoxLayout;

namespace npuscope::gui {

// The central area while nothing is loaded: what npuscope is (one paragraph), Open folder, the recent entries, the
// bundled demo, and the drag-and-drop hint. It only asks: MainWindow opens what it emits. GUI thread only.
class WelcomePage : public QWidget {
    Q_OBJECT
public:
    explicit WelcomePage(QWidget* parent = nullptr);

    // Recent entries as MainWindow keeps them (one entry per open; several folders of one open joined by '\n').
    void setRecent(const QStringList& entries);
    // One recent entry's folders, and how menus and this page name them ("/data/run1 (+2 more)").
    static QStringList entryPaths(const QString& entry);
    static QString entryText(const QStringList& paths);
    // The demo folder, or empty to hide the demo button (not shipped with this build).
    void setDemoPath(const QString& path);
    QString demoPath() const { return m_demoPath; }

signals:
    void openFolderRequested();
    void openRequested(const QStringList& paths);
    void formatsRequested();

private:
    QVBoxLayout* m_recentLayout = nullptr;
    QLabel* m_recentTitle = nullptr;
    QPushButton* m_demo = nullptr;
    QString m_demoPath;
};

} // namespace npuscope::gui
