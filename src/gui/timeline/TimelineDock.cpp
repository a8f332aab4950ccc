// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/timeline/TimelineDock.h"

#include "npuscope/gui/common/DockControls.h"
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

const char* const kFlowCategories[] = { "HostToDevice", "async_npu", "async_task_queue", "fwdbwd" };

// A rank's timeline read into arrays, and why it is empty when it is.
struct RankLoad {
    query::RankTimelinePtr timeline;
    QString problem;
    bool truncated = false; // the rank's timeline file was cut off (a parse issue says so)
};

} // namespace

// The rank rows of a model and its slowest rank.
struct TimelineDock::RankList {
    std::vector<query::TimelineRankInfo> infos;
    std::optional<int64_t> slowest;
};

TimelineDock::TimelineDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Timeline"), kObjectName, ws, parent)
    , m_loadRunner(addRunner(QueryRunner::Delivery::Every))
    , m_statsRunner(addRunner())
    , m_searchRunner(addRunner())
    , m_detailsRunner(addRunner())
    , m_operatorRunner(addRunner())
{
    m_arrivalTimer = new QTimer(this);
    m_arrivalTimer->setSingleShot(true);
    m_arrivalTimer->setInterval(100);
    connect(m_arrivalTimer, &QTimer::timeout, this, &TimelineDock::ranksArrived);
    const auto [root, layout] = newColumn(this);
    layout->setSpacing(2);
    layout->addLayout(buildSearchBar(root));
    layout->addLayout(buildRowBar(root));
    m_spanLabel = new QLabel(root);
    m_spanLabel->setObjectName(QStringLiteral("timelineSpanNote"));
    m_spanLabel->setStyleSheet(QStringLiteral("color: #b35900;"));
    m_spanLabel->hide();
    layout->addWidget(m_spanLabel);

    // Details beside the tracks, not under them: the tracks keep the dock's height.
    auto* splitter = new QSplitter(Qt::Horizontal, root);
    m_view = new TimelineView(splitter);
    buildTabs(splitter);
    splitter->addWidget(m_view);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ 1300, 560 }); // the pane wide enough for its four tab titles at 1920 px
    layout->addWidget(splitter, 1);
    setBody(root);

    connectView();
    connectWorkspace();
    requestReload();
}

// The search bar: slice search with its match arrows, the operator highlight's clear button, the flow categories
// drawn for every slice, Fit.
QHBoxLayout* TimelineDock::buildSearchBar(QWidget* root)
{
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 0);
    m_searchEdit = newFilterEdit("timelineSearch", tr("Search slice names (Enter: next)"), root);
    m_caseBox = new QCheckBox(tr("Aa"), root);
    m_caseBox->setToolTip(tr("Case sensitive"));
    auto* prev = new QToolButton(root);
    prev->setText(QStringLiteral("\u25c0"));
    prev->setToolTip(tr("Previous match"));
    auto* next = new QToolButton(root);
    next->setText(QStringLiteral("\u25b6"));
    next->setToolTip(tr("Next match"));
    m_searchLabel = new QLabel(root);
    m_searchLabel->setMinimumWidth(90);
    bar->addWidget(m_searchEdit, 2);
    bar->addWidget(m_caseBox);
    bar->addWidget(prev);
    bar->addWidget(next);
    bar->addWidget(m_searchLabel);
    m_clearOperator = new QToolButton(root);
    m_clearOperator->setObjectName(QStringLiteral("timelineClearOperator"));
    m_clearOperator->setText(tr("\u2715 operator"));
    m_clearOperator->setToolTip(tr("Stop highlighting the operator picked in the Operators view"));
    m_clearOperator->hide();
    bar->addWidget(m_clearOperator);
    bar->addSpacing(12);
    // The flow categories drawn for every slice, not only the selected one: checkable entries of one menu button, so
    // the bar stays narrow enough for 1366 px at 200 % scaling. Push buttons with a menu (here and Ranks): a tool
    // button's menu arrow is drawn over the end of its text in the Fusion style.
    auto* flowsButton = new QPushButton(tr("All flows"), root);
    flowsButton->setObjectName(QStringLiteral("timelineFlows"));
    flowsButton->setToolTip(tr("Flow categories drawn for every slice (otherwise only the selected slice's flows)"));
    auto* flowsMenu = new QMenu(flowsButton);
    for (const char* cat : kFlowCategories) {
        QAction* action = flowsMenu->addAction(QString::fromLatin1(cat));
        action->setCheckable(true);
        connect(action, &QAction::toggled, this, [this, cat, flowsButton, flowsMenu](bool on) {
            if (on)
                m_view->renderer().allFlowCategories().insert(cat);
            else
                m_view->renderer().allFlowCategories().erase(cat);
            int checked = 0;
            for (const QAction* a : flowsMenu->actions())
                checked += a->isChecked() ? 1 : 0;
            flowsButton->setText(checked ? tr("All flows (%1)").arg(checked) : tr("All flows"));
            m_view->update();
        });
    }
    flowsButton->setMenu(flowsMenu);
    bar->addWidget(flowsButton);
    bar->addStretch(1);
    auto* fit = new QPushButton(tr("Fit"), root);
    fit->setToolTip(
        tr("Show everything (0); W/S zoom, A/D pan, Shift+drag selects a range, F fits it, Backspace undoes"));
    bar->addWidget(fit);
    connect(fit, &QPushButton::clicked, this, [this] { m_view->fitAll(); });
    connect(m_searchEdit, &QLineEdit::returnPressed, this, [this] {
        if (!m_hits.empty())
            nextHit();
    });
    connect(
        m_searchEdit, &QLineEdit::textChanged, this, [this](const QString& t) { search(t, m_caseBox->isChecked()); });
    connect(m_caseBox, &QCheckBox::toggled, this, [this](bool on) { search(m_searchEdit->text(), on); });
    connect(prev, &QToolButton::clicked, this, &TimelineDock::previousHit);
    connect(next, &QToolButton::clicked, this, &TimelineDock::nextHit);
    return bar;
}

