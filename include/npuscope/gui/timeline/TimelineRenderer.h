// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/core/TimeAxis.h"
#include "npuscope/query/RankTimeline.h"
#include "npuscope/query/TimelineLayout.h"

#include <QColor>
#include <QFont>
#include <QPoint>
#include <QSize>
#include <QString>

#include <algorithm>
#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

class QPainter;

namespace npuscope::gui {

// Rows, time axis and painting of the timeline, without a widget: the TimelineView drives it and
// the benchmark paints it into a QImage. Painting reads only the in-memory RankTimeline arrays
// (no SQL, no waiting). GUI thread only (or one thread at a time for offscreen use).
class TimelineRenderer {
public:
    static constexpr int kLabelWidth = 230; // row names column (px) of a view at least kLabelWidth / 0.3 wide
    static constexpr int kMinLabelWidth = 120;
    // The row names column of a view `viewWidth` wide: kLabelWidth, or 30 % of a narrow view (at least
    // kMinLabelWidth): at 683 px (1366×768 at scale 2) a fixed 230 px left the time axis one ruler tick.
    static int labelWidthFor(int viewWidth) { return std::clamp(viewWidth * 3 / 10, kMinLabelWidth, kLabelWidth); }
    int labelWidth() const { return labelWidthFor(m_size.width()); }
    static constexpr int kRulerHeight = 26;
    static constexpr int kLevelHeight = 17;
    static constexpr int kCounterHeight = 38;
    static constexpr int kHeaderHeight = 22;
    static constexpr int kProcessHeight = 18;
    // Nesting levels a thread row shows until it is expanded (setMaxLevels changes it).
    static constexpr int kDefaultMaxLevels = 2;
    // A process with more rows than this (e.g. the 9 HCCL plane rows) starts collapsed.
    static constexpr int kMaxRowsExpanded = 6;

    // Group: one header per rank over its counter-only processes (HBM, LLC, ...), collapsed by default.
    enum class RowKind { Rank, Process, Track, Counter, Group };
    // Identity of a row that survives rebuilds (pins, hidden rows, order, expanded levels).
    struct RowKey {
        RowKind kind = RowKind::Rank;
        int rank = 0; // index into ranks(); -1 for the root (parent of the ranks)
        int item = 0; // process index for Process rows, track / counter index for Track / Counter rows
        auto operator<=>(const RowKey&) const = default;
    };
    struct Row {
        RowKind kind = RowKind::Rank;
        int rank = 0; // index into ranks()
        int process = 0; // index into the rank's processes
        int item = 0; // track or counter index
        int y = 0; // top: in the pinned area when pinned, else in scrolled content coordinates
        int height = 0;
        bool pinned = false;
        int levels = 0; // Track rows: nesting levels drawn
        int hiddenLevels = 0; // Track rows: deeper levels not drawn (row collapsed to the level cap)
        // A Rank row standing for every rank without a timeline file (rank: the first of them): one line says which
        // and why instead of a row per rank.
        int absentRanks = 0;
        RowKey key() const { return { kind, rank, kind == RowKind::Process ? process : item }; }
    };
    struct RankEntry {
        int64_t rank = 0;
        query::RankTimelinePtr data; // null until loaded
        bool hasFile = true;
        bool loading = false;
        QString error; // why the timeline could not be loaded; empty when it loaded or was not tried
        bool expanded = false;
        std::set<int64_t> collapsedPids;
        bool countersExpanded = false; // the Group row of counter-only processes
        int64_t offsetNs = 0; // display time = data time + offsetNs
        // The rank's timeline file looks cut off (DeferredSniff::truncation): a mark is drawn where its data ends.
        bool truncated = false;
    };
    // A point (begin == end) or range marker, in display time (ns).
    struct Marker {
        QString name;
        int64_t begin = 0;
        int64_t end = 0;
        bool isRange() const { return end > begin; }
    };
    // A slice (or a fold of slices) under a point.
    struct Hit {
        int row = -1;
        int rank = 0; // index into ranks()
        query::SliceRef ref;
        query::LayoutBox box;
    };
    struct SliceSelection {
        int rank = 0; // index into ranks()
        query::SliceRef ref;
        bool operator==(const SliceSelection&) const = default;
    };

    TimelineRenderer();

