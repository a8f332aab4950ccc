// SPDX-License-Identifier: Apache-2.0
#include "npuscope/core/ThreadPriority.h"
#include "npuscope/gui/app/MainWindow.h"

#include "npuscope/gui/app/Appearance.h"
#include "npuscope/gui/app/SettingsDialog.h"
#include "npuscope/gui/common/TranslatedText.h"

#include "npuscope/gui/advice/AdviceDock.h"
#include "npuscope/gui/app/CommandPalette.h"
#include "npuscope/gui/app/HelpDialogs.h"
#include "npuscope/gui/app/WelcomePage.h"
#include "npuscope/gui/collectives/BlameDock.h"
#include "npuscope/gui/collectives/CollectivesDock.h"
#include "npuscope/gui/comm/CommDurationDock.h"
#include "npuscope/gui/comm/CommMatrixDock.h"
#include "npuscope/gui/comm/GroupsDock.h"
#include "npuscope/gui/comm/LinksDock.h"
#include "npuscope/gui/common/DeferredLoadService.h"
#include "npuscope/gui/common/FontWarmup.h"
#include "npuscope/gui/common/QueryRunner.h"
#include "npuscope/gui/common/SettingsWriter.h"
#include "npuscope/gui/common/TimeFormat.h"
#include "npuscope/gui/common/WidgetImage.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/compare/BaselineLoader.h"
#include "npuscope/gui/compare/CompareDock.h"
#include "npuscope/gui/pipeline/PipelineDock.h"
#include "npuscope/gui/strategy/StrategyGraphDock.h"
#include "npuscope/gui/criticalpath/CriticalPathDock.h"
#include "npuscope/gui/statistics/StatisticsDock.h"
#include "npuscope/gui/flops/FlopsHeatmapDock.h"
#include "npuscope/gui/flops/FlopsScopeDock.h"
#include "npuscope/gui/issues/ParseIssuesDock.h"
#include "npuscope/gui/marey/MareyDock.h"
#include "npuscope/gui/memory/MemoryDetailDock.h"
#include "npuscope/gui/memory/MemoryHeatmap.h"
#include "npuscope/gui/memory/MemoryHeatmapDock.h"
#include "npuscope/gui/operators/OperatorDock.h"
#include "npuscope/gui/steps/ClusterStepsDock.h"
#include "npuscope/gui/steps/OverviewDock.h"
#include "npuscope/gui/steps/TimeOverviewDock.h"
#include "npuscope/gui/strategy/ParallelStrategyDock.h"
#include "npuscope/gui/timeline/TimelineDock.h"
#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/query/CriticalPath.h"
#include "npuscope/query/RankQuery.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/query/advice/HtmlReport.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDeadlineTimer>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QMouseEvent>
#include <QMutexLocker>
#include <QProgressDialog>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QThread>
#include <QTimer>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>

#include <spdlog/spdlog.h>

#include <functional>
#include <map>
#include <mutex>

// The resources live in the npuscope_gui static library; referencing the initializer from here
// pulls them in (Q_INIT_RESOURCE must be used outside any namespace).
static void initNpuscopeResources() { Q_INIT_RESOURCE(npuscope); }