// The row bar: the row filter, nesting levels, the Ranks menu and a hint.
QHBoxLayout* TimelineDock::buildRowBar(QWidget* root)
{
    auto* rowBar = new QHBoxLayout;
    rowBar->setContentsMargins(6, 0, 6, 0);
    m_filterEdit = newFilterEdit("timelineRowFilter", tr("Filter rows by name"), root);
    m_levelsSpin = new QSpinBox(root);
    m_levelsSpin->setRange(1, 64);
    m_levelsSpin->setValue(TimelineRenderer::kDefaultMaxLevels);
    m_levelsSpin->setToolTip(tr("Nesting levels a thread row shows; click a row's \u201c+k levels\u201d to see all"));
    auto* ranksButton = new QPushButton(tr("Ranks"), root);
    ranksButton->setObjectName(QStringLiteral("timelineRanks"));
    auto* ranksMenu = new QMenu(ranksButton);
    ranksMenu->addAction(tr("Align ranks on the start of step\u2026"), this, &TimelineDock::promptAlign);
    ranksMenu->addAction(tr("Reset time offsets"), this, &TimelineDock::resetOffsets);
    ranksMenu->addAction(tr("Align ranks on the selected collective"), this, &TimelineDock::alignRanksOnCollective);
    ranksMenu->addAction(tr("Expand all ranks"), this, &TimelineDock::expandAllRanks);
    ranksButton->setMenu(ranksMenu);
    rowBar->addWidget(new QLabel(tr("Rows:"), root));
    rowBar->addWidget(m_filterEdit, 1);
    rowBar->addWidget(new QLabel(tr("Levels"), root));
    rowBar->addWidget(m_levelsSpin);
    rowBar->addWidget(ranksButton);
    // A hint, not a control: it gives way (elided, whole in its tooltip) before any control does on a narrow dock.
    auto* hint = new ElidedLabel(tr("Right-click a row name to pin, hide or move it; M adds a marker"), root);
    hint->setObjectName(QStringLiteral("timelineRowHint"));
    rowBar->addWidget(hint, 1);
    connect(m_filterEdit, &QLineEdit::textChanged, this, &TimelineDock::setRowFilter);
    connect(m_levelsSpin, &QSpinBox::valueChanged, this, &TimelineDock::setMaxLevels);
    return rowBar;
}

