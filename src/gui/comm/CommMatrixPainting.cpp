// SPDX-License-Identifier: Apache-2.0
// CommMatrixView's painting: paintEvent with its ticks, group blocks and legend. The matrix's layout, levels of
// detail and interaction are in CommMatrixView.cpp.
#include "npuscope/gui/comm/CommMatrixView.h"

#include "npuscope/gui/comm/GroupTableModel.h"
#include "npuscope/gui/comm/GroupText.h"
#include "npuscope/gui/common/TimeFormat.h"

#include <QEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

#include "CommMatrixViewParts.h"

namespace npuscope::gui {

using namespace matrix_detail;

void CommMatrixView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    m_labelRects.clear();
    m_columnTicks.clear();
    m_blockLabelHits.clear();
    m_rowBlockLabels.clear();
    m_columnBlockLabels.clear();
    m_slowestRing = {};
    const int n = static_cast<int>(m_data->ranks.size());
    if (n == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("No communication links for this selection"));
        return;
    }
    const Layout l = layout();
    const QRect plot = l.plot;
    const QPointF px = cellPixels(plot);
    const int k = blockSize();
    const Level* ready = level(k);
    // While a worker builds this zoom's image: the nearest one built, drawn at its own block size.
    int drawnK = k;
    const Level* lv = ready ? ready : nearestLevel(k, &drawnK);

    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::WindowText));
    QRect drawn;
    p.drawText(l.caption, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, l.captionText, &drawn);
    m_labelRects.push_back(drawn);
    p.setFont(font());

    p.save();
    p.setClipRect(plot);
    if (lv) {
        paintCells(p, plot, *lv, drawnK);
    } else {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(plot, Qt::AlignCenter | Qt::TextWordWrap, tr("Drawing the matrix\u2026"));
    }
    // Group blocks on the diagonal.
    QColor frame = palette().color(QPalette::Text);
    frame.setAlpha(90);
    p.setPen(QPen(frame, 1));
    p.setBrush(Qt::NoBrush);
    if (m_data->blocks.size() > 1) {
        for (const auto& b : m_data->blocks) {
            const QRectF r(plot.left() + (static_cast<double>(b.begin) - m_window.left()) * px.x(),
                plot.top() + (static_cast<double>(b.begin) - m_window.top()) * px.y(),
                static_cast<double>(b.end - b.begin) * px.x(), static_cast<double>(b.end - b.begin) * px.y());
            if (std::min(r.width(), r.height()) >= 3 && r.intersects(QRectF(plot)))
                p.drawRect(r);
        }
    }
    // The slowest non-LOCAL link (its block when aggregated): a ring that stays visible when the cell is one pixel.
    if (m_data->slowestCell && m_metric == Metric::Bandwidth) {
        const auto& c = m_data->cells[*m_data->slowestCell];
        const int row = m_position[static_cast<size_t>(c.src)] / k * k;
        const int col = m_position[static_cast<size_t>(c.dst)] / k * k;
        const QRectF cell(plot.left() + (col - m_window.left()) * px.x(), plot.top() + (row - m_window.top()) * px.y(),
            std::min(k, n - col) * px.x(), std::min(k, n - row) * px.y());
        if (QRectF(plot).intersects(cell)) {
            // At least 10 px so a one-pixel cell stays visible, moved inside the plot so an edge cell's ring is not
            // cut off, and the 2 px pen drawn within the ring's rectangle.
            QRectF ring(0, 0, std::min(std::max(10.0, cell.width()), static_cast<double>(plot.width())),
                std::min(std::max(10.0, cell.height()), static_cast<double>(plot.height())));
            ring.moveCenter(cell.center());
            const QRectF inside = QRectF(plot).adjusted(0, 0, -1, -1);
            if (ring.left() < inside.left())
                ring.moveLeft(inside.left());
            if (ring.right() > inside.right())
                ring.moveRight(inside.right());
            if (ring.top() < inside.top())
                ring.moveTop(inside.top());
            if (ring.bottom() > inside.bottom())
                ring.moveBottom(inside.bottom());
            m_slowestRing = ring;
            // The palette's highlight on a halo of its base: visible on any cell colour, light theme or dark (a
            // near-black frame disappeared on the dark theme's canvas).
            p.setPen(QPen(palette().color(QPalette::Base), 4));
            p.drawRect(ring.adjusted(1, 1, -1, -1));
            p.setPen(QPen(palette().color(QPalette::Highlight), 2));
            p.drawRect(ring.adjusted(1, 1, -1, -1));
        }
    }
    if (!m_rubberBand.isNull()) {
        QColor fill = palette().color(QPalette::Highlight);
        fill.setAlpha(50);
        p.fillRect(m_rubberBand, fill);
        p.setPen(QPen(palette().color(QPalette::Highlight), 1, Qt::DashLine));
        p.drawRect(m_rubberBand.adjusted(0, 0, -1, -1));
    }
    p.restore();
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.drawRect(plot.adjusted(-1, -1, 0, 0));

    paintTicks(p, l);
    paintBlocks(p, l);
    paintLegend(p, l, lv, k);
}

