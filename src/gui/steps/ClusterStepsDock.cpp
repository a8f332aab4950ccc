// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/steps/ClusterStepsDock.h"
#include "npuscope/gui/common/DivergingScale.h"
#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/TableSetup.h"
#include "npuscope/query/MetricDefinitions.h"

#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/compare/BaselineComparison.h"
#include "npuscope/gui/steps/StageTableModel.h"
#include "npuscope/gui/steps/StepStatsModel.h"
#include "npuscope/gui/steps/StepTableModel.h"
#include "npuscope/query/RankQuery.h"
#include "npuscope/query/StepQuery.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace npuscope::gui {

namespace {

struct TableResult {
    std::vector<query::StepBreakdown> rows;
    std::array<query::ColumnStats, query::kStepColumnCount> stats {};
    query::ColumnStats wallStats;
    std::map<int64_t, std::string> hosts;
    std::vector<query::StageBreakdown> stages;
    int64_t loadedRanks = 0;
    // StepQuery::slowestRank over the steps the table shows: the one step, every step, or every step but each rank's
    // first (as the "but the first" mean leaves it out), so the header names the top row of the wall time column.
    std::optional<int64_t> slowestRank;
};

} // namespace

ClusterStepsDock::ClusterStepsDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Cluster steps"), kObjectName, ws, parent)
    , m_tableRunner(addRunner())
    , m_model(new StepTableModel(this))
    , m_statsModel(new StepStatsModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_stageModel(new StageTableModel(this))
{
    const auto [body, layout, bar] = makeBody({ .spacing = 0, .barGap = 4 });
    bar->addWidget(new QLabel(tr("Step:"), body));
    m_stepCombo = new QComboBox(body);
    m_stepCombo->setObjectName(QStringLiteral("stepCombo"));
    fitToItems(m_stepCombo); // the summary beside it wraps instead
    bar->addWidget(m_stepCombo);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("Unit:"), body));
    m_unitCombo = new QComboBox(body);
    m_unitCombo->addItem(QStringLiteral("\u00b5s"), static_cast<int>(TimeFormat::Unit::Microseconds));
    m_unitCombo->addItem(QStringLiteral("ms"), static_cast<int>(TimeFormat::Unit::Milliseconds));
    m_unitCombo->setCurrentIndex(m_unitCombo->findData(static_cast<int>(TimeFormat::Unit::Milliseconds)));
    bar->addWidget(m_unitCombo);
    bar->addSpacing(12);
    m_summary = newWrappedLabel("stepsSummary", body);
    m_summary->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    // All the width the combos leave (right-aligned): a word-wrapped label beside a stretch got only its minimum and
    // wrapped "2 ranks · slowest rank 0" even at 1366 px.
    bar->addWidget(m_summary, 1);
    bar->addSpacing(12);
    // The table's row count, Copy and Export CSV end this row: a low window (1366×768) keeps the footer's last row.

    m_table = TableSetup::sortedTable(m_model, m_proxy, StepTableModel::RawValueRole,
        { .singleSelection = true,
            .centeredHeader = true,
            .sortable = true,
            .sortColumn = StepTableModel::Rank,
            .toolbarRow = bar },
        body);
    m_table->setObjectName(QStringLiteral("stepsTable"));
    layout->addWidget(m_table, 1);
    auto* costliest = new QAction(tr("Costliest collectives of this rank"), m_table);
    costliest->setObjectName(QStringLiteral("stepsCostliestCollectives"));
    connect(costliest, &QAction::triggered, this, [this] {
        const QModelIndex index = m_table->currentIndex();
        if (index.isValid())
            workspace()->requestCollectivesOf({ index.data(StepTableModel::RankIdRole).toLongLong() });
    });
    m_table->addAction(costliest);

    m_footer = new QTableView(body);
    m_footer->setObjectName(QStringLiteral("stepsFooter"));
    m_footer->setModel(m_statsModel);
    // Export CSV / Copy like every table in its context menu (its look is set below: no headers, no selection); no
    // toolbar of its own: it continues the table above.
    TableSetup::install(m_footer, { .toolbar = false });
    m_footer->horizontalHeader()->hide();
    m_footer->verticalHeader()->hide();
    m_footer->verticalHeader()->setDefaultSectionSize(m_table->verticalHeader()->defaultSectionSize());
    m_footer->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_footer->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_footer->setSelectionMode(QAbstractItemView::NoSelection);
    m_footer->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_footer->setFocusPolicy(Qt::NoFocus);
    m_footer->setWordWrap(false);
    m_footer->setFixedHeight(
        StepStatsModel::RowCount * m_footer->verticalHeader()->defaultSectionSize() + 2 * m_footer->frameWidth());
    layout->addWidget(m_footer);

    m_stageTitle
        = new QLabel(tr("Pipeline stages (msprof-analyze: each value is the max over the stage's ranks)"), body);
    m_stageTitle->setObjectName(QStringLiteral("stagesTitle"));
    m_stageTitle->setContentsMargins(0, 6, 0, 2);
    layout->addWidget(m_stageTitle);
    m_stageTable = new QTableView(body);
    m_stageTable->setObjectName(QStringLiteral("stagesTable"));
    m_stageTable->setModel(m_stageModel);
    TableSetup::install(m_stageTable, { .centeredHeader = true });
    layout->addWidget(m_stageTable);
    m_stageTitle->hide();
    m_stageTable->hide();

    setBody(body);

    // The footer is a second view aligned column by column with the table.
    connect(m_table->horizontalHeader(), &QHeaderView::sectionResized, this,
        [this](int column, int, int size) { m_footer->setColumnWidth(column, size); });
    connect(m_table->horizontalScrollBar(), &QScrollBar::valueChanged, m_footer->horizontalScrollBar(),
        &QScrollBar::setValue);

    // A single click selects the rank everywhere (the selection row and the bold "current" row are the same).
    connect(m_table, &QTableView::clicked, this, &ClusterStepsDock::onActivated);
    connect(m_table, &QTableView::activated, this, &ClusterStepsDock::onActivated);
    connect(m_footer, &QTableView::clicked, this, [this](const QModelIndex& index) {
        const QVariant rank = index.data(StepStatsModel::RankIdRole);
        if (rank.isValid())
            workspace()->setSelectedRank(rank.toLongLong());
    });

    connect(m_stepCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_updatingCombo || index < 0)
            return;
        const QVariant v = m_stepCombo->itemData(index);
        const bool skipFirst = v.toString() == QLatin1String("skipFirst");
        if (!v.isValid() || skipFirst)
            workspace()->setSkipFirstStep(skipFirst);
        workspace()->setStep(v.isValid() && !skipFirst ? std::optional<int64_t>(v.toLongLong()) : std::nullopt);
    });
    connect(m_unitCombo, &QComboBox::currentIndexChanged, this, [this](int) {
        const auto unit = static_cast<TimeFormat::Unit>(m_unitCombo->currentData().toInt());
        m_model->setUnit(unit);
        m_statsModel->setUnit(unit);
        m_stageModel->setUnit(unit);
        fitColumns();
    });

    // The order the user clicked stays; until then the table follows its size (applyDefaultSort).
    connect(m_table->horizontalHeader(), &QHeaderView::sectionClicked, this, [this] { m_userSorted = true; });
    setTimeUnit(TimeFormat::tableUnit());

    connect(workspace(), &Workspace::stepChanged, this, &ClusterStepsDock::syncStepCombo);
    reloadPartOn({ &Workspace::hostDisplayChanged, &Workspace::stepChanged }, [this] { reloadTable(); });
    connect(workspace(), &Workspace::selectedRankChanged, this, &ClusterStepsDock::syncSelection);
    connect(
        BaselineComparison::of(ws), &BaselineComparison::comparisonChanged, this, &ClusterStepsDock::applyComparison);

    syncStepCombo();
    applyComparison();
    requestReload();
}