// The pane beside the tracks: Details, Area statistics, Search results, Markers.
void TimelineDock::buildTabs(QSplitter* splitter)
{
    m_tabs = new QTabWidget(splitter);
    // Arrows instead of a tab bar as wide as its four titles, and a minimum below the pages' own (their button rows),
    // so the pane can be narrow and the dock fits 1366 px at 200 % scaling without a horizontal scroll bar.
    m_tabs->setUsesScrollButtons(true);
    m_tabs->setMinimumWidth(240);
    m_details = new QTextBrowser(m_tabs);
    m_details->setObjectName(QStringLiteral("timelineDetails"));
    m_details->setOpenLinks(false);
    m_details->setPlaceholderText(tr("Click a slice to see its args, parent chain and flows."));
    m_tabs->addTab(m_details, tr("Details"));

    const auto [statsPage, statsLayout] = newColumn(m_tabs);
    auto* statsBar = new QHBoxLayout;
    m_statsLabel = new QLabel(tr("Shift+drag over the timeline to select a time range and rows."), statsPage);
    m_statsLabel->setWordWrap(true);
    // The table's toolbar exports what it shows; this button the raw figures (ns).
    auto* exportButton = new QPushButton(tr("Export raw CSV (ns)\u2026"), statsPage);
    statsBar->addWidget(m_statsLabel, 1);
    statsBar->addWidget(exportButton);
    statsLayout->addLayout(statsBar);
    m_statsModel = new AreaStatsModel(this);
    m_statsView = new QTableView(statsPage);
    m_statsView->setObjectName(QStringLiteral("timelineStats"));
    m_statsView->setModel(m_statsModel);
    TableSetup::install(m_statsView,
        { .compactRows = false,
            .sortable = true,
            .sortColumn = AreaStatsModel::TotalWall,
            .sortOrder = Qt::DescendingOrder });
    m_statsView->horizontalHeader()->setSectionResizeMode(AreaStatsModel::Name, QHeaderView::Stretch);
    statsLayout->addWidget(m_statsView, 1);
    m_tabs->addTab(statsPage, tr("Area statistics"));

    connect(exportButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export statistics"), QStringLiteral("timeline_stats.csv"), tr("CSV files (*.csv)"));
        if (!path.isEmpty())
            exportStatsCsv(path);
    });
    m_hitsTable = new QTableWidget(0, 5, m_tabs);
    m_hitsTable->setObjectName(QStringLiteral("timelineSearchResults"));
    m_hitsTable->setHorizontalHeaderLabels({ tr("Rank"), tr("Row"), tr("Name"), tr("Start"), tr("Duration") });
    const QStringList hitTips { tr("Rank: the rank whose timeline holds the match"),
        tr("Row: the timeline row (thread, stream or counter) of the match"), tr("Name: the slice's name"),
        tr("Start: the slice's start on the common time axis"), tr("Duration: the slice's wall time") };
    for (int c = 0; c < hitTips.size(); ++c)
        m_hitsTable->horizontalHeaderItem(c)->setToolTip(hitTips[c]);
    // Copy / Export CSV and one line per hit (no wrapped Start column), like every table.
    TableSetup::install(m_hitsTable, {});
    m_hitsTable->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_hitsTable->verticalHeader()->hide();
    m_tabs->addTab(m_hitsTable, tr("Search results"));

    connect(m_hitsTable, &QTableWidget::cellClicked, this, [this](int row, int) { goToHit(row); });
    const auto [markerPage, markerLayout] = newColumn(m_tabs);
    auto* markerBar = new QHBoxLayout;
    auto* addPoint = new QPushButton(tr("Add at cursor (M)"), markerPage);
    auto* addRange = new QPushButton(tr("Add from selected range"), markerPage);
    auto* removeMarker = new QPushButton(tr("Remove"), markerPage);
    markerBar->addWidget(addPoint);
    markerBar->addWidget(addRange);
    markerBar->addWidget(removeMarker);
    markerBar->addStretch(1);
    markerLayout->addLayout(markerBar);
    m_markerModel = new TimelineMarkerModel(this);
    m_markerView = new QTableView(markerPage);
    m_markerView->setObjectName(QStringLiteral("timelineMarkers"));
    m_markerView->setModel(m_markerModel);
    // Names are editable; the rows stay in start order.
    TableSetup::install(m_markerView, { .readOnly = false, .compactRows = false });
    m_markerView->horizontalHeader()->setSectionResizeMode(TimelineMarkerModel::Name, QHeaderView::Stretch);
    markerLayout->addWidget(m_markerView, 1);
    m_tabs->addTab(markerPage, tr("Markers"));
    connect(addPoint, &QPushButton::clicked, this, &TimelineDock::addMarkerAtCursor);
    connect(addRange, &QPushButton::clicked, this, &TimelineDock::addMarkerFromRange);
    connect(removeMarker, &QPushButton::clicked, this, &TimelineDock::removeSelectedMarkers);
    connect(m_markerModel, &TimelineMarkerModel::markersChanged, this, [this] {
        m_view->renderer().markers() = m_markerModel->markers();
        m_view->update();
        saveSession();
    });
}

