// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/detect/LoadPlan.h"

#include "npuscope/core/EnumNames.h"
#include "npuscope/io/detect/FileKinds.h"

#include <string_view>

namespace npuscope::io {

namespace {
constexpr std::string_view kImportedPrefix = "rank_";
constexpr std::string_view kImportedSuffix = ".nprank";
} // namespace

const char* fileKindName(FileKind kind)
{
    const auto* spec = FileKinds::find(kind);
    return spec ? spec->name : "unknown";
}

DeferredGroup deferredGroupOf(FileKind k)
{
    const auto* spec = FileKinds::find(k);
    return spec ? spec->deferred : kNoGroup;
}

bool isReadAtSummary(FileKind k)
{
    const auto* spec = FileKinds::find(k);
    return !spec || spec->deferred == kNoGroup || spec->summaryPass != nullptr;
}

const char* deferredGroupName(DeferredGroup group)
{
    static constexpr EnumName<DeferredGroup> kNames[] { { kTimelineGroup, "timeline" }, { kKernelsGroup, "kernels" },
        { kMemoryGroup, "memory" } };
    return nameOf(kNames, group, "none");
}

std::string importedRankFileName(int64_t rank)
{
    return std::string(kImportedPrefix) + std::to_string(rank) + std::string(kImportedSuffix);
}

std::optional<int64_t> importedRankOf(const std::string& fileName)
{
    const std::string_view name(fileName);
    if (name.size() <= kImportedPrefix.size() + kImportedSuffix.size() || !name.starts_with(kImportedPrefix)
        || !name.ends_with(kImportedSuffix))
        return std::nullopt;
    const auto digits
        = name.substr(kImportedPrefix.size(), name.size() - kImportedPrefix.size() - kImportedSuffix.size());
    if (digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string_view::npos)
        return std::nullopt;
    return std::stoll(std::string(digits));
}

bool fileKindFromName(const std::string& name, FileKind& kind)
{
    const auto* spec = FileKinds::byName(name);
    if (spec)
        kind = spec->kind;
    return spec != nullptr;
}

bool fileKindOf(const std::string& fileName, FileKind& kind)
{
    const auto* spec = FileKinds::ofFileName(fileName);
    if (spec)
        kind = spec->kind;
    return spec != nullptr;
}

uint64_t LoadPlan::totalBytes() const
{
    uint64_t total = 0;
    for (const auto& r : ranks) {
        for (const auto& f : r.files)
            total += f.size;
    }
    return total;
}

namespace {

using Layout = LoadPlan::Layout;

constexpr EnumName<Layout> kLayoutNames[] { { Layout::Empty, "empty" }, { Layout::SingleRank, "single rank" },
    { Layout::Cluster, "cluster" }, { Layout::Mixed, "mixed" } };

} // namespace

const char* LoadPlan::layoutName() const { return nameOf(kLayoutNames, layout, "empty"); }

} // namespace npuscope::io
