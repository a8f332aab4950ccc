// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QVBoxLayout;
class QWidget;

namespace npuscope::gui {

// Controls made the same way in every dock's bar. GUI thread only.

// A combo box whose items come later (step numbers): as wide as its widest item, never squeezed below it, so the
// labels beside it wrap instead of the items being cut.
void fitToItems(QComboBox* combo);

// Empties a choice box down to its first item, the choice of everything (allText, no data); the caller adds the
// choices that follow it.
void resetChoices(QComboBox* combo, const QString& allText);

// A text filter: placeholder and clear button.
QLineEdit* newFilterEdit(const char* objectName, const QString& placeholder, QWidget* parent);

// The "Step:" label and a fitToItems combo of the steps, added to a dock's bar; the combo is named for the tests.
QComboBox* addStepBox(QHBoxLayout* bar, const char* objectName, QWidget* parent);

// A button (check box or push button) named for the tests, with its tooltip; returns button.
template <typename Button> Button* named(Button* button, const char* objectName, const QString& toolTip)
{
    button->setObjectName(QString::fromLatin1(objectName));
    button->setToolTip(toolTip);
    return button;
}

// A status or summary line: wraps rather than widen the dock, named for the tests.
QLabel* newWrappedLabel(const char* objectName, QWidget* parent);

// A widget holding a column: a part of a splitter or a tab page (margin 0, the column touches its frame), or a dock
// body that has no row of controls (margin 4, the margin of QueryDock::makeBody).
struct Column {
    QWidget* widget;
    QVBoxLayout* layout;
};
Column newColumn(QWidget* parent, int margin = 0);

} // namespace npuscope::gui