// What the track view's signals do: selection, headers, markers, row state.
void TimelineDock::connectView()
{
    connect(m_view, &TimelineView::rowStateChanged, this, &TimelineDock::saveSession);
    connect(m_markerView, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.column() == TimelineMarkerModel::Name)
            return; // editing the name
        const auto& m = m_markerModel->markers()[static_cast<size_t>(index.row())];
        const int64_t pad = std::max<int64_t>(1000, (m.end - m.begin) / 4);
        m_view->fitRange(m.begin - pad, m.end + pad);
    });
    connect(m_view, &TimelineView::markerRequested, this, [this](qint64 ns) {
        m_markerModel->addMarker(ns, ns);
        m_tabs->setCurrentWidget(m_markerView->parentWidget());
    });
    connect(m_view, &TimelineView::rowMenuRequested, this, &TimelineDock::addRankActions);
    connect(m_details, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("slice"))
            selectSliceById(url.path().toLongLong(), true);
    });
    connect(m_view, &TimelineView::rankHeaderClicked, this,
        [this](int rank) { setRankExpanded(rank, !m_view->renderer().ranks()[static_cast<size_t>(rank)].expanded); });
    connect(m_view, &TimelineView::processHeaderClicked, this, [this](int rank, int process) {
        auto& entry = m_view->renderer().ranks()[static_cast<size_t>(rank)];
        const int64_t pid = entry.data->processes[static_cast<size_t>(process)].pid;
        if (!entry.collapsedPids.erase(pid))
            entry.collapsedPids.insert(pid);
        m_view->relayout();
    });
    connect(m_view, &TimelineView::sliceSelected, this, [this](int rank, int track, int depth, qulonglong index) {
        showSelection(rank, query::SliceRef { track, depth, static_cast<size_t>(index) });
    });
    connect(m_view, &TimelineView::selectionCleared, this, [this] { m_details->clear(); });
    connect(m_view, &TimelineView::rangeSelected, this, &TimelineDock::rangeChanged);
    connect(m_view, &TimelineView::rangeCleared, this, [this] { workspace()->setTimeWindow(std::nullopt); });
}

// What the shared selection's changes do here: the time window, step, operator, rank and collective focus.
void TimelineDock::connectWorkspace()
{
    connect(workspace(), &Workspace::timeWindowChanged, this, &TimelineDock::applyTimeWindow);
    connect(workspace(), &Workspace::stepChanged, this, &TimelineDock::applyStep);
    connect(workspace(), &Workspace::operatorChanged, this, [this] {
        // The operator's rank is loaded (if it is not yet) and shown; highlightOperator runs again once it is.
        const auto op = workspace()->selectedOperator();
        if (op && op->rank)
            scrollToRank(*op->rank);
        highlightOperator(true);
    });
    connect(m_clearOperator, &QToolButton::clicked, this, [this] { workspace()->setSelectedOperator(std::nullopt); });
    connect(workspace(), &Workspace::selectedRankChanged, this, [this] {
        if (const auto rank = workspace()->selectedRank())
            scrollToRank(*rank);
        applyStep();
    });
    connect(workspace(), &Workspace::collectiveFocusChanged, this, &TimelineDock::applyCollectiveFocus);
    connect(workspace(), &Workspace::alignCollectiveRequested, this, [this](bool align) {
        if (align)
            alignRanksOnCollective();
        else
            resetOffsets();
        raise();
    });
}

// Workers still running keep the database alive by shared_ptr; the runners drop their results.
TimelineDock::~TimelineDock() { saveSession(); }

void TimelineDock::setSessionPersistence(bool on)
{
    if (on == m_persistSession)
        return;
    m_persistSession = on;
    // Takes effect with the next load; a database already shown starts its session now, with what the user set up.
    m_sessionKey = on ? TimelineSession::keyFor(workspace()->sourcePaths()) : QString();
    m_session = TimelineSession {};
}

void TimelineDock::saveSession()
{
    if (!m_persistSession || m_restoring || m_sessionKey.isEmpty())
        return;
    m_session.capture(m_view->renderer(), m_markerModel->markers());
    m_session.save(m_sessionKey);
}

