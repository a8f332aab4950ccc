// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>

#include <functional>

class QWidget;

namespace npuscope::gui {

// "Dirty when hidden, re-query when shown" for one view: request() runs the reload now, unless the widget cannot be
// seen in a visible window (hidden, or a dock in a background tab: Qt keeps those isVisible(), merely covered, so
// the test is an empty visible region), in which case the reload runs when the widget can next be seen (shown, its
// dock's tab chosen, laid out). Before the window is first shown (and in tests without a window) reloads run at once.
// Every view of a 1,024-rank cluster querying at open, behind its tab, made the window's views ready 6x slower than
// the engine (issue 36).
// Owned by (a child of) the widget. GUI thread only.
class DeferredReload : public QObject {
    Q_OBJECT
public:
    DeferredReload(QWidget* widget, std::function<void()> reload);

    void request();
    // request() would wait: the widget cannot be seen in a visible window.
    bool mustWait() const;
    // A reload waits for the widget to be shown.
    bool isPending() const { return m_pending; }
    // Never wait: a view whose result others lead with (Advice: the status bar and the Overview show its top finding)
    // runs while hidden too.
    void setAlwaysRun(bool always) { m_alwaysRun = always; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // Looks again from the event loop whether a pending reload can run.
    void recheckSoon();

    QWidget* m_widget;
    std::function<void()> m_reload;
    bool m_pending = false;
    bool m_recheckQueued = false;
    bool m_alwaysRun = false;
};

} // namespace npuscope::gui
