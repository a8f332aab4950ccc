// SPDX-License-Identifier: Apache-2.0
// Blocks merged into the file's data in file order: Importer::merge() maps a block's string and track indices to the
// file's, appends its slices and flow points, hands its counters to the counter thread and sums its skipped events and
// warnings, so that the merged result is what one pass over the whole file would give.
#include "TraceViewParts.h"

#include <algorithm>

namespace npuscope::io::trace_view {

namespace {

// Room for extra more elements, growing geometrically: reserve(size() + extra) on every block reallocated and
// copied the whole vector each time (flows of a 506 MB trace: 9 % of the import in the copies and their page
// faults).
template <typename T> void reserveMore(std::vector<T>& v, size_t extra)
{
    if (v.capacity() - v.size() < extra)
        v.reserve(std::max(v.size() + extra, 2 * v.capacity()));
}

} // namespace

void Importer::merge(BlockResult& block)
{
    m_sawEvents = m_sawEvents || block.sawEvents;
    // Block strings in their first-appearance order: the file's table gets the order one pass would give.
    m_stringMap.resize(block.strings.size());
    for (uint32_t i = 0; i < m_stringMap.size(); ++i)
        m_stringMap[i] = m_strings.get(block.strings.text(i));
    for (auto& [pid, p] : block.processes) {
        auto& to = m_processes[pid];
        if (p.name)
            to.name = std::move(p.name);
        if (p.label)
            to.label = std::move(p.label);
        if (p.sortIndex)
            to.sortIndex = p.sortIndex;
    }
    m_trackMap.resize(block.tracks.size());
    for (uint32_t i = 0; i < m_trackMap.size(); ++i) {
        Track& from = block.tracks[i];
        const uint32_t index = trackIndex(from.pid, from.tid);
        m_trackMap[i] = index;
        Track& to = m_tracks[index];
        if (from.name)
            to.name = std::move(from.name);
        if (from.sortIndex)
            to.sortIndex = from.sortIndex;
        if (from.textTid && !to.textTid)
            to.textTid = std::move(from.textTid);
        if (to.slices.empty()) {
            to.slices = std::move(from.slices);
            for (Slice& s : to.slices) {
                s.name = m_stringMap[s.name];
                if (s.cat != Slice::kNoCat)
                    s.cat = m_stringMap[s.cat];
            }
        } else {
            reserveMore(to.slices, from.slices.size());
            for (Slice s : from.slices) {
                s.name = m_stringMap[s.name];
                if (s.cat != Slice::kNoCat)
                    s.cat = m_stringMap[s.cat];
                to.slices.push_back(s);
            }
        }
    }
    reserveMore(m_flows, block.flows.size());
    for (FlowPoint p : block.flows) {
        p.seq = static_cast<uint32_t>(m_flows.size());
        p.track = m_trackMap[p.track];
        p.cat = m_stringMap[p.cat];
        if (p.name != FlowPoint::kNameIsCatId)
            p.name = m_stringMap[p.name];
        m_flows.push_back(p);
    }
    m_arenas.push_back(std::move(block.arena)); // the flow ids stay where they are
    for (const CounterRecord& c : block.counters) {
        const std::string_view text(block.counterText.data() + c.textOffset, c.nameLen + c.seriesLen);
        m_counters.add(c.pid, c.ts, text.substr(0, c.nameLen), text.substr(c.nameLen), c.value);
    }
    // Not a structured binding: clang 14 (the sanitizer build) cannot capture one in a lambda.
    for (auto& entry : block.ignored) {
        const std::string& kind = entry.first;
        auto it = std::find_if(m_ignored.begin(), m_ignored.end(), [&](const auto& p) { return p.first == kind; });
        if (it == m_ignored.end())
            m_ignored.emplace_back(std::move(entry.first), entry.second);
        else
            it->second += entry.second;
    }
    for (auto& w : block.warnings) {
        if (m_warnings.size() < static_cast<std::size_t>(ImportContext::kMaxIssuesPerFile))
            m_warnings.push_back(std::move(w));
        else
            ++m_moreWarnings;
    }
    m_moreWarnings += block.moreWarnings;
    m_slicesWithArgs += block.slicesWithArgs;
    m_nonObjectEvents += block.nonObjectEvents;
}

} // namespace npuscope::io::trace_view