void TimelineDock::reload()
{
    saveSession(); // the inputs shown until now
    m_restoring = true;
    m_sessionKey = m_persistSession ? TimelineSession::keyFor(workspace()->sourcePaths()) : QString();
    m_session = TimelineSession::load(m_sessionKey);
    m_loadRunner->cancelPending();
    m_fittedToSteps = false;
    m_statsRunner->cancelPending();
    m_searchRunner->cancelPending();
    m_operatorRunner->cancelPending();
    auto& renderer = m_view->renderer();
    renderer.setHighlights({});
    renderer.setFocus({}, false);
    renderer.ranks().clear();
    renderer.resetRowState();
    renderer.setSelection(std::nullopt);
    renderer.setRange(std::nullopt);
    renderer.axis()
        = core::TimeAxis(0, 1, std::max(1, m_view->width() - TimelineRenderer::labelWidthFor(m_view->width())));
    m_hits.clear();
    m_hitIndex = -1;
    m_hitsTable->setRowCount(0);
    m_statsModel->setStats({});
    m_markerModel->clear();
    m_details->clear();
    m_spanLabel->hide();
    m_view->relayout();
    m_restoring = false;
    runner()->run(
        [](model::Database& db) {
            RankList list;
            list.infos = query::TimelineQuery::ranks(db);
            // The rank a large cluster's timeline opens on (docs/metrics.md "Slowest rank").
            if (list.infos.size() > 1)
                list.slowest = query::StepQuery::slowestRank(query::StepQuery::breakdown(db));
            return list;
        },
        [this](RankList list) {
            const auto& infos = list.infos;
            auto& ranks = m_view->renderer().ranks();
            for (const auto& info : infos) {
                TimelineRenderer::RankEntry entry;
                entry.rank = info.rank;
                entry.hasFile = info.hasTimelineFile;
                if (const auto it = m_session.offsets.find(info.rank); it != m_session.offsets.end())
                    entry.offsetNs = it->second;
                ranks.push_back(entry);
            }
            // The rest of what this set of inputs had last time: markers, pinned and hidden rank rows.
            m_restoring = true;
            for (const auto& m : m_session.markers)
                m_markerModel->addMarker(m.begin, m.end, m.name);
            for (size_t i = 0; i < ranks.size(); ++i)
                m_session.applyRows(m_view->renderer(), static_cast<int>(i));
            m_restoring = false;
            // Ranks whose timeline is already in the model are read into arrays now (cheap, no parsing).
            for (size_t i = 0; i < infos.size(); ++i) {
                if (infos[i].loaded)
                    startLoad(static_cast<int>(i));
            }
            if (m_expandAllPending) {
                m_expandAllPending = false;
                expandAllRanks();
            } else {
                loadFirstTimelines(list);
            }
            m_view->relayout();
            // A rank selected before the rank rows existed (another view, --rank) is shown now: expanded and scrolled
            // to; else the rank the view opened on (the slowest of a large job).
            if (const auto rank = workspace()->selectedRank())
                scrollToRank(*rank);
            else if (m_openOnRank)
                scrollToRank(*m_openOnRank);
            m_openOnRank.reset();
            applyCollectiveFocus();
        });
}

void TimelineDock::setAutoLoadRanks(int ranks) { m_autoLoadRanks = std::max(0, ranks); }

void TimelineDock::loadFirstTimelines(const RankList& list)
{
    // The trace on screen when the profile opens, as in any trace viewer: every rank of a small job; of a larger one
    // the slowest rank (what the cluster views point at) and the selected one, first in the queue.
    int withFile = 0;
    for (const auto& info : list.infos)
        withFile += info.hasTimelineFile ? 1 : 0;
    if (withFile == 0 || m_autoLoadRanks == 0)
        return;
    if (withFile <= m_autoLoadRanks) {
        expandAllRanks();
        return;
    }
    std::vector<int64_t> first;
    if (const auto rank = workspace()->selectedRank())
        first.push_back(*rank);
    if (list.slowest)
        first.push_back(*list.slowest);
    if (first.empty()) {
        for (const auto& info : list.infos) {
            if (info.hasTimelineFile) {
                first.push_back(info.rank);
                break;
            }
        }
    }
    for (int64_t rank : first) {
        const int index = rankIndexOf(rank);
        if (index >= 0 && m_view->renderer().ranks()[static_cast<size_t>(index)].hasFile)
            setRankExpanded(index, true);
    }
    // The rank the view opens on is the one in sight, not rank 0's "click to load" row (scrolled to once laid out).
    m_openOnRank = first.front();
}