namespace npuscope::gui {

namespace {

// 2: the answering views (Advice, Blame, Collectives) in a group of their own; a saved layout of version 1 is replaced.
constexpr int kStateVersion = 2;
// Nice increment of the worker threads of a process with a window (setBackgroundNice).
constexpr int kBackgroundNice = 5;
const char* const kGeometryKey = "window/geometry";
const char* const kStateKey = "window/state";
const char* const kSavedLayoutKey = "layout/saved";

QString plural(int64_t n, const QString& one, const QString& many)
{
    return n == 1 ? QStringLiteral("1 ") + one : QStringLiteral("%1 ").arg(n) + many;
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : MainWindow(Options {}, parent)
{
}

MainWindow::MainWindow(const Options& options, QWidget* parent)
    : QMainWindow(parent)
    , m_options(options)
    , m_workspace(new Workspace(this))
{
    initNpuscopeResources();
    // A process with a window: its worker threads run below the GUI thread and the display server (nice +5 unless
    // NPUSCOPE_BACKGROUND_NICE says otherwise; 0 turns it off). core/ThreadPriority.h says why.
    bool niceSet = false;
    const int nice = qEnvironmentVariableIntValue("NPUSCOPE_BACKGROUND_NICE", &niceSet);
    setBackgroundNice(niceSet ? nice : kBackgroundNice);
    setWindowTitle(QStringLiteral("npuscope"));
    setWindowIcon(QIcon(QStringLiteral(":/npuscope/npuscope.svg")));
    applyStyleSheet();
    setAcceptDrops(true);
    setDockNestingEnabled(true);

    m_recentWrite->file = recentFile(); // set once: the job that writes the list reads it
    createDocks();
    createMenus();
    createStatusBar();
    m_defaultState = saveState(kStateVersion);
    // The narrow and the low forms of the default layout, built once now (before anything is shown, cheap): at the
    // open, tabifying 17 views one by one into a laid-out window held the GUI thread for half a second at 1366×768.
    // applyDefaultSplit restores the one the window's size asks for.
    {
        const QList<QDockWidget*> order = defaultTabOrder();
        for (QDockWidget* dock : order.mid(1))
            tabifyDockWidget(m_stepsDock, dock);
        m_stepsDock->raise();
        m_narrowState = saveState(kStateVersion);
        for (QDockWidget* dock : order)
            tabifyDockWidget(m_timelineDock, dock);
        m_timelineDock->raise();
        m_lowState = saveState(kStateVersion);
        restoreState(m_defaultState, kStateVersion);
    }

    bool placed = false;
    if (m_options.persistSettings) {
        QSettings settings;
        placed = restoreGeometry(settings.value(kGeometryKey).toByteArray());
        restoreState(settings.value(kStateKey).toByteArray(), kStateVersion);
    }
    if (!placed)
        resize(defaultSize());
    createWelcome();
    FontWarmup::schedule(this, font());

    m_progressTimer = new QTimer(this);
    m_progressTimer->setInterval(100);
    connect(m_progressTimer, &QTimer::timeout, this, &MainWindow::updateProgress);
}

MainWindow::~MainWindow() { cancelLoading(); }

void MainWindow::createDocks()
{
    m_stepsDock = new ClusterStepsDock(m_workspace, this);
    m_overviewDock = new OverviewDock(m_workspace, this);
    m_issuesDock = new ParseIssuesDock(m_workspace, this);
    m_commMatrixDock = new CommMatrixDock(m_workspace, this);
    m_commDurationDock = new CommDurationDock(m_workspace, this);
    m_linksDock = new LinksDock(m_workspace, this);
    m_groupsDock = new GroupsDock(m_workspace, this);
    m_timeOverviewDock = new TimeOverviewDock(m_workspace, this);
    m_timelineDock = new TimelineDock(m_workspace, this);
    m_operatorDock = new OperatorDock(m_workspace, this);
    m_memoryHeatmapDock = new MemoryHeatmapDock(m_workspace, this);
    m_memoryDetailDock = new MemoryDetailDock(m_workspace, this);
    m_flopsHeatmapDock = new FlopsHeatmapDock(m_workspace, this);
    m_flopsScopeDock = new FlopsScopeDock(m_workspace, this);
    m_strategyDock = new ParallelStrategyDock(m_workspace, this);
    m_mareyDock = new MareyDock(m_workspace, this);
    m_adviceDock = new AdviceDock(m_workspace, this);
    m_collectivesDock = new CollectivesDock(m_workspace, this);
    m_blameDock = new BlameDock(m_workspace, this);
    m_criticalPathDock = new CriticalPathDock(m_workspace, this);
    m_compareDock = new CompareDock(m_workspace, this);
    m_statisticsDock = new StatisticsDock(m_workspace, this);
    m_pipelineDock = new PipelineDock(m_workspace, this);
    m_strategyGraphDock = new StrategyGraphDock(m_workspace, this);
    m_baselineLoader = new BaselineLoader(m_workspace, this);
    connect(m_baselineLoader, &BaselineLoader::finished, this, [this](bool ok, const QString& message) {
        // Said in a permanent status widget: a temporary message can be drawn over the summary label when it
        // arrives before the window is shown (a --screenshot run).
        if (!ok) {
            m_baselineLabel->setVisible(m_workspace->baseline() != nullptr);
            statusBar()->showMessage(message, 8000);
        }
        if (ok) {
            m_baselineLabel->setText(tr("Baseline: %1").arg(message));
            m_baselineLabel->setToolTip(m_workspace->baselinePaths().join(QLatin1Char('\n')));
            m_baselineLabel->show();
            m_compareDock->show();
            m_compareDock->raise();
        }
    });
    m_timelineDock->setSessionPersistence(m_options.persistSettings);
    if (m_options.persistSettings && Appearance::load().timeUnit == Appearance::TimeUnit::Milliseconds)
        m_stepsDock->setTimeUnit(TimeFormat::Unit::Milliseconds);

    // Every view is a dock the user can move; the central widget is the welcome page, hidden once a model is loaded.
    // First layout: the cluster views as tabs on top, the timeline under them with most of the height. (Side by side,
    // Cluster steps and Overview need about 1,800 px: wider than a laptop screen.)
    addDockWidget(Qt::TopDockWidgetArea, m_stepsDock);
    addDockWidget(Qt::BottomDockWidgetArea, m_timelineDock);
    // The views that answer (Advice, Blame, Collectives) get a group of their own beside the cluster views, so they
    // are in sight from the start; a narrow window puts them right after Cluster steps instead (applyDefaultSplit).
    splitDockWidget(m_stepsDock, m_adviceDock, Qt::Horizontal);
    for (QDockWidget* dock : clusterTabOrder())
        tabifyDockWidget(m_stepsDock, dock);
    for (QDockWidget* dock : answerTabOrder())
        tabifyDockWidget(m_adviceDock, dock);
    // An advice finding's "Show evidence" names the view that shows it; the advice says "parallel" for the strategy.
    connect(m_workspace, &Workspace::showViewRequested, this, [this](const QString& name) {
        QDockWidget* dock = dockByName(name == QLatin1String("parallel") ? QStringLiteral("strategy") : name);
        if (!dock) {
            statusBar()->showMessage(tr("No view named \u201c%1\u201d").arg(name), 5000);
            return;
        }
        showView(dock);
    });
    // Clicking a device of the heatmap selects its rank (the heatmap dock does) and opens its memory detail.
    connect(m_memoryHeatmapDock->heatmap(), &MemoryHeatmap::rankClicked, this, [this] {
        m_memoryDetailDock->show();
        m_memoryDetailDock->raise();
    });
    // The window's dock tab bars scroll instead of eliding every title to "Ove…" when a group has many views.
    for (QDockWidget* dock : docks())
        connect(dock, &QDockWidget::visibilityChanged, this, &MainWindow::fitTabBars, Qt::QueuedConnection);
    m_stepsDock->raise();
    m_adviceDock->raise();
    resizeDocks({ m_stepsDock, m_timelineDock }, { 45, 55 }, Qt::Vertical);
    resizeDocks({ m_stepsDock, m_adviceDock }, { 62, 38 }, Qt::Horizontal);
}

QList<QDockWidget*> MainWindow::clusterTabOrder() const
{
    // After Cluster steps, in the order a step is usually explained: where the time goes, which operators, which links.
    return { m_overviewDock, m_operatorDock, m_commMatrixDock, m_mareyDock, m_timeOverviewDock, m_commDurationDock,
        m_linksDock, m_groupsDock, m_memoryHeatmapDock, m_memoryDetailDock, m_flopsHeatmapDock, m_flopsScopeDock,
        m_strategyDock, m_strategyGraphDock, m_statisticsDock, m_pipelineDock, m_compareDock };
}

QList<QDockWidget*> MainWindow::answerTabOrder() const
{
    return { m_blameDock, m_criticalPathDock, m_collectivesDock, m_issuesDock };
}

QList<QDockWidget*> MainWindow::defaultTabOrder() const
{
    QList<QDockWidget*> order { m_stepsDock, m_adviceDock };
    order += answerTabOrder();
    order += clusterTabOrder();
    return order;
}

QList<QDockWidget*> MainWindow::docks() const
{
    return { m_stepsDock, m_overviewDock, m_issuesDock, m_commMatrixDock, m_commDurationDock, m_linksDock, m_groupsDock,
        m_timeOverviewDock, m_timelineDock, m_operatorDock, m_memoryHeatmapDock, m_memoryDetailDock, m_flopsHeatmapDock,
        m_strategyDock, m_mareyDock, m_adviceDock, m_collectivesDock, m_blameDock, m_compareDock, m_statisticsDock,
        m_flopsScopeDock, m_pipelineDock, m_strategyGraphDock, m_criticalPathDock };
}

QStringList MainWindow::dockShortNames()
{
    return { QStringLiteral("steps"), QStringLiteral("overview"), QStringLiteral("issues"), QStringLiteral("matrix"),
        QStringLiteral("commduration"), QStringLiteral("links"), QStringLiteral("groups"),
        QStringLiteral("timeoverview"), QStringLiteral("timeline"), QStringLiteral("operators"),
        QStringLiteral("memory"), QStringLiteral("memorydetail"), QStringLiteral("flops"), QStringLiteral("strategy"),
        QStringLiteral("marey"), QStringLiteral("advice"), QStringLiteral("collectives"), QStringLiteral("blame"),
        QStringLiteral("compare"), QStringLiteral("statistics"), QStringLiteral("flopsscope"),
        QStringLiteral("pipeline"), QStringLiteral("strategy-graph"), QStringLiteral("critical-path") };
}

QDockWidget* MainWindow::dockByName(const QString& name) const
{
    const QString n = name.trimmed();
    const QList<QDockWidget*> all = docks();
    const QStringList shortNames = dockShortNames();
    for (int i = 0; i < all.size(); ++i) {
        if (n.compare(shortNames[i], Qt::CaseInsensitive) == 0
            || n.compare(all[i]->objectName(), Qt::CaseInsensitive) == 0)
            return all[i];
    }
    return nullptr;
}

QSize MainWindow::defaultSize() const
{
    // 1600×1000 where it fits, else 90 % of the screen's free area (a 1366×768 laptop gets 1229×691 or so).
    const QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen();
    const QSize preferred(1600, 1000);
    if (!s)
        return preferred;
    const QSize available = s->availableGeometry().size() * 0.9;
    return preferred.boundedTo(available).expandedTo(QSize(800, 560));
}

void MainWindow::fitTabBars()
{
    // Only when different: each setter lays the bar out again, and this runs whenever a view is shown or hidden.
    for (QTabBar* bar : findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
        if (bar->elideMode() != Qt::ElideNone)
            bar->setElideMode(Qt::ElideNone);
        if (!bar->usesScrollButtons())
            bar->setUsesScrollButtons(true);
    }
}

void MainWindow::createWelcome()
{
    m_welcome = new WelcomePage(this);
    const QString demo = qEnvironmentVariableIsSet("NPUSCOPE_DEMO") ? qEnvironmentVariable("NPUSCOPE_DEMO")
                                                                    : QStringLiteral(NPUSCOPE_DEMO_DIR);
    m_welcome->setDemoPath(QFileInfo(demo).isDir() ? demo : QString());
    m_welcome->setRecent(recentEntries());
    connect(m_welcome, &WelcomePage::openFolderRequested, this, &MainWindow::chooseFolder);
    connect(m_welcome, &WelcomePage::openRequested, this, &MainWindow::open);
    connect(m_welcome, &WelcomePage::formatsRequested, this, [this] { HelpDialogs::showFormats(this); });
    setCentralWidget(m_welcome);
    // The welcome page has the window to itself; the docks come back, as they were, with the first model.
    m_stateBehindWelcome = saveState(kStateVersion);
    for (QDockWidget* dock : docks())
        dock->hide();
}

void MainWindow::hideWelcome()
{
    if (!m_welcome || m_welcome->isHidden())
        return;
    m_welcome->hide();
    // The default layout goes straight to its form for this window's size: one restore, not two (each restore shows
    // and hides every dock, a round trip to the X server per dock).
    if (m_stateBehindWelcome == m_defaultState)
        applyDefaultSplit();
    else
        restoreState(m_stateBehindWelcome, kStateVersion);
}

void MainWindow::applyDefaultSplit()
{
    // The default layout gives the cluster views above the timeline 45 % of the height, or what Cluster steps would
    // like, up to 55 % (at 1920×1080 35 % left Operators two table rows under its pies). In pixels of the window as it
    // is now (the state saved at construction holds the sizes of a window not laid out yet).
    const int available = std::max(2, height() - menuBar()->sizeHint().height() - statusBar()->sizeHint().height());
    // What Cluster steps needs above the timeline: its title bar, its body (least: the table's header and three
    // rows, the footer; wanted: its size hint) and the tab bar of the cluster views under it.
    int least = 0;
    int wanted = 0;
    if (const auto* area = qobject_cast<const QScrollArea*>(m_stepsDock->widget()); area && area->widget()) {
        int tabBar = 0;
        for (const QTabBar* bar : findChildren<QTabBar*>(Qt::FindDirectChildrenOnly))
            tabBar = std::max(tabBar, bar->sizeHint().height());
        if (tabBar == 0) // no tab bar yet (the layout is restored below): one line of text and its frame
            tabBar = fontMetrics().height() + 12;
        const int chrome = fontMetrics().height() + 8 + tabBar + 4; // 4: the dock separator, rounding at scale 1.5
        least = area->widget()->minimumSizeHint().height() + chrome;
        wanted = area->widget()->sizeHint().height() + chrome;
    }
    // A window too low for both views above each other (1366×768 at scale 2: 384 logical pixels; 1920×1080 at scale
    // 2: Cluster steps would scroll its footer away in half of 540) would show half a table above a few timeline
    // tracks: the timeline's tab first, then Cluster steps and every other view, in front, each with the whole height.
    // (The Timeline added last, in front, scrolled the tab bar so far that Cluster steps was out of sight.)
    if (available < kMinSplitHeight || least > available / 2) {
        restoreState(m_lowState, kStateVersion);
        return;
    }
    // A window too narrow for the answering views beside the cluster views: one tab group, Cluster steps, then Advice,
    // Blame, Collectives, Parse issues, then the other views.
    if (width() < kMinSideBySideWidth) {
        restoreState(m_narrowState, kStateVersion);
    } else {
        restoreState(m_defaultState, kStateVersion);
        resizeDocks({ m_stepsDock, m_adviceDock }, { width() * 62 / 100, width() * 38 / 100 }, Qt::Horizontal);
    }
    // Even: at a scale factor of 1.5 an odd logical height puts the tab bar under the cluster views between device
    // pixels, and the dock separator is drawn over its edge.
    const int top = std::max(std::min(std::max(available * 45 / 100, wanted), available * 55 / 100), least) / 2 * 2;
    resizeDocks({ m_stepsDock, m_timelineDock }, { top, available - top }, Qt::Vertical);
}

void MainWindow::createHelp()
{
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* shortcuts
        = help->addAction(tr("&Shortcuts and metrics"), this, [this] { HelpDialogs::showShortcuts(this); });
    shortcuts->setObjectName(QStringLiteral("shortcutsAction"));
    shortcuts->setShortcuts({ QKeySequence(Qt::Key_F1), QKeySequence(QStringLiteral("?")) });
    help->addAction(tr("&What can I open?"), this, [this] { HelpDialogs::showFormats(this); });
    help->addSeparator();
    help->addAction(tr("&About npuscope"), this, [this] { HelpDialogs::showAbout(this); })
        ->setObjectName(QStringLiteral("aboutAction"));
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);

    // Esc anywhere clears what a click selected (ranks, operator, collective instance); the step, group and time
    // range are filters with their own controls. A view that uses Esc itself (the timeline) takes it first.
    auto* clear = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    clear->setObjectName(QStringLiteral("clearSelectionShortcut"));
    connect(clear, &QShortcut::activated, this, [this] {
        m_workspace->setSelectedRank(std::nullopt);
        m_workspace->setSelectedOperator(std::nullopt);
        m_workspace->setCollectiveFocus(std::nullopt);
    });
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* openAction = file->addAction(tr("&Open folder\u2026"), this, &MainWindow::chooseFolder);
    openAction->setShortcut(QKeySequence::Open);
    // A folder of `npuscope-cli import` rank files (docs/cluster.md) opens like any folder; this entry says so.
    QAction* openImported = file->addAction(tr("Open &imported folder\u2026"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(
            this, tr("Choose a folder of imported ranks (npuscope-cli import --out)"));
        if (!dir.isEmpty())
            open({ dir });
    });
    openImported->setObjectName(QStringLiteral("openImportedAction"));
    openImported->setToolTip(tr("Rank files written by npuscope-cli import on the cluster: opened without parsing"));
    m_recentMenu = file->addMenu(tr("Open &recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    rebuildRecentMenu();
    // Compare mode: the opened profile against a baseline (a folder, or a single trace file such as a GPU trace).
    file->addAction(tr("Co&mpare with\u2026"), this,
            [this] {
                const QString dir = QFileDialog::getExistingDirectory(this, tr("Choose the baseline folder"));
                if (!dir.isEmpty())
                    openBaseline({ dir });
            })
        ->setObjectName(QStringLiteral("compareWithAction"));
    file->addAction(tr("Compare with &trace file\u2026"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Choose the baseline trace file"));
        if (!path.isEmpty())
            openBaseline({ path });
    });
    file->addSeparator();
    QAction* useCache = file->addAction(tr("Use parse &cache"));
    useCache->setCheckable(true);
    useCache->setChecked(SettingsWriter::value(QStringLiteral("parseCache/enabled"), true).toBool());
    useCache->setToolTip(tr("Keep what was parsed in %1 and reuse it while the input files are unchanged")
                             .arg(QString::fromStdString(load::ParseCache::defaultDir())));
    connect(useCache, &QAction::toggled, this,
        [](bool on) { SettingsWriter::setValue(QStringLiteral("parseCache/enabled"), on); });
    file->addAction(tr("C&lear parse cache"), this, [this] {
        const uint64_t freed = load::ParseCache().clear();
        statusBar()->showMessage(
            tr("Parse cache cleared: %1 MB freed").arg(static_cast<double>(freed) / 1e6, 0, 'f', 1), 5000);
    });
    QAction* exportAction = file->addAction(tr("&Export report\u2026"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export advice report"), QStringLiteral("npuscope-report.html"), tr("HTML (*.html)"));
        if (!path.isEmpty())
            startExportReport(path);
    });
    exportAction->setObjectName(QStringLiteral("exportReportAction"));
    // Any view as PNG or SVG (the charts' own context menus save just the chart).
    QMenu* images = file->addMenu(tr("Save view &image"));
    connect(images, &QMenu::aboutToShow, this, [this, images] {
        images->clear();
        const QList<QDockWidget*> all = docks();
        const QStringList names = dockShortNames();
        for (int i = 0; i < all.size(); ++i) {
            QDockWidget* dock = all[i];
            if (!dock->isVisible() || dock->visibleRegion().isEmpty())
                continue;
            const QString name = names[i];
            images->addAction(dock->windowTitle(), this,
                [dock, name] { WidgetImage::saveWithDialog(dock, QStringLiteral("npuscope-") + name); });
        }
        if (images->isEmpty())
            images->addAction(tr("(no view shown)"))->setEnabled(false);
    });
    file->addSeparator();
    file->addAction(tr("Save &layout"), this, [this] {
        SettingsWriter::setValue(kSavedLayoutKey, saveState(kStateVersion));
        statusBar()->showMessage(tr("Layout saved; File \u2192 Restore layout brings it back"), 5000);
    });
    file->addAction(tr("Restore la&yout"), this, [this] {
        const QByteArray state = SettingsWriter::value(kSavedLayoutKey).toByteArray();
        if (state.isEmpty()) {
            statusBar()->showMessage(tr("No saved layout yet (File \u2192 Save layout)"), 5000);
            return;
        }
        hideWelcome();
        restoreState(state, kStateVersion);
    });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    QAction* palette = m_viewMenu->addAction(tr("&Go to…"), this, [this] { showCommandPalette(); });
    palette->setObjectName(QStringLiteral("commandPaletteAction"));
    palette->setShortcuts({ QKeySequence(Qt::CTRL | Qt::Key_K), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P) });
    palette->setShortcutContext(Qt::WindowShortcut);
    m_viewMenu->addSeparator();
    // Choosing a view shows it and brings it to the front, whether it was hidden, behind another tab or in front
    // (the dock's own toggle action hid a view that was shown). A view is closed from its title bar.
    const QList<QDockWidget*> main = mainViews();
    for (QDockWidget* dock : docks()) {
        QAction* action = m_viewMenu->addAction(dock->windowTitle(), this, [this, dock] { showView(dock); });
        action->setObjectName(dock->objectName() + QStringLiteral("ShowAction"));
        connect(dock, &QDockWidget::windowTitleChanged, action, &QAction::setText);
        if (const auto k = main.indexOf(dock); k >= 0 && k < 9)
            action->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + k)));
    }
    m_viewMenu->addSeparator();
    // Hosts are named by their host_ips_mapping.txt id; the real IP only when the user turns it on.
    QAction* showHostIps = m_viewMenu->addAction(tr("Show host &IPs"));
    showHostIps->setObjectName(QStringLiteral("showHostIpsAction"));
    showHostIps->setCheckable(true);
    showHostIps->setToolTip(tr("Name hosts by their real IP from host_ips_mapping.txt instead of the mapping id"));
    showHostIps->setChecked(
        m_options.persistSettings && SettingsWriter::value(QStringLiteral("view/showHostIps"), false).toBool());
    m_workspace->setShowHostIps(showHostIps->isChecked());
    connect(showHostIps, &QAction::toggled, this, [this](bool on) {
        if (m_options.persistSettings)
            SettingsWriter::setValue(QStringLiteral("view/showHostIps"), on);
        m_workspace->setShowHostIps(on);
    });
    m_viewMenu->addAction(tr("Reset layout"), this, [this] {
        for (QDockWidget* dock : docks())
            dock->setFloating(false);
        if (m_welcome && !m_welcome->isHidden())
            m_welcome->hide();
        applyDefaultSplit();
    });
    m_viewMenu->addSeparator();
    QAction* settings = m_viewMenu->addAction(tr("&Settings\u2026"), this, &MainWindow::showSettings);
    settings->setObjectName(QStringLiteral("settingsAction"));
    settings->setShortcut(QKeySequence::Preferences);
    createHelp();
}

