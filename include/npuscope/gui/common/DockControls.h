// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

class QComboBox;
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
