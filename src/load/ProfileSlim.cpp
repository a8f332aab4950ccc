// SPDX-License-Identifier: Apache-2.0
#include "npuscope/load/ProfileSlim.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/FolderRules.h"

#include <algorithm>
#include <filesystem>
#include <string_view>

namespace fs = std::filesystem;

namespace npuscope::load {

namespace {

io::DeferredGroups groupsOf(ProfileSlim::Keep keep)
{
    switch (keep) {
    case ProfileSlim::Keep::Summary:
        return io::kNoGroup;
    case ProfileSlim::Keep::Timeline:
        return io::kTimelineGroup;
    case ProfileSlim::Keep::All:
        return io::kAllGroups;
    }
    return io::kNoGroup;
}

bool startsWith(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

// Small files that detection or an importer reads beside the planned files without planning them: MindInsight's
// hccl.json and host_ips_mapping.txt (io::MindSporeLayout, MindSporeRankTableImporter), old MindSpore's
// ascend_cluster_analyse_*.csv (MindSporeStepTraceImporter) and min_cycle_counter_{id}.txt (MindSporeTimelineImporter),
// CANN's start_info.N / end_info.N / info.json.N (CannProfImporter).
bool isCompanion(const std::string& name)
{
    return name == "hccl.json" || name == "host_ips_mapping.txt"
        || (startsWith(name, "ascend_cluster_analyse_") && name.ends_with(".csv"))
        || (startsWith(name, "min_cycle_counter_") && name.ends_with(".txt")) || startsWith(name, "start_info.")
        || startsWith(name, "end_info.") || startsWith(name, "info.json.");
}

} // namespace

bool ProfileSlim::keepFromName(const std::string& name, Keep& keep)
{
    if (name == "summary")
        keep = Keep::Summary;
    else if (name == "timeline")
        keep = Keep::Timeline;
    else if (name == "all")
        keep = Keep::All;
    else
        return false;
    return true;
}

std::vector<std::string> ProfileSlim::filesToKeep(const Options& options, std::vector<std::string>* warnings)
{
    const auto plan = io::Detector::detect({ resolvedPath(options.source).string() });
    if (warnings) {
        for (const auto& i : plan.issues) {
            if (i.severity != "info")
                warnings->push_back(i.severity + ": " + i.path + ": " + i.message);
        }
    }
    const io::DeferredGroups groups = groupsOf(options.keep);
    std::vector<std::string> files;
    for (const auto& rank : plan.ranks) {
        const bool chosen = !options.ranks || options.ranks->count(rank.rank);
        for (const auto& f : rank.files) {
            if (io::isReadAtSummary(f.kind) || (chosen && (io::deferredGroupOf(f.kind) & groups) != 0))
                files.push_back(f.path);
        }
    }
    // Their companions, wherever they are below the source (they are tiny).
    std::error_code ec;
    for (fs::recursive_directory_iterator
             it(resolvedPath(options.source), fs::directory_options::skip_permission_denied, ec),
         end;
         !ec && it != end; it.increment(ec)) {
        std::error_code e2;
        if (it->is_regular_file(e2) && isCompanion(it->path().filename().string()))
            files.push_back(it->path().string());
    }
    std::sort(files.begin(), files.end());
    files.erase(std::unique(files.begin(), files.end()), files.end()); // a db export is planned twice
    return files;
}

ProfileSlim::Result ProfileSlim::run(const Options& options)
{
    Result result;
    const fs::path src = resolvedPath(options.source);
    const fs::path dst = resolvedPath(options.destination);
    std::error_code ec;
    if (!fs::is_directory(src, ec)) {
        result.error = "source is not a folder: " + options.source;
        return result;
    }
    if (isInsideFolder(dst, src)) {
        result.error = "refusing: the destination " + dst.string() + " is inside the source " + src.string();
        return result;
    }
    if (isInsideFolder(src, dst)) {
        result.error = "refusing: the source " + src.string() + " is inside the destination " + dst.string();
        return result;
    }
    if (fs::exists(dst, ec) && !(fs::is_directory(dst, ec) && fs::is_empty(dst, ec))) {
        result.error = "refusing: the destination " + dst.string() + " exists and is not an empty folder";
        return result;
    }
    for (fs::recursive_directory_iterator it(src, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec)) {
        std::error_code e2;
        if (it->is_regular_file(e2)) {
            result.sourceBytes += it->file_size(e2);
            ++result.sourceFiles;
        }
    }
    const auto files = filesToKeep(options, &result.warnings);
    if (files.empty()) {
        result.error = "nothing npuscope reads was found in " + src.string();
        return result;
    }
    for (const auto& file : files) {
        const fs::path from(file);
        const fs::path rel = from.lexically_relative(src);
        if (rel.empty() || *rel.begin() == "..") {
            result.warnings.push_back("not below the source, not copied: " + file);
            continue;
        }
        const fs::path to = dst / rel;
        std::error_code e;
        fs::create_directories(to.parent_path(), e);
        if (!e)
            fs::copy_file(from, to, fs::copy_options::overwrite_existing, e);
        if (e) {
            result.error = "cannot copy " + file + " to " + to.string() + ": " + e.message();
            return result;
        }
        fs::last_write_time(to, fs::last_write_time(from, e), e);
        result.copiedBytes += fs::file_size(to, e);
        ++result.copiedFiles;
    }
    return result;
}

} // namespace npuscope::load
