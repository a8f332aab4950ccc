// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/timeline/TimelineRenderer.h"

#include "npuscope/gui/comm/GroupTableModel.h"

#include "npuscope/gui/common/TimeFormat.h"

#include <QFontMetrics>
#include <QObject>
#include <QPainter>
#include <QPainterPath>
#include <QPen>

#include <algorithm>
#include <cmath>
#include <limits>

namespace npuscope::gui {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

} // namespace

TimelineRenderer::TimelineRenderer()
{
    m_font.setPointSizeF(9);
    m_smallFont.setPointSizeF(8);
}

void TimelineRenderer::resetRowState()
{
    m_expandedTracks.clear();
    m_pinned.clear();
    m_hidden.clear();
    m_order.clear();
}

void TimelineRenderer::setMaxLevels(int levels) { m_maxLevels = std::max(1, levels); }

void TimelineRenderer::setTrackExpanded(const RowKey& key, bool expanded)
{
    if (expanded)
        m_expandedTracks.insert(key);
    else
        m_expandedTracks.erase(key);
}

bool TimelineRenderer::isPinned(const RowKey& key) const
{
    return std::find(m_pinned.begin(), m_pinned.end(), key) != m_pinned.end();
}

void TimelineRenderer::setPinned(const RowKey& key, bool pinned)
{
    std::erase(m_pinned, key);
    if (pinned)
        m_pinned.push_back(key);
}

void TimelineRenderer::setHidden(const RowKey& key, bool hidden)
{
    if (hidden)
        m_hidden.insert(key);
    else
        m_hidden.erase(key);
}

std::vector<TimelineRenderer::RowKey> TimelineRenderer::defaultChildren(const RowKey& parent) const
{
    std::vector<RowKey> out;
    if (parent.rank < 0) {
        for (size_t r = 0; r < m_ranks.size(); ++r)
            out.push_back({ RowKind::Rank, static_cast<int>(r), 0 });
        return out;
    }
    const auto& data = m_ranks[static_cast<size_t>(parent.rank)].data;
    if (!data)
        return out;
    if (parent.kind == RowKind::Rank) {
        for (size_t p = 0; p < data->processes.size(); ++p)
            out.push_back({ RowKind::Process, parent.rank, static_cast<int>(p) });
    } else if (parent.kind == RowKind::Process) {
        const query::TimelineProcess& proc = data->processes[static_cast<size_t>(parent.item)];
        for (int t : proc.tracks)
            out.push_back({ RowKind::Track, parent.rank, t });
        for (int c : proc.counters)
            out.push_back({ RowKind::Counter, parent.rank, c });
    }
    return out;
}

std::vector<TimelineRenderer::RowKey> TimelineRenderer::children(const RowKey& parent) const
{
    auto out = defaultChildren(parent);
    const auto it = m_order.find(parent);
    // A stored order is used only while it still names exactly the same rows.
    if (it != m_order.end() && it->second.size() == out.size()
        && std::is_permutation(it->second.begin(), it->second.end(), out.begin()))
        return it->second;
    return out;
}

TimelineRenderer::RowKey TimelineRenderer::parentOf(const Row& row) const
{
    switch (row.kind) {
    case RowKind::Rank:
        return { RowKind::Rank, -1, 0 };
    case RowKind::Process:
    case RowKind::Group:
        return { RowKind::Rank, row.rank, 0 };
    default:
        return { RowKind::Process, row.rank, row.process };
    }
}

bool TimelineRenderer::moveRow(const Row& row, int delta)
{
    const RowKey parent = parentOf(row);
    auto siblings = children(parent);
    const auto it = std::find(siblings.begin(), siblings.end(), row.key());
    if (it == siblings.end() || delta == 0)
        return false;
    const int step = delta > 0 ? 1 : -1;
    auto from = static_cast<int>(it - siblings.begin());
    for (int moved = 0; moved < std::abs(delta); ++moved) {
        int to = from + step;
        while (to >= 0 && to < static_cast<int>(siblings.size()) && isHidden(siblings[static_cast<size_t>(to)]))
            to += step;
        if (to < 0 || to >= static_cast<int>(siblings.size()))
            return moved > 0;
        const RowKey key = siblings[static_cast<size_t>(from)];
        siblings.erase(siblings.begin() + from);
        siblings.insert(siblings.begin() + to, key);
        from = to;
        m_order[parent] = siblings;
    }
    return true;
}

