// SPDX-License-Identifier: Apache-2.0
// TimelineDock's answers about what is selected: a slice's details (args, parent chain, flows), the statistics of a
// selected range, slice search and its results, and the occurrences of the operator picked in the Operators view.
// Loading, layout and the rank rows are in TimelineDock.cpp.
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

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString us(int64_t ns) { return TimeFormat::withUnit(ns, TimeFormat::Unit::Microseconds); }

} // namespace

bool TimelineDock::selectSliceById(int64_t sliceId, bool centre)
{
    auto& ranks = m_view->renderer().ranks();
    for (size_t r = 0; r < ranks.size(); ++r) {
        if (!ranks[r].data)
            continue;
        if (const auto ref = ranks[r].data->find(sliceId)) {
            if (!ranks[r].expanded) {
                ranks[r].expanded = true;
                m_view->relayout();
            }
            const int64_t pid = ranks[r].data->tracks[static_cast<size_t>(ref->track)].pid;
            if (ranks[r].collapsedPids.erase(pid))
                m_view->relayout();
            m_view->selectSlice(static_cast<int>(r), *ref, centre);
            showSelection(static_cast<int>(r), *ref);
            return true;
        }
    }
    return false;
}

void TimelineDock::showSelection(int rank, const query::SliceRef& ref)
{
    const auto tl = m_view->renderer().ranks()[static_cast<size_t>(rank)].data;
    if (!tl)
        return;
    const auto& track = tl->tracks[static_cast<size_t>(ref.track)];
    const auto& level = track.levels[static_cast<size_t>(ref.depth)];
    const int64_t id = level.id[ref.index];
    const int64_t offset = m_view->renderer().ranks()[static_cast<size_t>(rank)].offsetNs;
    const int64_t origin = m_view->renderer().axis().boundsBegin() - offset;

    QString html = QStringLiteral("<h3>%1</h3>").arg(qs(tl->nameOf(level.nameId[ref.index])).toHtmlEscaped());
    html += QStringLiteral("<table cellspacing=2>");
    auto row = [&html](const QString& k, const QString& v) {
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(k.toHtmlEscaped(), v);
    };
    row(tr("Rank"), QString::number(tl->rank));
    row(tr("Row"), qs(track.name).toHtmlEscaped() + QStringLiteral(" (pid %1, tid %2)").arg(track.pid).arg(track.tid));
    row(tr("Start"),
        QStringLiteral("+%1 (%2 ns)").arg(us(level.start[ref.index] - origin)).arg(level.start[ref.index]));
    row(tr("Duration"), us(level.end[ref.index] - level.start[ref.index]));
    if (offset != 0)
        row(tr("Rank offset"), QStringLiteral("%1 ns").arg(offset));
    row(tr("Depth"), QString::number(ref.depth));
    row(tr("Slice id"), QString::number(id));
    html += QStringLiteral("</table>");

    html += QStringLiteral("<h4>%1</h4>").arg(tr("Parent chain"));
    QStringList chain;
    for (auto p = tl->parentOf(ref); p; p = tl->parentOf(*p)) {
        const auto& pl = tl->tracks[static_cast<size_t>(p->track)].levels[static_cast<size_t>(p->depth)];
        chain << QStringLiteral("<a href=\"slice:%1\">%2</a> (%3)")
                     .arg(pl.id[p->index])
                     .arg(qs(tl->nameOf(pl.nameId[p->index])).toHtmlEscaped(),
                         us(pl.end[p->index] - pl.start[p->index]));
    }
    html += chain.isEmpty() ? tr("(top level)") : chain.join(QStringLiteral("<br>\u2191 "));

    html += QStringLiteral("<h4>%1</h4>").arg(tr("Flows"));
    const auto flows = tl->flowsOf(id);
    if (flows.empty())
        html += tr("(none)");
    for (int fi : flows) {
        const auto& f = tl->flows[static_cast<size_t>(fi)];
        const bool outgoing = f.srcSlice && *f.srcSlice == id;
        const auto other = outgoing ? f.dstSlice : f.srcSlice;
        QString otherName = tr("unbound");
        if (other) {
            if (const auto oref = tl->find(*other)) {
                const auto& ol = tl->tracks[static_cast<size_t>(oref->track)].levels[static_cast<size_t>(oref->depth)];
                otherName = QStringLiteral("<a href=\"slice:%1\">%2</a> on %3")
                                .arg(*other)
                                .arg(qs(tl->nameOf(ol.nameId[oref->index])).toHtmlEscaped(),
                                    qs(tl->tracks[static_cast<size_t>(oref->track)].name).toHtmlEscaped());
            }
        }
        html += QStringLiteral("%1 %2 %3 %4<br>")
                    .arg(qs(f.cat).toHtmlEscaped(), outgoing ? QStringLiteral("\u2192") : QStringLiteral("\u2190"),
                        otherName, qs(f.name).toHtmlEscaped());
    }
    m_details->setHtml(html + QStringLiteral("<h4>%1</h4><i>%2</i>").arg(tr("Args"), tr("loading\u2026")));
    m_tabs->setCurrentWidget(m_details);

    // Args and category live only in the model: fetch them off the GUI thread.
    m_detailsRunner->run([id](model::Database& db) { return load::SourceDetails::slice(db, id); },
        [this, html](std::optional<query::SliceDetails> d) {
            QString args = QStringLiteral("<h4>%1</h4>").arg(tr("Args"));
            if (!d) {
                m_details->setHtml(html + args + tr("(not in the model)"));
                return;
            }
            args += QStringLiteral("<table cellspacing=2>");
            if (!d->category.empty())
                args += QStringLiteral("<tr><td><b>cat</b></td><td>%1</td></tr>").arg(qs(d->category).toHtmlEscaped());
            const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(d->argsJson));
            const QJsonObject obj = doc.object();
            for (auto it = obj.begin(); it != obj.end(); ++it) {
                const QJsonValue v = it.value();
                const QString text = v.isString() ? v.toString()
                    : v.isDouble()                ? QString::number(v.toDouble(), 'g', 17)
                                   : QString::fromUtf8(QJsonDocument(QJsonArray { v }).toJson(QJsonDocument::Compact))
                                         .mid(1)
                                         .chopped(1);
                args += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                            .arg(it.key().toHtmlEscaped(), text.toHtmlEscaped());
            }
            args += QStringLiteral("</table>");
            if (!d->argsError.empty())
                args += QStringLiteral("<i>%1</i>").arg(qs(d->argsError).toHtmlEscaped());
            else if (obj.isEmpty())
                args += tr("(none)");
            m_details->setHtml(html + args);
        });
}

