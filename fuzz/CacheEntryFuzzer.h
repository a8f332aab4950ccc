// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/detect/LoadPlan.h"
#include "npuscope/load/ParseCache.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace npuscope::fuzz {

// Feeds fuzzed bytes to the parse-cache reader the way a damaged or foreign cache file would reach it: a small rank
// folder is loaded once into a private cache folder, which finds the names of its entries (summary, full model,
// each deferred group); every run overwrites those entries with the input and loads the folder again, either in one
// go (the full-model entry is read first) or summary first and then the deferred groups (per-group entries merged).
// One thread at a time.
class CacheEntryFuzzer {
public:
    static CacheEntryFuzzer& instance();
    void run(const uint8_t* data, size_t size);
    // Copies the valid entries the first load stored into dir (seeds for the corpus).
    void writeSeeds(const std::filesystem::path& dir) const;

private:
    CacheEntryFuzzer();
    std::filesystem::path m_cacheDir;
    io::LoadPlan m_plan;
    load::ParseCache m_cache;
    std::vector<std::filesystem::path> m_entries;
};

} // namespace npuscope::fuzz
