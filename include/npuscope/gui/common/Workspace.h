// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/load/ParseCache.h"
#include "npuscope/model/Database.h"
#include "npuscope/query/OperatorQuery.h"
#include "npuscope/query/ParallelLayout.h"
#include "npuscope/query/RankQuery.h"

#include <QObject>
#include <QStringList>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QThreadPool;

namespace npuscope::query {
class IndexPrebuild;
}

namespace npuscope::gui {

class DeferredLoadService;

// The opened model and the current selection every dock follows, the thread pool in-memory view queries run
// on, and the errors of view queries (shown with the parse issues). GUI thread only.
// Setters emit their change signal only when the value actually changes.
class Workspace : public QObject {
    Q_OBJECT
public:
    // A half-open time window [begin, end) in ns on the profile's clock.
    struct TimeWindow {
        int64_t begin = 0;
        int64_t end = 0;
        bool operator==(const TimeWindow&) const = default;
    };
    // An operator of the Operator dock: its key as grouped (a kernel Type, Name or "Name [Input Shapes]") and the rank
    // it was picked on (nullopt: every rank).
    struct OperatorKey {
        query::OperatorGroupBy by = query::OperatorGroupBy::Name;
        std::string key;
        std::optional<int64_t> rank;
        bool operator==(const OperatorKey&) const = default;
    };
    // Communication ops the timeline marks across ranks: a collective instance's members (each one's arrival and
    // end) or the hops of a blame chain. Times are ns on each rank's own clock (comm_op start and start + elapse).
    struct CollectiveFocus {
        struct Span {
            int64_t rank = 0;
            int64_t beginNs = 0;
            int64_t endNs = 0;
            bool late = false; // the instance's last arriver (drawn in a distinct colour)
            bool operator==(const Span&) const = default;
        };
        int64_t step = 0;
        QString label; // e.g. "allReduce hcom_allReduce__586_0_1@123 (step 13)"
        std::vector<Span> spans; // an instance: one per member, ascending rank; a chain: one per hop
        bool chain = false; // the spans are a blame chain's hops (linked in order), not one instance's members
        bool operator==(const CollectiveFocus&) const = default;
    };

    explicit Workspace(QObject* parent = nullptr);
    ~Workspace() override;

    // Shared with the worker threads that query it; they take db->lock() around each query.
    std::shared_ptr<model::Database> database() const;
    // The folders the database was loaded from.
    QStringList sourcePaths() const { return m_sourcePaths; }
    // Replaces the model and clears the selection (step, ranks, window, group). prebuild, made by the loader's
    // thread for this model (query::IndexPrebuild::prepare), is run on a thread of its own at once, before the views
    // ask: they wait for its indexes instead of building them on the model's connection.
    void setDatabase(std::shared_ptr<model::Database> database, const QStringList& sourcePaths = {},
        std::shared_ptr<query::IndexPrebuild> prebuild = {});
    // Any thread (the loader's, as soon as the copy exists): starts prebuild's builds (IndexPrebuild::build) on the
    // prebuild thread, so that the run() setDatabase() queues behind them only fills the slots.
    void startIndexBuild(std::shared_ptr<query::IndexPrebuild> prebuild);

    // The baseline a Compare view compares the model against (loaded with its Kernels group), and the paths it was
    // loaded from; nullptr when none. Kept across setDatabase() (MainWindow clears it on a new open). Emits
    // baselineChanged.
    std::shared_ptr<model::Database> baseline() const { return m_baseline; }
    QStringList baselinePaths() const { return m_baselinePaths; }
    void setBaseline(std::shared_ptr<model::Database> baseline, const QStringList& paths = {});

    // The parse cache the views' deferred imports (a rank's kernels, memory rows, timeline, kernel totals) read and
    // fill, or nullptr when caching is off (File > Use parse cache). Shared so a worker still importing keeps it.
    std::shared_ptr<const load::ParseCache> parseCache() const { return m_parseCache; }
    void setParseCache(std::shared_ptr<const load::ParseCache> cache) { m_parseCache = std::move(cache); }

