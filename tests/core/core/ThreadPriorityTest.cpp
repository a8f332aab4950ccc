// SPDX-License-Identifier: Apache-2.0
// Worker threads of a process with a window lower their own priority once; other threads and other processes'
// settings stay as they are.

#include "npuscope/core/RunOnThreads.h"
#include "npuscope/core/ThreadPriority.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <thread>

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace {

#if defined(__linux__)
int ownNice()
{
    errno = 0;
    return getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
}

TEST(ThreadPriority, WorkersLowerThemselvesOnceAndTheCallerStays)
{
    const int before = ownNice();
    npuscope::setBackgroundNice(3);
    int first = 0, second = 0, worker = 0;
    std::thread t([&] {
        const int start = ownNice();
        npuscope::enterBackground();
        first = ownNice() - start;
        npuscope::enterBackground(); // once per thread
        second = ownNice() - start;
    });
    t.join();
    npuscope::runOnThreads(1, [&](size_t) { worker = ownNice() - before; });
    npuscope::setBackgroundNice(0);
    // The kernel caps nice at 19: a test run at nice 17 or more sees less.
    const int room = 19 - before;
    EXPECT_EQ(first, std::min(3, room));
    EXPECT_EQ(second, first);
    EXPECT_EQ(worker, std::min(3, room)) << "runOnThreads' threads are background threads";
    EXPECT_EQ(ownNice(), before) << "the calling thread is never lowered";
}

TEST(ThreadPriority, OffByDefault)
{
    EXPECT_EQ(npuscope::backgroundNice(), 0);
    int change = -1;
    std::thread t([&] {
        const int start = ownNice();
        npuscope::enterBackground();
        change = ownNice() - start;
    });
    t.join();
    EXPECT_EQ(change, 0);
}
#endif

} // namespace
