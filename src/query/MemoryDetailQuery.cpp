// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/MemoryDetailQuery.h"
#include "npuscope/core/EnumNames.h"
#include "npuscope/model/ReadRow.h"
#include "npuscope/query/TranslationMarker.h"

#include "npuscope/query/TimelineQuery.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>

namespace npuscope::query {

namespace {

constexpr const char* kStepPrefix = "ProfilerStep#";

bool inside(std::optional<int64_t> ts, int64_t begin, int64_t end) { return ts && *ts >= begin && *ts < end; }

constexpr EnumName<MemoryMetric> kMetricNames[] {
    { MemoryMetric::Allocated, QT_TRANSLATE_NOOP("MemoryMetric", "Allocated") },
    { MemoryMetric::Reserved, QT_TRANSLATE_NOOP("MemoryMetric", "Reserved") },
    { MemoryMetric::Active, QT_TRANSLATE_NOOP("MemoryMetric", "Active") },
};

} // namespace

const char* memoryMetricName(MemoryMetric m) { return nameOf(kMetricNames, m, ""); }

uint32_t operatorMemoryFlags(const OperatorMemoryRow& row)
{
    uint32_t flags = 0;
    if (row.allocTs && row.releaseTs && row.activeReleaseTs) {
        const int64_t lifetime = *row.releaseTs - *row.allocTs;
        const int64_t late = *row.activeReleaseTs - *row.releaseTs;
        if (late >= kLateReturnMinNs
            && static_cast<double>(late) >= kLateReturnFraction * static_cast<double>(lifetime))
            flags |= LateReturn;
    }
    if (row.allocTs && !row.releaseTs && !row.activeReleaseTs && row.sizeKb.value_or(0) >= kHeldToEndMinKb)
        flags |= HeldToEnd;
    return flags;
}

std::string operatorMemoryFlagText(uint32_t flags)
{
    std::string out;
    auto add = [&out](const char* text) {
        if (!out.empty())
            out += ", ";
        out += text;
    };
    if (flags & LateReturn)
        add("late return");
    if (flags & HeldToEnd)
        add("held to end");
    return out;
}

std::vector<MemoryCurve> MemoryDetailQuery::curves(model::Database& db, int64_t rank)
{
    std::map<std::string, std::array<std::vector<core::CurvePoint>, kMemoryMetricCount>> byComponent;
    auto st = db.prepare("SELECT coalesce(component, ''), ts, allocated_mb, reserved_mb, active_mb FROM memory_record"
                         " WHERE rank_id = ?1 ORDER BY component, ts");
    st.bind(1, rank);
    while (st.step()) {
        auto& series = byComponent[st.text(0)];
        const int64_t ts = st.int64(1);
        for (int m = 0; m < kMemoryMetricCount; ++m) {
            const auto v = st.optReal(2 + m);
            if (v && std::isfinite(*v))
                series[static_cast<size_t>(m)].push_back({ ts, *v });
        }
    }
    std::vector<MemoryCurve> out;
    for (auto& [component, series] : byComponent) {
        for (int m = 0; m < kMemoryMetricCount; ++m) {
            if (!series[static_cast<size_t>(m)].empty())
                out.push_back({ component, static_cast<MemoryMetric>(m), std::move(series[static_cast<size_t>(m)]) });
        }
    }
    return out;
}

std::vector<MemoryStep> MemoryDetailQuery::steps(model::Database& db, int64_t rank)
{
    // The step slice names first (few strings), then that rank's slices of those names.
    std::map<int64_t, int64_t> stepOfName;
    {
        auto st = db.prepare("SELECT id, value FROM string WHERE value LIKE 'ProfilerStep#%'");
        while (st.step()) {
            const std::string name = st.text(1);
            int64_t step = 0;
            const char* first = name.data() + std::char_traits<char>::length(kStepPrefix);
            const char* last = name.data() + name.size();
            const auto parsed = std::from_chars(first, last, step);
            if (parsed.ec == std::errc() && parsed.ptr == last)
                stepOfName.emplace(st.int64(0), step);
        }
    }
    std::map<int64_t, MemoryStep> byStep;
    auto st = db.prepare("SELECT name_id, ts, dur FROM slice WHERE rank_id = ?1 AND name_id = ?2");
    for (const auto& [nameId, step] : stepOfName) {
        st.reset();
        st.bind(1, rank).bind(2, nameId);
        while (st.step()) {
            const int64_t begin = st.int64(1), end = begin + st.int64(2);
            auto [it, added] = byStep.emplace(step, MemoryStep { step, begin, end });
            if (!added) { // one step on several threads: its whole extent
                it->second.begin = std::min(it->second.begin, begin);
                it->second.end = std::max(it->second.end, end);
            }
        }
    }
    std::vector<MemoryStep> out;
    for (const auto& [step, s] : byStep)
        out.push_back(s);
    return out;
}

bool MemoryDetailQuery::inWindow(const OperatorMemoryRow& row, int64_t begin, int64_t end)
{
    return inside(row.allocTs, begin, end) || inside(row.releaseTs, begin, end)
        || inside(row.activeReleaseTs, begin, end);
}

std::vector<OperatorMemoryRow> MemoryDetailQuery::blocks(
    model::Database& db, int64_t rank, std::optional<std::pair<int64_t, int64_t>> window)
{
    std::vector<OperatorMemoryRow> out;
    auto st = db.prepare("SELECT name, size_kb, alloc_ts, release_ts, active_release_ts, dur, active_dur,"
                         " alloc_allocated_mb, alloc_reserved_mb, release_allocated_mb, release_reserved_mb,"
                         " coalesce(device, '') FROM operator_memory WHERE rank_id = ?1 ORDER BY alloc_ts, rowid");
    st.bind(1, rank);
    while (st.step()) {
        OperatorMemoryRow r;
        model::readRow(st, r.name, r.sizeKb, r.allocTs, r.releaseTs, r.activeReleaseTs, r.dur, r.activeDur,
            r.allocAllocatedMb, r.allocReservedMb, r.releaseAllocatedMb, r.releaseReservedMb, r.device);
        r.component = r.name.rfind("cann::", 0) == 0 ? "GE" : "PTA";
        if (window && !inWindow(r, window->first, window->second))
            continue;
        r.flags = operatorMemoryFlags(r);
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<ModuleMemory> MemoryDetailQuery::modules(model::Database& db, int64_t rank)
{
    std::map<std::string, ModuleMemory> byModule;
    auto st = db.prepare("SELECT coalesce(component, ''), ts, reserved_mb FROM npu_module_mem WHERE rank_id = ?1"
                         " AND reserved_mb IS NOT NULL ORDER BY component, ts");
    st.bind(1, rank);
    while (st.step()) {
        const double mb = st.real(2);
        if (!std::isfinite(mb))
            continue;
        auto& m = byModule[st.text(0)];
        const int64_t ts = st.int64(1);
        if (m.points.empty() || mb > m.peakMb) {
            m.peakMb = mb;
            m.peakTs = ts;
        }
        m.points.push_back({ ts, mb });
        m.lastMb = mb;
    }
    std::vector<ModuleMemory> out;
    for (auto& [name, m] : byModule) {
        m.module = name;
        out.push_back(std::move(m));
    }
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.peakMb > b.peakMb; });
    return out;
}

MemoryDetail MemoryDetailQuery::detail(model::Database& db, int64_t rank)
{
    MemoryDetail d;
    d.rank = rank;
    d.curves = curves(db, rank);
    d.steps = steps(db, rank);
    d.blocks = blocks(db, rank);
    d.modules = modules(db, rank);
    for (const auto& info : TimelineQuery::ranks(db)) {
        if (info.rank == rank)
            d.hasTimeline = info.loaded;
    }
    return d;
}

} // namespace npuscope::query
