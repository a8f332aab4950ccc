// SPDX-License-Identifier: Apache-2.0
// KinetoTraceImporter's writing half: what the events Import kept become in the model. Slices with their nesting,
// process / thread rows, the trace's own flow events, [memory] samples, kernels (with their launching op and step),
// NCCL comm ops, launch flows, the per-step breakdown, and the rank's facts and process groups. The reading half is
// KinetoTraceImporter.cpp.
#include "KinetoParts.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/GroupHash.h"
#include "npuscope/io/kineto/KinetoKernelClass.h"
#include "npuscope/io/parse/FlowTracker.h"
#include "npuscope/io/parse/MemoryPeakTracker.h"
#include "npuscope/io/parse/SliceTracker.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <tuple>
#include <unordered_map>

namespace npuscope::io::kineto_detail {

namespace {

constexpr double kBytesPerMb = 1024.0 * 1024.0; // memory_record's MB, as torch_npu's memory_record.csv

bool isGpu(Kind k) { return k == Kind::Kernel || k == Kind::Memcpy || k == Kind::Memset; }

// "ncclKernel_AllReduce_RING_LL_Sum_float" / "ncclDevKernel_SendRecv(...)" -> "AllReduce" / "SendRecv"; the
// record_param_comms "Collective name" (all_reduce, _allgather_base) when the trace has it.
std::string ncclOpOf(const Event& e)
{
    if (e.collective && !e.collective->empty())
        return *e.collective;
    const auto us = e.name.find('_');
    if (us == std::string::npos)
        return e.name;
    const auto end = e.name.find_first_of("_(<", us + 1);
    return e.name.substr(us + 1, end == std::string::npos ? std::string::npos : end - us - 1);
}

// allReduce, sendRecv, ...: the lower-camel form of Ascend's hcom_<type> op types.
std::string opTypeOf(std::string op)
{
    std::string out;
    bool upper = false;
    for (char c : op) {
        if (c == '_') {
            upper = !out.empty();
            continue;
        }
        out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    if (!out.empty())
        out[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(out[0])));
    return out;
}

bool isP2p(const std::string& opType)
{
    std::string lower = opType;
    std::transform(
        lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lower.find("send") != std::string::npos || lower.find("recv") != std::string::npos;
}

// Total length of the union of [ts, ts + dur) intervals.
int64_t unionLength(std::vector<std::pair<int64_t, int64_t>> spans)
{
    std::sort(spans.begin(), spans.end());
    int64_t total = 0, start = 0, end = 0;
    bool open = false;
    for (const auto& [s, e] : spans) {
        if (!open || s > end) {
            if (open)
                total += end - start;
            start = s;
            end = e;
            open = true;
        } else {
            end = std::max(end, e);
        }
    }
    if (open)
        total += end - start;
    return total;
}

} // namespace

// Nesting per (pid, tid) track and the slice rows; fills each event's depth, parent and slice id.
void Import::writeSlices()
{
    std::map<std::pair<int64_t, int64_t>, std::vector<int32_t>> tracks;
    for (int32_t i = 0; i < static_cast<int32_t>(m_events.size()); ++i)
        tracks[{ m_events[i].pid, m_events[i].tid }].push_back(i);
    SliceTracker tracker;
    std::vector<model::SliceRow> rows;
    std::vector<int32_t> order;
    for (auto& [track, list] : tracks) {
        std::stable_sort(list.begin(), list.end(), [&](int32_t a, int32_t b) {
            return SliceTracker::before(m_events[a].ts, m_events[a].dur, m_events[b].ts, m_events[b].dur);
        });
        tracker.reset();
        for (int32_t i : list) {
            Event& ev = m_events[i];
            const auto placed = tracker.place(ev.ts, ev.dur);
            ev.depth = placed.depth;
            ev.parent = placed.parent < 0 ? -1 : list[placed.parent];
            model::SliceRow r;
            r.rankId = m_ctx.rankId();
            r.pid = ev.pid;
            r.tid = ev.tid;
            r.ts = ev.ts;
            r.dur = ev.dur;
            r.depth = ev.depth;
            r.nameId = m_w.intern(ev.name);
            if (!ev.cat.empty())
                r.catId = m_w.intern(ev.cat);
            if (!ev.args.empty())
                r.args = ev.args;
            rows.push_back(std::move(r));
            order.push_back(i);
        }
        if (!m_threads.count(track)) {
            auto& t = m_threads[track];
            t.rankId = m_ctx.rankId();
            t.pid = track.first;
            t.tid = track.second;
        }
        if (!m_processes.count(track.first)) {
            auto& p = m_processes[track.first];
            p.rankId = m_ctx.rankId();
            p.pid = track.first;
        }
    }
    for (const auto& [pid, p] : m_processes)
        m_w.upsertProcess(p);
    for (const auto& [key, t] : m_threads)
        m_w.upsertThread(t);
    std::vector<int64_t> ids(rows.size());
    m_w.addSlices(rows.data(), rows.size(), ids.data());
    for (std::size_t k = 0; k < order.size(); ++k)
        m_events[order[k]].sliceId = ids[k];
    m_tracks = std::move(tracks);
}

// The innermost slice of the track (pid, tid) holding ts (a zero-length slice holds its own ts), as the timeline
// importers bind a flow point; nullopt when none does.
std::optional<int64_t> Import::sliceAt(int64_t pid, int64_t tid, int64_t ts) const
{
    const auto track = m_tracks.find({ pid, tid });
    if (track == m_tracks.end())
        return std::nullopt;
    const auto& list = track->second;
    auto it
        = std::upper_bound(list.begin(), list.end(), ts, [this](int64_t t, int32_t i) { return t < m_events[i].ts; });
    if (it == list.begin())
        return std::nullopt;
    for (int32_t i = *(it - 1); i >= 0; i = m_events[i].parent) {
        const Event& ev = m_events[i];
        if (ts < ev.ts + ev.dur || (ev.dur == 0 && ts == ev.ts))
            return ev.sliceId;
    }
    return std::nullopt;
}

// The flow events of the trace (fwdbwd, ...), paired by io::FlowTracker per category and id.
void Import::writeFlowPoints()
{
    std::stable_sort(m_flowPoints.begin(), m_flowPoints.end(), [](const FlowPoint& a, const FlowPoint& b) {
        return std::tie(a.cat, a.id, a.ts, a.ordinal) < std::tie(b.cat, b.id, b.ts, b.ordinal);
    });
    FlowTracker pairing;
    std::vector<FlowTracker::Phase> phases;
    std::vector<model::FlowRow> rows;
    for (std::size_t begin = 0; begin < m_flowPoints.size();) {
        std::size_t end = begin + 1;
        while (end < m_flowPoints.size() && m_flowPoints[end].cat == m_flowPoints[begin].cat
            && m_flowPoints[end].id == m_flowPoints[begin].id)
            ++end;
        phases.clear();
        for (std::size_t k = begin; k < end; ++k)
            phases.push_back(m_flowPoints[k].phase);
        for (const FlowTracker::Arrow& a : pairing.pair(phases, FlowTracker::Unpaired::Keep)) {
            const FlowPoint& any = m_flowPoints[begin + static_cast<std::size_t>(a.src >= 0 ? a.src : a.dst)];
            model::FlowRow f;
            f.rankId = m_ctx.rankId();
            f.cat = any.cat;
            f.name = any.name;
            f.flowId = any.id;
            // One end of the arrow (an index into the group, -1 for a missing end): its place and its slice.
            const auto setEnd
                = [&](int index, model::OptInt& pid, model::OptInt& tid, model::OptInt& ts, model::OptInt& slice) {
                      if (index < 0)
                          return;
                      const FlowPoint& p = m_flowPoints[begin + static_cast<std::size_t>(index)];
                      pid = p.pid;
                      tid = p.tid;
                      ts = p.ts;
                      slice = sliceAt(p.pid, p.tid, p.ts);
                  };
            setEnd(a.src, f.srcPid, f.srcTid, f.srcTs, f.srcSliceId);
            setEnd(a.dst, f.dstPid, f.dstTid, f.dstTs, f.dstSliceId);
            rows.push_back(std::move(f));
        }
        begin = end;
    }
    m_w.addFlows(rows.data(), rows.size());
    if (m_skippedFlowPoints > 0)
        m_ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "%1 flow events (ph s / t / f) without an integer pid / tid, a ts or an id are not imported"),
                { std::to_string(m_skippedFlowPoints) }));
}