void CommMatrixView::paintCells(QPainter& p, const QRect& plot, const Level& lv, int k) const
{
    const QPointF px = cellPixels(plot);
    // Whole image pixels (blocks) around the visible window, so nearest-neighbour scaling keeps every cell's edges
    // where cellRect() says they are; the clip cuts the partly visible ones.
    const int bx0 = static_cast<int>(std::floor(m_window.left() / k));
    const int by0 = static_cast<int>(std::floor(m_window.top() / k));
    const int bx1 = std::min(lv.side, static_cast<int>(std::ceil(m_window.right() / k)));
    const int by1 = std::min(lv.side, static_cast<int>(std::ceil(m_window.bottom() / k)));
    const QRectF target(plot.left() + (bx0 * k - m_window.left()) * px.x(),
        plot.top() + (by0 * k - m_window.top()) * px.y(), (bx1 - bx0) * k * px.x(), (by1 - by0) * k * px.y());
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.drawImage(target, lv.image, QRectF(bx0, by0, bx1 - bx0, by1 - by0));

    const QPointF blockPx = px * k;
    if (std::min(blockPx.x(), blockPx.y()) >= 6) {
        p.setPen(QPen(QColor(255, 255, 255, 160), 1));
        for (int i = bx0; i <= bx1; ++i) {
            const double x = plot.left() + (i * k - m_window.left()) * px.x();
            p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom() + 1));
        }
        for (int i = by0; i <= by1; ++i) {
            const double y = plot.top() + (i * k - m_window.top()) * px.y();
            p.drawLine(QPointF(plot.left(), y), QPointF(plot.right() + 1, y));
        }
    }
}

