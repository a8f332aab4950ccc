// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/memory/MemoryDetailDock.h"

#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/EmptyHint.h"
#include "npuscope/gui/common/SplitterShares.h"
#include "npuscope/gui/common/TableSetup.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/compare/BaselineComparison.h"
#include "npuscope/gui/compare/MemoryOperatorDiffModel.h"
#include "npuscope/gui/memory/MemoryCurveChart.h"
#include "npuscope/gui/memory/ModuleMemoryModel.h"
#include "npuscope/gui/memory/OperatorMemoryModel.h"
#include "npuscope/gui/common/DeferredLoadService.h"
#include "npuscope/query/RankQuery.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace npuscope::gui {

namespace {

// What the worker hands to the GUI thread: the rank's figures with the curves prepared for drawing.
QString noRecordsText(int64_t rank)
{
    return QObject::tr("Rank %1 has no memory records. They come from memory_record.csv, operator_memory.csv and "
                       "npu_module_mem.csv in ASCEND_PROFILER_OUTPUT (or the MEMORY_RECORD, OP_MEMORY and "
                       "NPU_MODULE_MEM tables of a db export), which torch_npu writes when the profiler runs with "
                       "profile_memory=True (MindSpore: profile_memory=True as well).")
        .arg(rank);
}

} // namespace

MemoryDetailDock::MemoryDetailDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Memory detail"), kObjectName, ws, parent)
    , m_chart(new MemoryCurveChart)
    , m_blocks(new OperatorMemoryModel(this))
    , m_blockProxy(new QSortFilterProxyModel(this))
    , m_modules(new ModuleMemoryModel(this))
{
    const auto [body, layout] = newColumn(this, 4);
    m_status = newWrappedLabel("memoryDetailStatus", body);
    layout->addWidget(m_status);

    auto* split = new QSplitter(Qt::Vertical, body);
    m_chart->setToolTip(QString());
    split->addWidget(m_chart);

    const auto [lower, lowerLayout] = newColumn(split);
    auto* bar = new QHBoxLayout;
    m_filter = newFilterEdit("memoryBlockFilter", tr("Filter names"), lower);
    m_filter->setMaximumWidth(260);
    bar->addWidget(m_filter);
    m_windowOnly = new QCheckBox(tr("Only blocks allocated or released in the selected window"), lower);
    m_windowOnly->setObjectName(QStringLiteral("memoryWindowOnly"));
    m_windowOnly->setToolTip(tr("The window is the Workspace's: drag on the chart above or select a range in the "
                                "timeline"));
    bar->addWidget(m_windowOnly);
    auto* clear = new QPushButton(tr("Clear window"), lower);
    clear->setToolTip(tr("Forget the selected time window (every view)"));
    bar->addWidget(clear);
    m_blockCount = new QLabel(lower);
    m_blockCount->setObjectName(QStringLiteral("memoryBlockCount"));
    // Wraps rather than widen the bar past a 1366 px screen at a scale of 2.
    m_blockCount->setWordWrap(true);
    m_blockCount->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    bar->addWidget(m_blockCount, 1);
    lowerLayout->addLayout(bar);

    auto* tables = new QSplitter(Qt::Horizontal, lower);
    m_blockProxy->setFilterKeyColumn(OperatorMemoryModel::Name);
    m_blockProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_blockTable = TableSetup::sortedTable(m_blocks, m_blockProxy, OperatorMemoryModel::ValueRole,
        { .sortable = true, .sortColumn = OperatorMemoryModel::Allocation }, tables);
    m_blockTable->setObjectName(QStringLiteral("memoryBlockTable"));
    auto* moduleProxy = new QSortFilterProxyModel(this);
    m_moduleTable = TableSetup::sortedTable(m_modules, moduleProxy, ModuleMemoryModel::ValueRole,
        { .stretchLastSection = true,
            .sortable = true,
            .sortColumn = ModuleMemoryModel::Peak,
            .sortOrder = Qt::DescendingOrder },
        tables);
    m_moduleTable->setObjectName(QStringLiteral("memoryModuleTable"));
    // Compare mode: the selected rank's allocation changes against the baseline, beside the blocks.
    const auto [compareBox, compareLayout] = newColumn(tables);
    m_compareBox = compareBox;
    m_compareBox->setObjectName(QStringLiteral("memoryCompareBox"));
    m_compareTitle = newWrappedLabel("memoryCompareTitle", m_compareBox);
    compareLayout->addWidget(m_compareTitle);
    m_compareModel = new MemoryOperatorDiffModel(this);
    auto* compareProxy = new QSortFilterProxyModel(this);
    m_compareTable = TableSetup::sortedTable(m_compareModel, compareProxy, MemoryOperatorDiffModel::ValueRole,
        { .sortable = true, .sortColumn = MemoryOperatorDiffModel::DeltaMb, .sortOrder = Qt::DescendingOrder },
        m_compareBox);
    m_compareTable->setObjectName(QStringLiteral("memoryCompareTable"));
    // The pane is narrow beside the blocks: the change (Δ, Δ %) comes right after the name, the sides after it.
    m_compareTable->horizontalHeader()->moveSection(
        MemoryOperatorDiffModel::DeltaMb, MemoryOperatorDiffModel::Name + 1);
    m_compareTable->horizontalHeader()->moveSection(
        MemoryOperatorDiffModel::DeltaPct, MemoryOperatorDiffModel::Name + 2);
    compareLayout->addWidget(m_compareTable, 1);
    m_compareBox->hide();
    tables->addWidget(m_blockTable);
    tables->addWidget(m_compareBox);
    tables->addWidget(m_moduleTable);
    tables->setStretchFactor(0, 3);
    tables->setStretchFactor(1, 2);
    tables->setStretchFactor(2, 1);
    // The modules get room for their four columns (they were cut at 1366 px): 5 : 3 : 3, the compare pane when shown.
    SplitterShares::install(tables, { 5, 3, 3 });
    lowerLayout->addWidget(tables, 1);
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    // Chart and tables 1 : 1: the chart's hint left the tables four rows on a 768 px screen.
    SplitterShares::install(split, { 1, 1 });
    layout->addWidget(split, 1);
    setBody(body);

    connect(m_filter, &QLineEdit::textChanged, m_blockProxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_windowOnly, &QCheckBox::toggled, this, &MemoryDetailDock::showBlocks);
    connect(clear, &QPushButton::clicked, this, [this] { workspace()->setTimeWindow(std::nullopt); });
    connect(m_chart, &MemoryCurveChart::rangeSelected, this, [this](qint64 begin, qint64 end) {
        workspace()->setTimeWindow(Workspace::TimeWindow { begin, end });
    });
    connect(workspace(), &Workspace::timeWindowChanged, this, &MemoryDetailDock::applyWindow);
    connect(
        BaselineComparison::of(ws), &BaselineComparison::comparisonChanged, this, &MemoryDetailDock::showComparison);
    connect(workspace(), &Workspace::selectedRankChanged, this, &MemoryDetailDock::showComparison);
    // A rank's timeline imported by another view brings its step boundaries.
    reloadOn({ &Workspace::selectedRankChanged, &Workspace::issuesAdded });
    showComparison();
    requestReload();
}

