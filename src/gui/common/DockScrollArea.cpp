// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/DockScrollArea.h"

#include <QFontMetrics>
#include <QScrollBar>

namespace npuscope::gui {

DockScrollArea::DockScrollArea(QWidget* content, QWidget* parent)
    : QScrollArea(parent)
{
    setObjectName(QStringLiteral("dockScrollArea"));
    setFrameShape(QFrame::NoFrame);
    setWidgetResizable(true);
    // The content's widgets take the focus; the area itself is not a stop of the tab chain.
    setFocusPolicy(Qt::NoFocus);
    setWidget(content);
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