void ClusterStepsDock::reload()
{
    reloadSteps();
    reloadTable();
}

void ClusterStepsDock::reloadSteps()
{
    const bool started = runner()->run([](model::Database& db) { return query::StepQuery::steps(db); },
        [this](std::vector<int64_t> steps) {
            m_updatingCombo = true;
            resetChoices(m_stepCombo, tr("All steps (mean)"));
            if (steps.size() > 1)
                m_stepCombo->addItem(tr("All steps but the first (mean)"), QStringLiteral("skipFirst"));
            for (int64_t s : steps)
                m_stepCombo->addItem(tr("Step %1").arg(s), QVariant::fromValue<qlonglong>(s));
            m_updatingCombo = false;
            syncStepCombo();
        });
    if (!started) {
        m_updatingCombo = true;
        resetChoices(m_stepCombo, tr("All steps (mean)"));
        m_updatingCombo = false;
    }
}

void ClusterStepsDock::syncStepCombo()
{
    const auto step = workspace()->step();
    int index = 0;
    for (int i = 1; i < m_stepCombo->count(); ++i) {
        const QVariant v = m_stepCombo->itemData(i);
        const bool skipItem = v.toString() == QLatin1String("skipFirst");
        if (step ? (!skipItem && v.toLongLong() == *step) : (skipItem && workspace()->skipFirstStep()))
            index = i;
    }
    m_updatingCombo = true;
    m_stepCombo->setCurrentIndex(index);
    m_updatingCombo = false;
}