// "[memory]" samples of the GPUs -> memory_record (component PTA: PyTorch's caching allocator, the layer
// torch_npu's PTA rows describe; docs/schema.md) and their memory_peak rows. CPU samples (Device Type 0) are
// counted, not imported.
void Import::writeMemory()
{
    std::stable_sort(
        m_memory.begin(), m_memory.end(), [](const MemorySample& a, const MemorySample& b) { return a.ts < b.ts; });
    MemoryPeakTracker peaks;
    int64_t cpu = 0;
    for (const MemorySample& m : m_memory) {
        if (m.deviceType == 0 || m.deviceId < 0) {
            ++cpu;
            continue;
        }
        model::MemoryRecordRow r;
        r.rankId = m_ctx.rankId();
        r.component = "PTA";
        r.ts = m.ts;
        if (m.allocated)
            r.allocatedMb = static_cast<double>(*m.allocated) / kBytesPerMb;
        if (m.reserved)
            r.reservedMb = static_cast<double>(*m.reserved) / kBytesPerMb;
        r.device = "GPU:" + std::to_string(m.deviceId);
        m_w.addMemoryRecord(r);
        peaks.add(r);
    }
    if (static_cast<int64_t>(m_memory.size()) > cpu)
        peaks.write(m_w, m_ctx.rankId());
    if (cpu > 0)
        m_ctx.info(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "%1 [memory] events of the CPU (Device Type 0) are not imported; the GPU's are "
                          "memory_record rows"),
                { std::to_string(cpu) }));
    if (m_skippedMemory > 0)
        m_ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1 [memory] events without a ts or args are not imported"),
                { std::to_string(m_skippedMemory) }));
}

