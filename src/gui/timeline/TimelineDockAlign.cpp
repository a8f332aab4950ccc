// SPDX-License-Identifier: Apache-2.0
// TimelineDock's rank alignment and markers: per-rank time offsets (align on a step's start or on the selected
// collective, reset), the collective focus, scrolling to a rank, the rank rows' context menu and the marker list.
#include "npuscope/gui/timeline/TimelineDock.h"

#include "npuscope/gui/common/TranslatedText.h"

#include "npuscope/gui/common/DeferredLoadService.h"
#include "npuscope/gui/common/ElidedLabel.h"
#include "npuscope/gui/common/TableSetup.h"

#include "npuscope/gui/common/TimeFormat.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/timeline/AreaStatsModel.h"
#include "npuscope/gui/timeline/TimelineMarkerModel.h"
#include "npuscope/gui/timeline/TimelineView.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/MemoryGuard.h"
#include "npuscope/load/SourceDetails.h"
#include "npuscope/query/OperatorOccurrences.h"
#include "npuscope/query/StepQuery.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace npuscope::gui {

void TimelineDock::offsetsChanged()
{
    m_view->relayout();
    m_markerModel->setOrigin(m_view->renderer().axis().boundsBegin());
    saveSession();
    updateSpanNote();
}

void TimelineDock::setRankOffset(int rankIndex, int64_t offsetNs)
{
    auto& ranks = m_view->renderer().ranks();
    if (rankIndex < 0 || static_cast<size_t>(rankIndex) >= ranks.size())
        return;
    ranks[static_cast<size_t>(rankIndex)].offsetNs = offsetNs;
    offsetsChanged();
}

int TimelineDock::alignRanksOnStep(int64_t step)
{
    auto& ranks = m_view->renderer().ranks();
    std::vector<query::RankTimelinePtr> timelines;
    for (const auto& e : ranks)
        timelines.push_back(e.data);
    // The first rank that has the step keeps its offset; the others move to it.
    int64_t reference = 0;
    const std::string name = "ProfilerStep#" + std::to_string(step);
    for (const auto& e : ranks) {
        if (e.data && query::TimelineQuery::spanOfName({ e.data }, name)) {
            reference = e.offsetNs;
            break;
        }
    }
    const auto offsets = query::TimelineQuery::alignOffsets(timelines, name, reference);
    int aligned = 0;
    for (size_t i = 0; i < ranks.size(); ++i) {
        if (offsets[i]) {
            ranks[i].offsetNs = *offsets[i];
            ++aligned;
        }
    }
    offsetsChanged();
    return aligned;
}

void TimelineDock::resetOffsets()
{
    for (auto& e : m_view->renderer().ranks())
        e.offsetNs = 0;
    offsetsChanged();
    fitCollectiveFocus();
}

int TimelineDock::alignRanksOnCollective()
{
    const auto focus = workspace()->collectiveFocus();
    if (!focus || focus->chain || focus->spans.empty())
        return 0;
    auto& ranks = m_view->renderer().ranks();
    std::optional<int64_t> reference; // display time of the first member's end
    int aligned = 0;
    for (const auto& s : focus->spans) {
        const int index = rankIndexOf(s.rank);
        if (index < 0)
            continue;
        auto& e = ranks[static_cast<size_t>(index)];
        if (!reference)
            reference = s.endNs + e.offsetNs;
        e.offsetNs = *reference - s.endNs;
        ++aligned;
    }
    offsetsChanged();
    fitCollectiveFocus();
    return aligned;
}

int TimelineDock::rankIndexOf(int64_t rank) const
{
    const auto& ranks = m_view->renderer().ranks();
    for (size_t i = 0; i < ranks.size(); ++i) {
        if (ranks[i].rank == rank)
            return static_cast<int>(i);
    }
    return -1;
}