void MainWindow::applyStyleSheet()
{
    QString sheet;
    QFile qss(QStringLiteral(":/npuscope/style.qss"));
    if (qss.open(QIODevice::ReadOnly))
        sheet = QString::fromUtf8(qss.readAll());
    // ui/style.qss draws dock titles and grid lines in light colours; a dark palette overrides them.
    sheet += Appearance::styleSheetFor(QApplication::palette());
    // Replacing one sheet by another (or by the same) leaves the widgets the sheet styles with the palette they were
    // polished with (the light one after a switch to dark): clearing it first makes them take the application's.
    m_styledPalette = QApplication::palette();
    if (!styleSheet().isEmpty())
        setStyleSheet(QString());
    setStyleSheet(sheet);
}

void MainWindow::changeEvent(QEvent* event)
{
    QMainWindow::changeEvent(event);
    // A new application palette reaches the window as a palette change of its own (QApplication sends
    // ApplicationPaletteChange to child widgets only). The window's own polish below changes its palette again, with
    // the application's palette by then: comparing with the palette last polished with stops there.
    const bool paletteEvent
        = event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange;
    if (paletteEvent && !m_restylePending && QApplication::palette() != m_styledPalette) {
        m_restylePending = true; // setStyleSheet sends the window palette changes of its own
        applyStyleSheet();
        m_restylePending = false;
    }
}

