// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

class QComboBox;
class QLineEdit;
class QWidget;

namespace npuscope::gui {

// Controls made the same way in every dock's bar. GUI thread only.

// A combo box whose items come later (step numbers): as wide as its widest item, never squeezed below it, so the
// labels beside it wrap instead of the items being cut.
void fitToItems(QComboBox* combo);

// A text filter: placeholder and clear button.
QLineEdit* newFilterEdit(const char* objectName, const QString& placeholder, QWidget* parent);

} // namespace npuscope::gui