QString TimelineDock::detailsText() const { return m_details->toPlainText(); }

void TimelineDock::computeStats(int64_t b, int64_t e)
{
    std::vector<query::TrackSelection> tracks;
    for (const auto& [rank, track] : m_view->rangeTracks()) {
        const auto& entry = m_view->renderer().ranks()[static_cast<size_t>(rank)];
        if (entry.data)
            tracks.push_back({ entry.data, track, entry.offsetNs });
    }
    m_statsLabel->setText(tr("Computing\u2026"));
    const size_t trackCount = tracks.size();
    const auto done = [this, b, e, trackCount](std::vector<query::AreaStat> stats) {
        const auto statsCount = stats.size();
        m_statsModel->setStats(stats);
        const int sortColumn = m_statsView->horizontalHeader()->sortIndicatorSection();
        m_statsModel->sort(sortColumn, m_statsView->horizontalHeader()->sortIndicatorOrder());
        m_statsLabel->setText(
            tr("%1 \u2013 %2 (%3) over %4 rows: %5 names")
                .arg(TimeFormat::adaptive(static_cast<double>(b - m_view->renderer().axis().boundsBegin())),
                    TimeFormat::adaptive(static_cast<double>(e - m_view->renderer().axis().boundsBegin())),
                    TimeFormat::adaptive(static_cast<double>(e - b)))
                .arg(trackCount)
                .arg(statsCount));
        m_tabs->setCurrentIndex(1);
    };
    const auto failed = [this](const QString& message) { m_statsLabel->setText(tr("Failed: %1").arg(message)); };
    m_statsRunner->runInMemory(
        [tracks, b, e](
            const std::shared_ptr<model::Database>&) { return query::TimelineQuery::areaStats(tracks, b, e); },
        done, failed);
}

