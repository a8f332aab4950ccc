// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <string_view>
#include <vector>

namespace npuscope::fuzz {

// One fuzzed entry point: an importer's public run function fed a file holding the input bytes, the CSV reader,
// detection over a folder description, a whole load of such a folder, or the parse-cache reader. The same entry
// functions run under libFuzzer (fuzz/FuzzMain.cpp, NPUSCOPE_FUZZ=ON) and in the normal test build, where
// FuzzRegression.* replays every file of tests/data/fuzz-regressions through every target.
struct FuzzTarget {
    const char* name; // scripts/fuzz.sh TARGET
    // Runs the entry point on data. Never throws; a crash, sanitizer report or hang is a finding.
    // One call at a time per process (the targets share a scratch folder).
    std::function<void(const uint8_t* data, size_t size)> run;
    // Seed files for the corpus: space-separated file-name globs matched against tests/data (scripts/fuzz.sh),
    // or "@folders" (folder descriptions derived from each tests/data case) or "@cache" (parse-cache entries).
    const char* seeds;
    // Largest input scripts/fuzz.sh lets libFuzzer build (bytes).
    size_t maxLen;
};

// Every target, in a fixed order: the CSV reader, a target per file kind that has one (io::FileKinds, so a kind added
// to the table is fuzzed without an edit here), detection, whole loads, the parse cache. The list only grows (a kind
// added after the first call is appended); references stay valid.
const std::deque<FuzzTarget>& fuzzTargets();

// The target named name, or nullptr.
const FuzzTarget* findFuzzTarget(std::string_view name);

} // namespace npuscope::fuzz
