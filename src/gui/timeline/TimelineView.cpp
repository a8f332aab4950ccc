// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/timeline/TimelineView.h"

#include "npuscope/gui/common/TimeFormat.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace npuscope::gui {

namespace {
constexpr double kKeyZoom = 1.25;
constexpr size_t kMaxUndo = 100;
} // namespace

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent)
    , m_scroll(new QScrollBar(Qt::Vertical, this))
{
    setObjectName(QStringLiteral("timelineView"));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    // The row-name column (230 px) and a usable strip of canvas: narrow enough that the dock, with its Details pane,
    // fits a 1366 px screen at 200 % scaling (683 logical px) without a horizontal scroll bar.
    setMinimumSize(320, 200);
    connect(m_scroll, &QScrollBar::valueChanged, this, [this](int v) {
        m_renderer.setScrollY(v);
        update();
    });
}

void TimelineView::relayout()
{
    const auto& axis = m_renderer.axis();
    const bool hadBounds = axis.hasBounds();
    // A view showing all the data keeps showing all of it when a rank loads or an offset changes.
    const bool showedAll = hadBounds && axis.start() <= axis.boundsBegin() && axis.end() >= axis.boundsEnd();
    const auto oldBounds = std::pair { axis.boundsBegin(), axis.boundsEnd() };
    m_renderer.rebuildRows();
    m_renderer.updateBounds();
    const bool boundsChanged = oldBounds != std::pair { axis.boundsBegin(), axis.boundsEnd() };
    if (axis.hasBounds() && (!hadBounds || (showedAll && boundsChanged)))
        m_renderer.axis().fitBounds();
    syncScrollBar();
    update();
}

void TimelineView::syncScrollBar()
{
    const int visible = m_renderer.scrollViewportHeight();
    m_scroll->setGeometry(
        width() - m_scroll->sizeHint().width(), m_renderer.scrollTop(), m_scroll->sizeHint().width(), visible);
    m_scroll->setRange(0, std::max(0, m_renderer.contentHeight() - visible));
    m_scroll->setPageStep(visible);
    m_scroll->setSingleStep(TimelineRenderer::kLevelHeight * 2);
    m_scroll->setVisible(m_renderer.contentHeight() > visible);
    m_scroll->setValue(m_renderer.scrollY());
}

void TimelineView::pushUndo()
{
    if (m_undo.empty() || !(m_undo.back() == m_renderer.axis()))
        m_undo.push_back(m_renderer.axis());
    if (m_undo.size() > kMaxUndo)
        m_undo.erase(m_undo.begin());
}

void TimelineView::fitAll()
{
    pushUndo();
    m_renderer.axis().fitBounds();
    update();
}

void TimelineView::fitRange(int64_t begin, int64_t end)
{
    pushUndo();
    m_renderer.axis().fit(begin, end);
    update();
}

void TimelineView::zoomAt(double xInAxis, double factor)
{
    m_renderer.axis().zoomAt(xInAxis, factor);
    update();
}

void TimelineView::scrollToRow(int row)
{
    if (row < 0 || static_cast<size_t>(row) >= m_renderer.rows().size())
        return;
    const auto& r = m_renderer.rows()[static_cast<size_t>(row)];
    if (!r.pinned)
        m_renderer.setScrollY(r.y);
    syncScrollBar();
    update();
}

void TimelineView::selectSlice(int rank, const query::SliceRef& ref, bool centre)
{
    m_renderer.setSelection(TimelineRenderer::SliceSelection { rank, ref });
    const auto& entry = m_renderer.ranks()[static_cast<size_t>(rank)];
    // A slice below the row's level cap: show the whole row.
    const TimelineRenderer::RowKey trackKey { TimelineRenderer::RowKind::Track, rank, ref.track };
    const int row = m_renderer.rowOfTrack(rank, ref.track);
    if (row >= 0 && ref.depth >= m_renderer.rows()[static_cast<size_t>(row)].levels) {
        m_renderer.setTrackExpanded(trackKey, true);
        relayout();
    }
    if (entry.data && centre) {
        const auto& level = entry.data->tracks[static_cast<size_t>(ref.track)].levels[static_cast<size_t>(ref.depth)];
        const int64_t s = level.start[ref.index] + entry.offsetNs, e = level.end[ref.index] + entry.offsetNs;
        const double window = m_renderer.axis().windowNs();
        if (static_cast<double>(e - s) > window * 0.8 || e - s <= 0 || window > static_cast<double>(e - s) * 200) {
            // Zoom so the slice fills about a third of the view.
            const int64_t pad = std::max<int64_t>(1, e - s);
            fitRange(s - pad, e + pad);
        } else {
            const double mid = m_renderer.axis().toPx(s + (e - s) / 2);
            m_renderer.axis().panPx(mid - m_renderer.axis().width() / 2);
        }
    }
    // Scroll the row into view.
    if (const auto y = m_renderer.sliceY(rank, ref);
        y && row >= 0 && !m_renderer.rows()[static_cast<size_t>(row)].pinned) {
        const int top = m_renderer.scrollTop();
        const int visible = m_renderer.scrollViewportHeight();
        if (*y < top + 10 || *y > height() - 10)
            m_renderer.setScrollY(m_renderer.scrollY() + static_cast<int>(*y) - top - visible / 2);
        syncScrollBar();
    }
    update();
}

