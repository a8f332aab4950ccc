// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/DockControls.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace npuscope::gui {

void fitToItems(QComboBox* combo)
{
    combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    combo->setSizePolicy(QSizePolicy::Fixed, combo->sizePolicy().verticalPolicy());
}

void resetChoices(QComboBox* combo, const QString& allText)
{
    combo->clear();
    combo->addItem(allText);
}

QComboBox* addStepBox(QHBoxLayout* bar, const char* objectName, QWidget* parent)
{
    auto* box = new QComboBox(parent);
    box->setObjectName(QString::fromLatin1(objectName));
    fitToItems(box);
    bar->addWidget(new QLabel(QCoreApplication::translate("DockControls", "Step:"), parent));
    bar->addWidget(box);
    return box;
}

QLineEdit* newFilterEdit(const char* objectName, const QString& placeholder, QWidget* parent)
{
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(QString::fromLatin1(objectName));
    edit->setPlaceholderText(placeholder);
    edit->setClearButtonEnabled(true);
    return edit;
}

QLabel* newWrappedLabel(const char* objectName, QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setObjectName(QString::fromLatin1(objectName));
    label->setWordWrap(true);
    return label;
}

Column newColumn(QWidget* parent, int margin)
{
    auto* widget = new QWidget(parent);
    auto* layout = new QVBoxLayout(widget);
    layout->setContentsMargins(margin, margin, margin, margin);
    return { widget, layout };
}

} // namespace npuscope::gui