void ClusterStepsDock::reloadTable()
{
    const auto step = workspace()->step();
    const bool skipFirst = workspace()->skipFirstStep();
    const auto hosts = workspace()->showHostIps() ? query::HostDisplay::RealIp : query::HostDisplay::MappingId;
    const bool started = m_tableRunner->run(
        [step, skipFirst, hosts](model::Database& db) {
            TableResult r;
            r.rows = step ? query::StepQuery::breakdown(db, step) : query::StepQuery::averaged(db, skipFirst);
            const auto mean = query::ClusterMean::of(r.rows);
            r.stats = mean.stats;
            r.wallStats = mean.wallTime;
            r.hosts = query::RankQuery::hosts(db, hosts);
            r.stages = step ? query::StepQuery::stages(db, step) : query::StepQuery::averagedStages(db, skipFirst);
            r.loadedRanks = query::RankQuery::rankCount(db);
            if (step)
                r.slowestRank = query::StepQuery::slowestRank(r.rows);
            else if (skipFirst)
                r.slowestRank = query::StepQuery::slowestRank(
                    query::StepQuery::withoutFirstStep(query::StepQuery::breakdown(db)));
            else
                r.slowestRank = query::StepQuery::slowestRank(query::StepQuery::breakdown(db));
            return r;
        },
        [this](TableResult r) {
            const auto count = r.rows.size();
            std::map<int64_t, QString> hostNames;
            for (const auto& [rank, host] : r.hosts)
                hostNames.emplace(rank, QString::fromStdString(host));
            m_model->setHosts(std::move(hostNames));
            m_model->setRows(std::move(r.rows), r.stats, r.wallStats);
            m_statsModel->setStats(r.stats, r.wallStats);
            setStages(std::move(r.stages));
            // The same rank count as the status bar: ranks without step times are said, not dropped silently.
            QString text = static_cast<int64_t>(count) == r.loadedRanks || r.loadedRanks == 0
                ? (count == 1 ? tr("1 rank") : tr("%1 ranks").arg(count))
                : tr("%1 of %2 ranks have step times").arg(count).arg(r.loadedRanks);
            // The slowest rank with the figure that makes it the slowest: the top of the Step wall time column.
            if (r.slowestRank) {
                const int row = m_model->rowOfRank(*r.slowestRank);
                const auto wall = row >= 0 ? m_model->rowAt(row).wallTime() : std::nullopt;
                text += wall
                    ? tr(" \u00b7 slowest rank %1 (step wall time %2)")
                          .arg(*r.slowestRank)
                          .arg(TimeFormat::tableCell(*wall, TimeFormat::Unit::Milliseconds) + QStringLiteral(" ms"))
                    : tr(" \u00b7 slowest rank %1").arg(*r.slowestRank);
            }
            m_summary->setText(text);
            m_summary->setToolTip(
                tr("Slowest rank: %1").arg(QString::fromUtf8(query::MetricDefinitions::of("Slowest rank").data()))
                + QStringLiteral("\n")
                + tr("Step wall time: %1").arg(QString::fromUtf8(query::MetricDefinitions::of("Step wall time").data()))
                + QStringLiteral("\n") + DivergingScale::legend());
            applyColumnVisibility();
            applyDefaultSort();
            fitColumns();
            syncSelection();
        });
    if (!started) {
        m_model->clear();
        m_model->setHosts({});
        m_statsModel->clear();
        setStages({});
        applyColumnVisibility();
        m_summary->setText(tr("No profile loaded"));
    }
}