void TimelineDock::expandAllRanks()
{
    auto& ranks = m_view->renderer().ranks();
    if (ranks.empty()) {
        m_expandAllPending = true;
        return;
    }
    // One batch through the service: progress and cancel in the status bar, its memory estimate said before it runs.
    std::vector<int64_t> toLoad;
    for (size_t i = 0; i < ranks.size(); ++i) {
        auto& entry = ranks[i];
        entry.expanded = true;
        if (!entry.data && !entry.loading && entry.hasFile)
            toLoad.push_back(entry.rank);
    }
    if (toLoad.empty()) {
        m_view->relayout();
        return;
    }
    for (int64_t rank : toLoad) {
        if (const int index = rankIndexOf(rank); index >= 0)
            ranks[static_cast<size_t>(index)].loading = true;
    }
    m_view->relayout();
    // The memory estimate reads rank_file under the model lock: on a worker, then the batch starts.
    const bool started = m_loadRunner->runInMemory(
        [toLoad](const std::shared_ptr<model::Database>& db) {
            return DeferredLoadService::estimateBytes(*db, toLoad, DeferredLoadService::Part::Timeline);
        },
        [this, all = toLoad](uint64_t need) {
            std::vector<int64_t> batch = all;
            auto& rows = m_view->renderer().ranks();
            const uint64_t available = load::MemoryGuard::available().value_or(0);
            if (available > 0 && need > available) {
                // Load the ranks that fit, in order, and say what was left out.
                const size_t fit = std::max<size_t>(1, batch.size() * available / need);
                showError(tr("Expanding all %1 ranks would need about %2 of memory, %3 is available: the timelines "
                             "of the first %4 are loaded; expand others one by one")
                              .arg(batch.size())
                              .arg(QLocale().formattedDataSize(static_cast<qint64>(need)),
                                  QLocale().formattedDataSize(static_cast<qint64>(available)))
                              .arg(fit));
                for (size_t i = fit; i < batch.size(); ++i) {
                    if (const int index = rankIndexOf(batch[i]); index >= 0)
                        rows[static_cast<size_t>(index)].loading = false;
                }
                need = need / batch.size() * fit; // the part that is loaded
                batch.resize(fit);
            }
            workspace()->loads()->startBatch(
                tr("Loading timelines"), batch, DeferredLoadService::Part::Timeline, this,
                [this](int64_t rank, const DeferredLoadService::Result& r) { readRank(rank, r); }, need);
            m_view->update();
        });
    if (!started) {
        for (int64_t rank : toLoad) {
            if (const int index = rankIndexOf(rank); index >= 0)
                ranks[static_cast<size_t>(index)].loading = false;
        }
    }
    m_view->update();
}

void TimelineDock::setRankExpanded(int rankIndex, bool expanded)
{
    auto& entry = m_view->renderer().ranks()[static_cast<size_t>(rankIndex)];
    entry.expanded = expanded;
    if (expanded && !entry.data && !entry.loading && entry.hasFile)
        startLoad(rankIndex, true);
    m_view->relayout();
}

void TimelineDock::startLoad(int rankIndex, bool urgent)
{
    auto& entry = m_view->renderer().ranks()[static_cast<size_t>(rankIndex)];
    if (entry.loading || entry.data || !workspace()->database())
        return;
    const int64_t rank = entry.rank;
    entry.error.clear();
    entry.loading = true;
    // The service imports the rank once (parsing without the model lock, on its own pool); the arrays are read after.
    entry.loading = workspace()->loads()->request(
        rank, DeferredLoadService::Part::Timeline, this,
        [this, rank](const DeferredLoadService::Result& r) { readRank(rank, r); }, urgent);
    m_view->update();
}