    std::vector<RankEntry>& ranks() { return m_ranks; }
    const std::vector<RankEntry>& ranks() const { return m_ranks; }
    // The entry of key's rank (an index into ranks()); nullptr when there is none.
    const RankEntry* entryOf(const RowKey& key) const
    {
        return key.rank >= 0 && static_cast<size_t>(key.rank) < m_ranks.size() ? &m_ranks[static_cast<size_t>(key.rank)]
                                                                               : nullptr;
    }
    // Recomputes the flat row list after ranks were added, loaded, expanded or collapsed, or any
    // row state below changed. Pinned rows come first in rows() (they stay at the top, unscrolled).
    void rebuildRows();
    const std::vector<Row>& rows() const { return m_rows; }
    // Height of the scrolled rows (the pinned rows excluded).
    int contentHeight() const { return m_contentHeight; }
    // Height of the pinned area below the ruler (at most half the viewport).
    int pinnedHeight() const { return m_pinnedHeight; }
    // Widget y where scrolled rows start, and the height they have.
    int scrollTop() const { return kRulerHeight + m_pinnedHeight; }
    int scrollViewportHeight() const { return std::max(0, m_size.height() - scrollTop()); }
    // Top of a row in widget coordinates.
    int rowTop(const Row& row) const;
    // Union of the extents of the loaded ranks (offsets applied); the axis bounds follow it.
    void updateBounds();
    // The axis for drawing a rank's own (unshifted) times: the view axis shifted by its offset.
    core::TimeAxis axisFor(int rank) const;

    // Row state. Keys refer to rank indexes: call resetRowState() when the ranks are replaced.
    void resetRowState();
    int maxLevels() const { return m_maxLevels; }
    void setMaxLevels(int levels); // >= 1
    bool isTrackExpanded(const RowKey& key) const { return m_expandedTracks.count(key) > 0; }
    void setTrackExpanded(const RowKey& key, bool expanded);
    bool isPinned(const RowKey& key) const;
    void setPinned(const RowKey& key, bool pinned);
    bool isHidden(const RowKey& key) const { return m_hidden.count(key) > 0; }
    void setHidden(const RowKey& key, bool hidden);
    int hiddenCount() const { return static_cast<int>(m_hidden.size()); }
    const std::vector<RowKey>& pinnedKeys() const { return m_pinned; } // in pin order
    const std::set<RowKey>& hiddenKeys() const { return m_hidden; }
    void showAllRows() { m_hidden.clear(); }
    // Moves a row among its siblings (ranks, a rank's processes, a process's rows), skipping hidden
    // ones; false when it is already first / last.
    bool moveRow(const Row& row, int delta);
    // Rows whose name (or whose process's name) contains text, case-insensitive; empty shows all.
    // While a filter is set, collapsed processes and the Counters group show their matching rows.
    QString rowFilter() const { return m_filter; }
    void setRowFilter(const QString& text) { m_filter = text; }
    // Collapses the processes that start collapsed: counters only, or more than kMaxRowsExpanded rows.
    void applyDefaultCollapse(int rank);
    // A process with counters and no thread rows (grouped under the rank's Group row).
    static bool isCounterOnly(const query::TimelineProcess& proc)
    {
        return proc.tracks.empty() && !proc.counters.empty();
    }
    // Name shown in a row's header.
    QString rowName(const Row& row) const;
    std::vector<Marker>& markers() { return m_markers; }

    core::TimeAxis& axis() { return m_axis; }
    const core::TimeAxis& axis() const { return m_axis; }
    void setSize(QSize size); // whole drawing area including label column and ruler
    QSize size() const { return m_size; }
    int scrollY() const { return m_scrollY; }
    void setScrollY(int y);

    // Row index at a widget point (below the ruler), -1 if none.
    int rowAt(QPoint p) const;
    std::optional<Hit> hitTest(QPoint p) const;
    // Row index of a track, -1 when not shown (collapsed).
    int rowOfTrack(int rank, int track) const;
    // Row index of a rank's header, -1 when hidden.
    int rowOfRank(int rank) const;
    // Vertical centre (widget coordinates) of a slice, if its row is shown.
    std::optional<double> sliceY(int rank, const query::SliceRef& ref) const;