// The step whose ProfilerStep range holds ts; nullopt outside every range.
std::optional<int64_t> Import::stepAt(int64_t ts) const
{
    auto it = std::upper_bound(m_steps.begin(), m_steps.end(), ts, [](int64_t t, const Step& s) { return t < s.ts; });
    while (it != m_steps.begin()) {
        --it;
        if (ts < it->end || (it->end == it->ts && ts == it->ts))
            return it->number;
        if (it->end <= ts)
            break;
    }
    return std::nullopt;
}

void Import::write(const Json& top)
{
    std::sort(m_steps.begin(), m_steps.end(), [](const Step& a, const Step& b) { return a.ts < b.ts; });
    writeRank(top);
    writeSlices();
    writeFlowPoints();
    writeMemory();

    std::unordered_map<int64_t, int32_t> launches; // correlation -> runtime event
    for (int32_t i = 0; i < static_cast<int32_t>(m_events.size()); ++i) {
        if (m_events[i].kind == Kind::Runtime && m_events[i].correlation >= 0)
            launches.emplace(m_events[i].correlation, i);
    }
    const bool hasSteps = !m_steps.empty();
    struct Busy {
        std::vector<std::pair<int64_t, int64_t>> compute, comm;
        int64_t start = INT64_MAX, end = INT64_MIN;
    };
    std::map<std::optional<int64_t>, Busy> perStep;
    for (const auto& s : m_steps)
        perStep[s.number];
    if (!hasSteps)
        perStep[std::nullopt];
    std::vector<model::FlowRow> flows;
    int64_t outside = 0, unlaunched = 0;
    for (const Event& ev : m_events) {
        if (!isGpu(ev.kind))
            continue;
        const auto launch = launches.find(ev.correlation);
        const Event* runtime = launch == launches.end() ? nullptr : &m_events[launch->second];
        std::optional<int64_t> step;
        if (hasSteps) {
            step = runtime ? stepAt(runtime->ts) : std::nullopt;
            if (!step)
                ++(runtime ? outside : unlaunched);
        }
        const std::string_view core = ev.kind == Kind::Memcpy ? KinetoKernelClass::kMemcpy
            : ev.kind == Kind::Memset                         ? KinetoKernelClass::kMemset
                                                              : KinetoKernelClass::ofKernel(ev.name);
        model::KernelRow k;
        k.rankId = m_ctx.rankId();
        k.deviceId = ev.device;
        k.step = step;
        k.streamId = ev.stream;
        k.name = ev.name;
        k.type = runtime ? launchingOp(*runtime) : std::nullopt;
        k.acceleratorCore = std::string(core);
        k.ts = ev.ts;
        k.dur = ev.dur;
        k.sourceLine = ev.ordinal;
        m_w.addKernel(k);
        const bool nccl = core == KinetoKernelClass::kNccl;
        if (nccl)
            writeCommOp(ev, step);
        if (!hasSteps || step) {
            Busy& b = perStep[step];
            (nccl ? b.comm : b.compute).emplace_back(ev.ts, ev.ts + ev.dur);
            b.start = std::min(b.start, ev.ts);
            b.end = std::max(b.end, ev.ts + ev.dur);
        }
        if (runtime) {
            model::FlowRow f;
            f.rankId = m_ctx.rankId();
            f.cat = "ac2g";
            f.name = "ac2g";
            f.flowId = std::to_string(ev.correlation);
            f.srcPid = runtime->pid;
            f.srcTid = runtime->tid;
            f.srcTs = runtime->ts;
            f.srcSliceId = runtime->sliceId;
            f.dstPid = ev.pid;
            f.dstTid = ev.tid;
            f.dstTs = ev.ts;
            f.dstSliceId = ev.sliceId;
            flows.push_back(std::move(f));
        }
    }
    m_w.addFlows(flows.data(), flows.size());
    int64_t line = 0;
    for (auto& [step, b] : perStep) {
        const int64_t computing = unionLength(b.compute);
        const int64_t communication = unionLength(b.comm);
        auto all = b.compute;
        all.insert(all.end(), b.comm.begin(), b.comm.end());
        const int64_t busy = unionLength(std::move(all));
        const int64_t window = b.end >= b.start ? b.end - b.start : 0;
        model::StepTraceRow r;
        r.rankId = m_ctx.rankId();
        r.step = step;
        r.computing = computing;
        r.overlapped = computing + communication - busy;
        r.communication = communication;
        r.communicationNotOverlapped = communication - *r.overlapped;
        r.free = window - busy;
        r.sourceLine = ++line;
        m_w.addStepTrace(r);
    }
    // An info issue counting what text (with %1 for the count) is about; none for a count of 0.
    const auto countInfo = [this](auto count, const char* text) {
        if (count > 0)
            m_ctx.info(std::nullopt, issueText(text, { std::to_string(count) }));
    };
    countInfo(outside,
        QT_TRANSLATE_NOOP("ParseIssue",
            "%1 GPU activities were launched outside every ProfilerStep range; they are kernels without a step and in "
            "no step's breakdown"));
    countInfo(unlaunched,
        QT_TRANSLATE_NOOP("ParseIssue",
            "%1 GPU activities have no runtime call with their correlation id in the trace; they are kernels without "
            "a step and in no step's breakdown"));
    countInfo(m_skipped,
        QT_TRANSLATE_NOOP("ParseIssue",
            "%1 complete events without an integer pid / tid or a ts (the profiler's own Spans / Traces markers) are "
            "not on the timeline"));
}