void MemoryDetailDock::showComparison()
{
    const auto diff = BaselineComparison::of(workspace())->comparison();
    // The rank the dock shows: the selected one, else the first (as the curves above).
    const auto rank = workspace()->selectedRank() ? workspace()->selectedRank() : m_rank;
    m_compareBox->setVisible(diff != nullptr);
    if (!diff) {
        m_compareModel->setRows({});
        return;
    }
    if (!rank) {
        m_compareModel->setRows({});
        m_compareTitle->setText(tr("Compared with the baseline: select a rank to see its operators whose "
                                   "allocation changed most."));
        m_compareTable->resizeColumnsToContents();
        return;
    }
    m_compareModel->setRows(MemoryOperatorDiffModel::rowsOfRank(*diff, *rank));
    QString title = tr("Rank %1 against the baseline: operators whose allocation changed most (\u03a3 Size over "
                       "the profiled window)")
                        .arg(*rank);
    for (const auto& m : diff->memory) {
        const auto matched
            = std::find_if(diff->ranks.begin(), diff->ranks.end(), [&m](const auto& r) { return r.rank == m.rank; });
        if (matched == diff->ranks.end() || matched->newRank != *rank)
            continue;
        auto mb = [](std::optional<double> v) {
            return v ? QString::number(*v, 'f', 1) + QStringLiteral(" MB") : QStringLiteral("\u2014");
        };
        title += tr("; peak reserved %1 \u2192 %2").arg(mb(m.basePeakMb), mb(m.newPeakMb));
    }
    if (m_compareModel->rowCount() == 0)
        title += tr(" \u2014 neither run has operator_memory rows for this rank.");
    m_compareTitle->setText(title);
    TableSetup::fitColumns(m_compareTable, { MemoryOperatorDiffModel::Name });
}

struct MemoryDetailDock::Shown {
    std::optional<int64_t> rank;
    query::MemoryDetail detail;
    std::vector<MemoryCurveChart::Series> series;
};

void MemoryDetailDock::reload()
{
    if (const auto selected = workspace()->selectedRank()) {
        importRank(*selected);
        return;
    }
    // Nothing selected: the first rank.
    const bool started = runner()->run(
        [](model::Database& db) {
            const auto ranks = query::RankQuery::ranks(db);
            return ranks.empty() ? std::optional<int64_t>() : std::optional<int64_t>(ranks.front().rank);
        },
        [this](std::optional<int64_t> rank) {
            if (rank)
                importRank(*rank);
            else
                showDetail(Shown {});
        });
    if (!started)
        showNoProfile();
}

