// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/NavigationQuery.h"

#include <QAtomicInteger>
#include <QElapsedTimer>
#include <QFuture>
#include <QMainWindow>
#include <QMutex>
#include <QStringList>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>

class QLabel;
class QMenu;
class QProgressDialog;
class QSize;
class QTimer;

namespace npuscope::load {
struct LoadProgress;
}

namespace npuscope::gui {

class ClusterStepsDock;
class CommandPalette;
class CommDurationDock;
class CommMatrixDock;
class GroupsDock;
class LinksDock;
class MemoryDetailDock;
class FlopsHeatmapDock;
class FlopsScopeDock;
class ParallelStrategyDock;
class MareyDock;
class AdviceDock;
class BlameDock;
class BaselineLoader;
class CompareDock;
class StatisticsDock;
class PipelineDock;
class StrategyGraphDock;
class CriticalPathDock;
class CollectivesDock;
class MemoryHeatmapDock;
class TimeOverviewDock;
class TimelineDock;
class OperatorDock;
class OverviewDock;
class ParseIssuesDock;
class QueryRunner;
class WelcomePage;
class Workspace;

// The application window: every view is a QDockWidget (layout saved in QSettings), a welcome page while nothing is
// loaded, File / View / Help menus, drag and drop of folders, background loading with progress and cancel, and a status
// bar with the cluster size and a warnings badge. GUI thread only.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    struct Options {
        // Restore / save geometry, dock layout and the recent list (off for tests and screenshots).
        bool persistSettings = true;
        // Show a progress dialog and message boxes (off for tests and screenshots).
        bool interactive = true;
        // Import the large trace_view.json timelines too (no view uses them yet).
        bool loadTimelines = false;
        // Reuse and fill the parse cache (ParseCache::defaultDir(); File menu can clear it and the
        // "parseCache/enabled" setting turns it off).
        bool useParseCache = true;
    };
    static constexpr int kMaxRecent = 10;

    explicit MainWindow(QWidget* parent = nullptr);
    explicit MainWindow(const Options& options, QWidget* parent = nullptr);
    ~MainWindow() override;

    Workspace* workspace() const { return m_workspace; }
    ClusterStepsDock* stepsDock() const { return m_stepsDock; }
    OverviewDock* overviewDock() const { return m_overviewDock; }
    ParseIssuesDock* issuesDock() const { return m_issuesDock; }
    CommMatrixDock* commMatrixDock() const { return m_commMatrixDock; }
    CommDurationDock* commDurationDock() const { return m_commDurationDock; }
    LinksDock* linksDock() const { return m_linksDock; }
    GroupsDock* groupsDock() const { return m_groupsDock; }
    TimeOverviewDock* timeOverviewDock() const { return m_timeOverviewDock; }
    TimelineDock* timelineDock() const { return m_timelineDock; }
    OperatorDock* operatorDock() const { return m_operatorDock; }
    MemoryHeatmapDock* memoryHeatmapDock() const { return m_memoryHeatmapDock; }
    MemoryDetailDock* memoryDetailDock() const { return m_memoryDetailDock; }
    FlopsHeatmapDock* flopsHeatmapDock() const { return m_flopsHeatmapDock; }
    FlopsScopeDock* flopsScopeDock() const { return m_flopsScopeDock; }
    ParallelStrategyDock* strategyDock() const { return m_strategyDock; }
    MareyDock* mareyDock() const { return m_mareyDock; }
    AdviceDock* adviceDock() const { return m_adviceDock; }
    CollectivesDock* collectivesDock() const { return m_collectivesDock; }
    BlameDock* blameDock() const { return m_blameDock; }
    CompareDock* compareDock() const { return m_compareDock; }
    StatisticsDock* statisticsDock() const { return m_statisticsDock; }
    PipelineDock* pipelineDock() const { return m_pipelineDock; }
    StrategyGraphDock* strategyGraphDock() const { return m_strategyGraphDock; }
    CriticalPathDock* criticalPathDock() const { return m_criticalPathDock; }
    QList<QDockWidget*> docks() const;
    // A dock by short name (steps | overview | issues) or objectName, case-insensitive; nullptr if unknown.
    QDockWidget* dockByName(const QString& name) const;
    static QStringList dockShortNames();

    // Detects and loads the paths in the background; a load already running is cancelled.
    // loadFinished reports the outcome.
    void open(const QStringList& paths);
    bool isLoading() const { return m_loading; }
    // Loads paths in the background as the baseline of compare mode (Workspace::baseline, the Compare dock); a new
    // open() drops it. The status bar says the outcome; waitUntilIdle() waits for it.
    void openBaseline(const QStringList& paths);
    void cancelLoading();
    // Spins the event loop until no load and no dock query is running; false on timeout.
    bool waitUntilIdle(int timeoutMs = 120000);

    // Status bar texts (for tests): "2 ranks · 1 step", and the badge's problem count.
    QString summaryText() const;
    int64_t problemCount() const { return m_problemCount; }
    QLabel* warningsBadge() const { return m_badge; }
    // The status bar's lead advice finding (hidden until the Advice view has findings).
    QLabel* topFindingLabel() const { return m_topFinding; }
    // The central page shown while nothing is loaded (hidden once a model is).
    WelcomePage* welcomePage() const { return m_welcome; }
    // The first window size: 1600×1000, or 90 % of the screen's free area where that is smaller.
    QSize defaultSize() const;

    // Gives one dock the whole window: the others are hidden (screenshots).
    void focusDock(QDockWidget* dock);
    // Shows dock where it is in the layout and brings it to the front of its tab group (View menu, Ctrl+1…9, the
    // command palette, an advice finding's evidence).
    void showView(QDockWidget* dock);
    // The views Ctrl+1 … Ctrl+9 show, in that order.
    QList<QDockWidget*> mainViews() const;
    // The command palette (Ctrl+K, Ctrl+Shift+P), its entries built for what is loaded now.
    CommandPalette* showCommandPalette();
    void showIssues();
    // Writes the HTML advice report (query::advice::HtmlReport) of the loaded model to path on a worker thread (the
    // database lock is taken there, never on the GUI thread); the future holds the error, empty on success ("No
    // profile loaded", a computation failure, a write failure). File > Export report runs it after asking for the
    // path and reports the outcome in the status bar or a message box.
    QFuture<QString> exportReportAsync(const QString& path);
    // exportReportAsync waited for (tests); false with error set on failure.
    bool exportReport(const QString& path, QString* error);

    QStringList recentEntries() const;
    // Remembers the recent list and writes it to the settings on the job pool (never on the GUI thread).
    void storeRecent(const QStringList& list);

    // The progress dialog's text for a load's progress: the file being read and "rank N of M", or, for a folder of
    // imported rank files (npuscope-cli import), "N of M ranks imported". GUI thread only.
    static QString progressText(const load::LoadProgress& progress);

