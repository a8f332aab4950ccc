// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/marey/MareyDock.h"

#include "npuscope/gui/common/DeferredLoadService.h"
#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/EmptyHint.h"
#include "npuscope/gui/common/TimeFormat.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/FlopsQuery.h"
#include "npuscope/query/MareyQuery.h"
#include "npuscope/query/MemoryDetailQuery.h"
#include "npuscope/query/MemoryQuery.h"
#include "npuscope/query/ParallelLayoutQuery.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
#include <span>

namespace npuscope::gui {

namespace {

// One query's result: the step's devices and operators, the findings, the devices' blocks.
struct MareyResult {
    std::vector<int64_t> ranks; // the layout's loaded ranks, stage order
    std::optional<int64_t> step;
    std::shared_ptr<const query::MareyStep> marey;
    query::MareyFindingList findings;
    std::vector<MareyChart::Blocks> blocks;
};

// The memory line of device d: its memory_record series (PTA+GE, else APP, else PTA, else the first component;
// allocated MB) over the device's step, from the last sample before its first operator, at most kMaxPoints points.
void memoryLine(model::Database& db, const query::MareyStep& step, const query::MareyDevice& d, MareyChart::Blocks& out)
{
    constexpr size_t kMaxPoints = 2000;
    if (!d.hasOps())
        return;
    const int64_t first = d.stepStart, last = d.stepEnd;
    const auto curves = query::MemoryDetailQuery::curves(db, d.rank);
    const query::MemoryCurve* chosen = nullptr;
    for (const char* component : { "PTA+GE", "APP", "PTA" }) {
        for (const auto& c : curves) {
            if (!chosen && c.component == component && c.metric == query::MemoryMetric::Allocated)
                chosen = &c;
        }
    }
    for (const auto& c : curves) {
        if (!chosen && c.metric == query::MemoryMetric::Allocated)
            chosen = &c;
    }
    if (!chosen) {
        // MindSpore's old layout: the memory in use at each node of its memory_usage_details graph.
        auto line = query::MareyQuery::memoryUsageLine(db, step, d);
        if (line.empty())
            return;
        out.memoryLine = core::downsampleLttb(std::span(line.data(), line.size()), kMaxPoints);
        out.memorySeries = "memory_usage_details";
        return;
    }
    const auto& points = chosen->points;
    auto begin = std::upper_bound(points.begin(), points.end(), first,
        [](int64_t t, const core::CurvePoint& p) { return t < p.t; });
    if (begin != points.begin())
        --begin; // the value in force when the step starts
    const auto end = std::upper_bound(begin, points.end(), last,
        [](int64_t t, const core::CurvePoint& p) { return t < p.t; });
    if (begin == end)
        return;
    out.memoryLine = core::downsampleLttb(std::span(&*begin, static_cast<size_t>(end - begin)), kMaxPoints);
    out.memorySeries = (chosen->component.empty() ? std::string("memory") : chosen->component) + " allocated";
}

} // namespace

MareyDock::MareyDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Marey view"), kObjectName, ws, parent)
    , m_chart(new MareyChart)
    , m_importRunner(addRunner(QueryRunner::Delivery::Every))
    , m_dataRunner(addRunner())
    , m_imports(new RankImportQueue(
          this, kRanksPerJob, [this](const std::vector<int64_t>& ranks, const RankImportQueue::Finished& finished) {
              return m_importRunner->runUnlocked(
                  [ranks, step = m_loadStep, cache = workspace()->parseCache()](
                      const std::shared_ptr<model::Database>& db) {
                      return importStepKernels(*db, ranks, step, cache.get());
                  },
                  [finished](bool) { finished({}); }, finished);
          }))
{
    const auto [body, layout, bar] = makeBody({ .spacing = 2 });
    bar->addWidget(new QLabel(tr("Time:"), body));
    m_time = new QComboBox(body);
    m_time->setObjectName(QStringLiteral("mareyTime"));
    m_time->addItem(tr("Absolute"), static_cast<int>(query::MareyTime::Absolute));
    m_time->addItem(tr("Aligned at each device's step start"), static_cast<int>(query::MareyTime::Aligned));
    m_time->setToolTip(tr("Absolute: times as recorded. Aligned: each device's times since its first operator of the "
                          "step, so devices line up at 0."));
    bar->addWidget(m_time);
    // A push button: its style leaves room for the menu arrow (a tool button's instant popup draws it over the text).
    m_collapse = new QPushButton(tr("Collapse stages"), body);
    m_collapse->setObjectName(QStringLiteral("mareyCollapse"));
    m_collapse->setMenu(new QMenu(m_collapse));
    m_collapse->setToolTip(tr("A collapsed stage is one line: per operator, the union of its devices' intervals "
                              "(clicking a stage label does the same)"));
    bar->addWidget(m_collapse);
    bar->addStretch(1);
    // The legend has a row of its own, wrapped to the dock's width: beside the controls it was cut on a laptop screen.
    auto swatch = [](query::MareyOpKind kind) {
        return QStringLiteral("<span style='color:%1'>\u25a0</span>").arg(MareyChart::kindColour(kind).name());
    };
    auto line = [](const QColor& colour) {
        return QStringLiteral("<span style='color:%1'>\u2014</span>").arg(colour.name());
    };
    m_legend = new QLabel(tr("%1 compute %2 communication %3 send %4 receive %5 FLOP/s %6 memory \u00b7 blocks: F = "
                             "FLOPs (operations) \u00f7 max, FS = FLOP/s (their rate) \u00f7 max, M = peak memory "
                             "\u00f7 capacity (grey: unknown) \u00b7 drag to zoom, double-click to zoom out")
                              .arg(swatch(query::MareyOpKind::Compute), swatch(query::MareyOpKind::Communication),
                                  swatch(query::MareyOpKind::Send), swatch(query::MareyOpKind::Receive),
                                  line(MareyChart::flopsLineColour()), line(MareyChart::memoryLineColour())),
        body);
    m_legend->setToolTip(tr("The purple line above each device: each operator's FLOP/s (its kernel's FLOPs \u00f7 its "
                            "duration) \u00f7 the step's fastest operator; only kernels with FLOPs. The blue line: the "
                            "device's memory in use over the step (memory_record: PTA+GE, else APP, allocated), "
                            "from its smallest value in the step to its largest (hover an operator for the value; the M "
                            "block compares devices); the memory files load when the step has at most %1 devices.")
                              .arg(MareyChart::kAutoCollapseDevices));
    m_legend->setObjectName(QStringLiteral("mareyLegend"));
    m_legend->setWordWrap(true);
    layout->addWidget(m_legend);
    m_status = newWrappedLabel("mareyStatus", body);
    layout->addWidget(m_status);

    auto* split = new QSplitter(Qt::Horizontal, body);
    split->addWidget(m_chart);
    const auto [side, sideLayout] = newColumn(split);
    m_findingsNote = new QLabel(side);
    m_findingsNote->setWordWrap(true);
    sideLayout->addWidget(m_findingsNote);
    m_findings = new QTreeWidget(side);
    m_findings->setObjectName(QStringLiteral("mareyFindings"));
    m_findings->setRootIsDecorated(false);
    m_findings->setUniformRowHeights(true);
    m_findings->setHeaderLabels({ tr("Finding"), tr("Where"), tr("Operator"), tr("Duration"), tr("Reference") });
    setEmptyHint(
        m_findings, tr("No finding in this step: no device or stage is as slow as the thresholds above ask for."));
    m_findings->headerItem()->setToolTip(
        3, tr("Slow device: Σ of its compared ops. Stage-wide: the stage's median. One device: on the device."));
    m_findings->headerItem()->setToolTip(4,
        tr("Slow device: Σ of the peers' medians. Stage-wide: median of the name across all stages. One device: "
           "median of the stage's other devices."));
    sideLayout->addWidget(m_findings, 1);
    split->addWidget(side);
    // Narrow enough minimums that the chart and the findings fit a 683 px wide window (1366 px at a scale of 2)
    // without the dock scrolling sideways and cutting its wrapped text at the window's edge.
    side->setMinimumWidth(220);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({ 1400, 520 });
    layout->addWidget(split, 1);
    setBody(body);

    connect(m_imports, &RankImportQueue::redraw, this, &MareyDock::refresh);
    m_memoryRedraw = new QTimer(this);
    m_memoryRedraw->setSingleShot(true);
    m_memoryRedraw->setInterval(250);
    connect(m_memoryRedraw, &QTimer::timeout, this, [this] {
        refresh();
        workspace()->endQuery(); // after refresh() counted its own query
    });
    connect(m_imports, &RankImportQueue::progressed, this, &MareyDock::updateStatus);
    connect(m_imports, &RankImportQueue::failed, this, [this](const std::vector<int64_t>& ranks, const QString& error) {
        showError(tr("ranks %1 to %2: kernels not loaded: %3").arg(ranks.front()).arg(ranks.back()).arg(error));
    });
    connect(m_time, &QComboBox::currentIndexChanged, this,
        [this] { m_chart->setTimeMode(static_cast<query::MareyTime>(m_time->currentData().toInt())); });
    connect(m_chart, &MareyChart::rankClicked, this,
        [this](qint64 rank) { workspace()->setSelectedRank(static_cast<int64_t>(rank)); });
    connect(m_chart, &MareyChart::stageToggled, this, [this] { rebuildCollapseMenu(); });
    connect(m_findings, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item)
            activateFinding(item->data(0, Qt::UserRole).toInt());
    });
    // The memory line's scale and the stage layout are the workspace's shared settings.
    connect(workspace(), &Workspace::deviceCapacityChanged, this, [this] { requestReload(); });
    connect(workspace(), &Workspace::parallelSizesChanged, this, [this] { requestReload(); });
    connect(workspace(), &Workspace::selectedRankChanged, this,
        [this] { m_chart->setSelectedRank(workspace()->selectedRank()); });
    reloadPartOn({ &Workspace::stepChanged }, [this] {
        // Another step has its own rows to load (cached separately); the shown one redraws.
        if (const auto step = workspace()->step(); step && step != m_loadStep && !m_ranks.empty())
            loadStep(step);
        refresh();
    });
    requestReload();
}

