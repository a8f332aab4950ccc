// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/DeferredReload.h"

#include <QDockWidget>
#include <QEvent>
#include <QTimer>
#include <QWidget>

namespace npuscope::gui {

DeferredReload::DeferredReload(QWidget* widget, std::function<void()> reload)
    : QObject(widget)
    , m_widget(widget)
    , m_reload(std::move(reload))
{
    widget->installEventFilter(this);
    // A dock behind another tab of its group is "visible" to Qt (isVisible() is true, it is merely covered): its tab
    // being chosen is told by visibilityChanged, not by a Show event.
    for (QWidget* w = widget; w; w = w->parentWidget()) {
        if (auto* dock = qobject_cast<QDockWidget*>(w)) {
            connect(dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
                if (visible)
                    recheckSoon();
            });
            break;
        }
    }
}

bool DeferredReload::mustWait() const
{
    if (m_alwaysRun || !m_widget->window()->isVisible())
        return false;
    // Hidden, or covered (a background tab's dock keeps isVisible() but has no visible region).
    return !m_widget->isVisible() || m_widget->visibleRegion().isEmpty();
}

void DeferredReload::request()
{
    if (mustWait()) {
        m_pending = true;
        // A view in front whose region is not laid out yet (the window's layout is applied from the event loop)
        // must not wait for a tab change: look again once the layout has run.
        recheckSoon();
        return;
    }
    m_pending = false;
    m_reload();
}

void DeferredReload::recheckSoon()
{
    if (m_recheckQueued)
        return;
    m_recheckQueued = true;
    QTimer::singleShot(0, this, [this] {
        m_recheckQueued = false;
        if (m_pending && !mustWait()) {
            m_pending = false;
            m_reload();
        }
    });
}

bool DeferredReload::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_widget && m_pending
        && (event->type() == QEvent::Show || event->type() == QEvent::Resize || event->type() == QEvent::Move))
        recheckSoon();
    return QObject::eventFilter(watched, event);
}

} // namespace npuscope::gui