bool TimelineDock::exportStatsCsv(const QString& path) const { return m_statsModel->exportCsv(path); }

void TimelineDock::search(const QString& text, bool caseSensitive)
{
    if (m_searchEdit->text() != text)
        m_searchEdit->setText(text); // re-enters through textChanged
    if (m_caseBox->isChecked() != caseSensitive)
        m_caseBox->setChecked(caseSensitive);
    const auto ranks = loadedRanks(false);
    const std::string needle = text.toStdString();
    const auto done = [this](std::vector<query::SearchHit> hits) {
        m_hits = std::move(hits);
        m_hitIndex = -1;
        fillHitsTable();
        m_searchLabel->setText(m_hits.empty() ? (m_searchEdit->text().isEmpty() ? QString() : tr("no match"))
                                              : tr("%1 matches").arg(m_hits.size()));
    };
    m_searchRunner->runInMemory(
        [ranks, needle, caseSensitive](const std::shared_ptr<model::Database>&) {
            return query::TimelineQuery::search(ranks, needle, caseSensitive);
        },
        done, [this](const QString& message) { m_searchLabel->setText(tr("search failed: %1").arg(message)); });
}

void TimelineDock::fillHitsTable()
{
    const int shown = static_cast<int>(std::min<size_t>(m_hits.size(), 5000));
    m_hitsTable->setRowCount(shown);
    const int64_t origin = m_view->renderer().axis().boundsBegin();
    const auto& ranksList = m_view->renderer().ranks();
    for (int i = 0; i < shown; ++i) {
        const auto& h = m_hits[static_cast<size_t>(i)];
        const query::RankTimeline* tl = nullptr;
        int64_t offset = 0;
        for (const auto& e : ranksList) {
            if (e.rank == h.rank && e.data) {
                tl = e.data.get();
                offset = e.offsetNs;
            }
        }
        if (!tl)
            continue;
        const auto& track = tl->tracks[static_cast<size_t>(h.ref.track)];
        const auto& level = track.levels[static_cast<size_t>(h.ref.depth)];
        m_hitsTable->setItem(i, 0, new QTableWidgetItem(QString::number(h.rank)));
        m_hitsTable->setItem(i, 1, new QTableWidgetItem(qs(track.name)));
        m_hitsTable->setItem(i, 2, new QTableWidgetItem(qs(tl->nameOf(level.nameId[h.ref.index]))));
        m_hitsTable->setItem(i, 3, new QTableWidgetItem(QStringLiteral("+") + us(h.start + offset - origin)));
        m_hitsTable->setItem(i, 4, new QTableWidgetItem(us(h.end - h.start)));
    }
}

void TimelineDock::goToHit(int index)
{
    if (m_hits.empty())
        return;
    m_hitIndex = (index % searchHitCount() + searchHitCount()) % searchHitCount();
    const auto& h = m_hits[static_cast<size_t>(m_hitIndex)];
    auto& ranks = m_view->renderer().ranks();
    for (size_t r = 0; r < ranks.size(); ++r) {
        if (ranks[r].rank != h.rank || !ranks[r].data)
            continue;
        if (!ranks[r].expanded)
            setRankExpanded(static_cast<int>(r), true);
        const int64_t pid = ranks[r].data->tracks[static_cast<size_t>(h.ref.track)].pid;
        if (ranks[r].collapsedPids.erase(pid))
            m_view->relayout();
        m_view->selectSlice(static_cast<int>(r), h.ref, true);
        showSelection(static_cast<int>(r), h.ref);
    }
    m_searchLabel->setText(tr("%1 of %2").arg(m_hitIndex + 1).arg(m_hits.size()));
}

void TimelineDock::nextHit() { goToHit(m_hitIndex + 1); }

void TimelineDock::previousHit() { goToHit(m_hitIndex < 0 ? -1 : m_hitIndex - 1); }

size_t TimelineDock::highlightedCount() const
{
    size_t n = 0;
    for (const auto& [key, indexes] : m_view->renderer().highlights())
        n += indexes.size();
    return n;
}

