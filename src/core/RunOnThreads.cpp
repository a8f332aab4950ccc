// SPDX-License-Identifier: Apache-2.0
#include "npuscope/core/RunOnThreads.h"

#include "npuscope/core/ThreadPriority.h"

#include <exception>
#include <thread>
#include <vector>

namespace npuscope {

void runOnThreads(std::size_t count, const std::function<void(std::size_t)>& body)
{
    std::vector<std::exception_ptr> errors(count);
    std::vector<std::thread> pool;
    for (std::size_t i = 0; i < count; ++i) {
        pool.emplace_back([&, i] {
            enterBackground();
            try {
                body(i);
            } catch (...) {
                errors[i] = std::current_exception();
            }
        });
    }
    for (auto& t : pool)
        t.join();
    for (const auto& e : errors) {
        if (e)
            std::rethrow_exception(e);
    }
}

std::size_t hardwareThreads()
{
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : n;
}

} // namespace npuscope