bool MareyDock::importStepKernels(
    model::Database& db, const std::vector<int64_t>& ranks, std::optional<int64_t> step, const load::ParseCache* cache)
{
    bool imported = load::Loader::loadStepKernels(db, ranks, step, {}, nullptr, cache);
    // MindSpore ranks have no kernel files: their device tasks are on their timelines, which Marey reads instead.
    std::vector<int64_t> timelines;
    {
        auto lock = db.lock();
        timelines = query::MareyQuery::ranksNeedingTimelines(db, ranks);
    }
    for (const int64_t rank : timelines)
        imported = load::Loader::loadDeferred(db, rank, io::kTimelineGroup, {}, nullptr, cache) || imported;
    return imported;
}

MareyDock::~MareyDock()
{
    if (m_memoryRedraw->isActive() && workspace())
        workspace()->endQuery();
}

std::optional<query::ParallelSizes> MareyDock::rememberedSizes() const { return workspace()->parallelSizes(); }

void MareyDock::showEvent(QShowEvent* event)
{
    QueryDock::showEvent(event);
    // Sizes applied in the Parallel strategy view while this dock was hidden lay the stages out anew.
    if (!m_ranks.empty() && rememberedSizes() != m_sizesUsed)
        requestReload();
    m_imports->resume();
    requestMemory(); // a step shown while the view was hidden asked for no memory (requestMemory needs it visible)
}