// The innermost cpu_op around a runtime call on its thread (aten::mm for a GEMM launch).
std::optional<std::string> Import::launchingOp(const Event& runtime) const
{
    for (int32_t p = runtime.parent; p >= 0; p = m_events[p].parent) {
        if (m_events[p].kind == Kind::CpuOp)
            return m_events[p].name;
    }
    return std::nullopt;
}

void Import::writeCommOp(const Event& ev, std::optional<int64_t> step)
{
    const std::string op = ncclOpOf(ev);
    model::CommOpRow c;
    c.rankId = m_ctx.rankId();
    c.step = step;
    c.opType = opTypeOf(op);
    c.kind = isP2p(*c.opType) ? "p2p" : "collective";
    c.opName = "nccl_" + *c.opType + "_" + std::to_string(ev.correlation);
    // The group is named as Ascend ops name theirs: the double hash of the raw group name (here the process
    // group's pg_name), so that its membership (parallel_group rows, written with the rank) resolves to it.
    if (ev.group)
        c.groupHash = groupDoubleHashText(*ev.group);
    c.opKey = c.groupHash ? c.opName + "@" + *c.groupHash : c.opName;
    c.startNs = ev.ts;
    c.elapseNs = ev.dur;
    m_w.addCommOp(c);
}

void Import::writeRank(const Json& top)
{
    model::RankRow row;
    row.rankId = m_ctx.rankId();
    row.framework = "pytorch_gpu";
    std::optional<int64_t> device;
    for (const auto& ev : m_events) {
        if (isGpu(ev.kind) && ev.device) {
            device = ev.device;
            break;
        }
    }
    row.deviceId = device;
    if (auto d = top.find("distributedInfo"); d != top.end() && d->is_object()) {
        if (auto ws = d->find("world_size"); ws != d->end())
            row.worldSize = intOf(*ws);
        if (auto v = textOf(*d, "backend"))
            m_w.addRankInfo(m_ctx.rankId(), "kineto.backend", *v);
        if (auto v = textOf(*d, "nccl_version"))
            m_w.addRankInfo(m_ctx.rankId(), "kineto.nccl_version", *v);
        // Process groups (newer PyTorch): pg_name, pg_desc and the global ranks; they win over the kernels' args.
        if (auto pgs = d->find("pg_config"); pgs != d->end() && pgs->is_array()) {
            for (const auto& pg : *pgs) {
                if (!pg.is_object())
                    continue;
                const auto name = textOf(pg, "pg_name");
                if (!name)
                    continue;
                ProcessGroup g;
                g.desc = textOf(pg, "pg_desc");
                if (auto r = pg.find("ranks"); r != pg.end())
                    g.ranks = groupRanksOf(*r);
                m_groups[*name] = std::move(g);
            }
        }
    }
    for (const auto& [name, g] : m_groups) {
        model::ParallelGroupRow pg;
        pg.rankId = m_ctx.rankId();
        pg.rawName = name;
        // "undefined" is what PyTorch writes for a group created without a description.
        if (g.desc && !g.desc->empty() && *g.desc != "undefined")
            pg.name = g.desc;
        pg.globalRanks = g.ranks;
        m_w.addParallelGroup(pg);
    }
    if (auto v = textOf(top, "schemaVersion"))
        m_w.addRankInfo(m_ctx.rankId(), "kineto.schema_version", *v);
    if (auto props = top.find("deviceProperties"); props != top.end() && props->is_array()) {
        for (const auto& p : *props) {
            if (!p.is_object())
                continue;
            const auto id = p.find("id") != p.end() ? intOf(p["id"]) : std::nullopt;
            if (id == device || (!device && id == 0)) {
                if (auto v = textOf(p, "name"))
                    m_w.addRankInfo(m_ctx.rankId(), "kineto.device_name", *v);
                if (auto v = textOf(p, "totalGlobalMem"))
                    m_w.addRankInfo(m_ctx.rankId(), "kineto.device_memory_bytes", *v);
            }
        }
    }
    m_w.updateRank(row);
}

} // namespace npuscope::io::kineto_detail
