// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/DeferredReload.h"

#include <QEvent>
#include <QWidget>

namespace npuscope::gui {

DeferredReload::DeferredReload(QWidget* widget, std::function<void()> reload)
    : QObject(widget)
    , m_widget(widget)
    , m_reload(std::move(reload))
{
    widget->installEventFilter(this);
}

bool DeferredReload::mustWait() const { return !m_widget->isVisible() && m_widget->window()->isVisible(); }

void DeferredReload::request()
{
    if (mustWait()) {
        m_pending = true;
        return;
    }
    m_pending = false;
    m_reload();
}

bool DeferredReload::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_widget && event->type() == QEvent::Show && m_pending) {
        m_pending = false;
        m_reload();
    }
    return QObject::eventFilter(watched, event);
}

} // namespace npuscope::gui
