// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/StallWatchdog.h"

#include <QTimer>

#include <spdlog/spdlog.h>

#include <cxxabi.h>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>

#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <string>

namespace npuscope::gui {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kMaxFrames = 48;

// What the signal handler writes: only the frames of one capture, read by the watcher once count is set.
struct Capture {
    void* frames[kMaxFrames];
    std::atomic<int> count { -1 };
};
Capture g_capture;

void captureStack(int)
{
    const int n = backtrace(g_capture.frames, kMaxFrames);
    g_capture.count.store(n, std::memory_order_release);
}

int64_t nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

// One frame of backtrace_symbols ("binary(mangled+0x12) [0xaddr]") with the function demangled.
std::string demangledFrame(const char* symbol)
{
    std::string line(symbol);
    const auto open = line.find('(');
    const auto plus = line.find('+', open == std::string::npos ? 0 : open);
    if (open == std::string::npos || plus == std::string::npos || plus <= open + 1)
        return line;
    const std::string mangled = line.substr(open + 1, plus - open - 1);
    int status = 0;
    char* name = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
    if (status != 0 || !name)
        return line;
    std::string out = line.substr(0, open + 1) + name + line.substr(plus);
    std::free(name);
    return out;
}

} // namespace

struct StallWatchdog::Shared {
    std::atomic<int64_t> heartbeatNs { 0 };
    std::atomic<bool> stop { false };
    std::mutex mutex;
    std::condition_variable wake;
    int64_t stackHeartbeat = -1; // the heartbeat the stack below was taken after
    std::string stack;
};

bool StallWatchdog::enabledByDefault()
{
    if (const char* env = std::getenv("NPUSCOPE_STALL_WATCHDOG"); env && *env)
        return std::strcmp(env, "0") != 0;
#ifdef NDEBUG
    return false;
#else
    return true;
#endif
}

StallWatchdog::StallWatchdog(int thresholdMs, QObject* parent)
    : QObject(parent)
    , m_thresholdMs(thresholdMs)
    , m_timer(new QTimer(this))
    , m_last(Clock::now())
    , m_shared(std::make_shared<Shared>())
{
    // backtrace() loads libgcc on its first call, which is not safe inside a signal handler: call it once here.
    void* warm[2];
    backtrace(warm, 2);
    struct sigaction action { };
    action.sa_handler = captureStack;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(SIGURG, &action, nullptr);

    m_shared->heartbeatNs = nowNs();
    m_timer->setTimerType(Qt::PreciseTimer);
    m_timer->setInterval(kTickMs);
    connect(m_timer, &QTimer::timeout, this, &StallWatchdog::tick);
    m_timer->start();

    const pthread_t gui = pthread_self();
    m_watcher = std::thread([shared = m_shared, gui, thresholdNs = int64_t(thresholdMs) * 1000000] {
        int64_t captured = -1;
        std::unique_lock lock(shared->mutex);
        while (!shared->stop) {
            shared->wake.wait_for(lock, std::chrono::milliseconds(kTickMs));
            if (shared->stop)
                break;
            const int64_t beat = shared->heartbeatNs.load();
            if (beat == captured || nowNs() - beat < thresholdNs)
                continue;
            // The GUI thread has not come back for the threshold: take its stack now, once per stall.
            captured = beat;
            lock.unlock();
            g_capture.count.store(-1);
            pthread_kill(gui, SIGURG);
            int n = -1;
            for (int i = 0; i < 100 && (n = g_capture.count.load(std::memory_order_acquire)) < 0; ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            std::string text;
            if (n > 0) {
                char** symbols = backtrace_symbols(g_capture.frames, n);
                // Frame 0 is the handler, 1 the signal trampoline.
                for (int i = 2; symbols && i < n; ++i)
                    text += "  " + demangledFrame(symbols[i]) + "\n";
                std::free(symbols);
            }
            lock.lock();
            shared->stackHeartbeat = beat;
            shared->stack = std::move(text);
        }
    });
}

StallWatchdog::~StallWatchdog()
{
    m_shared->stop = true;
    m_shared->wake.notify_all();
    if (m_watcher.joinable())
        m_watcher.join();
    struct sigaction action { };
    action.sa_handler = SIG_IGN;
    sigemptyset(&action.sa_mask);
    sigaction(SIGURG, &action, nullptr);
}

void StallWatchdog::reset()
{
    m_maxStallMs = 0;
    m_stalls.clear();
    m_last = Clock::now();
}

void StallWatchdog::tick()
{
    const auto now = Clock::now();
    const double gapMs = std::chrono::duration<double, std::milli>(now - m_last).count() - kTickMs;
    const int64_t previousBeat = m_shared->heartbeatNs.load();
    m_last = now;
    m_shared->heartbeatNs = nowNs();
    if (gapMs > m_maxStallMs)
        m_maxStallMs = gapMs;
    if (gapMs < m_thresholdMs)
        return;
    Stall stall;
    stall.ms = gapMs;
    {
        std::lock_guard lock(m_shared->mutex);
        if (m_shared->stackHeartbeat == previousBeat)
            stall.stack = QString::fromStdString(m_shared->stack);
    }
    spdlog::warn("GUI thread stalled for {:.0f} ms{}{}", gapMs, stall.stack.isEmpty() ? "" : " in:\n",
        stall.stack.toStdString());
    m_stalls.push_back(std::move(stall));
}

} // namespace npuscope::gui
