// SPDX-License-Identifier: Apache-2.0
// HandOff (the two-thread pipeline CommQuery::forEachLink prints links through): every item consumed once, in order,
// on another thread, with no more items alive than its slots; a consumer exception reaches the producer; a producer
// that gives up (exception, destructor without finish) stops the consumer without hanging.
#include "npuscope/core/HandOff.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

using npuscope::HandOff;

TEST(HandOff, ConsumesEveryItemInOrderOnAnotherThread)
{
    std::vector<int> seen;
    std::atomic<bool> otherThread { true };
    const auto producer = std::this_thread::get_id();
    HandOff<std::vector<int>> pipe(2, [&](std::vector<int>& batch) {
        if (std::this_thread::get_id() == producer)
            otherThread = false;
        seen.insert(seen.end(), batch.begin(), batch.end());
        batch.clear();
    });
    std::vector<int> expected;
    for (int i = 0; i < 10000; ++i) {
        auto& batch = pipe.slot();
        EXPECT_LE(batch.size(), 6u); // a slot comes back cleared by the consumer
        batch.push_back(i);
        expected.push_back(i);
        if (i % 7 == 6)
            pipe.hand();
    }
    pipe.hand();
    pipe.hand(); // nothing taken since: no effect
    pipe.finish();
    EXPECT_EQ(seen, expected);
    EXPECT_TRUE(otherThread);
}

TEST(HandOff, NothingHandedFinishes)
{
    int calls = 0;
    HandOff<int> pipe(1, [&](int&) { ++calls; });
    pipe.finish();
    EXPECT_EQ(calls, 0);
}

TEST(HandOff, ConsumerExceptionStopsTheProducerAndIsRethrown)
{
    HandOff<int> pipe(2, [](int& v) {
        if (v == 3)
            throw std::runtime_error("bad item 3");
    });
    int produced = 0;
    EXPECT_THROW(
        {
            for (int i = 0; i < 1000; ++i) {
                pipe.slot() = i;
                pipe.hand();
                ++produced;
            }
        },
        HandOff<int>::Stopped);
    EXPECT_LT(produced, 1000);
    try {
        pipe.finish();
        FAIL() << "finish() did not rethrow";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "bad item 3");
    }
}

TEST(HandOff, DestroyedWithoutFinishStopsTheConsumer)
{
    std::atomic<int> consumed { 0 };
    {
        HandOff<int> pipe(3, [&](int&) { ++consumed; });
        for (int i = 0; i < 3; ++i) {
            pipe.slot() = i;
            pipe.hand();
        }
        // The producer "threw" here: no finish(); the destructor must return.
    }
    EXPECT_LE(consumed.load(), 3);
}
