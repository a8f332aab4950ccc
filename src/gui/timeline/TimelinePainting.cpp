// SPDX-License-Identifier: Apache-2.0
// TimelineRenderer's painting: the canvas colours, the ruler, each row's slices, tracks, counters and highlights,
// the markers, the focus of a selected collective and the flow arrows. The row model (which rows exist, their
// order, collapse, pinning, hit testing) is in TimelineRenderer.cpp.
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

// The canvas colours of one theme. The slices keep one pastel palette in both themes (their text stays dark).
struct CanvasColors {
    QColor background, labelBackground, grid, rankHeader, processHeader, text, secondaryText, link, fold, rulerLine,
        rulerText, divider, hover, marker, markerRange, flow;
};
const CanvasColors kLight { QColor(255, 255, 255), QColor(244, 245, 247), QColor(232, 234, 238), QColor(222, 228, 240),
    QColor(236, 239, 245), QColor(30, 34, 40), QColor(110, 116, 126), QColor(40, 90, 190), QColor(128, 134, 148),
    QColor(200, 204, 210), QColor(140, 146, 156), QColor(150, 156, 170), QColor(40, 40, 40), QColor(200, 40, 150),
    QColor(200, 40, 150, 28), QColor(90, 110, 160, 150) };
const CanvasColors kDark { QColor(30, 32, 36), QColor(41, 44, 50), QColor(50, 54, 61), QColor(44, 56, 80),
    QColor(37, 42, 51), QColor(222, 225, 230), QColor(156, 162, 172), QColor(120, 170, 245), QColor(104, 110, 124),
    QColor(72, 76, 86), QColor(156, 162, 172), QColor(96, 102, 116), QColor(235, 235, 235), QColor(240, 100, 200),
    QColor(240, 100, 200, 40), QColor(150, 170, 220, 170) };
const QColor kSliceText(30, 34, 40);
const QColor kSelection(255, 140, 0);
const QColor kHighlight(220, 0, 200); // an operator's occurrences (Workspace::selectedOperator)
const QColor kRange(60, 120, 220, 40);
const QColor kArrival(30, 140, 70); // a collective member's arrival (start of its op)
const QColor kLastArrival(215, 30, 30); // the instance's last arriver

const CanvasColors& canvas(bool dark) { return dark ? kDark : kLight; }

QString qs(const std::string& s) { return QString::fromStdString(s); }

} // namespace

QColor TimelineRenderer::colorOf(int64_t nameId)
{
    // A fixed pastel palette: neighbours differ, names keep their colour between frames and views.
    static const QColor kPalette[]
        = { QColor(114, 167, 227), QColor(240, 165, 95), QColor(129, 199, 132), QColor(229, 115, 115),
              QColor(179, 157, 219), QColor(161, 136, 127), QColor(240, 138, 190), QColor(144, 164, 174),
              QColor(212, 205, 92), QColor(77, 208, 225), QColor(255, 183, 77), QColor(174, 213, 129) };
    auto h = static_cast<uint64_t>(nameId) * 0x9E3779B97F4A7C15ull;
    return kPalette[(h >> 40) % std::size(kPalette)];
}