    std::optional<SliceSelection> selection() const { return m_selection; }
    void setSelection(std::optional<SliceSelection> s) { m_selection = s; }
    std::optional<std::pair<int64_t, int64_t>> range() const { return m_range; }
    void setRange(std::optional<std::pair<int64_t, int64_t>> r) { m_range = r; }
    // Slices outlined as highlighted (an operator's occurrences): key (rank index, track, depth) -> ascending slice
    // indexes into that level. Painting binary-searches the visible part, so a frame costs the highlighted slices in
    // view (at most one outline per pixel column), not all of them.
    using HighlightKey = std::tuple<int, int, int>;
    void setHighlights(std::map<HighlightKey, std::vector<size_t>> highlights) { m_highlights = std::move(highlights); }
    const std::map<HighlightKey, std::vector<size_t>>& highlights() const { return m_highlights; }
    // Communication ops marked across ranks (a collective instance's members or a blame chain's hops): rank is an index
    // into ranks(), begin / end the op on the rank's own clock (ns). An instance's spans are drawn as the op's extent
    // on its rank's header row and its arrival as a line over the rank's rows, the last arriver's in red; a chain's
    // spans are outlined and linked by arrows in order.
    struct FocusSpan {
        int rank = 0;
        int64_t begin = 0;
        int64_t end = 0;
        bool late = false;
    };
    void setFocus(std::vector<FocusSpan> spans, bool chain)
    {
        m_focus = std::move(spans);
        m_focusChain = chain;
    }
    const std::vector<FocusSpan>& focus() const { return m_focus; }
    // Puts these ranks (indexes into ranks()) first among the ranks, in this order; the others keep their order.
    void bringRanksToTop(const std::vector<int>& rankIndexes);
    // Flow categories drawn for every slice in view (the selected slice's flows are always drawn).
    std::set<std::string>& allFlowCategories() { return m_allFlowCategories; }
    void setHover(std::optional<Hit> hit) { m_hover = hit; }

    void paint(QPainter& painter) const;

    // Colour of a slice name (stable per name id).
    static QColor colorOf(int64_t nameId);
    // Time relative to the start of the loaded data, with a unit suited to the step (ruler labels).
    static QString rulerLabel(int64_t offsetNs, double stepNs);

    // Dark canvas colours (the window's dark theme); the slices keep their palette. TimelineView sets it from its
    // palette before each paint.
    void setDark(bool dark) { m_dark = dark; }
    bool isDark() const { return m_dark; }

private:
    void paintRuler(QPainter& p) const;
    void paintMarkers(QPainter& p) const;
    void paintRows(QPainter& p, size_t first, size_t last, int clipTop, int clipBottom) const;
    std::vector<RowKey> children(const RowKey& parent) const;
    std::vector<RowKey> defaultChildren(const RowKey& parent) const;
    RowKey parentOf(const Row& row) const;
    std::optional<Row> makeRow(const RowKey& key) const;
    bool matchesFilter(const Row& row) const;
    void paintRow(QPainter& p, const Row& row, int top) const;
    // The label column of a track or counter row: its background, then p set for its text.
    void beginLabel(QPainter& p, const Row& row, int top) const;
    void paintTrack(QPainter& p, const Row& row, int top) const;
    void paintHighlights(QPainter& p, const Row& row, size_t depth, const core::TimeAxis& axis, double y) const;
    void paintCounter(QPainter& p, const Row& row, int top) const;
    void paintFlows(QPainter& p) const;
    void paintFocus(QPainter& p) const;
    void paintFlow(QPainter& p, int rank, const query::FlowRecord& f, const QColor& color) const;

    std::vector<RankEntry> m_ranks;
    std::vector<Row> m_rows;
    size_t m_pinnedCount = 0;
    int m_contentHeight = 0;
    int m_pinnedHeight = 0;
    int m_maxLevels = kDefaultMaxLevels;
    std::set<RowKey> m_expandedTracks;
    std::vector<RowKey> m_pinned; // in pin order
    std::set<RowKey> m_hidden;
    std::map<RowKey, std::vector<RowKey>> m_order; // parent -> children, when reordered
    QString m_filter;
    std::vector<Marker> m_markers;
    core::TimeAxis m_axis;
    QSize m_size { 800, 600 };
    int m_scrollY = 0;
    std::optional<SliceSelection> m_selection;
    std::optional<std::pair<int64_t, int64_t>> m_range;
    std::optional<Hit> m_hover;
    std::set<std::string> m_allFlowCategories;
    std::map<HighlightKey, std::vector<size_t>> m_highlights;
    std::vector<FocusSpan> m_focus;
    bool m_focusChain = false;
    QFont m_font;
    bool m_dark = false;
    QFont m_smallFont;
    mutable std::vector<query::LayoutBox> m_boxes;
    mutable std::vector<query::CounterPoint> m_points;
};

} // namespace npuscope::gui