void CommMatrixView::paintTicks(QPainter& p, const Layout& l)
{
    const int n = static_cast<int>(m_data->ranks.size());
    const QFontMetrics fm = fontMetrics();
    const QRect plot = l.plot;
    const QPointF px = cellPixels(plot);
    int64_t widest = 0;
    for (int64_t r : m_data->ranks)
        widest = std::max(widest, r);
    const int labelWidth = fm.horizontalAdvance(QString::number(widest));
    // The axis positions to label: every one when each has room; else ranks on a 1-2-5 scale when the axis ascends
    // (monotonic and evenly spaced); else none when group labels name the blocks; else every few positions.
    auto positions = [&](double from, double visible, double pxAxis, double needed) {
        std::vector<int> out;
        const int first = std::max(0, static_cast<int>(std::floor(from)));
        const int last = std::min(n - 1, static_cast<int>(std::ceil(from + visible)) - 1);
        if (pxAxis >= needed) {
            for (int i = first; i <= last; ++i)
                out.push_back(i);
            return out;
        }
        if (!m_ascending && !m_data->blocks.empty())
            return out;
        const int64_t step = std::max<int64_t>(1, std::llround(niceStep(needed / pxAxis, 1))); // whole ranks
        double previous = -std::numeric_limits<double>::infinity();
        for (int i = first; i <= last; ++i) {
            const int64_t key = m_ascending ? m_data->ranks[static_cast<size_t>(i)] : i;
            const double centre = (i + 0.5 - from) * pxAxis;
            if (key % step != 0 || centre - previous < needed)
                continue;
            out.push_back(i);
            previous = centre;
        }
        return out;
    };
    p.setPen(palette().color(QPalette::WindowText));
    const QColor tick = palette().color(QPalette::Mid);
    // Columns, above the plot (the first label may reach into the empty corner left of it).
    QRect previous;
    const int colTop = plot.top() - kGap - fm.height();
    for (int i : positions(m_window.left(), m_window.width(), px.x(), labelWidth + 8.0)) {
        const QString text = QString::number(m_data->ranks[static_cast<size_t>(i)]);
        const int w = fm.horizontalAdvance(text);
        const double x = plot.left() + (i + 0.5 - m_window.left()) * px.x();
        QRect r(static_cast<int>(std::lround(x - w / 2.0)), colTop, w, fm.height());
        if (r.left() < 0)
            r.moveLeft(0);
        if (r.right() > width() - 1)
            r.moveRight(width() - 1);
        if (!previous.isNull() && r.left() <= previous.right() + 3)
            continue;
        p.drawText(r, Qt::AlignCenter, text);
        p.setPen(tick);
        p.drawLine(QPointF(x, plot.top() - 3), QPointF(x, plot.top() - 1));
        p.setPen(palette().color(QPalette::WindowText));
        m_labelRects.push_back(r);
        m_columnTicks.push_back(m_data->ranks[static_cast<size_t>(i)]);
        previous = r;
    }
    // Rows, left of the plot; a label may move down or up by up to half its height to stay beside the plot (clear of
    // the column labels), so the scale leaves room for that.
    previous = {};
    const int rowRight = plot.left() - kGap;
    for (int i : positions(m_window.top(), m_window.height(), px.y(), fm.height() * 1.5 + 2.0)) {
        const QString text = QString::number(m_data->ranks[static_cast<size_t>(i)]);
        const int w = fm.horizontalAdvance(text);
        const double y = plot.top() + (i + 0.5 - m_window.top()) * px.y();
        QRect r(rowRight - w, static_cast<int>(std::lround(y - fm.height() / 2.0)), w, fm.height());
        if (r.top() < plot.top())
            r.moveTop(plot.top());
        if (r.bottom() > plot.bottom())
            r.moveBottom(plot.bottom());
        if (!previous.isNull() && r.top() <= previous.bottom() + 1)
            continue;
        p.drawText(r, Qt::AlignRight | Qt::AlignVCenter, text);
        p.setPen(tick);
        p.drawLine(QPointF(plot.left() - 3, y), QPointF(plot.left() - 1, y));
        p.setPen(palette().color(QPalette::WindowText));
        m_labelRects.push_back(r);
        previous = r;
    }
}