void TimelineRenderer::bringRanksToTop(const std::vector<int>& rankIndexes)
{
    const RowKey root { RowKind::Rank, -1, 0 };
    std::vector<RowKey> order;
    std::set<RowKey> first;
    for (int r : rankIndexes) {
        if (r >= 0 && static_cast<size_t>(r) < m_ranks.size() && first.insert({ RowKind::Rank, r, 0 }).second)
            order.push_back({ RowKind::Rank, r, 0 });
    }
    for (const RowKey& key : children(root)) {
        if (!first.count(key))
            order.push_back(key);
    }
    m_order[root] = std::move(order);
}

void TimelineRenderer::applyDefaultCollapse(int rank)
{
    RankEntry& e = m_ranks[static_cast<size_t>(rank)];
    if (!e.data)
        return;
    for (const query::TimelineProcess& proc : e.data->processes) {
        const size_t rows = proc.tracks.size() + proc.counters.size();
        if (proc.tracks.empty() || rows > static_cast<size_t>(kMaxRowsExpanded))
            e.collapsedPids.insert(proc.pid);
    }
}

QString TimelineRenderer::rowName(const Row& row) const
{
    const RankEntry& e = m_ranks[static_cast<size_t>(row.rank)];
    switch (row.kind) {
    case RowKind::Rank:
        return QObject::tr("Rank %1").arg(e.rank);
    case RowKind::Group:
        return QObject::tr("Counters");
    case RowKind::Process:
        return qs(e.data->processes[static_cast<size_t>(row.process)].name);
    case RowKind::Track:
        return qs(e.data->tracks[static_cast<size_t>(row.item)].name);
    case RowKind::Counter: {
        const query::CounterTrack& c = e.data->counters[static_cast<size_t>(row.item)];
        return c.name == c.series ? qs(c.name) : qs(c.name) + QStringLiteral(" \u00b7 ") + qs(c.series);
    }
    }
    return {};
}

bool TimelineRenderer::matchesFilter(const Row& row) const
{
    return m_filter.isEmpty() || rowName(row).contains(m_filter, Qt::CaseInsensitive);
}

std::optional<TimelineRenderer::Row> TimelineRenderer::makeRow(const RowKey& key) const
{
    const RankEntry* e = entryOf(key);
    if (!e)
        return std::nullopt;
    Row r;
    r.kind = key.kind;
    r.rank = key.rank;
    switch (key.kind) {
    case RowKind::Rank:
        r.height = kHeaderHeight;
        return r;
    case RowKind::Group:
        if (!e->data)
            return std::nullopt;
        r.height = kProcessHeight;
        return r;
    case RowKind::Process:
        if (!e->data || static_cast<size_t>(key.item) >= e->data->processes.size())
            return std::nullopt;
        r.process = key.item;
        r.height = kProcessHeight;
        return r;
    case RowKind::Track:
    case RowKind::Counter:
        break;
    }
    if (!e->data)
        return std::nullopt;
    r.item = key.item;
    for (size_t p = 0; p < e->data->processes.size(); ++p) {
        const auto& list = key.kind == RowKind::Track ? e->data->processes[p].tracks : e->data->processes[p].counters;
        if (std::find(list.begin(), list.end(), key.item) != list.end())
            r.process = static_cast<int>(p);
    }
    if (key.kind == RowKind::Counter) {
        r.height = kCounterHeight;
        return r;
    }
    const int depth
        = static_cast<int>(std::max<size_t>(1, e->data->tracks[static_cast<size_t>(key.item)].levels.size()));
    r.levels = isTrackExpanded(key) ? depth : std::min(depth, m_maxLevels);
    r.hiddenLevels = depth - r.levels;
    r.height = r.levels * kLevelHeight + 4;
    // A collapsed row needs a second header line for its "+k levels" button.
    if (r.hiddenLevels > 0 || (isTrackExpanded(key) && depth > m_maxLevels))
        r.height = std::max(r.height, 2 * kLevelHeight + 4);
    return r;
}

