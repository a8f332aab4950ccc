// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/detect/LoadPlan.h"

#include <span>
#include <string_view>
#include <vector>

namespace npuscope::io {

class ImportContext;

// A file kind's importer entry point: reads ctx.path() into ctx's model writer.
using ImporterFn = bool (*)(ImportContext&);

// Who writes the file (docs/formats.md).
enum class FileFamily { TorchNpu, MindSpore, Cann, MsprofAnalyze, ProfilerDb, Kineto, Npuscope };

// What the file's bytes are: the load sniffs the first bytes of unread JSON and CSV files (load::DeferredSniff).
enum class FileFormat { Json, Csv, Sqlite, Other };

// What the fuzz driver writes next to the fuzzed file before importing it (fixed contents in fuzz/FuzzTargets.cpp):
// the rank's profiler_metadata.json (its groups map a communication file's local ranks) or a CANN device's
// start_info (it places the device's timeline on the epoch clock).
enum class FuzzPrelude { None, ProfilerMetadata, CannStartInfo };

// How npuscope-fuzz fuzzes a kind: the input bytes are written as fileName (a path relative to the scratch folder)
// and imported by the kind's importer, then by alsoRun (other entry points of the same importer over the same bytes).
// A kind without a target of its own names the target that covers it (coveredBy) and why (coveredWhy).
struct FuzzSpec {
    const char* target = nullptr; // npuscope-fuzz target name (scripts/fuzz.sh TARGET)
    const char* fileName = nullptr;
    const char* seeds = nullptr; // file-name globs matched against tests/data (scripts/fuzz.sh)
    FuzzPrelude prelude = FuzzPrelude::None;
    std::vector<ImporterFn> alsoRun {};
    // Instead of the importer: fileName of the bytes is the only file of a fresh folder, which is detected and
    // loaded (a kind the loader reads without an importer of its own).
    bool viaLoad = false;
    const char* coveredBy = nullptr;
    const char* coveredWhy = nullptr;
};

// "<prefix><digits><suffix>", e.g. hccl_raw_<id>.csv.
struct NumberedName {
    const char* prefix;
    const char* suffix;
};

// Everything npuscope knows about one kind of input file, in one place: how a file is recognised by its name, what
// it is, when it is read and by what, how much memory its rows take, and how it is fuzzed. Detection (fileKindOf),
// the load plan (deferred groups), the loader (importers, order, lean and summary passes), the memory guard
// (weights), the deferred-file sniff (format) and the fuzz driver (targets) all read the table, so adding a kind is
// one entry here plus its importer. Kinds planned by a layout rather than by name (CANN PROF folders, the
// MindInsight rank table, Kineto traces found by content, a db export's timeline) have no names here; Detector plans
// them.
struct FileKindSpec {
    FileKind kind = FileKind::ProfilerInfo;
    const char* name = ""; // stable: rank_file.kind, summaries, cache keys
    FileFamily family = FileFamily::TorchNpu;
    FileFormat format = FileFormat::Other;
    const char* dataName = nullptr; // what the file gives, in messages ("step trace"); nullptr: the name
    // Recognition by file name, tried in table order: exact names, numbered names, then matches().
    std::vector<const char*> names {};
    std::vector<NumberedName> numbered {};
    bool (*matches)(std::string_view fileName) = nullptr;
    DeferredGroup deferred = kNoGroup; // kNoGroup: read with the summary of every rank
    bool facts = false; // facts about a rank (ids, groups, strategy), not its data
    ImporterFn importer = nullptr;
    const char* noImporter = nullptr; // why the kind has no importer (importer is nullptr)
    ImporterFn summaryPass = nullptr; // a deferred kind's cheap pass at summary time (memory_record's peaks)
    ImporterFn leanImporter = nullptr; // the importer in lean mode (load::MemoryGuard), nullptr: importer
    int importOrder = 2; // within a rank: lower first (profiler_info fills the rank row; timelines last)
    double memoryWeight = 2.0; // model bytes per input byte while importing (load::MemoryGuard)
    FuzzSpec fuzz {};
};

// The table: the built-in kinds, then any added with add().
class FileKinds {
public:
    // Every kind, built-ins first in recognition order. Any thread.
    static std::span<const FileKindSpec> all();
    // The kind's entry; nullptr for a value no entry has.
    static const FileKindSpec* find(FileKind kind);
    // The entry with this stable name; nullptr when none.
    static const FileKindSpec* byName(std::string_view name);
    // The first entry whose names recognise fileName (a file name, no folder); nullptr when none does.
    static const FileKindSpec* ofFileName(std::string_view fileName);
    // Adds a kind (a test's made-up one, a plug-in's): its value and name must be new. Entries are never removed;
    // at most a few dozen may be added. Call before the loads and fuzz runs that should see it; concurrent readers
    // see the table before or after the entry, never half of it.
    static void add(FileKindSpec spec);
    // True when spec's names recognise fileName.
    static bool recognises(const FileKindSpec& spec, std::string_view fileName);
};

} // namespace npuscope::io