void CommMatrixView::paintBlocks(QPainter& p, const Layout& l)
{
    if (m_data->blocks.empty())
        return;
    const QFontMetrics fm = fontMetrics();
    const QRect plot = l.plot;
    const QPointF px = cellPixels(plot);
    const QColor shade = palette().color(QPalette::AlternateBase);
    const QColor text = palette().color(QPalette::WindowText);
    QRect previousRow, previousCol;
    // One label every rowStride / colStride blocks, the same stride along the axis, so the labels are evenly spaced
    // when they do not fit every block (skipping whichever overlapped the last one drawn spaced them unevenly).
    double rowPx = std::numeric_limits<double>::infinity(), colPx = rowPx;
    int widest = 0;
    for (size_t bi = 0; bi < m_data->blocks.size(); ++bi) {
        const auto& b = m_data->blocks[bi];
        rowPx = std::min(rowPx, static_cast<double>(b.end - b.begin) * px.y());
        colPx = std::min(colPx, static_cast<double>(b.end - b.begin) * px.x());
        widest = std::max(widest, fm.horizontalAdvance(m_blockLabels[bi]));
    }
    const auto stride = [](double needed, double pitch) {
        return pitch > 0 && std::isfinite(pitch) ? std::max(1, static_cast<int>(std::ceil(needed / pitch))) : 1;
    };
    // A little more than the overlap checks below ask, for the rounding of label positions to whole pixels.
    const int rowStride = stride(fm.height() + 4, rowPx);
    // Column blocks too narrow for their labels show their first rank instead (the row label of the same block starts
    // with it; the whole label is in the tooltip) when that fits every block: a label on every column block.
    std::vector<QString> compact(m_data->blocks.size());
    int widestCompact = 0;
    for (size_t bi = 0; bi < m_data->blocks.size(); ++bi) {
        const auto& b = m_data->blocks[bi];
        const size_t end = std::min(b.end, m_data->ranks.size());
        if (b.begin < end)
            compact[bi]
                = QString::number(*std::min_element(m_data->ranks.begin() + static_cast<std::ptrdiff_t>(b.begin),
                    m_data->ranks.begin() + static_cast<std::ptrdiff_t>(end)));
        widestCompact = std::max(widestCompact, fm.horizontalAdvance(compact[bi]));
    }
    const bool compactColumns = widest + 4 > colPx && widestCompact + 10 <= colPx;
    const int colStride
        = widest + 4 <= colPx || compactColumns ? 1 : stride(std::min(widest, kMaxColumnLabel) + 10, colPx);
    // Shading first, then the labels: a column label may reach over the next blocks' shading.
    for (int pass = 0; pass < 2; ++pass) {
        const bool labels = pass == 1;
        for (size_t bi = 0; bi < m_data->blocks.size(); ++bi) {
            const auto& b = m_data->blocks[bi];
            const QString& label = m_blockLabels[bi];
            // Rows: the block's extent shaded on every other block, the label centred on it (elided to the band).
            const double y0
                = std::max<double>(plot.top(), plot.top() + (static_cast<double>(b.begin) - m_window.top()) * px.y());
            const double y1 = std::min<double>(
                plot.bottom() + 1, plot.top() + (static_cast<double>(b.end) - m_window.top()) * px.y());
            if (y1 > y0) {
                const QRect extent(l.rowBlocks.left(), static_cast<int>(y0), l.rowBlocks.width(),
                    std::max(1, static_cast<int>(y1) - static_cast<int>(y0)));
                // Shaded in runs of rowStride blocks: each run starts with its label (one per block, two blocks
                // apart, left runs of shading without a label that read as empty label boxes).
                if (!labels) {
                    if ((bi / static_cast<size_t>(rowStride)) % 2 == 1)
                        p.fillRect(extent, shade);
                    m_blockLabelHits.emplace_back(extent, bi);
                }
                const QString shown = fm.elidedText(label, Qt::ElideRight, l.rowBlocks.width() - 4);
                QRect r(l.rowBlocks.left() + 2, static_cast<int>(std::lround((y0 + y1 - fm.height()) / 2.0)),
                    fm.horizontalAdvance(shown), fm.height());
                if (r.top() < plot.top())
                    r.moveTop(plot.top());
                if (r.bottom() > plot.bottom())
                    r.moveBottom(plot.bottom());
                if (labels && !shown.isEmpty() && static_cast<int>(bi) % rowStride == 0
                    && (previousRow.isNull() || r.top() > previousRow.bottom() + 1)) {
                    p.setPen(text);
                    p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, shown);
                    m_labelRects.push_back(r);
                    m_rowBlockLabels.emplace_back(bi, r);
                    previousRow = r;
                }
            }
            // Columns: centred over the block when it fits, else from the block's start over the next ones.
            const double x0 = std::max<double>(
                plot.left(), plot.left() + (static_cast<double>(b.begin) - m_window.left()) * px.x());
            const double x1 = std::min<double>(
                plot.right() + 1, plot.left() + (static_cast<double>(b.end) - m_window.left()) * px.x());
            if (x1 > x0) {
                const QRect extent(static_cast<int>(x0), l.colBlocks.top(),
                    std::max(1, static_cast<int>(x1) - static_cast<int>(x0)), l.colBlocks.height());
                if (!labels) {
                    if ((bi / static_cast<size_t>(colStride)) % 2 == 1)
                        p.fillRect(extent, shade);
                    m_blockLabelHits.emplace_back(extent, bi);
                }
                const QString& columnLabel = compactColumns ? compact[bi] : label;
                const int full = fm.horizontalAdvance(columnLabel);
                QString shown = columnLabel;
                QRect r;
                if (compactColumns) {
                    // At the block's start, as a row label is: evenly spaced whatever the number's width.
                    r = QRect(static_cast<int>(x0) + 3, l.colBlocks.top(), full, fm.height());
                } else if (full <= x1 - x0 - 4) {
                    r = QRect(
                        static_cast<int>(std::lround((x0 + x1 - full) / 2.0)), l.colBlocks.top(), full, fm.height());
                } else {
                    shown = fm.elidedText(label, Qt::ElideRight, std::min(full, kMaxColumnLabel));
                    r = QRect(static_cast<int>(x0) + 2, l.colBlocks.top(), fm.horizontalAdvance(shown), fm.height());
                }
                if (r.right() > width() - 1)
                    r.moveRight(width() - 1);
                if (labels && !shown.isEmpty() && static_cast<int>(bi) % colStride == 0
                    && (previousCol.isNull() || r.left() > previousCol.right() + 6)) {
                    p.setPen(text);
                    p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, shown);
                    m_labelRects.push_back(r);
                    m_columnBlockLabels.emplace_back(bi, r);
                    previousCol = r;
                }
            }
        }
    }
}