void TimelineView::setRangeSelection(int64_t begin, int64_t end, std::vector<std::pair<int, int>> tracks)
{
    m_renderer.setRange(std::pair { std::min(begin, end), std::max(begin, end) });
    m_rangeTracks = std::move(tracks);
    update();
    emit rangeSelected(std::min(begin, end), std::max(begin, end));
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    // The canvas follows the theme: a dark window palette gets the dark canvas colours.
    m_renderer.setDark(palette().color(QPalette::Window).lightness() < 128);
    m_renderer.paint(p);
    if (m_renderer.ranks().empty()) {
        p.setPen(QColor(120, 120, 120));
        p.drawText(rect(), Qt::AlignCenter, tr("No profile loaded"));
    }
}

void TimelineView::resizeEvent(QResizeEvent*)
{
    m_renderer.setSize(size());
    syncScrollBar();
}

double TimelineView::cursorAxisX() const
{
    const QPoint p = mapFromGlobal(QCursor::pos());
    const double x = p.x() - m_renderer.labelWidth();
    if (x < 0 || x > m_renderer.axis().width())
        return m_renderer.axis().width() / 2;
    return x;
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    core::TimeAxis& axis = m_renderer.axis();
    switch (event->key()) {
    case Qt::Key_W:
        pushUndo();
        axis.zoomAt(cursorAxisX(), kKeyZoom);
        break;
    case Qt::Key_S:
        pushUndo();
        axis.zoomAt(cursorAxisX(), 1 / kKeyZoom);
        break;
    case Qt::Key_A:
        axis.panPx(-axis.width() * 0.1);
        break;
    case Qt::Key_D:
        axis.panPx(axis.width() * 0.1);
        break;
    case Qt::Key_F:
        if (const auto range = m_renderer.range()) {
            fitRange(range->first, range->second);
        } else if (const auto sel = m_renderer.selection()) {
            selectSlice(sel->rank, sel->ref, true);
        } else {
            fitAll();
        }
        break;
    case Qt::Key_Backspace:
        if (!m_undo.empty()) {
            axis = m_undo.back();
            axis.setWidth(std::max(1, width() - m_renderer.labelWidth()));
            m_undo.pop_back();
        }
        break;
    case Qt::Key_0:
        fitAll();
        break;
    case Qt::Key_Escape:
        m_renderer.setRange(std::nullopt);
        m_renderer.setSelection(std::nullopt);
        emit selectionCleared();
        emit rangeCleared();
        break;
    case Qt::Key_M:
        emit markerRequested(m_cursorNs ? *m_cursorNs : axis.toNs(axis.width() / 2));
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    update();
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    const QPoint delta = event->angleDelta();
    if (event->modifiers() & Qt::ControlModifier) {
        const double x = event->position().x() - m_renderer.labelWidth();
        m_renderer.axis().zoomAt(std::max(0.0, x), std::pow(1.0015, delta.y()));
    } else if (event->modifiers() & Qt::ShiftModifier || delta.x() != 0) {
        const int d = delta.x() != 0 ? delta.x() : delta.y();
        m_renderer.axis().panPx(-d * m_renderer.axis().width() / 1200.0);
    } else {
        m_renderer.setScrollY(m_renderer.scrollY() - delta.y() / 2);
        syncScrollBar();
    }
    update();
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    setFocus();
    if (event->button() != Qt::LeftButton)
        return;
    m_pressed = true;
    m_moved = false;
    m_pressPos = m_lastPos = event->position().toPoint();
    m_rangeDrag = event->modifiers() & Qt::ShiftModifier;
    if (!m_rangeDrag)
        pushUndo();
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (m_pressed) {
        if ((pos - m_pressPos).manhattanLength() > 3)
            m_moved = true;
        if (m_rangeDrag) {
            const auto& axis = m_renderer.axis();
            const int64_t a = axis.toNs(m_pressPos.x() - m_renderer.labelWidth());
            const int64_t b = axis.toNs(pos.x() - m_renderer.labelWidth());
            m_renderer.setRange(std::pair { std::min(a, b), std::max(a, b) });
        } else {
            m_renderer.axis().panPx(m_lastPos.x() - pos.x());
            m_renderer.setScrollY(m_renderer.scrollY() + m_lastPos.y() - pos.y());
            syncScrollBar();
        }
        m_lastPos = pos;
        update();
        return;
    }
    if (pos.x() >= m_renderer.labelWidth())
        m_cursorNs = m_renderer.axis().toNs(pos.x() - m_renderer.labelWidth());
    else
        m_cursorNs.reset();
    const auto hit = m_renderer.hitTest(pos);
    m_renderer.setHover(hit);
    update();
}

void TimelineView::finishRange(QPoint end)
{
    const auto& axis = m_renderer.axis();
    const int64_t a = axis.toNs(m_pressPos.x() - m_renderer.labelWidth());
    const int64_t b = axis.toNs(end.x() - m_renderer.labelWidth());
    // The rows covered vertically; a flat drag over one row takes every shown track.
    std::vector<std::pair<int, int>> tracks;
    const int r0 = m_renderer.rowAt(QPoint(0, std::min(m_pressPos.y(), end.y())));
    const int r1 = m_renderer.rowAt(QPoint(0, std::max(m_pressPos.y(), end.y())));
    const auto& rows = m_renderer.rows();
    const bool all = r0 < 0 || r1 < 0 || r0 == r1;
    for (size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i];
        if (row.kind != TimelineRenderer::RowKind::Track)
            continue;
        if (all || (static_cast<int>(i) >= r0 && static_cast<int>(i) <= r1))
            tracks.emplace_back(row.rank, row.item);
    }
    setRangeSelection(a, b, std::move(tracks));
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_pressed)
        return;
    m_pressed = false;
    const QPoint pos = event->position().toPoint();
    if (m_rangeDrag) {
        if (m_moved)
            finishRange(pos);
        return;
    }
    if (m_moved)
        return;
    if (!m_undo.empty() && m_undo.back() == m_renderer.axis())
        m_undo.pop_back(); // a click is not a pan
    const int index = m_renderer.rowAt(pos);
    if (index >= 0) {
        const auto& row = m_renderer.rows()[static_cast<size_t>(index)];
        if (row.kind == TimelineRenderer::RowKind::Rank) {
            emit rankHeaderClicked(row.rank);
            return;
        }
        if (row.kind == TimelineRenderer::RowKind::Process) {
            emit processHeaderClicked(row.rank, row.process);
            return;
        }
        if (row.kind == TimelineRenderer::RowKind::Group) {
            auto& entry = m_renderer.ranks()[static_cast<size_t>(row.rank)];
            entry.countersExpanded = !entry.countersExpanded;
            relayout();
            return;
        }
        if (row.kind == TimelineRenderer::RowKind::Track && pos.x() < m_renderer.labelWidth()
            && (row.hiddenLevels > 0 || row.levels > m_renderer.maxLevels())) {
            m_renderer.setTrackExpanded(row.key(), row.hiddenLevels > 0);
            relayout();
            return;
        }
    }
    const auto hit = m_renderer.hitTest(pos);
    if (!hit) {
        m_renderer.setSelection(std::nullopt);
        emit selectionCleared();
        update();
        return;
    }
    if (hit->box.folded()) {
        // A fold: zoom onto it so its slices come apart.
        pushUndo();
        const auto& level = m_renderer.ranks()[static_cast<size_t>(hit->rank)]
                                .data->tracks[static_cast<size_t>(hit->ref.track)]
                                .levels[static_cast<size_t>(hit->ref.depth)];
        const int64_t offset = m_renderer.ranks()[static_cast<size_t>(hit->rank)].offsetNs;
        m_renderer.axis().fit(
            level.start[hit->box.first] + offset, level.maxEnd[hit->box.first + hit->box.count - 1] + offset);
        update();
        return;
    }
    m_renderer.setSelection(TimelineRenderer::SliceSelection { hit->rank, hit->ref });
    update();
    emit sliceSelected(hit->rank, hit->ref.track, hit->ref.depth, static_cast<qulonglong>(hit->ref.index));
}

