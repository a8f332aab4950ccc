// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>

#include <functional>

class QWidget;

namespace npuscope::gui {

// "Dirty when hidden, re-query when shown" for one view: request() runs the reload now, unless the widget is
// hidden in a visible window (a dock in a background tab), in which case the reload runs when the widget is
// next shown. Before the window is first shown (and in tests without a window) reloads run at once.
// Owned by (a child of) the widget. GUI thread only.
class DeferredReload : public QObject {
    Q_OBJECT
public:
    DeferredReload(QWidget* widget, std::function<void()> reload);

    void request();
    // request() would wait: the widget is hidden in a visible window.
    bool mustWait() const;
    // A reload waits for the widget to be shown.
    bool isPending() const { return m_pending; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* m_widget;
    std::function<void()> m_reload;
    bool m_pending = false;
};

} // namespace npuscope::gui
