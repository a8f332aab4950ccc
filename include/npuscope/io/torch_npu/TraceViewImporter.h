// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace npuscope::io {

// Imports a Chrome trace event file (`trace_view.json` of torch_npu / MindSpore, msprof timelines)
// into the process, thread, slice, counter and flow tables (resources/schema.sql).
//
// The events array is cut into blocks of about 16 MB at element boundaries, and the blocks are
// parsed with simdjson On Demand on every core (each member and element is validated); their
// results are merged in file order, so the model is the one a single pass gives. Only a few blocks
// are in memory at a time; no DOM of the file is ever built, and the args of an "X" event are only
// validated and their byte range kept. Accepted shapes: a bare array of events, or
// {"traceEvents": [...]} (other shapes are parsed as one block). Times are converted from decimal
// µs text to int64 ns exactly (never through a double). A syntax error is reported with its byte
// offset, line and column in nlohmann::json's wording; the events before it are kept. Slices are
// kept as compact records until the end of the file, because nesting depth needs each (pid, tid)
// track sorted; they are then inserted in multi-row statements while a second thread sorts the flow
// points; flows (ph s/t/f) are paired by (cat, id) and bound to the enclosing slices. Counters are
// inserted on a second thread while parsing.
//
// The caller owns the transaction: wrap the call in ctx.writer().begin()/commit().
// Runs on the calling thread (with short-lived helper threads, which call ctx.cancelled() and
// ctx.onBytes() one at a time and never use the writer concurrently with the caller), never throws;
// problems become parse_issue rows through ctx.
class TraceViewImporter {
public:
    static constexpr std::size_t kBlockBytes = std::size_t(16) << 20;

    struct Options {
        // Added to every ts (ns): places a timeline written relative to its first event on an epoch base.
        int64_t tsOffsetNs = 0;
        // Names for processes and threads the file names nowhere (no ph "M" events); unset or nullopt
        // keeps them unnamed. Called on the importing thread.
        std::function<std::optional<std::string>(int64_t pid)> processName;
        std::function<std::optional<std::string>(int64_t pid, int64_t tid)> threadName;
        // Bytes per parallel block (about; cuts fall on element boundaries). Tests make it small.
        std::size_t blockBytes = kBlockBytes;
        // Parse threads; 0: one per hardware thread.
        std::size_t threads = 0;
    };

    // Imports ctx.file() for ctx.rankId(). Returns false when the file could not be read or parsed to
    // the end (an error issue was recorded) or the import was cancelled; whatever was parsed before a
    // syntax error is still inserted. Calls ctx.finish().
    static bool run(ImportContext& ctx);
    static bool run(ImportContext& ctx, const Options& options);

    // Benchmark floor: the whole file read into memory and one single-thread simdjson On Demand pass
    // that touches (validates) every member and element and materialises nothing.
    // Returns the number of bytes read, or nullopt when the file cannot be read or is not valid JSON.
    static std::optional<uint64_t> parseOnly(const std::string& path);
    // A lighter floor: the same pass visiting every key and value as its raw token (no unescaping, no number
    // check), i.e. simdjson's structural walk alone. Same return.
    static std::optional<uint64_t> walkRawOnly(const std::string& path);
};

} // namespace npuscope::io