void TimelineDock::readRank(int64_t rank, const DeferredLoadService::Result& result)
{
    const int rankIndex = rankIndexOf(rank);
    if (rankIndex < 0)
        return;
    if (result.cancelled) {
        m_view->renderer().ranks()[static_cast<size_t>(rankIndex)].loading = false;
        m_view->update();
        return;
    }
    if (!result.error.isEmpty()) {
        m_view->renderer().ranks()[static_cast<size_t>(rankIndex)].loading = false;
        rankFailed(rankIndex, result.error);
        return;
    }
    const auto work = [rank, imported = result.imported](const std::shared_ptr<model::Database>& db) {
        auto guard = db->lock();
        RankLoad r;
        r.timeline = query::TimelineQuery::loadRank(*db, rank);
        const auto issues = query::IssueQuery::rankIssues(*db, rank);
        for (const auto& issue : issues) {
            // DeferredSniff::truncation's warning, or the importer's own report of a document that ended early.
            if (issue.message.rfind("file looks truncated", 0) == 0)
                r.truncated = true;
        }
        if (r.timeline && !r.timeline->tracks.empty())
            return r;
        if (r.timeline && !r.timeline->counters.empty())
            return r;
        // Nothing to draw: the import problems of this rank say why (the file may also just have no events).
        QStringList errors;
        for (const auto& issue : issues) {
            if (issue.severity == "error")
                errors << issueMessage(issue);
        }
        r.problem = errors.isEmpty() ? (imported ? tr("the timeline has no events") : QString())
                                     : errors.join(QStringLiteral("; "));
        return r;
    };
    const auto done = [this, rank](RankLoad r) {
        const int index = rankIndexOf(rank);
        if (index < 0)
            return;
        // Import problems were written to the model's parse_issue table.
        workspace()->notifyIssuesAdded();
        auto& e = m_view->renderer().ranks()[static_cast<size_t>(index)];
        e.loading = false;
        e.data = r.timeline;
        e.truncated = r.truncated;
        if (!r.problem.isEmpty())
            rankFailed(index, r.problem);
        m_view->renderer().applyDefaultCollapse(index);
        m_session.applyRows(m_view->renderer(), index); // its pinned and hidden rows from the last session
        // Many ranks arriving one after another (Expand all) lay the rows out at most every 100 ms, not once per rank:
        // the first at once, the ones arriving during the next 100 ms when it ends. A pending layout counts as work in
        // progress (Workspace::isBusy), so whoever waits for quiet views sees the rows.
        m_arrivedRanks = true;
        if (!m_arrivalTimer->isActive()) {
            ranksArrived();
            m_arrivalTimer->start();
        } else if (!m_arrivalPending) {
            m_arrivalPending = true;
            workspace()->beginQuery();
        }
    };
    const bool started = m_loadRunner->runInMemory(work, done, [this, rank](const QString& message) {
        const int index = rankIndexOf(rank);
        if (index < 0)
            return;
        m_view->renderer().ranks()[static_cast<size_t>(index)].loading = false;
        rankFailed(index, message);
    });
    if (!started)
        m_view->renderer().ranks()[static_cast<size_t>(rankIndex)].loading = false;
}

void TimelineDock::ranksArrived()
{
    if (m_arrivalPending) {
        m_arrivalPending = false;
        workspace()->endQuery();
    }
    if (!m_arrivedRanks)
        return;
    m_arrivedRanks = false;
    updateSpanNote();
    m_view->relayout();
    m_markerModel->setOrigin(m_view->renderer().axis().boundsBegin());
    applyStep();
    if (!workspace()->step() && !m_fittedToSteps)
        m_fittedToSteps = fitToSteps();
    if (workspace()->selectedOperator())
        highlightOperator(m_view->renderer().highlights().empty());
}

bool TimelineDock::fitToSteps()
{
    // With no step chosen, the first view is the steps' span, not the whole file: a trace's process start-up,
    // counters and tails left most of the first window blank (issue 36).
    std::optional<std::pair<int64_t, int64_t>> span;
    for (const auto& e : m_view->renderer().ranks()) {
        if (!e.data)
            continue;
        std::set<std::string> steps;
        for (const auto& [id, name] : e.data->names) {
            if (name.rfind("ProfilerStep#", 0) == 0)
                steps.insert(name);
        }
        for (const std::string& name : steps) {
            if (const auto s = query::TimelineQuery::spanOfName({ e.data }, name)) {
                const std::pair<int64_t, int64_t> shifted { s->first + e.offsetNs, s->second + e.offsetNs };
                span = span ? std::pair { std::min(span->first, shifted.first), std::max(span->second, shifted.second) }
                            : shifted;
            }
        }
    }
    if (!span || span->second <= span->first)
        return false;
    m_view->fitRange(span->first, span->second);
    return true;
}