void TimelineDock::applyCollectiveFocus()
{
    constexpr size_t kFocusLoads = 16;
    auto& renderer = m_view->renderer();
    const auto focus = workspace()->collectiveFocus();
    std::vector<TimelineRenderer::FocusSpan> spans;
    std::vector<int> late, others;
    if (focus) {
        for (const auto& s : focus->spans) {
            const int index = rankIndexOf(s.rank);
            if (index < 0)
                continue;
            spans.push_back({ index, s.beginNs, s.endNs, s.late });
            (s.late ? late : others).push_back(index);
            // Members are loaded (the marks sit on their header rows, loaded or not); the last arriver is opened as
            // well, being the rank whose work before the op explains the wait. A data-parallel group of a large
            // cluster has dozens of members: only the first few are loaded by themselves.
            if (s.late)
                setRankExpanded(index, true);
            else if (renderer.ranks()[static_cast<size_t>(index)].hasFile && others.size() <= kFocusLoads)
                startLoad(index);
        }
        late.insert(late.end(), others.begin(), others.end());
        renderer.bringRanksToTop(late);
    }
    renderer.setFocus(std::move(spans), focus && focus->chain);
    m_view->relayout();
    if (focus) {
        fitCollectiveFocus();
        m_view->scrollToRow(0);
    }
    m_view->update();
}

bool TimelineDock::fitCollectiveFocus()
{
    const auto& renderer = m_view->renderer();
    std::optional<std::pair<int64_t, int64_t>> span;
    for (const auto& f : renderer.focus()) {
        const int64_t offset = renderer.ranks()[static_cast<size_t>(f.rank)].offsetNs;
        const std::pair<int64_t, int64_t> shifted { f.begin + offset, f.end + offset };
        span = span ? std::pair { std::min(span->first, shifted.first), std::max(span->second, shifted.second) }
                    : shifted;
    }
    if (!span)
        return false;
    // Room on both sides for the work that led to the arrivals.
    const int64_t pad = std::max<int64_t>(1000, (span->second - span->first) / 4);
    m_view->fitRange(span->first - pad, span->second + pad);
    return true;
}

void TimelineDock::scrollToRank(int64_t rank)
{
    auto& ranks = m_view->renderer().ranks();
    for (size_t i = 0; i < ranks.size(); ++i) {
        if (ranks[i].rank != rank)
            continue;
        if (!ranks[i].expanded)
            setRankExpanded(static_cast<int>(i), true);
        m_view->scrollToRow(m_view->renderer().rowOfRank(static_cast<int>(i)));
        return;
    }
}

void TimelineDock::addRankActions(QMenu* menu, int row)
{
    const auto& r = m_view->renderer().rows()[static_cast<size_t>(row)];
    if (r.kind != TimelineRenderer::RowKind::Rank)
        return;
    const int rankIndex = r.rank;
    menu->addSeparator();
    menu->addAction(tr("Set time offset\u2026"), this, [this, rankIndex] {
        const auto& e = m_view->renderer().ranks()[static_cast<size_t>(rankIndex)];
        bool ok = false;
        const QString text = QInputDialog::getText(this, tr("Time offset"),
            tr("Offset of rank %1 in ns (added to its times):").arg(e.rank), QLineEdit::Normal,
            QString::number(e.offsetNs), &ok);
        const qlonglong value = text.trimmed().toLongLong(&ok);
        if (ok)
            setRankOffset(rankIndex, value);
    });
    menu->addAction(tr("Align ranks on the start of step\u2026"), this, &TimelineDock::promptAlign);
    menu->addAction(tr("Reset time offsets"), this, &TimelineDock::resetOffsets);
}

void TimelineDock::promptAlign()
{
    bool ok = false;
    const int step = QInputDialog::getInt(this, tr("Align ranks"), tr("Align every rank on the start of step:"),
        static_cast<int>(workspace()->step().value_or(0)), 0, 1'000'000'000, 1, &ok);
    if (ok)
        alignRanksOnStep(step);
}

void TimelineDock::addMarkerAtCursor()
{
    const auto& axis = m_view->renderer().axis();
    const int64_t ns = m_view->cursorNs().value_or(axis.toNs(axis.width() / 2));
    m_markerModel->addMarker(ns, ns);
    m_tabs->setCurrentWidget(m_markerView->parentWidget());
}

bool TimelineDock::addMarkerFromRange()
{
    const auto range = m_view->renderer().range();
    if (!range)
        return false;
    m_markerModel->addMarker(range->first, range->second);
    m_tabs->setCurrentWidget(m_markerView->parentWidget());
    return true;
}

void TimelineDock::removeSelectedMarkers()
{
    QList<int> rows;
    for (const QModelIndex& i : m_markerView->selectionModel()->selectedRows())
        rows << i.row();
    std::sort(rows.begin(), rows.end(), std::greater<>());
    for (int r : rows)
        m_markerModel->removeRows(r, 1);
}

} // namespace npuscope::gui
