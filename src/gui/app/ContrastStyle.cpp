// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/app/ContrastStyle.h"

#include "npuscope/gui/app/Appearance.h"

#include <QPainter>
#include <QStyleFactory>
#include <QStyleOption>

namespace npuscope::gui {

ContrastStyle::ContrastStyle()
    : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion")))
{
}

void ContrastStyle::drawPrimitive(
    PrimitiveElement element, const QStyleOption* option, QPainter* painter, const QWidget* widget) const
{
    if (element == PE_IndicatorHeaderArrow) {
        if (const auto* header = qstyleoption_cast<const QStyleOptionHeader*>(option)) {
            // QHeaderView passes SortDown for Qt::AscendingOrder, and Fusion draws it pointing down; every file
            // manager and spreadsheet users know shows ▲ for ascending (smallest first) and ▼ for descending.
            QStyleOptionHeader flipped(*header);
            if (header->sortIndicator == QStyleOptionHeader::SortDown)
                flipped.sortIndicator = QStyleOptionHeader::SortUp;
            else if (header->sortIndicator == QStyleOptionHeader::SortUp)
                flipped.sortIndicator = QStyleOptionHeader::SortDown;
            QProxyStyle::drawPrimitive(element, &flipped, painter, widget);
            return;
        }
    }
    QProxyStyle::drawPrimitive(element, option, painter, widget);
    const bool box = element == PE_IndicatorCheckBox || element == PE_IndicatorItemViewItemCheck;
    if (!box || !option || !Appearance::isDark(option->palette))
        return;
    // A light edge over Fusion's dark one (the placeholder text colour: quiet, yet clear of the base).
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    QColor edge = option->palette.color(QPalette::PlaceholderText);
    if (!(option->state & State_Enabled))
        edge.setAlpha(110);
    painter->setPen(QPen(edge, 1));
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(QRectF(option->rect).adjusted(0.5, 0.5, -1.5, -1.5));
    painter->restore();
}

} // namespace npuscope::gui