void TimelineRenderer::rebuildRows()
{
    m_rows.clear();
    // Pinned rows first, in pin order, whether or not their rank or process is collapsed.
    int y = 0;
    for (const RowKey& key : m_pinned) {
        auto r = makeRow(key);
        if (!r || isHidden(key))
            continue;
        r->pinned = true;
        r->y = y;
        y += r->height;
        m_rows.push_back(*r);
    }
    m_pinnedCount = m_rows.size();
    const int visible = std::max(0, m_size.height() - kRulerHeight);
    m_pinnedHeight = std::min(y, visible / 2);

    y = 0;
    auto add = [&](const Row& r) {
        if (isPinned(r.key()))
            return;
        Row row = r;
        row.y = y;
        y += row.height;
        m_rows.push_back(row);
    };
    std::optional<Row> absent;
    for (const RowKey& rankKey : children({ RowKind::Rank, -1, 0 })) {
        if (isHidden(rankKey))
            continue;
        const RankEntry& e = m_ranks[static_cast<size_t>(rankKey.rank)];
        if (!e.hasFile && !e.data && !isPinned(rankKey)) {
            // Ranks without a timeline file share one line after the others.
            if (!absent)
                absent = *makeRow(rankKey);
            ++absent->absentRanks;
            continue;
        }
        add(*makeRow(rankKey));
        if (!e.expanded || !e.data)
            continue;
        const auto procs = children(rankKey);
        // Counter-only processes share one collapsible Group row (not while filtering rows).
        const auto counterOnly
            = [&](const RowKey& k) { return isCounterOnly(e.data->processes[static_cast<size_t>(k.item)]); };
        const bool grouped = m_filter.isEmpty() && std::count_if(procs.begin(), procs.end(), counterOnly) >= 2;
        const RowKey groupKey { RowKind::Group, rankKey.rank, 0 };
        bool groupAdded = false;
        for (const RowKey& procKey : procs) {
            if (isHidden(procKey))
                continue;
            if (grouped && counterOnly(procKey)) {
                if (isHidden(groupKey))
                    continue;
                if (!groupAdded) {
                    groupAdded = true;
                    add(*makeRow(groupKey));
                }
                if (!e.countersExpanded)
                    continue;
            }
            const Row procRow = *makeRow(procKey);
            const bool procMatches = matchesFilter(procRow);
            std::vector<Row> shown;
            for (const RowKey& key : children(procKey)) {
                if (isHidden(key))
                    continue;
                if (auto r = makeRow(key); r && (procMatches || matchesFilter(*r)))
                    shown.push_back(*r);
            }
            if (!procMatches && shown.empty())
                continue;
            add(procRow);
            // While filtering, matching rows show even in collapsed processes.
            if (m_filter.isEmpty() && e.collapsedPids.count(e.data->processes[static_cast<size_t>(procKey.item)].pid))
                continue;
            for (const Row& r : shown)
                add(r);
        }
    }
    if (absent)
        add(*absent);
    m_contentHeight = y;
    setScrollY(m_scrollY);
}

int TimelineRenderer::rowTop(const Row& row) const
{
    return row.pinned ? kRulerHeight + row.y : scrollTop() + row.y - m_scrollY;
}

void TimelineRenderer::updateBounds()
{
    int64_t begin = std::numeric_limits<int64_t>::max(), end = std::numeric_limits<int64_t>::min();
    for (const RankEntry& e : m_ranks) {
        if (!e.data || e.data->end <= e.data->begin)
            continue;
        begin = std::min(begin, e.data->begin + e.offsetNs);
        end = std::max(end, e.data->end + e.offsetNs);
    }
    if (begin < end)
        m_axis.setBounds(begin, end);
}