void MareyDock::reload()
{
    m_memoryRequested.clear(); // a new model: its memory parts are not imported yet
    m_importRunner->cancelPending(); // an older job's failure is not this layout's
    m_imports->clear();
    m_ranks.clear();
    const auto sizes = rememberedSizes();
    m_sizesUsed = sizes;
    const auto wanted = workspace()->step();
    struct Plan {
        std::vector<int64_t> ranks;
        std::optional<int64_t> step;
    };
    const bool started = runner()->run(
        [sizes, wanted](model::Database& db) {
            Plan plan;
            for (const auto& stage : query::ParallelLayoutQuery::layout(db, sizes).stages)
                plan.ranks.insert(plan.ranks.end(), stage.loadedRanks.begin(), stage.loadedRanks.end());
            plan.step = wanted;
            if (const auto steps = query::MareyQuery::steps(db); !plan.step && !steps.empty())
                plan.step = steps.front();
            return plan;
        },
        [this](Plan plan) {
            m_ranks = std::move(plan.ranks);
            // A step selected while the layout was computed wins (its stepChanged came before any rank was known).
            loadStep(workspace()->step() ? workspace()->step() : plan.step);
            refresh();
        });
    if (!started) {
        m_step.reset();
        m_findingList = {};
        m_chart->setStep(nullptr);
        fillFindings();
        m_status->setText(tr("No profile loaded"));
    }
}

void MareyDock::loadStep(std::optional<int64_t> step)
{
    m_importRunner->cancelPending(); // the older step's jobs still finish, their callbacks are dropped
    m_loadStep = step;
    m_imports->start(m_ranks);
}

