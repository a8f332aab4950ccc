// SPDX-License-Identifier: Apache-2.0
// The flows of the trace_view.json import: the flow points sorted into (cat, id) groups in time order (on a second
// thread while the slices are inserted), paired within each group (FlowTracker), bound to the deepest enclosing slice
// at each end and inserted.
#include "TraceViewParts.h"

#include "npuscope/io/parse/FlowTracker.h"

#include <algorithm>

namespace npuscope::io::trace_view {

// The deepest slice of the track with ts <= point < ts + dur (or point == ts for zero-length
// slices). Slices are sorted by (ts, dur desc), so the last one starting at or before the point is
// the deepest candidate; if it ended already, one of its ancestors may still enclose the point.
int64_t Importer::bindPoint(const Track& track, int64_t point) const
{
    const auto& starts = track.starts;
    auto i = static_cast<int32_t>(std::upper_bound(starts.begin(), starts.end(), point) - starts.begin()) - 1;
    while (i >= 0) {
        const auto k = static_cast<std::size_t>(i);
        if (point < track.ends[k] || (track.ends[k] == starts[k] && point == starts[k]))
            return track.sliceIds.empty() ? track.firstId + i : track.sliceIds[k];
        i = track.parents[k];
    }
    return 0;
}

// The flow points' keys, sorted by (cat, id, ts, seq).
void Importer::sortFlowKeys(std::vector<FlowKey>& keys) const
{
    for (uint32_t i = 0; i < keys.size(); ++i) {
        const FlowPoint& p = m_flows[i];
        unsigned char bytes[16] = {};
        std::memcpy(bytes, p.id.data(), std::min<std::size_t>(p.id.size(), 16));
        uint64_t k0 = 0, k1 = 0;
        for (int b = 0; b < 8; ++b) {
            k0 = (k0 << 8) | bytes[b];
            k1 = (k1 << 8) | bytes[8 + b];
        }
        keys[i] = { k0, k1, p.cat, i };
    }
    std::sort(keys.begin(), keys.end(), [this](const FlowKey& x, const FlowKey& y) {
        if (x.cat != y.cat)
            return x.cat < y.cat;
        if (x.k0 != y.k0)
            return x.k0 < y.k0;
        if (x.k1 != y.k1)
            return x.k1 < y.k1;
        const FlowPoint& a = m_flows[x.index];
        const FlowPoint& b = m_flows[y.index];
        if (a.id != b.id)
            return a.id < b.id;
        if (a.ts != b.ts)
            return a.ts < b.ts;
        return a.seq < b.seq;
    });
}

// Pairs the points of each (cat, id) group and inserts the flows. Returns false when cancelled.
bool Importer::writeFlows(const std::vector<FlowKey>& keys)
{
    std::vector<uint32_t> fo(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i)
        fo[i] = keys[i].index;
    auto sameGroup = [&](std::size_t a, std::size_t b) {
        const FlowKey& x = keys[a];
        const FlowKey& y = keys[b];
        return x.cat == y.cat && x.k0 == y.k0 && x.k1 == y.k1 && m_flows[x.index].id == m_flows[y.index].id;
    };
    model::FlowRow flow;
    flow.rankId = m_ctx.rankId();
    std::vector<model::FlowRow> flowRows(1024); // filled rows are swapped in, their strings reused
    for (auto& r : flowRows)
        r.rankId = m_ctx.rankId();
    std::size_t flowCount = 0;
    auto setEnd
        = [&](const FlowPoint* p, model::OptInt& pid, model::OptInt& tid, model::OptInt& ts, model::OptInt& slice) {
              if (!p) {
                  pid.reset();
                  tid.reset();
                  ts.reset();
                  slice.reset();
                  return;
              }
              const Track& t = m_tracks[p->track];
              pid = t.pid;
              tid = t.tid;
              ts = p->ts;
              if (const int64_t id = bindPoint(t, p->ts))
                  slice = id;
              else
                  slice.reset();
          };
    auto emit = [&](const FlowPoint* src, const FlowPoint* dst) {
        const FlowPoint& any = src ? *src : *dst;
        flow.cat = m_strings.text(any.cat);
        if (any.name == FlowPoint::kNameIsCatId) {
            flow.name = m_strings.text(any.cat);
            flow.name->append(any.id);
        } else if (const std::string& name = m_strings.text(any.name); name.empty()) {
            flow.name.reset();
        } else {
            flow.name = name;
        }
        flow.flowId.assign(any.id);
        setEnd(src, flow.srcPid, flow.srcTid, flow.srcTs, flow.srcSliceId);
        setEnd(dst, flow.dstPid, flow.dstTid, flow.dstTs, flow.dstSliceId);
        if (flowCount == flowRows.size()) {
            m_writer.addFlows(flowRows.data(), flowCount);
            flowCount = 0;
        }
        std::swap(flowRows[flowCount++], flow);
    };

    FlowTracker pairing;
    std::vector<FlowTracker::Phase> phases;
    for (std::size_t begin = 0; begin < fo.size();) {
        if (m_ctx.cancelled()) {
            m_cancelled = true;
            return false;
        }
        std::size_t end = begin + 1;
        while (end < fo.size() && sameGroup(begin, end))
            ++end;
        phases.clear();
        for (std::size_t k = begin; k < end; ++k) {
            const char ph = m_flows[fo[k]].phase;
            phases.push_back(ph == 's' ? FlowTracker::Phase::Start
                    : ph == 't'        ? FlowTracker::Phase::Step
                                       : FlowTracker::Phase::End);
        }
        auto point = [&](int32_t k) { return k == FlowTracker::kNone ? nullptr : &m_flows[fo[begin + k]]; };
        for (const FlowTracker::Arrow& a : pairing.pair(phases, FlowTracker::Unpaired::Keep))
            emit(point(a.src), point(a.dst));
        begin = end;
    }
    m_writer.addFlows(flowRows.data(), flowCount);
    return true;
}

} // namespace npuscope::io::trace_view