void MainWindow::showSettings()
{
    const Appearance::Choices before = Appearance::load();
    SettingsDialog dialog(before, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const Appearance::Choices chosen = dialog.choices();
    Appearance::save(chosen);
    Appearance::apply(chosen); // polishes the style sheet again (changeEvent)
    m_stepsDock->setTimeUnit(chosen.timeUnit == Appearance::TimeUnit::Milliseconds ? TimeFormat::Unit::Milliseconds
                                                                                   : TimeFormat::Unit::Microseconds);
    if (Appearance::resolvedLanguage(chosen.language) != Appearance::resolvedLanguage(before.language))
        statusBar()->showMessage(tr("The new language applies when npuscope is started again"), 8000);
}

void MainWindow::createStatusBar()
{
    m_summary = new QLabel(tr("Drop a profiling folder here, or use File \u2192 Open folder"), this);
    m_summary->setObjectName(QStringLiteral("summaryLabel"));
    statusBar()->addWidget(m_summary, 1);
    m_badge = new QLabel(this);
    m_badge->setObjectName(QStringLiteral("warningsBadge"));
    m_badge->setCursor(Qt::PointingHandCursor);
    m_badge->setToolTip(tr("Problems found while importing; click to show them"));
    m_badge->installEventFilter(this);
    m_badge->hide();
    m_baselineLabel = new QLabel(this);
    m_baselineLabel->setObjectName(QStringLiteral("baselineLabel"));
    m_baselineLabel->hide();
    statusBar()->addPermanentWidget(m_baselineLabel);
    connect(m_workspace, &Workspace::baselineChanged, m_baselineLabel, [this] {
        if (!m_workspace->baseline())
            m_baselineLabel->hide();
    });
    statusBar()->addPermanentWidget(m_badge);

    // The advice finding that explains the most of the step, once the Advice view has its findings; a click shows
    // the Advice view.
    m_topFinding = new QLabel(this);
    m_topFinding->setObjectName(QStringLiteral("topFindingLabel"));
    m_topFinding->setTextFormat(Qt::RichText);
    m_topFinding->hide();
    statusBar()->addPermanentWidget(m_topFinding);
    connect(m_topFinding, &QLabel::linkActivated, this, [this] { showView(m_adviceDock); });
    connect(m_workspace, &Workspace::topFindingChanged, this, [this] {
        const QString rule = m_workspace->topFindingRule();
        m_topFinding->setVisible(!rule.isEmpty());
        if (rule.isEmpty())
            return;
        m_topFinding->setText(tr("Advice: <a href=\"advice\">%1</a> %2")
                                  .arg(rule.toHtmlEscaped(), m_workspace->topFindingText().toHtmlEscaped()));
        m_topFinding->setToolTip(tr("The finding that explains the most of the step time; click to show Advice"));
    });

    // Problems found after the load (a rank's timeline or memory files imported later, a failed view query) update
    // the badge at once, whether or not Parse issues is shown.
    m_issueCounter = new QueryRunner(m_workspace, tr("Status bar"), this);
    m_navigationRunner = new QueryRunner(m_workspace, tr("Command palette"), this);
    connect(m_workspace, &Workspace::databaseChanged, this, &MainWindow::fetchNavigation);

    // Background imports a view asked for in a batch (Expand all ranks): what, how far, the memory estimate, Cancel.
    m_loadsBox = new QWidget(this);
    m_loadsBox->setObjectName(QStringLiteral("deferredLoadsBox"));
    auto* loadsLayout = new QHBoxLayout(m_loadsBox);
    loadsLayout->setContentsMargins(0, 0, 0, 0);
    m_loadsLabel = new QLabel(m_loadsBox);
    m_loadsLabel->setObjectName(QStringLiteral("deferredLoadsLabel"));
    auto* cancelLoads = new QToolButton(m_loadsBox);
    cancelLoads->setObjectName(QStringLiteral("deferredLoadsCancel"));
    cancelLoads->setText(tr("Cancel"));
    cancelLoads->setToolTip(tr("Stop loading: the ranks loaded so far stay"));
    loadsLayout->addWidget(m_loadsLabel);
    loadsLayout->addWidget(cancelLoads);
    statusBar()->addPermanentWidget(m_loadsBox);
    m_loadsBox->hide();
    connect(cancelLoads, &QToolButton::clicked, this, [this] {
        for (const auto& batch : m_workspace->loads()->batches())
            m_workspace->loads()->cancelBatch(batch.id);
    });
    connect(m_workspace->loads(), &DeferredLoadService::batchesChanged, this, &MainWindow::updateLoadsBox);
    connect(m_workspace, &Workspace::issuesAdded, this, &MainWindow::recountProblems);
    connect(m_workspace, &Workspace::errorReported, this, &MainWindow::recountProblems);
}

void MainWindow::updateLoadsBox()
{
    const auto batches = m_workspace->loads()->batches();
    m_loadsBox->setVisible(!batches.empty());
    if (batches.empty())
        return;
    QStringList parts;
    QStringList tips;
    for (const auto& b : batches) {
        parts << tr("%1 · %2 of %3").arg(b.label).arg(b.done).arg(b.total);
        QString tip = tr("%1: %2 of %3 ranks; about %4 of memory")
                          .arg(b.label)
                          .arg(b.done)
                          .arg(b.total)
                          .arg(QLocale().formattedDataSize(static_cast<qint64>(b.estimateBytes)));
        if (b.availableBytes > 0)
            tip += tr(" (%1 available)").arg(QLocale().formattedDataSize(static_cast<qint64>(b.availableBytes)));
        tips << tip;
    }
    m_loadsLabel->setText(parts.join(QStringLiteral("; ")));
    m_loadsBox->setToolTip(tips.join(QLatin1Char('\n')));
}

void MainWindow::recountProblems()
{
    if (!m_workspace->database())
        return;
    m_issueCounter->run([](model::Database& db) { return query::IssueQuery::problemCount(db); },
        [this](int64_t problems) {
            const auto viewErrors = static_cast<int64_t>(m_workspace->viewErrors().size());
            setBadge(problems + viewErrors, true);
        });
}

QString MainWindow::summaryText() const { return m_summary->text(); }

void MainWindow::setBadge(int64_t problems, bool loaded)
{
    m_problemCount = problems;
    m_badge->setVisible(loaded);
    m_badge->setText(problems == 0 ? tr("\u2713 no import problems")
                                   : QStringLiteral("\u26a0 ") + plural(problems, tr("problem"), tr("problems")));
    m_badge->setToolTip(problems == 0 ? tr("No warnings or errors while importing")
                                      : tr("%1 warnings and errors (Parse issues lists them with the info rows); "
                                           "click to show them")
                                            .arg(problems));
    m_badge->setProperty("clean", problems == 0);
    // Dynamic properties in style sheet selectors need a re-polish.
    m_badge->style()->unpolish(m_badge);
    m_badge->style()->polish(m_badge);
}

namespace {

// Computes the findings and writes the report; runs on a worker (the advice over a large model takes seconds). Empty
// on success, else what failed.
QString writeReport(const std::shared_ptr<model::Database>& db, const std::vector<std::string>& paths,
    const query::advice::AdviceOptions& options, const QString& path)
{
    enterBackground();
    std::string html;
    try {
        auto guard = db->lock();
        const auto findings = query::advice::AdviceQuery::run(*db, options);
        // The critical path on the kernels loaded so far (ranks without them give lanes of their communication ops;
        // npuscope-cli advise --html loads every rank's step kernels).
        const auto graph = query::DependencyGraphBuilder::build(*db);
        const auto criticalPath = query::CriticalPath::run(graph);
        html = query::advice::HtmlReport::build(*db, findings,
            { .paths = paths,
                .generatedAt = {},
                .skipFirstStep = options.skipFirstStep,
                .graph = &graph,
                .criticalPath = &criticalPath });
    } catch (const std::exception& e) {
        return QObject::tr("The report could not be computed: %1").arg(QString::fromUtf8(e.what()));
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || file.write(html.data(), static_cast<qint64>(html.size())) != static_cast<qint64>(html.size()))
        return QObject::tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    return {};
}

} // namespace

QFuture<QString> MainWindow::exportReportAsync(const QString& path)
{
    const auto db = m_workspace->database();
    if (!db)
        return QtConcurrent::run(m_workspace->jobPool(), [message = tr("No profile loaded")] { return message; });
    std::vector<std::string> paths;
    for (const QString& p : m_workspace->sourcePaths())
        paths.push_back(p.toStdString());
    return QtConcurrent::run(m_workspace->jobPool(), writeReport, db, paths, AdviceDock::adviceOptions(*m_workspace), path);
}

bool MainWindow::exportReport(const QString& path, QString* error)
{
    *error = exportReportAsync(path).result();
    return error->isEmpty();
}

void MainWindow::startExportReport(const QString& path)
{
    statusBar()->showMessage(tr("Writing the report to %1\u2026").arg(QDir::toNativeSeparators(path)));
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, path] {
        const QString error = watcher->result();
        watcher->deleteLater();
        if (error.isEmpty()) {
            statusBar()->showMessage(tr("Report written to %1").arg(QDir::toNativeSeparators(path)), 5000);
        } else {
            statusBar()->clearMessage();
            QMessageBox::warning(this, tr("Export report"), error);
        }
    });
    watcher->setFuture(exportReportAsync(path));
}

