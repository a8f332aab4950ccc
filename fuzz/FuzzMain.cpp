// SPDX-License-Identifier: Apache-2.0
// The libFuzzer driver: one executable for every target, chosen by NPUSCOPE_FUZZ_TARGET (scripts/fuzz.sh).
// NPUSCOPE_FUZZ_LIST=1 prints "name<TAB>max_len<TAB>seed globs" per target and exits (how fuzz.sh finds them);
// NPUSCOPE_FUZZ_WRITE_SEEDS=<dir> with the parse_cache target writes valid cache entries there and exits.
#include "CacheEntryFuzzer.h"
#include "FuzzTarget.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace {
const npuscope::fuzz::FuzzTarget* g_target = nullptr;
}

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    using namespace npuscope::fuzz;
    if (std::getenv("NPUSCOPE_FUZZ_LIST")) {
        for (const auto& t : fuzzTargets())
            std::printf("%s\t%zu\t%s\n", t.name, t.maxLen, t.seeds);
        std::exit(0);
    }
    const char* name = std::getenv("NPUSCOPE_FUZZ_TARGET");
    g_target = name ? findFuzzTarget(name) : nullptr;
    if (!g_target) {
        std::fprintf(stderr, "set NPUSCOPE_FUZZ_TARGET to one of:");
        for (const auto& t : fuzzTargets())
            std::fprintf(stderr, " %s", t.name);
        std::fprintf(stderr, "\n");
        std::exit(2);
    }
    if (const char* dir = std::getenv("NPUSCOPE_FUZZ_WRITE_SEEDS"); dir && std::string_view(name) == "parse_cache") {
        CacheEntryFuzzer::instance().writeSeeds(dir);
        std::exit(0);
    }
    // Importers log what they skip; at fuzzing speed that is only noise.
    spdlog::set_level(spdlog::level::off);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    g_target->run(data, size);
    return 0;
}