void TimelineDock::rankFailed(int rankIndex, const QString& message)
{
    auto& e = m_view->renderer().ranks()[static_cast<size_t>(rankIndex)];
    e.error = message;
    showError(tr("rank %1: timeline not loaded: %2").arg(e.rank).arg(message));
    m_view->relayout();
}

std::vector<query::RankTimelinePtr> TimelineDock::loadedRanks(bool selectedOnly) const
{
    std::vector<query::RankTimelinePtr> out;
    const auto& selected = workspace()->selectedRanks();
    for (const auto& e : m_view->renderer().ranks()) {
        if (!e.data)
            continue;
        if (selectedOnly && !selected.empty() && std::find(selected.begin(), selected.end(), e.rank) == selected.end())
            continue;
        out.push_back(e.data);
    }
    return out;
}

void TimelineDock::applyStep()
{
    const auto step = workspace()->step();
    // A collective of the step in focus is what the user is looking at, not the whole step.
    const auto focus = workspace()->collectiveFocus();
    if (focus && (!step || *step == focus->step) && fitCollectiveFocus())
        return;
    if (!step)
        return;
    const std::string name = "ProfilerStep#" + std::to_string(*step);
    const auto& selected = workspace()->selectedRanks();
    std::optional<std::pair<int64_t, int64_t>> span;
    for (const auto& e : m_view->renderer().ranks()) {
        if (!e.data || (!selected.empty() && std::find(selected.begin(), selected.end(), e.rank) == selected.end()))
            continue;
        // Each rank's span in display time (its offset applied).
        if (const auto s = query::TimelineQuery::spanOfName({ e.data }, name)) {
            const std::pair<int64_t, int64_t> shifted { s->first + e.offsetNs, s->second + e.offsetNs };
            span = span ? std::pair { std::min(span->first, shifted.first), std::max(span->second, shifted.second) }
                        : shifted;
        }
    }
    if (span)
        m_view->fitRange(span->first, span->second);
}

void TimelineDock::rangeChanged(int64_t b, int64_t e)
{
    // Other docks may restrict themselves to the range (display time: the profile clock unless
    // rank offsets are set).
    workspace()->setTimeWindow(Workspace::TimeWindow { b, e });
    computeStats(b, e);
}

void TimelineDock::applyTimeWindow()
{
    const auto window = workspace()->timeWindow();
    auto& renderer = m_view->renderer();
    if (!window) {
        renderer.setRange(std::nullopt);
    } else if (!renderer.range() || renderer.range()->first != window->begin
        || renderer.range()->second != window->end) {
        renderer.setRange(std::pair { window->begin, window->end });
    }
    m_view->update();
}

void TimelineDock::setRowFilter(const QString& text)
{
    if (m_filterEdit->text() != text)
        m_filterEdit->setText(text); // re-enters through textChanged
    m_view->renderer().setRowFilter(text);
    m_view->relayout();
}

void TimelineDock::setMaxLevels(int levels)
{
    if (m_levelsSpin->value() != levels)
        m_levelsSpin->setValue(levels); // re-enters through valueChanged
    m_view->renderer().setMaxLevels(levels);
    m_view->relayout();
}

void TimelineDock::updateSpanNote()
{
    // Data more than a day apart (ranks of different runs, or a file whose clocks disagree) makes "Fit" useless:
    // every slice collapses to a line. Say so instead of leaving the user with an empty-looking view.
    std::optional<int64_t> begin, end;
    for (const auto& e : m_view->renderer().ranks()) {
        if (!e.data || e.data->end <= e.data->begin)
            continue;
        const int64_t b = e.data->begin + e.offsetNs;
        const int64_t en = e.data->end + e.offsetNs;
        begin = begin ? std::min(*begin, b) : b;
        end = end ? std::max(*end, en) : en;
    }
    constexpr int64_t kDayNs = 86400LL * 1000000000LL;
    if (!begin || *end - *begin <= kDayNs) {
        m_spanLabel->hide();
        return;
    }
    const double days = static_cast<double>(*end - *begin) / static_cast<double>(kDayNs);
    m_spanLabel->setText(tr("\u26a0 the loaded data spans %1 days (different runs, or clocks that disagree): zoom in "
                            "or align ranks on a step")
                             .arg(days, 0, 'f', days < 10 ? 1 : 0));
    m_spanLabel->show();
}

} // namespace npuscope::gui