QMenu* TimelineView::createRowMenu(int index)
{
    if (index < 0 || static_cast<size_t>(index) >= m_renderer.rows().size())
        return nullptr;
    const TimelineRenderer::Row row = m_renderer.rows()[static_cast<size_t>(index)];
    const TimelineRenderer::RowKey key = row.key();
    auto* menu = new QMenu(this);
    menu->setTitle(m_renderer.rowName(row));
    const bool pinned = m_renderer.isPinned(key);
    menu->addAction(pinned ? tr("Unpin") : tr("Pin to top"), this, [this, key, pinned] {
        m_renderer.setPinned(key, !pinned);
        relayout();
        emit rowStateChanged();
    });
    menu->addAction(tr("Hide row"), this, [this, key] {
        m_renderer.setPinned(key, false);
        m_renderer.setHidden(key, true);
        relayout();
        emit rowStateChanged();
    });
    menu->addAction(tr("Move up"), this, [this, row] {
        m_renderer.moveRow(row, -1);
        relayout();
        emit rowStateChanged();
    });
    menu->addAction(tr("Move down"), this, [this, row] {
        m_renderer.moveRow(row, 1);
        relayout();
        emit rowStateChanged();
    });
    if (row.kind == TimelineRenderer::RowKind::Track && (row.hiddenLevels > 0 || row.levels > m_renderer.maxLevels())) {
        const bool expand = row.hiddenLevels > 0;
        menu->addAction(expand ? tr("Show all %1 levels").arg(row.levels + row.hiddenLevels)
                               : tr("Collapse to %1 levels").arg(m_renderer.maxLevels()),
            this, [this, key, expand] {
                m_renderer.setTrackExpanded(key, expand);
                relayout();
            });
    }
    if (m_renderer.hiddenCount() > 0) {
        menu->addSeparator();
        menu->addAction(tr("Show %1 hidden rows").arg(m_renderer.hiddenCount()), this, [this] {
            m_renderer.showAllRows();
            relayout();
            emit rowStateChanged();
        });
    }
    emit rowMenuRequested(menu, index);
    return menu;
}

