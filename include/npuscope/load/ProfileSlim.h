// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace npuscope::load {

// A copy of a profile with only the files npuscope reads for some views (`npuscope-cli slim`), for moving a large
// cluster's output to a laptop. The files come from the detector's plan of the source (io::Detector), so the copy
// holds exactly what a load of the source would read: every file of the summary (io::isReadAtSummary: step trace,
// communication, statistics, metadata, memory_record.csv for the memory peaks, db exports) and, by Keep, the
// deferred groups (io::DeferredGroup) of the chosen ranks. The folder layout below the source is kept, and each copy
// keeps its file's modification time (detection prefers the newest of several runs by it).
class ProfileSlim {
public:
    enum class Keep {
        Summary, // the cluster views only
        Timeline, // plus the timeline group of the chosen ranks
        All, // plus every deferred group (timeline, kernels, memory) of the chosen ranks
    };
    struct Options {
        std::string source;
        std::string destination; // created; must be missing or empty, and neither inside the source nor around it
        Keep keep = Keep::Summary;
        std::optional<std::set<int64_t>> ranks; // ranks whose deferred files are kept; nullopt = every rank
    };
    struct Result {
        std::string error; // empty on success; nothing was copied when set before copying started
        uint64_t sourceBytes = 0; // every regular file under the source
        uint64_t copiedBytes = 0;
        uint64_t sourceFiles = 0;
        uint64_t copiedFiles = 0;
        std::vector<std::string> warnings; // files that could not be copied, detection problems
    };

    // Parses "summary" | "timeline" | "all"; false for anything else.
    static bool keepFromName(const std::string& name, Keep& keep);

    // The source paths (absolute) a slim copy of these options keeps, by the source's plan. Read-only.
    static std::vector<std::string> filesToKeep(const Options& options, std::vector<std::string>* warnings = nullptr);

    // Copies them. Never writes under the source. Any thread.
    static Result run(const Options& options);
};

} // namespace npuscope::load