    // Settings several views share, remembered in QSettings (never a dock's own).
    // The device memory in GB (2^30 B; no profile records it): the memory heatmap's ratio, the memory_peak advice
    // rule, Marey's memory line and the strategy view's memory figure. Emits deviceCapacityChanged when it changes.
    static constexpr const char* kCapacitySetting = "memory/deviceCapacityGb";
    static constexpr double kDefaultCapacityGb = 64.0;
    double deviceCapacityGb() const;
    void setDeviceCapacityGb(double gb);
    // The PP / DP / CP / TP / EP sizes applied for the open input set (the strategy view's "Apply"): they override
    // the data's layout in the strategy and Marey views; nullopt: the data's layout. Remembered per input set under
    // kSizesSetting/<inputSetKey>. Emits parallelSizesChanged when it changes.
    static constexpr const char* kSizesSetting = "strategy/sizes";
    std::optional<query::ParallelSizes> parallelSizes() const;
    void setParallelSizes(std::optional<query::ParallelSizes> sizes);
    // An input set's key in QSettings: its canonical paths, sorted and hashed; empty for none.
    static QString inputSetKey(const QStringList& sourcePaths);

    // The primary selected rank (first of selectedRanks()), nullopt when none.
    std::optional<int64_t> selectedRank() const;
    const std::vector<int64_t>& selectedRanks() const { return m_selectedRanks; }
    void setSelectedRank(std::optional<int64_t> rank);
    void setSelectedRanks(std::vector<int64_t> ranks);

    // The selected step; nullopt means "all steps, averaged per rank".
    std::optional<int64_t> step() const { return m_step; }
    void setStep(std::optional<int64_t> step);
    // With no step selected: leave each rank's first (warm-up) step out of the means. Emits stepChanged.
    bool skipFirstStep() const { return m_skipFirstStep; }
    void setSkipFirstStep(bool skip);

    std::optional<TimeWindow> timeWindow() const { return m_timeWindow; }
    void setTimeWindow(std::optional<TimeWindow> window);

    // Communication group hash (the "@<number>" op suffix), nullopt for all groups.
    std::optional<std::string> groupHash() const { return m_groupHash; }
    void setGroupHash(std::optional<std::string> hash);

    // One communication op, its key without "@hash" (e.g. "hcom_allReduce__586_0_1"); nullopt for all ops.
    std::optional<std::string> commOp() const { return m_commOp; }
    void setCommOp(std::optional<std::string> opName);

    // The operator whose occurrences the timeline highlights (a double-click in the Operator dock); nullopt for none.
    std::optional<OperatorKey> selectedOperator() const { return m_operator; }
    void setSelectedOperator(std::optional<OperatorKey> op);

    // The collective instance or blame chain the timeline marks (Collectives and Blame docks); nullopt for none.
    std::optional<CollectiveFocus> collectiveFocus() const { return m_collectiveFocus; }
    void setCollectiveFocus(std::optional<CollectiveFocus> focus);
    // Asks the timeline to shift the focused instance's member ranks so that their ends line up (align) or to put
    // every rank's offset back to 0. Emits alignCollectiveRequested.
    void requestAlignCollective(bool align) { emit alignCollectiveRequested(align); }
    // Asks the Collectives view to show the instances these ranks all take part in (a rank, or a link's two ends),
    // costliest first, and shows it. Emits collectivesOfRequested.
    void requestCollectivesOf(const QList<qint64>& ranks)
    {
        emit collectivesOfRequested(ranks);
        emit showViewRequested(QStringLiteral("collectives"));
    }

    // The communication ops (comm_op ids, ascending) on the critical path of a step, as the Critical path view last
    // computed it (query::CriticalPath), so the Collectives and Blame views can say whether an instance lies on it;
    // nullopt until computed. Cleared by setDatabase(). Emits criticalPathChanged.
    struct CriticalPathMark {
        int64_t step = 0;
        std::vector<int64_t> commOps;
        bool operator==(const CriticalPathMark&) const = default;
        bool contains(int64_t commOpId) const { return std::binary_search(commOps.begin(), commOps.end(), commOpId); }
    };
    std::optional<CriticalPathMark> criticalPath() const { return m_criticalPath; }
    void setCriticalPath(std::optional<CriticalPathMark> mark);

    // Hosts are named by their host_ips_mapping.txt id unless the user turns on real host IPs (View menu,
    // persisted by MainWindow). Default off.
    bool showHostIps() const { return m_showHostIps; }
    void setShowHostIps(bool on);