QString TimelineRenderer::rulerLabel(int64_t offsetNs, double stepNs)
{
    const double v = static_cast<double>(offsetNs);
    auto fmt = [&](double unit, const char* suffix) {
        // Enough decimals to tell neighbouring ticks apart.
        int decimals = 0;
        for (double s = stepNs / unit; s < 1 && decimals < 9; s *= 10)
            ++decimals;
        return QString::number(v / unit, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(suffix);
    };
    if (stepNs >= 1e8)
        return fmt(1e9, "s");
    if (stepNs >= 1e5)
        return fmt(1e6, "ms");
    if (stepNs >= 1e2)
        return fmt(1e3, "\u00b5s");
    return fmt(1, "ns");
}

void TimelineRenderer::paintRows(QPainter& p, size_t first, size_t last, int clipTop, int clipBottom) const
{
    if (first >= last || clipBottom <= clipTop)
        return;
    p.save();
    p.setClipRect(QRect(0, clipTop, m_size.width(), clipBottom - clipTop));
    const auto begin = m_rows.begin() + static_cast<std::ptrdiff_t>(first);
    const auto end = m_rows.begin() + static_cast<std::ptrdiff_t>(last);
    // Rows intersecting the viewport, by binary search on y.
    const int top = begin->pinned ? 0 : m_scrollY;
    auto it = std::upper_bound(begin, end, top, [](int v, const Row& r) { return v < r.y; });
    if (it != begin)
        --it;
    for (; it != end; ++it) {
        const int y = rowTop(*it);
        if (y >= clipBottom)
            break;
        paintRow(p, *it, y);
    }
    p.restore();
}

void TimelineRenderer::paint(QPainter& p) const
{
    p.fillRect(QRect(QPoint(0, 0), m_size), canvas(m_dark).background);
    p.setFont(m_font);
    const int bottom = m_size.height();
    paintRows(p, m_pinnedCount, m_rows.size(), scrollTop(), bottom);
    paintRows(p, 0, m_pinnedCount, kRulerHeight, scrollTop());
    if (m_pinnedHeight > 0) {
        p.setPen(canvas(m_dark).divider);
        p.drawLine(0, scrollTop() - 1, m_size.width(), scrollTop() - 1);
    }
    p.save();
    p.setClipRect(QRect(labelWidth(), kRulerHeight, m_size.width() - labelWidth(), bottom - kRulerHeight));
    paintMarkers(p);
    // Range selection over all rows.
    if (m_range) {
        const double x0 = labelWidth() + std::max(-10.0, m_axis.toPx(m_range->first));
        const double x1 = labelWidth() + std::min(m_axis.width() + 10, m_axis.toPx(m_range->second));
        if (x1 > x0) {
            p.fillRect(QRectF(x0, kRulerHeight, std::max(1.0, x1 - x0), bottom - kRulerHeight), kRange);
            p.setPen(QColor(60, 120, 220));
            p.drawLine(QPointF(x0, kRulerHeight), QPointF(x0, bottom));
            p.drawLine(QPointF(x1, kRulerHeight), QPointF(x1, bottom));
        }
    }
    paintFlows(p);
    p.restore();
    p.save();
    p.setClipRect(QRect(labelWidth(), scrollTop(), m_size.width() - labelWidth(), bottom - scrollTop()));
    paintFocus(p);
    p.restore();
    paintRuler(p);
}

void TimelineRenderer::paintMarkers(QPainter& p) const
{
    const int bottom = m_size.height();
    for (const Marker& m : m_markers) {
        const double x0 = labelWidth() + std::max(-10.0, m_axis.toPx(m.begin));
        const double x1 = labelWidth() + std::min(m_axis.width() + 10, m_axis.toPx(m.end));
        if (x1 < labelWidth() - 1 || x0 > m_size.width() + 1)
            continue;
        if (m.isRange())
            p.fillRect(
                QRectF(x0, kRulerHeight, std::max(1.0, x1 - x0), bottom - kRulerHeight), canvas(m_dark).markerRange);
        p.setPen(QPen(canvas(m_dark).marker, 1, Qt::DashLine));
        p.drawLine(QPointF(x0, kRulerHeight), QPointF(x0, bottom));
        if (m.isRange())
            p.drawLine(QPointF(x1, kRulerHeight), QPointF(x1, bottom));
    }
}

void TimelineRenderer::paintFocus(QPainter& p) const
{
    if (m_focus.empty())
        return;
    // Each focused rank's block of scrolled rows: its header row and the rows below it.
    std::map<int, std::pair<int, int>> blocks; // rank index -> (header top, block bottom), widget y
    for (const FocusSpan& f : m_focus)
        blocks.emplace(f.rank, std::pair { -1, -1 });
    for (const Row& row : m_rows) {
        const auto it = blocks.find(row.rank);
        if (row.pinned || it == blocks.end())
            continue;
        const int top = rowTop(row);
        if (row.kind == RowKind::Rank)
            it->second.first = top;
        it->second.second = std::max(it->second.second, top + row.height);
    }
    std::optional<QPointF> previous;
    for (const FocusSpan& f : m_focus) {
        const auto [top, bottom] = blocks[f.rank];
        if (top < 0) {
            previous.reset();
            continue;
        }
        const core::TimeAxis axis = axisFor(f.rank);
        const double x0 = labelWidth() + std::max(-10.0, axis.toPx(f.begin));
        const double x1 = labelWidth() + std::min(axis.width() + 10, axis.toPx(f.end));
        const QColor colour = f.late ? kLastArrival : kArrival;
        QColor band = colour;
        band.setAlpha(m_focusChain ? 40 : 70);
        const QRectF header(x0, top + 2, std::max(2.0, x1 - x0), kHeaderHeight - 4);
        p.fillRect(header, band);
        p.setPen(QPen(colour, m_focusChain ? 2 : 1));
        p.setBrush(Qt::NoBrush);
        if (m_focusChain)
            p.drawRect(header);
        else
            p.drawLine(QPointF(x0, top), QPointF(x0, bottom));
        // Arrival: a triangle on the header row, larger for the last arriver.
        const double size = f.late ? 6 : 4;
        QPolygonF tip;
        tip << QPointF(x0 - size, top + 1) << QPointF(x0 + size, top + 1) << QPointF(x0, top + 1 + size * 1.5);
        p.setBrush(colour);
        p.drawPolygon(tip);
        p.setBrush(Qt::NoBrush);
        // A chain goes from the delayed instance back to its root: each hop points at the one that explains it.
        const QPointF here(x0, top + kHeaderHeight / 2.0);
        if (m_focusChain && previous) {
            p.setPen(QPen(kLastArrival, 1.5));
            p.drawLine(*previous, here);
            const QPointF d = here - *previous;
            const double len = std::hypot(d.x(), d.y());
            if (len > 8) {
                const QPointF u = d / len, n(-u.y(), u.x());
                QPolygonF head;
                head << here << here - u * 8 + n * 4 << here - u * 8 - n * 4;
                p.setBrush(kLastArrival);
                p.drawPolygon(head);
                p.setBrush(Qt::NoBrush);
            }
        }
        previous = here;
    }
}

void TimelineRenderer::paintRuler(QPainter& p) const
{
    const int w = m_size.width();
    p.fillRect(QRect(0, 0, w, kRulerHeight), canvas(m_dark).labelBackground);
    p.setPen(canvas(m_dark).rulerLine);
    p.drawLine(0, kRulerHeight - 1, w, kRulerHeight - 1);
    if (!m_axis.hasBounds())
        return;
    p.setFont(m_smallFont);
    p.setPen(canvas(m_dark).text);
    p.drawText(QRect(6, 0, labelWidth() - 12, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
        QObject::tr("window %1").arg(TimeFormat::adaptive(m_axis.windowNs())));
    // 1-2-5 steps at least ~90 px apart.
    const double minStep = m_axis.nsPerPx() * 90;
    double step = 1;
    while (step < minStep) {
        if (step * 2 >= minStep) {
            step *= 2;
            break;
        }
        if (step * 5 >= minStep) {
            step *= 5;
            break;
        }
        step *= 10;
    }
    const auto stepNs = static_cast<int64_t>(step);
    const int64_t origin = m_axis.boundsBegin();
    // First tick at or after the window start, on a multiple of the step from the data start.
    const int64_t rel = m_axis.start() - origin;
    int64_t tick = origin + (rel >= 0 ? (rel + stepNs - 1) / stepNs : rel / stepNs) * stepNs;
    p.save();
    p.setClipRect(QRect(labelWidth(), 0, w - labelWidth(), kRulerHeight));
    for (int guard = 0; guard < 200 && tick <= m_axis.end(); ++guard, tick += stepNs) {
        const double x = labelWidth() + m_axis.toPx(tick);
        p.setPen(canvas(m_dark).rulerText);
        p.drawLine(QPointF(x, kRulerHeight - 8), QPointF(x, kRulerHeight - 1));
        // A label that would be cut at the right edge is left out: cut, "0.4 s" read "0".
        const QString label = rulerLabel(tick - origin, step);
        if (x + 3 + QFontMetricsF(m_smallFont).horizontalAdvance(label) > w)
            continue;
        p.setPen(canvas(m_dark).text);
        p.drawText(QPointF(x + 3, kRulerHeight - 10), label);
    }
    // Marker flags with their names.
    for (const Marker& m : m_markers) {
        const double x = labelWidth() + m_axis.toPx(m.begin);
        if (x < labelWidth() - 200 || x > w)
            continue;
        QPolygonF flag;
        flag << QPointF(x, kRulerHeight - 1) << QPointF(x, kRulerHeight - 12) << QPointF(x + 7, kRulerHeight - 9)
             << QPointF(x, kRulerHeight - 6);
        p.setPen(canvas(m_dark).marker);
        p.setBrush(canvas(m_dark).marker);
        p.drawPolygon(flag);
        p.setBrush(Qt::NoBrush);
        p.drawText(QPointF(x + 9, 10), m.name);
    }
    p.restore();
}

void TimelineRenderer::paintRow(QPainter& p, const Row& row, int top) const
{
    const RankEntry& e = m_ranks[static_cast<size_t>(row.rank)];
    const int w = m_size.width();
    switch (row.kind) {
    case RowKind::Rank: {
        p.fillRect(QRect(0, top, w, row.height), canvas(m_dark).rankHeader);
        p.setPen(canvas(m_dark).text);
        QFont bold = m_font;
        bold.setBold(true);
        p.setFont(bold);
        if (row.absentRanks > 0) {
            // One line for the ranks without a timeline file: which ones and why.
            std::vector<int64_t> ids;
            for (const RankEntry& other : m_ranks) {
                if (!other.hasFile && !other.data)
                    ids.push_back(other.rank);
            }
            std::sort(ids.begin(), ids.end());
            p.setFont(m_font);
            p.setPen(canvas(m_dark).text);
            const QString which = GroupTableModel::rankList(ids);
            const QString text = row.absentRanks == static_cast<int>(m_ranks.size())
                ? QObject::tr("No rank has a timeline file (trace_view.json, a MindSpore timeline, a .db export's "
                              "timeline or a CANN timeline); the cluster views have the figures")
                : QObject::tr("%n rank(s) without a timeline file (%1): their folders hold the summary files only",
                    nullptr, row.absentRanks)
                      .arg(which);
            p.drawText(QRect(6, top, w - 12, row.height), Qt::AlignVCenter | Qt::AlignLeft,
                QFontMetrics(m_font).elidedText(text, Qt::ElideRight, w - 12));
            return;
        }
        QString text
            = (e.expanded ? QStringLiteral("\u25be ") : QStringLiteral("\u25b8 ")) + QObject::tr("Rank %1").arg(e.rank);
        if (e.loading)
            text += QObject::tr("  \u00b7 loading timeline\u2026");
        else if (!e.error.isEmpty())
            text += QObject::tr("  \u00b7 \u26a0 timeline not loaded: %1").arg(e.error);
        else if (!e.hasFile)
            text += QObject::tr("  \u00b7 no trace_view.json");
        else if (!e.data)
            text += QObject::tr("  \u00b7 click to load the timeline");
        else
            text += QObject::tr("  \u00b7 %1 slices").arg(static_cast<qulonglong>(e.data->sliceCount()));
        if (e.data && e.truncated)
            text += QObject::tr("  \u00b7 \u26a0 file cut off: the timeline stops at the red line");
        if (e.offsetNs != 0)
            text += QObject::tr("  \u00b7 offset %1%2")
                        .arg(e.offsetNs > 0 ? QStringLiteral("+") : QStringLiteral("\u2212"),
                            TimeFormat::adaptive(static_cast<double>(e.offsetNs > 0 ? e.offsetNs : -e.offsetNs)));
        if (row.pinned)
            text += QObject::tr("  \u00b7 pinned");
        p.drawText(QRect(6, top, w - 12, row.height), Qt::AlignVCenter | Qt::AlignLeft, text);
        p.setFont(m_font);
        return;
    }
    case RowKind::Process: {
        const query::TimelineProcess& proc = e.data->processes[static_cast<size_t>(row.process)];
        p.fillRect(QRect(0, top, w, row.height), canvas(m_dark).processHeader);
        p.setPen(canvas(m_dark).text);
        const bool collapsed = e.collapsedPids.count(proc.pid) > 0;
        QString text = QStringLiteral("%1 %2").arg(
                           collapsed ? QStringLiteral("\u25b8") : QStringLiteral("\u25be"), qs(proc.name))
            + (proc.label.empty() ? QString() : QStringLiteral("  (%1)").arg(qs(proc.label)));
        if (collapsed) {
            const size_t n = proc.tracks.size() + proc.counters.size();
            text += n == 1 ? QObject::tr("  \u00b7 1 row") : QObject::tr("  \u00b7 %1 rows").arg(n);
        }
        if (row.pinned)
            text += QObject::tr("  \u00b7 rank %1 \u00b7 pinned").arg(e.rank);
        p.drawText(QRect(16, top, w - 20, row.height), Qt::AlignVCenter | Qt::AlignLeft, text);
        return;
    }
    case RowKind::Group: {
        p.fillRect(QRect(0, top, w, row.height), canvas(m_dark).processHeader);
        p.setPen(canvas(m_dark).text);
        int processes = 0;
        size_t series = 0;
        for (const query::TimelineProcess& proc : e.data->processes) {
            if (isCounterOnly(proc)) {
                ++processes;
                series += proc.counters.size();
            }
        }
        p.drawText(QRect(16, top, w - 20, row.height), Qt::AlignVCenter | Qt::AlignLeft,
            QObject::tr("%1 Counters  \u00b7 %2 processes, %3 series")
                .arg(e.countersExpanded ? QStringLiteral("\u25be") : QStringLiteral("\u25b8"))
                .arg(processes)
                .arg(series));
        return;
    }
    case RowKind::Track:
        paintTrack(p, row, top);
        break;
    case RowKind::Counter:
        paintCounter(p, row, top);
        break;
    }
    if (e.truncated && e.data) {
        // Where the cut-off file's data ends: nothing after this line was in the file.
        const double x = labelWidth() + m_axis.toPx(e.data->end + e.offsetNs);
        if (x >= labelWidth() && x <= w) {
            p.setPen(QPen(QColor(0xd0, 0x21, 0x21), 2, Qt::DashLine));
            p.drawLine(QPointF(x, top), QPointF(x, top + row.height));
        }
    }
    p.setPen(canvas(m_dark).grid);
    p.drawLine(0, top + row.height - 1, w, top + row.height - 1);
}

void TimelineRenderer::beginLabel(QPainter& p, const Row& row, int top) const
{
    p.fillRect(QRect(0, top, labelWidth(), row.height), canvas(m_dark).labelBackground);
    p.setPen(canvas(m_dark).text);
    p.setFont(m_font);
}

void TimelineRenderer::paintTrack(QPainter& p, const Row& row, int top) const
{
    const RankEntry& e = m_ranks[static_cast<size_t>(row.rank)];
    const query::SliceTrack& track = e.data->tracks[static_cast<size_t>(row.item)];
    beginLabel(p, row, top);
    const QString name = row.pinned ? QStringLiteral("%1 \u00b7 r%2").arg(qs(track.name)).arg(e.rank) : qs(track.name);
    p.drawText(QRect(28, top, labelWidth() - 32, kLevelHeight + 4), Qt::AlignVCenter | Qt::AlignLeft,
        QFontMetrics(m_font).elidedText(name, Qt::ElideRight, labelWidth() - 32));
    const int depth = static_cast<int>(track.levels.size());
    if (row.hiddenLevels > 0 || depth > m_maxLevels) {
        // The expand / collapse button of the row (a click in the label column toggles it).
        p.setFont(m_smallFont);
        p.setPen(canvas(m_dark).link);
        const QString levels = row.hiddenLevels > 0
            ? QObject::tr("\u25b8 +%1 levels (%2 deep)").arg(row.hiddenLevels).arg(depth)
            : QObject::tr("\u25be show %1 levels").arg(m_maxLevels);
        p.drawText(QRect(28, top + kLevelHeight, labelWidth() - 32, kLevelHeight), Qt::AlignVCenter | Qt::AlignLeft,
            QFontMetrics(m_smallFont).elidedText(levels, Qt::ElideRight, labelWidth() - 32));
    }
    const core::TimeAxis axis = axisFor(row.rank);

    const QFontMetrics fm(m_smallFont);
    p.setFont(m_smallFont);
    const double width = m_axis.width();
    const int textMin = fm.horizontalAdvance(QStringLiteral("MMM"));
    const size_t levels = std::min(track.levels.size(), static_cast<size_t>(std::max(0, row.levels)));
    for (size_t d = 0; d < levels; ++d) {
        const query::SliceLevel& level = track.levels[d];
        m_boxes.clear();
        query::TimelineLayout::layout(level, axis, m_boxes);
        const double y = top + 2 + static_cast<double>(d) * kLevelHeight;
        const double h = kLevelHeight - 1;
        for (const query::LayoutBox& b : m_boxes) {
            const double x0 = std::max(-2.0, b.x0);
            const double x1 = std::min(width + 2, std::max(b.x1, b.x0 + 1.0));
            const QRectF r(labelWidth() + x0, y, std::max(1.0, x1 - x0), h);
            if (b.folded()) {
                p.fillRect(r, canvas(m_dark).fold);
                if (r.width() > textMin) {
                    p.setPen(Qt::white);
                    p.drawText(r.adjusted(2, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                        QStringLiteral("\u00d7%1").arg(static_cast<qulonglong>(b.count)));
                }
                continue;
            }
            const int64_t nameId = level.nameId[b.first];
            p.fillRect(r, colorOf(nameId));
            if (r.width() > textMin) {
                p.setPen(kSliceText);
                p.drawText(r.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                    fm.elidedText(qs(e.data->nameOf(nameId)), Qt::ElideRight, static_cast<int>(r.width()) - 5));
            }
        }
        paintHighlights(p, row, d, axis, y);
    }
    // Hover and selection outlines on top of the boxes.
    auto outline = [&](int rank, const query::SliceRef& ref, const QColor& color, qreal penWidth) {
        if (rank != row.rank || ref.track != row.item || ref.depth < 0 || ref.depth >= row.levels
            || static_cast<size_t>(ref.depth) >= track.levels.size())
            return;
        const query::SliceLevel& level = track.levels[static_cast<size_t>(ref.depth)];
        if (ref.index >= level.size())
            return;
        const double x0 = std::max(-4.0, axis.toPx(level.start[ref.index]));
        const double x1 = std::min(width + 4, std::max(axis.toPx(level.end[ref.index]), x0 + 1));
        const double y = top + 2 + ref.depth * kLevelHeight;
        p.setPen(QPen(color, penWidth));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(labelWidth() + x0, y, x1 - x0, kLevelHeight - 1));
    };
    if (m_hover && m_hover->box.count == 1)
        outline(m_hover->rank, m_hover->ref, canvas(m_dark).hover, 1);
    if (m_selection)
        outline(m_selection->rank, m_selection->ref, kSelection, 2);
}

void TimelineRenderer::paintHighlights(
    QPainter& p, const Row& row, size_t depth, const core::TimeAxis& axis, double y) const
{
    const auto it = m_highlights.find({ row.rank, row.item, static_cast<int>(depth) });
    if (it == m_highlights.end())
        return;
    const query::SliceLevel& level
        = m_ranks[static_cast<size_t>(row.rank)].data->tracks[static_cast<size_t>(row.item)].levels[depth];
    const double width = m_axis.width();
    const auto [first, last] = level.visible(axis.toNsFloor(0), axis.toNsCeil(width));
    const auto& indexes = it->second;
    p.setPen(QPen(kHighlight, 2));
    p.setBrush(Qt::NoBrush);
    int lastPx = std::numeric_limits<int>::min();
    for (auto i = std::lower_bound(indexes.begin(), indexes.end(), first); i != indexes.end() && *i < last; ++i) {
        const double x0 = std::max(-4.0, axis.toPx(level.start[*i]));
        const double x1 = std::min(width + 4, std::max(axis.toPx(level.end[*i]), x0 + 2));
        // Many occurrences inside one pixel column draw once.
        if (static_cast<int>(x1) <= lastPx)
            continue;
        lastPx = static_cast<int>(x1);
        p.drawRect(QRectF(labelWidth() + x0, y, x1 - x0, kLevelHeight - 1));
    }
}

void TimelineRenderer::paintCounter(QPainter& p, const Row& row, int top) const
{
    const RankEntry& e = m_ranks[static_cast<size_t>(row.rank)];
    const query::CounterTrack& c = e.data->counters[static_cast<size_t>(row.item)];
    beginLabel(p, row, top);
    const QString label = rowName(row);
    p.drawText(QRect(28, top + 2, labelWidth() - 32, 16), Qt::AlignVCenter | Qt::AlignLeft,
        QFontMetrics(m_font).elidedText(label, Qt::ElideRight, labelWidth() - 32));
    p.setFont(m_smallFont);
    p.setPen(canvas(m_dark).secondaryText);
    p.drawText(QRect(28, top + 18, labelWidth() - 32, 16), Qt::AlignVCenter | Qt::AlignLeft,
        QStringLiteral("max %1").arg(c.maxValue, 0, 'g', 6));

    const core::TimeAxis axis = axisFor(row.rank);
    m_points.clear();
    query::TimelineLayout::counterPoints(c, axis, m_points);
    if (m_points.empty())
        return;
    const double base = top + row.height - 3;
    const double span = std::max(c.maxValue, 0.0) - std::min(c.minValue, 0.0);
    const double scale = span > 0 ? (row.height - 8) / span : 0;
    const double zero = base + std::min(c.minValue, 0.0) * scale;
    auto yOf = [&](double v) { return zero - v * scale; };
    // Step chart: each value holds until the next sample.
    QPainterPath path;
    const double right = axis.width();
    double x = std::max(0.0, m_points.front().x);
    path.moveTo(labelWidth() + x, zero);
    for (size_t i = 0; i < m_points.size(); ++i) {
        x = std::clamp(m_points[i].x, 0.0, right);
        const double nextX = i + 1 < m_points.size() ? std::clamp(m_points[i + 1].x, 0.0, right)
                                                     : std::max(x, std::min(right, axis.toPx(e.data->end)));
        path.lineTo(labelWidth() + x, yOf(m_points[i].value));
        path.lineTo(labelWidth() + nextX, yOf(m_points[i].value));
    }
    path.lineTo(path.currentPosition().x(), zero);
    path.closeSubpath();
    const QColor color = colorOf(static_cast<int64_t>(std::hash<std::string> {}(c.name) & 0xffffff));
    QColor fill = color;
    fill.setAlpha(110);
    p.setPen(QPen(color.darker(130), 1));
    p.setBrush(fill);
    p.drawPath(path);
    p.setBrush(Qt::NoBrush);
}

void TimelineRenderer::paintFlow(QPainter& p, int rank, const query::FlowRecord& f, const QColor& color) const
{
    const RankEntry& e = m_ranks[static_cast<size_t>(rank)];
    if (!f.srcSlice || !f.dstSlice)
        return;
    const auto src = e.data->find(*f.srcSlice);
    const auto dst = e.data->find(*f.dstSlice);
    if (!src || !dst)
        return;
    const auto ys = sliceY(rank, *src);
    const auto yd = sliceY(rank, *dst);
    if (!ys || !yd)
        return;
    const core::TimeAxis axis = axisFor(rank);
    const QPointF a(labelWidth() + axis.toPx(f.srcTs), *ys);
    const QPointF b(labelWidth() + axis.toPx(f.dstTs), *yd);
    QPainterPath path(a);
    const double dx = std::max(30.0, std::abs(b.x() - a.x()) / 2);
    path.cubicTo(a + QPointF(dx, 0), b - QPointF(dx, 0), b);
    p.setPen(QPen(color, 1.6));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    // Arrow head pointing along the curve's end tangent (horizontal, to the right).
    QPolygonF head;
    head << b << b + QPointF(-8, -4) << b + QPointF(-8, 4);
    p.setBrush(color);
    p.drawPolygon(head);
    p.drawEllipse(a, 2.5, 2.5);
    p.setBrush(Qt::NoBrush);
}

void TimelineRenderer::paintFlows(QPainter& p) const
{
    p.setRenderHint(QPainter::Antialiasing, true);
    if (!m_allFlowCategories.empty()) {
        for (size_t r = 0; r < m_ranks.size(); ++r) {
            const RankEntry& entry = m_ranks[r];
            if (!entry.data || !entry.expanded)
                continue;
            const int64_t s = m_axis.start() - entry.offsetNs, e = m_axis.end() - entry.offsetNs;
            for (const query::FlowRecord& f : entry.data->flows) {
                if (!m_allFlowCategories.count(f.cat))
                    continue;
                if (std::max(f.srcTs, f.dstTs) < s || std::min(f.srcTs, f.dstTs) > e)
                    continue;
                paintFlow(p, static_cast<int>(r), f, canvas(m_dark).flow);
            }
        }
    }
    if (m_selection) {
        const RankEntry& entry = m_ranks[static_cast<size_t>(m_selection->rank)];
        if (entry.data) {
            const query::SliceRef& ref = m_selection->ref;
            const auto& level
                = entry.data->tracks[static_cast<size_t>(ref.track)].levels[static_cast<size_t>(ref.depth)];
            const int64_t id = level.id[ref.index];
            for (int fi : entry.data->flowsOf(id))
                paintFlow(p, m_selection->rank, entry.data->flows[static_cast<size_t>(fi)], QColor(200, 40, 40));
        }
    }
    p.setRenderHint(QPainter::Antialiasing, false);
}

} // namespace npuscope::gui
