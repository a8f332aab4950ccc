// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/DockControls.h"

#include <QComboBox>
#include <QLineEdit>

namespace npuscope::gui {

void fitToItems(QComboBox* combo)
{
    combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    combo->setSizePolicy(QSizePolicy::Fixed, combo->sizePolicy().verticalPolicy());
}

QLineEdit* newFilterEdit(const char* objectName, const QString& placeholder, QWidget* parent)
{
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(QString::fromLatin1(objectName));
    edit->setPlaceholderText(placeholder);
    edit->setClearButtonEnabled(true);
    return edit;
}

} // namespace npuscope::gui