void TimelineView::contextMenuEvent(QContextMenuEvent* event)
{
    const int index = m_renderer.rowAt(event->pos());
    if (index < 0 || event->pos().x() >= m_renderer.labelWidth()) {
        event->ignore();
        return;
    }
    QMenu* menu = createRowMenu(index);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(event->globalPos());
}

void TimelineView::leaveEvent(QEvent*)
{
    m_renderer.setHover(std::nullopt);
    m_cursorNs.reset();
    update();
}

bool TimelineView::event(QEvent* event)
{
    // Esc clears the timeline's own selection here before the window's Esc (clear the selected rank) gets it.
    if (event->type() == QEvent::ShortcutOverride && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape
        && (m_renderer.selection() || m_renderer.range())) {
        event->accept();
        return true;
    }
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const auto hit = m_renderer.hitTest(help->pos());
    if (!hit) {
        QToolTip::hideText();
        return true;
    }
    const auto& tl = *m_renderer.ranks()[static_cast<size_t>(hit->rank)].data;
    const auto& track = tl.tracks[static_cast<size_t>(hit->ref.track)];
    const auto& level = track.levels[static_cast<size_t>(hit->ref.depth)];
    const int64_t origin
        = m_renderer.axis().boundsBegin() - m_renderer.ranks()[static_cast<size_t>(hit->rank)].offsetNs;
    QString text;
    if (hit->box.folded()) {
        const int64_t s = level.start[hit->box.first];
        const int64_t e = level.maxEnd[hit->box.first + hit->box.count - 1];
        text = tr("<b>%1 slices</b> folded (each narrower than 2 px)<br>%2 \u2013 %3<br>click to zoom in")
                   .arg(hit->box.count)
                   .arg(TimeFormat::adaptive(static_cast<double>(s - origin)),
                       TimeFormat::adaptive(static_cast<double>(e - origin)));
    } else {
        const size_t i = hit->ref.index;
        text = tr("<b>%1</b><br>start +%2<br>duration %3<br>rank %4 \u00b7 %5 \u00b7 depth %6")
                   .arg(QString::fromStdString(tl.nameOf(level.nameId[i])).toHtmlEscaped(),
                       TimeFormat::adaptive(static_cast<double>(level.start[i] - origin)),
                       TimeFormat::withUnit(level.end[i] - level.start[i], TimeFormat::Unit::Microseconds))
                   .arg(tl.rank)
                   .arg(QString::fromStdString(track.name).toHtmlEscaped())
                   .arg(hit->ref.depth);
    }
    QToolTip::showText(help->globalPos(), text, this);
    return true;
}

} // namespace npuscope::gui