signals:
    void loadFinished(bool ok, const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    // A new application palette (Settings, or the system switching between light and dark) polishes the window's
    // style sheet again: widgets the sheet styles (the docks, for their titles) keep the palette they were polished
    // with until then, and every view inside them with it (the timeline canvas stayed light in the dark theme).
    void changeEvent(QEvent* event) override;

private:
    struct LoadOutcome;
    struct LoadState;

    void createDocks();
    // Runs exportReportAsync and reports its outcome (status bar, or a message box on failure).
    void startExportReport(const QString& path);
    void createMenus();
    void createStatusBar();
    void chooseFolder();
    void rebuildRecentMenu();
    void addRecent(const QStringList& paths);
    void finishLoad(quint64 id, const LoadOutcome& outcome, const QStringList& paths);
    void updateProgress();
    void setBadge(int64_t problems, bool loaded);
    void recountProblems();
    void closeProgress();
    void showNothingLoaded(const QString& message);
    void createWelcome();
    void hideWelcome();
    // Below this many logical pixels of dock height, the default layout tabs the timeline with the cluster views.
    static constexpr int kMinSplitHeight = 480;
    // Below this many logical pixels of width, the answering views (Advice, Blame, Collectives) join the cluster
    // views' tab group, right after Cluster steps, instead of a group beside it.
    static constexpr int kMinSideBySideWidth = 1600;
    // Splits the height between the cluster views and the timeline as the default layout does (45 : 55), and the
    // width between the cluster views and the answering views.
    void applyDefaultSplit();
    // The default tab order of the cluster views after Cluster steps, and of the answering views after Advice.
    QList<QDockWidget*> clusterTabOrder() const;
    QList<QDockWidget*> answerTabOrder() const;
    // Every view but the Timeline in the one-group order: Cluster steps, the answering views, the cluster views.
    QList<QDockWidget*> defaultTabOrder() const;
    void createHelp();
    // ui/style.qss plus the dark palette's overrides when the application palette is dark.
    void applyStyleSheet();
    void showSettings();
    void fitTabBars();

    Options m_options;
    Workspace* m_workspace;
    ClusterStepsDock* m_stepsDock = nullptr;
    OverviewDock* m_overviewDock = nullptr;
    ParseIssuesDock* m_issuesDock = nullptr;
    CommMatrixDock* m_commMatrixDock = nullptr;
    CommDurationDock* m_commDurationDock = nullptr;
    LinksDock* m_linksDock = nullptr;
    GroupsDock* m_groupsDock = nullptr;
    TimeOverviewDock* m_timeOverviewDock = nullptr;
    TimelineDock* m_timelineDock = nullptr;
    OperatorDock* m_operatorDock = nullptr;
    MemoryHeatmapDock* m_memoryHeatmapDock = nullptr;
    MemoryDetailDock* m_memoryDetailDock = nullptr;
    FlopsHeatmapDock* m_flopsHeatmapDock = nullptr;
    FlopsScopeDock* m_flopsScopeDock = nullptr;
    ParallelStrategyDock* m_strategyDock = nullptr;
    MareyDock* m_mareyDock = nullptr;
    AdviceDock* m_adviceDock = nullptr;
    CollectivesDock* m_collectivesDock = nullptr;
    BlameDock* m_blameDock = nullptr;
    CompareDock* m_compareDock = nullptr;
    StatisticsDock* m_statisticsDock = nullptr;
    PipelineDock* m_pipelineDock = nullptr;
    StrategyGraphDock* m_strategyGraphDock = nullptr;
    CriticalPathDock* m_criticalPathDock = nullptr;
    BaselineLoader* m_baselineLoader = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_badge = nullptr;
    QLabel* m_topFinding = nullptr; // "Advice: stage_imbalance explains 30.5 ms (17.9 % of the step)"
    QLabel* m_baselineLabel = nullptr; // "Baseline: N ranks" while a baseline is loaded (a permanent status widget)
    QProgressDialog* m_progress = nullptr;
    QTimer* m_progressTimer = nullptr;
    QString m_stageText; // the progress text shown, and since when (the seconds of a long stage count up)
    QElapsedTimer m_stageClock;
    std::shared_ptr<LoadState> m_loadState;
    quint64 m_loadId = 0;
    bool m_loading = false;
    int64_t m_rankCount = 0;
    int64_t m_stepCount = 0;
    int64_t m_problemCount = 0;
    QByteArray m_defaultState;
    QByteArray m_narrowState; // the default layout of a window narrower than kMinSideBySideWidth (one tab group)
    QByteArray m_lowState; // ... of a window too low for two views above each other (the Timeline among the tabs)
    bool m_restylePending = false; // a style sheet polish after a palette change is queued
    QPalette m_styledPalette; // the application palette the style sheet was last polished with
    WelcomePage* m_welcome = nullptr;
    mutable std::optional<QStringList> m_recent; // the recent list as last read or stored
    struct RecentWrite {
        QString file; // the recent list's own settings file (recentFile())
        QMutex mutex; // held by the job while it writes
        QAtomicInteger<quint64> latest { 0 }; // the newest list's generation
        bool isLatest(quint64 generation) const { return latest.loadAcquire() == generation; }
    };
    std::shared_ptr<RecentWrite> m_recentWrite = std::make_shared<RecentWrite>();
    // The job's body (out of line: GCC 12 inlined into std::function warns falsely on the atomic load).
    [[gnu::noinline]] static void writeRecent(RecentWrite& state, quint64 generation, const QStringList& list);
    // The recent list is kept in a file of its own beside the application's settings: its write (on the job pool,
    // with an fdatasync of ~0.1 s on a slow disk) holds that file's lock, and a QSettings of the main file made on the
    // GUI thread meanwhile (the timeline's session at the end of an open) waited for it.
    static QString recentFile();
    QByteArray m_stateBehindWelcome;
    QueryRunner* m_issueCounter = nullptr;
    // The ranks, steps and operator types the palette offers, fetched after each open.
    QueryRunner* m_navigationRunner = nullptr;
    std::shared_ptr<const query::NavigationTargets> m_navigation;
    CommandPalette* m_palette = nullptr;
    // Deferred imports in the background (DeferredLoadService batches): "Loading timelines · 12 of 1024" and Cancel.
    QWidget* m_loadsBox = nullptr;
    QLabel* m_loadsLabel = nullptr;
    void updateLoadsBox();
    void fetchNavigation();
};

} // namespace npuscope::gui
