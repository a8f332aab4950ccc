// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <functional>

namespace npuscope {

// Runs body(i) for i in [0, count) on count threads and waits for them; the first exception (a model failure, not bad
// input: importers report those as parse issues) is rethrown on the caller's thread. Any thread may call.
void runOnThreads(std::size_t count, const std::function<void(std::size_t)>& body);

// Threads worth using for CPU-bound work on this machine (at least 1).
std::size_t hardwareThreads();

} // namespace npuscope
