// SPDX-License-Identifier: Apache-2.0
#include "npuscope/load/ParseCache.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <unistd.h>

namespace fs = std::filesystem;

namespace npuscope::model {
extern const std::string_view kSchemaSql;
}

namespace npuscope::load {

using namespace io;
using namespace model;

namespace {

constexpr const char* kExtension = ".npdb";
// Bump when what an importer writes changes without a schema change.
// 2: trace_view slice args by reference (source_file); 3: db timeline; 4: old MindSpore timelines on the syscnt
// clock with their steps; 5: cluster_analysis_output stage rows and communication groups; 6: analysis db split by
// device, parallel_strategy facts; 7: db exports: memory tables, counters, HCCL, MSTX, flows, args by row;
// 8: CANN op_summary into kernel, metadata-only ranks (rank from distributed_args.rank); 9: communication.json
// streamed (comm_op.start_ns from the digits as written, not the double re-printed);
// 12: hccl_raw local link ranks mapped by stage layout (or unknown), its comm_bandwidth rows; summary rows of ranks
// replaced by their own folders skipped; db timeline communication tasks and planes; CANN step_trace iterations;
// 13: kernel PMU columns by reference (CSV record byte range) instead of pmu_json;
// 14: parallel_group_info parsed at import into parallel_group rows (no longer rank_info text);
// 15: Kineto process groups (pg_config, NCCL kernel args) as parallel_group rows, comm ops by the pg_name's hash;
// 16: links as comm_link_op + comm_link_row (op fields once per op, op names interned) behind the comm_link view;
//     kernel_sum (kernel count and Σ duration per rank, step and kernel key) for diff and compare mode.
// 17: comm_link_row with row ids (file order) and comm_link_op.first_row/last_row, link op names in comm_link_name
//     (merges copy links as stored); Kineto traces also give fwdbwd flows and [memory] records.
// 18: comm_op.zero_transports: a communication.json transport with every figure 0 and no packets has no comm_bandwidth
//     row; comm ops, transports and packets written in multi-row statements.
//     parse_issue.message_template (the translatable form of each import problem's message).
// 19: MindSpore flops_{rank}.txt (op_flops) and flops_scope_{rank}.json (flops_scope_link) imported.
// 20: parallel_strategy graphs (strategy_node, strategy_edge) of one rank per stage.
// 21: CANN PROF task timelines for Marey, MindSpore memory_usage_summary / details, dynamic-profiler windows as
//     step ranges of one rank.
// 22: a stage whose graph rank has no readable graph takes the next rank's (PostLoad::strategyGraphFallback).
constexpr int kImportVersion = 22;

uint64_t fnv1a(uint64_t h, std::string_view text)
{
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

std::string hex(uint64_t v)
{
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

} // namespace

ParseCache::ParseCache()
    : ParseCache(Options {})
{
}

ParseCache::ParseCache(Options options)
    : m_options(std::move(options))
{
    if (m_options.dir.empty())
        m_options.dir = defaultDir();
}

std::string ParseCache::defaultDir()
{
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return (fs::path(xdg) / "npuscope" / "parse").string();
    if (const char* home = std::getenv("HOME"); home && *home)
        return (fs::path(home) / ".cache" / "npuscope" / "parse").string();
    return (fs::temp_directory_path() / "npuscope-cache" / "parse").string();
}

std::string ParseCache::schemaHash()
{
    // Once: opening a folder of imported rank files checks it for every file.
    static const std::string hash = hex(fnv1a(1469598103934665603ull, model::kSchemaSql));
    return hash;
}

int ParseCache::importerVersion() { return kImportVersion; }

std::string ParseCache::keyFor(const std::string& scope, const std::vector<PlannedFile>& files) const
{
    uint64_t h = 1469598103934665603ull;
    h = fnv1a(h, model::kSchemaSql);
    h = fnv1a(h, std::to_string(kImportVersion));
    h = fnv1a(h, scope);
    std::vector<const PlannedFile*> sorted;
    for (const auto& f : files)
        sorted.push_back(&f);
    std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->path < b->path; });
    for (const auto* f : sorted) {
        std::error_code ec;
        const auto size = fs::file_size(f->path, ec);
        const auto mtime = fs::last_write_time(f->path, ec);
        h = fnv1a(h, f->path);
        h = fnv1a(h,
            std::string(1, '\0') + std::to_string(ec ? 0 : size) + ":"
                + std::to_string(ec ? 0 : mtime.time_since_epoch().count()) + ":" + fileKindName(f->kind));
    }
    return scope + "-" + hex(h);
}

std::optional<std::string> ParseCache::lookup(const std::string& key) const
{
    const fs::path p = fs::path(m_options.dir) / (key + kExtension);
    std::error_code ec;
    if (!fs::is_regular_file(p, ec))
        return std::nullopt;
    fs::last_write_time(p, fs::file_time_type::clock::now(), ec); // least recently used goes first
    return p.string();
}

bool ParseCache::store(model::Database& model, const std::string& key) const
{
    const auto fail = [&](const std::string& why) {
        spdlog::warn("parse cache: {}", why);
        return false;
    };
    std::error_code ec;
    if (fs::create_directories(m_options.dir, ec))
        fs::permissions(m_options.dir, fs::perms::owner_all, fs::perm_options::replace, ec);
    const fs::path target = fs::path(m_options.dir) / (key + kExtension);
    const fs::path temp = fs::path(m_options.dir)
        / (key + ".tmp-" + std::to_string(::getpid()) + "-"
            + std::to_string(std::hash<std::string> {}(
                target.string() + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()))));
    try {
        model.saveTo(temp.string());
    } catch (const model::DbError& e) {
        fs::remove(temp, ec);
        return fail("cannot write " + temp.string() + ": " + e.what());
    }
    fs::permissions(temp, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace, ec);
    fs::rename(temp, target, ec);
    if (ec) {
        const std::string why = "cannot rename " + temp.string() + ": " + ec.message();
        fs::remove(temp, ec);
        return fail(why);
    }
    std::error_code sizeError;
    const uint64_t stored = fs::file_size(target, sizeError);
    evict(sizeError ? 0 : stored);
    return true;
}

