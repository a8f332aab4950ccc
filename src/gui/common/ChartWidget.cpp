// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/ChartWidget.h"
#include "npuscope/gui/common/WidgetImage.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPixmap>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace npuscope::gui {

double ChartWidget::niceStep(double range, double ticks)
{
    const double raw = range / std::max(ticks, 1.0);
    if (!(raw > 0) || !std::isfinite(raw))
        return 1.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double f : { 1.0, 2.0, 5.0 }) {
        if (f * magnitude >= raw * (1 - 1e-9))
            return f * magnitude;
    }
    return 10.0 * magnitude;
}

QColor ChartWidget::gridColor() const
{
    QColor c = palette().color(QPalette::WindowText);
    c.setAlpha(40);
    return c;
}

QColor ChartWidget::selectionColor() const
{
    QColor c = palette().color(QPalette::Highlight);
    c.setAlpha(70);
    return c;
}

ChartWidget::ChartWidget(QWidget* parent, const ChartSetup& setup)
    : QWidget(parent)
    , m_plotMargins(setup.plotMargins)
{
    if (setup.objectName)
        setObjectName(QString::fromLatin1(setup.objectName));
    if (setup.hover)
        setMouseTracking(true);
    if (!setup.minimumSize.isNull())
        setMinimumSize(setup.minimumSize);
    if (setup.horizontal != QSizePolicy::Preferred || setup.vertical != QSizePolicy::Preferred)
        setSizePolicy(setup.horizontal, setup.vertical);
}

int ChartWidget::itemAt(const QPoint&) const { return -1; }

QString ChartWidget::itemToolTip(int) const { return {}; }

void ChartWidget::setSelectedItem(int item)
{
    if (item == m_selected)
        return;
    m_selected = item;
    update();
    emit selectedItemChanged(item);
}

void ChartWidget::setPlotMargins(const QMargins& margins)
{
    m_plotMargins = margins;
    update();
}

QImage ChartWidget::toImage() const
{
    // grab() paints the widget into a pixmap through its own paintEvent, so the image is what the screen shows.
    return const_cast<ChartWidget*>(this)->grab().toImage();
}

bool ChartWidget::saveImage(const QString& path, QString* error) const
{
    return WidgetImage::save(const_cast<ChartWidget*>(this), path, error);
}

bool ChartWidget::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int item = itemAt(help->pos());
        const QString text = item >= 0 ? itemToolTip(item) : QString();
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(event);
}

void ChartWidget::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    const int item = itemAt(event->position().toPoint());
    if (item >= 0)
        emit itemClicked(item);
}

void ChartWidget::mouseMoveEvent(QMouseEvent* event)
{
    setHovered(itemAt(event->position().toPoint()));
    QWidget::mouseMoveEvent(event);
}

void ChartWidget::leaveEvent(QEvent* event)
{
    setHovered(-1);
    QWidget::leaveEvent(event);
}

void ChartWidget::setHovered(int item)
{
    if (item == m_hovered)
        return;
    m_hovered = item;
    hoverChanged(item);
}

void ChartWidget::hoverChanged(int) { update(); }

void ChartWidget::addContextActions(QMenu&, const QPoint&) { }

void ChartWidget::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    addContextActions(menu, event->pos());
    if (!menu.isEmpty())
        menu.addSeparator();
    menu.addAction(tr("Save image\u2026"), this,
        [this] { WidgetImage::saveWithDialog(this, objectName().isEmpty() ? QStringLiteral("chart") : objectName()); });
    menu.exec(event->globalPos());
}

} // namespace npuscope::gui