void TimelineDock::highlightOperator(bool zoom)
{
    const auto op = workspace()->selectedOperator();
    m_clearOperator->setVisible(op.has_value());
    if (!op) {
        m_operatorRunner->cancelPending();
        m_view->renderer().setHighlights({});
        m_view->update();
        return;
    }
    std::vector<query::RankTimelinePtr> ranks;
    for (const auto& e : m_view->renderer().ranks()) {
        if (e.data && (!op->rank || e.rank == *op->rank))
            ranks.push_back(e.data);
    }
    const QString key = QString::fromStdString(op->key);
    struct Found {
        std::vector<query::SearchHit> hits;
        int64_t kernels = 0;
    };
    m_operatorRunner->runInMemory(
        [ranks, by = op->by, k = op->key, rank = op->rank](const std::shared_ptr<model::Database>& db) {
            query::OperatorOccurrences::Kernels kernels;
            {
                auto guard = db->lock();
                kernels = query::OperatorOccurrences::kernels(*db, by, k, rank);
            }
            return Found { query::OperatorOccurrences::find(kernels, ranks), kernels.count };
        },
        [this, zoom, key](Found found) {
            auto& renderer = m_view->renderer();
            std::map<TimelineRenderer::HighlightKey, std::vector<size_t>> highlights;
            for (const auto& h : found.hits) {
                for (size_t r = 0; r < renderer.ranks().size(); ++r) {
                    if (renderer.ranks()[r].rank == h.rank)
                        highlights[{ static_cast<int>(r), h.ref.track, h.ref.depth }].push_back(h.ref.index);
                }
            }
            for (auto& [k, indexes] : highlights)
                std::sort(indexes.begin(), indexes.end());
            renderer.setHighlights(std::move(highlights));
            // The occurrences become the search results: next / previous and the results tab step through them.
            m_searchRunner->cancelPending();
            m_hits = std::move(found.hits);
            m_hitIndex = -1;
            fillHitsTable();
            m_searchLabel->setText(tr("%1: %2 occurrences (%3 kernels)")
                                       .arg(QFontMetrics(font()).elidedText(key, Qt::ElideMiddle, 260))
                                       .arg(m_hits.size())
                                       .arg(found.kernels));
            m_view->update();
            if (!zoom || m_hits.empty())
                return;
            // The first occurrence in the selected step, else the first one.
            int first = 0;
            if (const auto step = workspace()->step()) {
                const std::string stepName = "ProfilerStep#" + std::to_string(*step);
                for (size_t i = 0; i < m_hits.size(); ++i) {
                    const auto& h = m_hits[i];
                    const auto tl = std::find_if(renderer.ranks().begin(), renderer.ranks().end(),
                        [&](const auto& e) { return e.rank == h.rank && e.data; });
                    const auto span = tl == renderer.ranks().end()
                        ? std::nullopt
                        : query::TimelineQuery::spanOfName({ tl->data }, stepName);
                    if (span && h.start >= span->first && h.start < span->second) {
                        first = static_cast<int>(i);
                        break;
                    }
                }
            }
            goToHit(first);
            const auto& h = m_hits[static_cast<size_t>(first)];
            int64_t offset = 0;
            int rankIndex = -1;
            for (size_t r = 0; r < renderer.ranks().size(); ++r) {
                if (renderer.ranks()[r].rank == h.rank) {
                    offset = renderer.ranks()[r].offsetNs;
                    rankIndex = static_cast<int>(r);
                }
            }
            // The kernel's row at the top of the view (the dock may have been laid out anew since it was raised).
            m_view->scrollToRow(renderer.rowOfTrack(rankIndex, h.ref.track));
            // Wide enough to see the kernel's neighbours, narrow enough to see the kernel.
            const int64_t pad = std::max<int64_t>(20'000, (h.end - h.start) * 10);
            m_view->fitRange(h.start + offset - pad, h.end + offset + pad);
            m_searchLabel->setText(tr("%1: %2 of %3")
                                       .arg(QFontMetrics(font()).elidedText(key, Qt::ElideMiddle, 260))
                                       .arg(first + 1)
                                       .arg(m_hits.size()));
        });
}

} // namespace npuscope::gui