void MainWindow::showIssues()
{
    m_issuesDock->show();
    m_issuesDock->raise();
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_badge && event->type() == QEvent::MouseButtonRelease) {
        if (static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton) {
            showIssues();
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    cancelLoading();
    if (m_options.persistSettings) {
        // Written on SettingsWriter's thread (its file lock and fsync took 100-140 ms here); main() waits for it.
        SettingsWriter::setValue(kGeometryKey, saveGeometry());
        const bool welcome = m_welcome && !m_welcome->isHidden();
        SettingsWriter::setValue(kStateKey, welcome ? m_stateBehindWelcome : saveState(kStateVersion));
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    const QMimeData* mime = event->mimeData();
    if (mime->hasUrls()) {
        for (const QUrl& url : mime->urls()) {
            if (url.isLocalFile()) {
                event->acceptProposedAction();
                return;
            }
        }
    }
    event->ignore();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    // With Ctrl or Shift held the drop is the baseline to compare the opened profile with.
    if (m_workspace->database() && (event->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier)))
        openBaseline(paths);
    else
        open(paths);
}

void MainWindow::openBaseline(const QStringList& paths)
{
    if (paths.isEmpty())
        return;
    m_baselineLabel->setText(tr("Baseline: loading\u2026"));
    m_baselineLabel->setToolTip(
        tr("Loading the baseline %1\u2026").arg(QDir::toNativeSeparators(paths.join(QStringLiteral(", ")))));
    m_baselineLabel->show();
    m_baselineLoader->load(
        paths, m_options.useParseCache && SettingsWriter::value(QStringLiteral("parseCache/enabled"), true).toBool());
}

} // namespace npuscope::gui