void ParseCache::evict(uint64_t storedBytes) const
{
    std::lock_guard lock(m_size->mutex);
    if (m_size->bytes) {
        *m_size->bytes += storedBytes;
        if (*m_size->bytes <= m_options.maxBytes)
            return;
    }
    struct Entry {
        fs::path path;
        uint64_t size;
        fs::file_time_type used;
    };
    std::vector<Entry> entries;
    uint64_t total = 0;
    std::error_code ec;
    for (fs::directory_iterator it(m_options.dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() != kExtension)
            continue;
        std::error_code e2;
        const auto size = it->file_size(e2);
        const auto used = it->last_write_time(e2);
        if (e2)
            continue;
        entries.push_back({ it->path(), size, used });
        total += size;
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
    for (const auto& e : entries) {
        if (total <= m_options.maxBytes)
            break;
        std::error_code e3;
        if (fs::remove(e.path, e3))
            total -= e.size;
    }
    m_size->bytes = total;
}

void ParseCache::remove(const std::string& key) const
{
    std::error_code ec;
    fs::remove(fs::path(m_options.dir) / (key + kExtension), ec);
}

uint64_t ParseCache::clear() const
{
    uint64_t freed = 0;
    std::error_code ec;
    for (fs::directory_iterator it(m_options.dir, ec), end; !ec && it != end; it.increment(ec)) {
        const auto ext = it->path().extension().string();
        if (ext != kExtension && it->path().filename().string().find(".tmp-") == std::string::npos)
            continue;
        std::error_code e2;
        const auto size = it->file_size(e2);
        if (fs::remove(it->path(), e2))
            freed += size;
    }
    std::lock_guard lock(m_size->mutex);
    m_size->bytes.reset();
    return freed;
}

uint64_t ParseCache::sizeBytes() const
{
    uint64_t total = 0;
    std::error_code ec;
    for (fs::directory_iterator it(m_options.dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code e2;
        if (it->path().extension() == kExtension)
            total += it->file_size(e2);
    }
    return total;
}

} // namespace npuscope::load