void MareyDock::refresh()
{
    if (m_ranks.empty()) {
        updateStatus();
        return;
    }
    const auto sizes = rememberedSizes();
    const auto wanted = workspace()->step();
    const double capacityMb = workspace()->deviceCapacityGb() * 1024.0;
    m_dataRunner->run(
        [sizes, wanted, capacityMb](model::Database& db) {
            MareyResult r;
            const auto layout = query::ParallelLayoutQuery::layout(db, sizes);
            const auto steps = query::MareyQuery::steps(db);
            r.step = wanted;
            if (!r.step && !steps.empty())
                r.step = steps.front();
            auto marey = std::make_shared<query::MareyStep>(query::MareyQuery::step(db, layout, r.step));
            r.findings = query::MareyFindings::find(*marey);
            std::map<int64_t, MareyChart::Blocks> byRank;
            const auto flops = query::FlopsQuery::perRank(db, r.step);
            if (flops.recorded) {
                for (const auto& f : flops.ranks) {
                    byRank[f.rank].flops = f.relative;
                    byRank[f.rank].flopsPerSecond = f.relativePerSecond;
                }
            }
            for (const auto& m : query::MemoryQuery::peaks(db, capacityMb))
                byRank[m.rank].memory = m.ratio;
            for (const auto& d : marey->devices)
                memoryLine(db, *marey, d, byRank[d.rank]);
            for (const auto& d : marey->devices)
                r.blocks.push_back(byRank.count(d.rank) ? byRank[d.rank] : MareyChart::Blocks {});
            r.marey = std::move(marey);
            return r;
        },
        [this](MareyResult r) {
            m_shownStep = r.step;
            m_step = r.marey;
            requestMemory();
            m_findingList = std::move(r.findings);
            m_chart->setStep(m_step, std::move(r.blocks));
            m_chart->setSelectedRank(workspace()->selectedRank());
            rebuildCollapseMenu();
            fillFindings();
            updateStatus();
        });
}

void MareyDock::requestMemory()
{
    // The memory line needs the devices' memory records, a deferred part: asked for once per rank while the step has
    // few enough devices to draw lines for (a larger one opens collapsed). Each import that ends redraws, coalesced.
    if (!m_step || !isVisible() || m_step->devices.size() > static_cast<size_t>(MareyChart::kAutoCollapseDevices))
        return;
    for (const auto& d : m_step->devices) {
        if (!m_memoryRequested.insert(d.rank).second)
            continue;
        workspace()->loads()->request(d.rank, DeferredLoadService::Part::Memory, this,
            [this](const DeferredLoadService::Result& r) {
                if (r.cancelled)
                    return;
                // Also when another view's request imported the part: that may have ended after this view's query
                // read the model (each rank is asked for once, so this redraws at most once per rank).
                if (r.imported)
                    workspace()->notifyIssuesAdded();
                // The redraw to come counts as this view's query, so "views ready" waits for it.
                if (!m_memoryRedraw->isActive())
                    workspace()->beginQuery();
                m_memoryRedraw->start();
            });
    }
}

void MareyDock::updateStatus()
{
    QString text = tr("kernels loaded for %1 of %2 ranks").arg(m_imports->loaded()).arg(m_ranks.size());
    if (isImporting() && !isVisible())
        text += tr(" (the rest load when this view is shown)");
    if (m_step) {
        text += m_shownStep ? tr(" \u00b7 step %1").arg(*m_shownStep) : tr(" \u00b7 all kernels (no step ids)");
        text += tr(" \u00b7 %1 device(s) in %2 stage(s) \u00b7 %3 operators \u00b7 %4 unmatched \u00b7 %5 send/receive "
                   "pair(s)")
                    .arg(m_step->devices.size())
                    .arg(m_step->stages.size())
                    .arg(m_step->opCount)
                    .arg(m_step->unmatchedOps)
                    .arg(m_step->p2p.size());
        if (m_step->unpairedSends > 0)
            text += tr(" \u00b7 %1 send(s) without a receive on a neighbouring stage").arg(m_step->unpairedSends);
    }
    m_status->setText(text);
}

void MareyDock::rebuildCollapseMenu()
{
    auto* menu = m_collapse->menu();
    menu->clear();
    if (!m_step)
        return;
    for (int s = 0; s < static_cast<int>(m_step->stages.size()); ++s) {
        auto* action = menu->addAction(
            tr("Stage %1 (%2 devices)").arg(m_step->stages[s].index).arg(m_step->stages[s].deviceCount));
        action->setCheckable(true);
        action->setChecked(m_chart->isStageCollapsed(s));
        connect(action, &QAction::toggled, this, [this, s](bool on) { m_chart->setStageCollapsed(s, on); });
    }
}

