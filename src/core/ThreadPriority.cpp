// SPDX-License-Identifier: Apache-2.0
#include "npuscope/core/ThreadPriority.h"

#include <atomic>
#include <cerrno>

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace npuscope {

namespace {

std::atomic<int> g_increment { 0 };
thread_local bool t_lowered = false;

} // namespace

void setBackgroundNice(int increment) { g_increment.store(increment < 0 ? 0 : increment); }

int backgroundNice() { return g_increment.load(); }

void enterBackground()
{
    const int increment = g_increment.load();
    if (increment == 0 || t_lowered)
        return;
    t_lowered = true;
#if defined(__linux__)
    // On Linux a thread is a task with its own nice value: PRIO_PROCESS with the thread id sets this thread's only.
    // Raising one's own nice needs no privilege; failure leaves the thread as it was (nothing depends on it).
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, tid);
    if (errno == 0)
        setpriority(PRIO_PROCESS, tid, current + increment);
#endif
}

} // namespace npuscope