    // Asks the window to show and raise the view named name (a MainWindow::dockShortNames() entry, or "parallel" for
    // the Parallel strategy dock), e.g. to show the evidence of an advice finding. Emits showViewRequested.
    void requestShowView(const QString& name) { emit showViewRequested(name); }

    // The advice finding to lead with (query::advice::AdviceQuery::topFinding, set by the Advice view when its
    // findings arrive): its rule id and one sentence with what it explains; empty when none. Cleared by
    // setDatabase(). Emits topFindingChanged.
    QString topFindingRule() const { return m_topFindingRule; }
    QString topFindingText() const { return m_topFindingText; }
    void setTopFinding(const QString& rule, const QString& text);

    // True while setDatabase() emits the selection signals that follow databaseChanged: a view reloads every part on
    // databaseChanged, so a part reloaded on those signals would run its query twice (QueryDock::reloadPartOn).
    bool isResetting() const { return m_resetting; }

    // Background queries or deferred imports (DeferredLoadService) in flight; used to wait for quiet views.
    bool isBusy() const;
    void beginQuery();
    void endQuery();

    // Owned by the Workspace (its destructor waits for the tasks still running). In-memory view queries run
    // here so they never queue behind SQL.
    QThreadPool* inMemoryPool() const { return m_inMemoryPool; }
    // The views' SQL queries (QueryRunner::run): they serialize on the model lock anyway. Never Qt's global pool,
    // which the raster paint engine uses: a full global pool stalls painting.
    QThreadPool* queryPool() const { return m_queryPool; }
    // Whole-window jobs: opening a profile, loading a baseline, writing a report.
    QThreadPool* jobPool() const { return m_jobPool; }
    // Every import of a rank's deferred files the views ask for (timeline, kernels, memory, kernel totals).
    DeferredLoadService* loads() const { return m_loads; }

    // A background view query failed: source names the view ("Timeline"), message says what failed. Kept until
    // the next setDatabase() as an error row of the Parse issues dock (an identical report is kept once).
    void reportError(const QString& source, const QString& message, std::optional<int64_t> rank = std::nullopt);
    const std::vector<query::ParseIssue>& viewErrors() const { return m_viewErrors; }
    // Something added parse_issue rows to the model after it was opened (e.g. loading a rank's timeline).
    void notifyIssuesAdded() { emit issuesAdded(); }

signals:
    void databaseChanged();
    void baselineChanged();
    void selectedRankChanged();
    void stepChanged();
    void timeWindowChanged();
    void groupChanged();
    void commOpChanged();
    void operatorChanged();
    void collectiveFocusChanged();
    void criticalPathChanged();
    void alignCollectiveRequested(bool align);
    void collectivesOfRequested(const QList<qint64>& ranks);
    void hostDisplayChanged();
    void deviceCapacityChanged();
    void parallelSizesChanged();
    void busyChanged(bool busy);
    void errorReported();
    void issuesAdded();
    void showViewRequested(const QString& name);
    void topFindingChanged();

private:
    std::shared_ptr<model::Database> m_database;
    QStringList m_sourcePaths;
    mutable std::optional<query::ParallelSizes> m_sizes; // parallelSizes() of m_sizesInputSet
    mutable QString m_sizesInputSet = QStringLiteral("-"); // "-": not read yet
    std::shared_ptr<model::Database> m_baseline;
    QStringList m_baselinePaths;
    std::shared_ptr<const load::ParseCache> m_parseCache;
    std::vector<int64_t> m_selectedRanks;
    std::optional<int64_t> m_step;
    bool m_skipFirstStep = false;
    std::optional<TimeWindow> m_timeWindow;
    std::optional<std::string> m_groupHash;
    std::optional<std::string> m_commOp;
    std::optional<OperatorKey> m_operator;
    std::optional<CollectiveFocus> m_collectiveFocus;
    std::optional<CriticalPathMark> m_criticalPath;
    bool m_showHostIps = false;
    int m_pendingQueries = 0;
    QString m_topFindingRule;
    QString m_topFindingText;
    bool m_resetting = false;
    QThreadPool* m_inMemoryPool;
    QThreadPool* m_queryPool;
    QThreadPool* m_jobPool;
    QThreadPool* m_prebuildPool; // one thread: IndexPrebuild::run, which no other pool's task may queue behind
    DeferredLoadService* m_loads;
    std::vector<query::ParseIssue> m_viewErrors;
};

} // namespace npuscope::gui
