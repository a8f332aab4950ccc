// SPDX-License-Identifier: Apache-2.0
#include "npuscope/load/MemoryGuard.h"

#include "npuscope/model/RankFileTable.h"

#include "npuscope/core/TranslationMarker.h"
#include "npuscope/io/detect/FileKinds.h"
#include "npuscope/io/parse/IssueText.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <sys/resource.h>
#include <unistd.h>

namespace npuscope::load {

using namespace io;

namespace {

// Bytes of memory per input byte while a file of this kind is imported and its rows held in the model: its
// FileKinds entry's memoryWeight (io/detect/FileKinds.cpp says where each weight comes from).
double bytesPerInputByte(FileKind kind)
{
    const auto* spec = FileKinds::find(kind);
    return spec ? spec->memoryWeight : 2.0;
}

std::optional<uint64_t> readNumber(const char* path)
{
    std::ifstream in(path);
    std::string text;
    if (!(in >> text) || text == "max")
        return std::nullopt;
    try {
        return std::stoull(text);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::optional<uint64_t> memAvailable()
{
    std::ifstream in("/proc/meminfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("MemAvailable:", 0) == 0) {
            std::istringstream fields(line.substr(13));
            uint64_t kib = 0;
            if (fields >> kib)
                return kib * 1024;
        }
    }
    return std::nullopt;
}

std::string gib(uint64_t bytes)
{
    char buf[32];
    if (bytes < (1ull << 30))
        std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
    else
        std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
    return buf;
}

} // namespace

uint64_t MemoryGuard::estimate(const LoadPlan& plan, bool timelines, DeferredGroups groups)
{
    double bytes = 0;
    for (const auto& r : plan.ranks) {
        for (const auto& f : r.files) {
            if (isReadAtSummary(f.kind) || (timelines && (deferredGroupOf(f.kind) & groups) != 0))
                bytes += static_cast<double>(f.size) * bytesPerInputByte(f.kind);
        }
    }
    return static_cast<uint64_t>(bytes);
}

uint64_t MemoryGuard::deferredEstimate(model::Database& db, const std::vector<int64_t>& ranks, DeferredGroups groups)
{
    model::RankFileTable files(db);
    double bytes = 0;
    for (int64_t rank : ranks) {
        for (const auto& f : files.withStatus(rank, model::RankFileStatus::Skipped)) {
            FileKind kind;
            if (fileKindFromName(f.kind, kind) && (deferredGroupOf(kind) & groups) != 0)
                bytes += static_cast<double>(f.sizeBytes.value_or(0)) * bytesPerInputByte(kind);
        }
    }
    return static_cast<uint64_t>(bytes);
}

std::optional<uint64_t> MemoryGuard::available(std::string* source)
{
    if (const char* forced = std::getenv("NPUSCOPE_MEMORY_AVAILABLE"); forced && *forced) {
        if (source)
            *source = "NPUSCOPE_MEMORY_AVAILABLE";
        return std::strtoull(forced, nullptr, 10);
    }
    std::optional<uint64_t> limit;
    std::string from;
    // A limit above 2^60 is the cgroup v1 way of saying "none".
    if (const auto max = readNumber("/sys/fs/cgroup/memory.max")) {
        const auto used = readNumber("/sys/fs/cgroup/memory.current").value_or(0);
        limit = *max > used ? *max - used : 0;
        from = "cgroup v2 memory.max";
    } else if (const auto v1 = readNumber("/sys/fs/cgroup/memory/memory.limit_in_bytes"); v1 && *v1 < (1ull << 60)) {
        const auto used = readNumber("/sys/fs/cgroup/memory/memory.usage_in_bytes").value_or(0);
        limit = *v1 > used ? *v1 - used : 0;
        from = "cgroup v1 limit";
    }
    if (const auto avail = memAvailable(); avail && (!limit || *avail < *limit)) {
        limit = avail;
        from = "MemAvailable";
    }
    // An address-space limit (ulimit -v): what is left of it, since every mapping counts, resident or not.
    if (rlimit rl {}; getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        const uint64_t vm = usage().virtualBytes;
        const uint64_t left = rl.rlim_cur > vm ? rl.rlim_cur - vm : 0;
        if (!limit || left < *limit) {
            limit = left;
            from = "address-space limit (ulimit -v)";
        }
    }
    if (!limit)
        return std::nullopt;
    if (source)
        *source = from;
    return static_cast<uint64_t>(static_cast<double>(*limit) * (1.0 - kMarginFraction));
}

MemoryGuard::Usage MemoryGuard::usage()
{
    // /proc/self/statm: total program size and resident set, in pages.
    Usage u;
    std::ifstream in("/proc/self/statm");
    uint64_t size = 0, resident = 0;
    if (in >> size >> resident) {
        const auto page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
        u.virtualBytes = size * page;
        u.residentBytes = resident * page;
    }
    return u;
}

uint64_t MemoryGuard::Usage::grownSince(const Usage& start, bool addressSpace) const
{
    const uint64_t now = addressSpace ? virtualBytes : residentBytes;
    const uint64_t then = addressSpace ? start.virtualBytes : start.residentBytes;
    return now > then ? now - then : 0;
}

MemoryGuard::Check MemoryGuard::check(const LoadPlan& plan, bool timelines, DeferredGroups groups)
{
    Check c;
    c.estimateBytes = estimate(plan, timelines, groups);
    c.availableBytes = available(&c.availableSource).value_or(0);
    c.start = usage();
    return c;
}

TrText MemoryGuard::Check::message() const
{
    return io::issueText(QT_TRANSLATE_NOOP("ParseIssue",
                             "this load may need about %1 of memory but only about %2 is available (%3%4); loaded in "
                             "lean mode: %5"),
        { gib(estimateBytes), gib(availableBytes), availableSource,
            availableSource == "NPUSCOPE_MEMORY_AVAILABLE"
                ? TrText()
                : io::issueText(QT_TRANSLATE_NOOP("ParseIssue", ", less a %1 % margin"),
                    { std::to_string(static_cast<int>(kMarginFraction * 100)) }),
            leanText() });
}

TrText MemoryGuard::leanText()
{
    return io::issueText(QT_TRANSLATE_NOOP("ParseIssue",
        "the communication matrices' per-op slots (top1, middle, bottom..) are left out (their \"total\" slot "
        "and the real-op links of older builds stay, so the summary figures are unchanged, but summary --json and "
        "the link views have fewer links), and no timelines or other deferred files are read; open fewer ranks "
        "for every link"));
}

bool MemoryGuard::Watch::afterRank()
{
    if (budget == 0)
        return true;
    const uint64_t grown = usage().grownSince(start, addressSpace);
    if (!lean.load() && static_cast<double>(grown) >= kLeanFraction * static_cast<double>(budget)) {
        lean = true;
        switchedDuringLoad = true;
    }
    if (lean.load() && grown >= budget)
        stop = true;
    return !stop.load();
}

} // namespace npuscope::load