void MemoryDetailDock::importRank(int64_t rank)
{
    // The rank's memory_record / operator_memory rows are deferred (the Memory group): the load service imports them
    // once, on its own pool, and answers at once when they already are.
    const quint64 request = ++m_importRequest;
    const bool started = workspace()->loads()->request(
        rank, DeferredLoadService::Part::Memory, this,
        [this, rank, request](const DeferredLoadService::Result& r) {
            if (request != m_importRequest || r.cancelled)
                return; // another rank was asked for since
            // Problems of the import show in Parse issues now.
            if (r.imported)
                workspace()->notifyIssuesAdded();
            if (!r.error.isEmpty())
                showError(tr("rank %1: memory files not loaded: %2").arg(rank).arg(r.error));
            queryDetail(rank);
        },
        /*urgent=*/true);
    if (!started)
        showNoProfile();
}

void MemoryDetailDock::queryDetail(int64_t rank)
{
    runner()->run(
        [rank](model::Database& db) {
            Shown s;
            s.rank = rank;
            s.detail = query::MemoryDetailQuery::detail(db, rank);
            s.series = MemoryCurveChart::prepare(s.detail.curves);
            s.detail.curves.clear(); // moved into series
            return s;
        },
        [this](Shown s) { showDetail(std::move(s)); });
}

void MemoryDetailDock::showDetail(Shown s)
{
    m_rank = s.rank;
    const auto& d = s.detail;
    int64_t origin = std::numeric_limits<int64_t>::max();
    size_t points = 0;
    for (const auto& series : s.series) {
        points += series.curve.points.size();
        if (!series.curve.points.empty())
            origin = std::min(origin, series.curve.points.front().t);
    }
    for (const auto& b : d.blocks) {
        if (b.allocTs)
            origin = std::min(origin, *b.allocTs);
    }
    m_origin = origin == std::numeric_limits<int64_t>::max() ? 0 : origin;
    m_allBlocks = d.blocks;
    if (!m_rank) {
        m_status->setText(tr("No ranks loaded."));
    } else if (s.series.empty() && d.blocks.empty() && d.modules.empty()) {
        m_status->setText(noRecordsText(*m_rank));
    } else {
        QString text = tr("<b>Rank %1</b>: %2 memory samples in %3 series, %4 operator blocks, %5 CANN modules")
                           .arg(*m_rank)
                           .arg(points)
                           .arg(s.series.size())
                           .arg(d.blocks.size())
                           .arg(d.modules.size());
        if (d.steps.empty())
            text += d.hasTimeline ? tr("; the timeline has no ProfilerStep slices")
                                  : tr("; step boundaries appear once the rank's timeline is loaded "
                                       "(Timeline view)");
        m_status->setText(text);
    }
    m_chart->setEmptyText(m_rank
            ? (d.blocks.empty() && d.modules.empty() ? noRecordsText(*m_rank)
                                                     : tr("Rank %1 has no memory_record samples.").arg(*m_rank))
            : tr("No ranks loaded."));
    m_chart->setSeries(std::move(s.series));
    m_chart->setSteps(d.steps);
    m_modules->setRows(d.modules);
    m_moduleTable->resizeColumnsToContents();
    applyWindow();
    showComparison(); // without a selected rank it shows the rank just loaded
}

void MemoryDetailDock::showNoProfile()
{
    m_rank.reset();
    m_allBlocks.clear();
    m_chart->setSeries({});
    m_chart->setSteps({});
    m_chart->setEmptyText(tr("Open a profile to see its memory."));
    m_modules->setRows({});
    m_status->setText(tr("Open a profile to see its memory."));
    showBlocks();
}

void MemoryDetailDock::applyWindow()
{
    const auto w = workspace()->timeWindow();
    m_chart->setWindow(w ? std::optional(std::pair { w->begin, w->end }) : std::nullopt);
    showBlocks();
}

void MemoryDetailDock::showBlocks()
{
    const auto w = workspace()->timeWindow();
    std::vector<query::OperatorMemoryRow> rows;
    if (m_windowOnly->isChecked() && w) {
        for (const auto& b : m_allBlocks) {
            if (query::MemoryDetailQuery::inWindow(b, w->begin, w->end))
                rows.push_back(b);
        }
    } else {
        rows = m_allBlocks;
    }
    const auto flagged = std::count_if(rows.begin(), rows.end(), [](const auto& b) { return b.flags != 0; });
    m_blockCount->setText(tr("%1 of %2 blocks, %3 flagged").arg(rows.size()).arg(m_allBlocks.size()).arg(flagged));
    const bool windowed = m_windowOnly->isChecked() && w;
    setEmptyHint(m_blockTable,
        m_allBlocks.empty() ? tr("No operator memory blocks for this rank: operator_memory.csv (written with "
                                 "profile_memory=True) is missing or empty.")
            : windowed      ? tr("No block is allocated or released in the selected window.")
                            : tr("No block name matches the filter."));
    m_blocks->setRows(std::move(rows), m_origin);
    // Columns fit their text; the long names give up width when they do not fit.
    TableSetup::fitColumns(m_blockTable, { OperatorMemoryModel::Name });
}

} // namespace npuscope::gui
