// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/compare/RunComparison.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace npuscope::query {

// The "npuscope.diff/1" document of a RunDiff (stable contract: fields are added, never renamed). Times in ms, a
// value one side lacks is null. Keys: "schema"; "base" / "new" {path, ranks, step, step_count, kernel_ranks};
// "cluster" and each "ranks[]" entry ({rank, new_rank}) hold "base", "new", "delta" and "delta_pct" objects with
// step_ms, computing_ms, communication_not_overlapped_ms, overlapped_ms, free_ms, bubble_ms, preparing_ms;
// "unmatched_ranks" {base: [...], new: [...]}; "categories[]" {category, base_ms, new_ms, delta_ms, base_count,
// new_count}; "types[]" and "kernels[]" {name, category, base_ms, new_ms, delta_ms, base_count, new_count} (the top
// K by |delta_ms|; top 0 = all); "unmapped_kernels[]" the same, every GPU kernel no category rule matched;
// "communication[]" {op_type, group, base_/new_/delta_ count, elapse_ms, transit_ms, wait_ms, bandwidth_gbps};
// "memory[]" {rank, base_peak_mb, new_peak_mb, delta_mb}; "memory_operators[]" {rank, name, base_mb, new_mb, delta_mb,
// base_count, new_count}, the top K (MemoryOperatorDiff) by |delta_mb|. Pure functions, any thread.
class DiffReport {
public:
    static nlohmann::ordered_json json(
        const RunDiff& diff, const std::string& basePath, const std::string& newPath, std::size_t top);
    // The lines a person needs first ("step +12.4 % (+38.1 ms): computing +31.0 ms, of which aten::mm +27.2 ms on
    // all ranks; ..."), then the cluster, per-rank, category, kernel, communication and memory tables.
    static std::string text(
        const RunDiff& diff, const std::string& basePath, const std::string& newPath, std::size_t top);
    // The headline alone (first line of text()).
    static std::string headline(const RunDiff& diff);
    // When the two inputs were collected at different profiler levels (e.g. Level0 against Level1), a sentence that
    // says so and what it does to the comparison; empty when the levels agree or either is unknown.
    static std::string levelNote(const RunDiff& diff);
};

} // namespace npuscope::query
