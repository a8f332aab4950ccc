// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace npuscope::io {

// Imports a PyTorch profiler (Kineto) GPU trace (`*.pt.trace.json`, `*.pt.trace.json.gz`, one file per rank) into
// the same tables as an Ascend rank, so the timeline, operator, step and communication views work on it:
//  - every complete event (ph X) with integer pid / tid -> `slice` (args as JSON text; nesting by SliceTracker),
//    ph M process / thread names -> `process` / `thread`;
//  - GPU activities (cat kernel, gpu_memcpy, gpu_memset) -> `kernel`: Type = the innermost cpu_op enclosing the
//    runtime call that launched it (same correlation id), accelerator_core = KinetoKernelClass, step = the
//    ProfilerStep#N range holding that runtime call (as PyTorch's tools attribute GPU work);
//  - NCCL kernels -> `comm_op` (elapse = kernel duration; transit and wait are not in the trace);
//  - per step -> `step_trace`, from the GPU activities of the step (docs/metrics.md, "Kineto step breakdown");
//    a trace without ProfilerStep markers is one step with no number;
//  - launch -> GPU activity arrows (correlation id) -> `flow` (cat ac2g); the trace's own flow events (ph s / t / f,
//    e.g. cat fwdbwd: forward op -> backward op) -> `flow`, paired by FlowTracker per category and id and bound to
//    the innermost slice holding each point (the ac2g / async_cpu_to_gpu events are not read: rebuilt as above);
//  - "[memory]" instant events of a GPU (profile_memory=True) -> `memory_record` (component PTA: PyTorch's caching
//    allocator; Total Allocated / Total Reserved bytes -> MB of 2^20 bytes; device "GPU:<Device Id>") and their
//    `memory_peak` rows; CPU samples (Device Type 0) are counted in an info issue.
// The file is decompressed and parsed as a stream (zlib + nlohmann SAX, one event object at a time), never held
// whole. Times: µs as written (integers or decimal text) -> ns exactly. The caller owns the transaction.
// Runs on the calling thread; never throws; problems become parse_issue rows through ctx.
class KinetoTraceImporter {
public:
    // What detection reads from the start of a Kineto trace.
    struct Header {
        std::optional<int64_t> rank; // distributedInfo.rank
        std::optional<int64_t> worldSize; // distributedInfo.world_size
    };
    // Header of the file when its first prefixBytes decompressed bytes are a JSON object with one of Kineto's
    // top-level keys (schemaVersion, deviceProperties, distributedInfo) before traceEvents; nullopt otherwise.
    static std::optional<Header> sniff(const std::string& path, std::size_t prefixBytes);

    // Imports ctx.file() for ctx.rankId(). False when the file could not be read or parsed to the end (an error
    // issue says where) or the import was cancelled; what was parsed before an error is still written.
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io
