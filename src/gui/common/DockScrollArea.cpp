// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/DockScrollArea.h"

#include <QEvent>
#include <QFontMetrics>
#include <QLayout>
#include <QScrollBar>

#include <algorithm>

namespace npuscope::gui {

DockScrollArea::DockScrollArea(QWidget* content, QWidget* parent)
    : QScrollArea(parent)
{
    setObjectName(QStringLiteral("dockScrollArea"));
    setFrameShape(QFrame::NoFrame);
    setWidgetResizable(false); // fitContent sizes the content
    // The content's widgets take the focus; the area itself is not a stop of the tab chain.
    setFocusPolicy(Qt::NoFocus);
    setWidget(content);
    content->installEventFilter(this);
    fitContent();
}

void DockScrollArea::resizeEvent(QResizeEvent* event)
{
    QScrollArea::resizeEvent(event);
    fitContent();
}

bool DockScrollArea::eventFilter(QObject* watched, QEvent* event)
{
    // The content's layout changed (a label's text, a widget shown or hidden): its minimum may have too.
    if (watched == widget() && event->type() == QEvent::LayoutRequest)
        fitContent();
    return QScrollArea::eventFilter(watched, event);
}

int DockScrollArea::minimumHeightAt(int width) const
{
    const QWidget* content = widget();
    const QLayout* layout = content->layout();
    const int floor = content->minimumSize().height();
    if (layout && layout->hasHeightForWidth())
        return std::max(floor, layout->totalMinimumHeightForWidth(width));
    return std::max(floor, content->minimumSizeHint().height());
}

void DockScrollArea::fitContent()
{
    QWidget* content = widget();
    if (!content || m_fitting)
        return;
    m_fitting = true;
    // The viewport without scroll bars; a bar that becomes necessary takes its room from the other direction.
    const QSize room = maximumViewportSize();
    const QSize minimum = content->minimumSizeHint().expandedTo(content->minimumSize());
    const int barWidth = verticalScrollBar()->sizeHint().width();
    const int barHeight = horizontalScrollBar()->sizeHint().height();
    int width = std::max(room.width(), minimum.width());
    int height = std::max(room.height() - (width > room.width() ? barHeight : 0), minimumHeightAt(width));
    if (height > room.height() - (width > room.width() ? barHeight : 0)) {
        // Scrolls vertically: the bar narrows the viewport.
        width = std::max(room.width() - barWidth, minimum.width());
        const int available = room.height() - (width > room.width() - barWidth ? barHeight : 0);
        height = std::max(available, minimumHeightAt(width));
    }
    if (content->size() != QSize(width, height))
        content->resize(width, height);
    m_fitting = false;
}

QSize DockScrollArea::sizeHint() const
{
    // QScrollArea caps its hint at 36 × 24 lines of text; a dock asks for what its content would like.
    return widget() ? widget()->sizeHint() : QScrollArea::sizeHint();
}

QSize DockScrollArea::minimumSizeHint() const
{
    // Room for a toolbar row and a few lines of a table or chart; below that the content scrolls.
    const int line = fontMetrics().height();
    const QSize floor(24 * line, 7 * line);
    const QSize content = widget() ? widget()->minimumSizeHint() : QSize();
    return content.isValid() ? content.boundedTo(floor) : floor;
}

} // namespace npuscope::gui