void MareyDock::fillFindings()
{
    const QSignalBlocker block(m_findings);
    m_findings->clear();
    if (!m_step) {
        m_findingsNote->setText(tr("No findings"));
        return;
    }
    const query::MareyThresholds t;
    m_findingsNote->setText(
        tr("<b>%1 slow device(s), %2 stage-wide, %3 one-device finding(s)</b><br>Slow device: "
           "compute time \u2265 %4\u00d7 its stage peers' (same ops). Stage-wide: on \u2265 %5 % of a "
           "stage's devices \u2265 %6\u00d7 the name's median or \u2265 %7 % of the step. One "
           "device: \u2265 %8\u00d7 the peers' median and \u2265 %9 \u00b5s.")
            .arg(m_findingList.slowDeviceTotal)
            .arg(m_findingList.stageWideTotal)
            .arg(m_findingList.oneDeviceTotal)
            .arg(t.slowDeviceRatio)
            .arg(t.stageDeviceFraction * 100)
            .arg(t.stageRatio)
            .arg(t.stageStepShare * 100)
            .arg(t.deviceRatio)
            .arg(static_cast<double>(t.deviceMinNs) / 1000.0));
    auto us = [](int64_t ns) { return TimeFormat::withUnit(ns, TimeFormat::Unit::Microseconds); };
    QList<QTreeWidgetItem*> items;
    for (int i = 0; i < static_cast<int>(m_findingList.findings.size()); ++i) {
        const auto& f = m_findingList.findings[i];
        const auto& stage = m_step->stages[f.stage];
        QString what, where;
        switch (f.kind) {
        case query::MareyFindingKind::SlowDevice:
            what = tr("Slow device %1\u00d7").arg(f.timeRatio, 0, 'f', 2);
            where = tr("rank %1").arg(m_step->devices[f.device].rank);
            break;
        case query::MareyFindingKind::StageWide:
            what = tr("Stage-wide %1/%2").arg(f.devicesLong).arg(f.devicesWithOp);
            where = tr("stage %1").arg(stage.index);
            break;
        case query::MareyFindingKind::OneDevice:
            what
                = tr("One device %1\u00d7")
                      .arg(static_cast<double>(f.durationNs) / static_cast<double>(std::max<int64_t>(1, f.referenceNs)),
                          0, 'f', 2);
            where = tr("rank %1").arg(m_step->devices[f.device].rank);
            break;
        }
        auto* item = new QTreeWidgetItem({ what, where,
            QStringLiteral("%1 #%2").arg(QString::fromStdString(m_step->names[f.name])).arg(f.occurrence),
            us(f.durationNs), us(f.referenceNs) });
        item->setData(0, Qt::UserRole, i);
        item->setToolTip(2, item->text(2));
        items.append(item);
    }
    m_findings->addTopLevelItems(items);
    for (int c = 0; c < m_findings->columnCount(); ++c)
        m_findings->resizeColumnToContents(c);
    // Long kernel names would push the figures out of sight; the full name is in the cell's tooltip.
    m_findings->setColumnWidth(2, std::min(m_findings->columnWidth(2), 220));
}

void MareyDock::activateFinding(int index)
{
    if (!m_step || index < 0 || index >= static_cast<int>(m_findingList.findings.size()))
        return;
    const auto& f = m_findingList.findings[index];
    m_chart->setHighlight(f);
    // Zoom so the operator fills about a third of the view, on its device (or the stage's first device).
    const auto& stage = m_step->stages[f.stage];
    const int device = f.device >= 0 ? f.device : stage.firstDevice;
    const auto& dev = m_step->devices[device];
    for (const auto& op : dev.ops) {
        if (op.name == f.name && op.occurrence == f.occurrence) {
            const int64_t off = dev.offset(m_chart->timeMode());
            const int64_t len = std::max<int64_t>(1000, op.end - op.start);
            m_chart->zoomTo(op.start - off - len, op.end - off + len);
            break;
        }
    }
    Workspace::OperatorKey key;
    key.by = query::OperatorGroupBy::Name;
    key.key = m_step->names[f.name];
    if (f.device >= 0)
        key.rank = dev.rank;
    workspace()->setSelectedOperator(key);
    if (f.device >= 0)
        workspace()->setSelectedRank(dev.rank);
}

} // namespace npuscope::gui