core::TimeAxis TimelineRenderer::axisFor(int rank) const
{
    const int64_t offset = m_ranks[static_cast<size_t>(rank)].offsetNs;
    return offset == 0 ? m_axis : m_axis.shifted(offset);
}

void TimelineRenderer::setSize(QSize size)
{
    m_size = size;
    m_axis.setWidth(std::max(1, size.width() - labelWidth()));
    // The pinned area is at most half the viewport, which just changed.
    const int pinned = m_pinnedCount > 0 ? m_rows[m_pinnedCount - 1].y + m_rows[m_pinnedCount - 1].height : 0;
    m_pinnedHeight = std::min(pinned, std::max(0, size.height() - kRulerHeight) / 2);
    setScrollY(m_scrollY);
}

void TimelineRenderer::setScrollY(int y)
{
    m_scrollY = std::clamp(y, 0, std::max(0, m_contentHeight - scrollViewportHeight()));
}

int TimelineRenderer::rowAt(QPoint p) const
{
    if (p.y() < kRulerHeight || p.y() >= m_size.height())
        return -1;
    const bool pinned = p.y() < scrollTop();
    const int cy = pinned ? p.y() - kRulerHeight : p.y() - scrollTop() + m_scrollY;
    const auto first = m_rows.begin() + (pinned ? 0 : static_cast<std::ptrdiff_t>(m_pinnedCount));
    const auto last = pinned ? m_rows.begin() + static_cast<std::ptrdiff_t>(m_pinnedCount) : m_rows.end();
    const auto it = std::upper_bound(first, last, cy, [](int v, const Row& r) { return v < r.y; });
    if (it == first)
        return -1;
    const Row& r = *(it - 1);
    return cy < r.y + r.height ? static_cast<int>(it - 1 - m_rows.begin()) : -1;
}

std::optional<TimelineRenderer::Hit> TimelineRenderer::hitTest(QPoint p) const
{
    const int index = rowAt(p);
    if (index < 0 || p.x() < labelWidth())
        return std::nullopt;
    const Row& row = m_rows[static_cast<size_t>(index)];
    if (row.kind != RowKind::Track)
        return std::nullopt;
    const auto& data = m_ranks[static_cast<size_t>(row.rank)].data;
    const query::SliceTrack& track = data->tracks[static_cast<size_t>(row.item)];
    const int depth = (p.y() - rowTop(row) - 2) / kLevelHeight;
    if (depth < 0 || depth >= row.levels || static_cast<size_t>(depth) >= track.levels.size())
        return std::nullopt;
    const auto box = query::TimelineLayout::hitTest(
        track.levels[static_cast<size_t>(depth)], axisFor(row.rank), p.x() - labelWidth());
    if (!box)
        return std::nullopt;
    return Hit { index, row.rank, query::SliceRef { row.item, depth, box->first }, *box };
}

int TimelineRenderer::rowOfTrack(int rank, int track) const
{
    for (size_t i = 0; i < m_rows.size(); ++i) {
        const Row& r = m_rows[i];
        if (r.kind == RowKind::Track && r.rank == rank && r.item == track)
            return static_cast<int>(i);
    }
    return -1;
}

int TimelineRenderer::rowOfRank(int rank) const
{
    for (size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].kind == RowKind::Rank && m_rows[i].rank == rank)
            return static_cast<int>(i);
    }
    return -1;
}

std::optional<double> TimelineRenderer::sliceY(int rank, const query::SliceRef& ref) const
{
    const int index = rowOfTrack(rank, ref.track);
    if (index < 0)
        return std::nullopt;
    const Row& r = m_rows[static_cast<size_t>(index)];
    // A slice below the level cap points at the row's last drawn level.
    const int depth = std::min(ref.depth, std::max(0, r.levels - 1));
    return rowTop(r) + 2 + depth * kLevelHeight + kLevelHeight / 2.0;
}

} // namespace npuscope::gui
