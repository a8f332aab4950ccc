// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

class QTimer;

namespace npuscope::gui {

// Measures how long the GUI thread goes without returning to its event loop, the time a window looks frozen. A timer
// on the GUI thread stamps a heartbeat every kTickMs; the gap between two stamps beyond the tick is a stall. A watcher
// thread sees a heartbeat that is older than the threshold while the stall is still going on and records the GUI
// thread's stack then (SIGURG to that thread, backtrace() in the handler), so a report names the code that held it.
// Stalls over the threshold are logged (spdlog warn, with the stack) and kept for stalls().
// On in debug builds, in the tests and benchmarks, and wherever NPUSCOPE_STALL_WATCHDOG=1 (enabledByDefault()).
// Create and destroy on the GUI thread; at most one at a time (the signal handler is process-wide).
class StallWatchdog : public QObject {
    Q_OBJECT
public:
    static constexpr int kTickMs = 10;

    struct Stall {
        double ms = 0; // how long the GUI thread did not return to the event loop, beyond a tick
        QString stack; // the GUI thread's stack while it was stalled ("" when not captured)
    };

    // thresholdMs: stalls from this length are reported and kept.
    explicit StallWatchdog(int thresholdMs = 100, QObject* parent = nullptr);
    ~StallWatchdog() override;

    // Debug builds, or NPUSCOPE_STALL_WATCHDOG=1 (0 turns it off in a debug build).
    static bool enabledByDefault();

    // The longest gap seen since construction or reset(), ms (every gap, not only those over the threshold).
    double maxStallMs() const { return m_maxStallMs; }
    const std::vector<Stall>& stalls() const { return m_stalls; }
    void reset();

private:
    void tick();

    int m_thresholdMs;
    QTimer* m_timer;
    std::chrono::steady_clock::time_point m_last;
    double m_maxStallMs = 0;
    std::vector<Stall> m_stalls;
    // Shared with the watcher thread.
    struct Shared;
    std::shared_ptr<Shared> m_shared;
    std::thread m_watcher;
};

} // namespace npuscope::gui