void CommMatrixView::paintLegend(QPainter& p, const Layout& l, const Level* lv, int k)
{
    const QFontMetrics fm = fontMetrics();
    const int lx = l.legend.left();
    const int textX = lx + kLegendBar + kGap;
    const int textWidth = l.legend.right() - textX + 1;
    // Lines under the scale: the aggregated mode's block size and statistic, the zoom.
    QStringList notes;
    if (k > 1) {
        notes << tr("%1 \u00d7 %1 ranks").arg(k);
        notes << (m_metric == Metric::Bandwidth ? tr("min bandwidth")
                : m_metric == Metric::Size      ? tr("sum of sizes")
                : m_metric == Metric::Time      ? tr("max time")
                                                : tr("shared transport"));
    }
    if (zoom() > 1.0 + 1e-9)
        notes << tr("zoom %1\u00d7").arg(zoom(), 0, 'f', 1);
    const int line = fm.height();
    const int notesHeight = notes.isEmpty() ? 0 : kGap * 2 + line * static_cast<int>(notes.size());
    int y = l.legend.top();
    auto note = [&](const QString& s, int atY) {
        const QString shown = fm.elidedText(s, Qt::ElideRight, l.legend.right() - lx + 1);
        const QRect r(lx, atY, fm.horizontalAdvance(shown), line);
        p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, shown);
        m_labelRects.push_back(r);
    };
    p.setPen(palette().color(QPalette::WindowText));
    if (m_metric == Metric::Transport) {
        const int entry = std::max(20, line + 4);
        for (const char* t : { "HCCS", "SDMA", "RDMA", "PCIE", "SIO", "LOCAL", "mixed" }) {
            if (y + entry > l.legend.bottom() - notesHeight)
                break;
            p.fillRect(QRect(lx, y + (entry - 14) / 2, 14, 14), transportColor(t));
            const QRect r(textX, y, std::min(textWidth, fm.horizontalAdvance(QString::fromLatin1(t))), entry);
            p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, QString::fromLatin1(t));
            m_labelRects.push_back(r);
            y += entry;
        }
    } else if (lv && lv->range) {
        const int lh = std::max(0, std::min(260, l.legend.height() - notesHeight));
        if (lh >= line * 2) {
            for (int i = 0; i < lh; ++i) {
                const double t = 1.0 - static_cast<double>(i) / std::max(1, lh - 1);
                p.fillRect(QRect(lx, y + i, kLegendBar, 1), ramp(t, m_metric == Metric::Bandwidth));
            }
            p.setPen(QPen(palette().color(QPalette::Mid), 1));
            p.drawRect(QRect(lx, y, kLegendBar, lh).adjusted(0, 0, -1, -1));
            p.setPen(palette().color(QPalette::WindowText));
            const int decimals = lv->range->second >= 100 ? 1 : 3;
            const QString unit = m_metric == Metric::Bandwidth ? QStringLiteral("GB/s")
                : m_metric == Metric::Size                     ? QStringLiteral("MB")
                                                               : QStringLiteral("ms");
            auto text = [&](const QString& s, int top) {
                const QString shown = fm.elidedText(s, Qt::ElideRight, textWidth);
                const QRect r(textX, top, fm.horizontalAdvance(shown), line);
                p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, shown);
                m_labelRects.push_back(r);
            };
            text(number(lv->range->second, decimals), y);
            text(number(lv->range->first, decimals), y + lh - line);
            if (lh >= line * 3 + 4)
                text(unit, y + (lh - line) / 2);
            y += lh;
        }
    }
    if (notes.isEmpty() || y + notesHeight > l.legend.bottom() + 1)
        return;
    y += kGap * 2;
    for (const QString& s : notes) {
        note(s, y);
        y += line;
    }
}

} // namespace npuscope::gui