void ClusterStepsDock::applyComparison()
{
    const auto diff = BaselineComparison::of(workspace())->comparison();
    if (diff == m_model->comparison())
        return;
    const bool wasComparing = m_model->isComparing();
    m_model->setComparison(diff);
    placeCompareColumns();
    applyColumnVisibility();
    fitColumns();
    // Compare mode sorts by the step's |Δ|, largest first; leaving it goes back to the rank order.
    if (m_model->isComparing())
        m_table->sortByColumn(m_model->compareDeltaColumn(), Qt::DescendingOrder);
    else if (wasComparing) {
        m_userSorted = false;
        applyDefaultSort();
    }
    syncSelection();
}

void ClusterStepsDock::applyDefaultSort()
{
    if (m_userSorted || m_model->isComparing())
        return;
    // A large cluster opens on its slowest ranks, a small one in rank order (StepTableModel::kRankOrderMaxRanks).
    if (m_model->rowCount() > StepTableModel::kRankOrderMaxRanks)
        m_table->sortByColumn(StepTableModel::WallTime, Qt::DescendingOrder);
    else
        m_table->sortByColumn(StepTableModel::Rank, Qt::AscendingOrder);
}

void ClusterStepsDock::setStages(std::vector<query::StageBreakdown> stages)
{
    const bool any = !stages.empty();
    m_stageModel->setRows(std::move(stages));
    m_stageTitle->setVisible(any);
    m_stageTable->setVisible(any);
    if (!any)
        return;
    m_stageTable->resizeColumnsToContents();
    // Tall enough for every stage (a pipeline has a handful) without a scroll bar, up to 8 rows.
    const int rows = std::min(m_stageModel->rowCount(), 8);
    m_stageTable->setFixedHeight(m_stageTable->horizontalHeader()->sizeHint().height()
        + rows * m_stageTable->verticalHeader()->defaultSectionSize() + 2 * m_stageTable->frameWidth());
}

void ClusterStepsDock::fitColumns()
{
    // Measured over the visible rows and 100 more (Qt's default is 1,000): at 1,024 ranks the text measurement of
    // every row stalled the GUI thread for 167 ms when the table first filled. The rows are sorted by wall time, and
    // figures of one column have the same number of digits, so the first rows give the width.
    m_table->horizontalHeader()->setResizeContentsPrecision(100);
    m_table->resizeColumnsToContents();
    for (int c = 0; c < m_model->columnCount(); ++c) {
        const int width
            = std::max(m_table->columnWidth(c), static_cast<QAbstractItemView*>(m_footer)->sizeHintForColumn(c));
        m_table->setColumnWidth(c, width);
        m_footer->setColumnWidth(c, width);
    }
}

void ClusterStepsDock::placeCompareColumns()
{
    const int extra = m_model->columnCount() - StepTableModel::ColumnCount;
    m_statsModel->setExtraColumns(extra);
    for (QHeaderView* header : { m_table->horizontalHeader(), m_footer->horizontalHeader() }) {
        for (int i = 0; i < extra; ++i) {
            const int from = header->visualIndex(StepTableModel::ColumnCount + i);
            if (from >= 0 && from != StepTableModel::Host + 1 + i)
                header->moveSection(from, StepTableModel::Host + 1 + i);
        }
    }
}

void ClusterStepsDock::applyColumnVisibility()
{
    for (int c = 0; c < StepTableModel::ColumnCount; ++c) {
        const bool hidden = !m_model->isColumnShown(c);
        m_table->setColumnHidden(c, hidden);
        m_footer->setColumnHidden(c, hidden);
    }
}

void ClusterStepsDock::syncSelection()
{
    const auto rank = workspace()->selectedRank();
    m_model->setHighlightedRank(rank);
    TableSetup::selectSourceRow(m_table, m_proxy, rank ? m_model->rowOfRank(*rank) : -1);
}

void ClusterStepsDock::onActivated(const QModelIndex& proxyIndex)
{
    if (!proxyIndex.isValid())
        return;
    workspace()->setSelectedRank(proxyIndex.data(StepTableModel::RankIdRole).toLongLong());
}

void ClusterStepsDock::setTimeUnit(TimeFormat::Unit unit)
{
    m_unitCombo->setCurrentIndex(std::max(0, m_unitCombo->findData(static_cast<int>(unit))));
}

} // namespace npuscope::gui
