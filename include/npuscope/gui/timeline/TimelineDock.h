// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/RankTimeline.h"
#include "npuscope/query/TimelineQuery.h"

#include "npuscope/gui/timeline/TimelineSession.h"

#include "npuscope/gui/common/DeferredLoadService.h"
#include "npuscope/gui/common/QueryDock.h"

#include <cstdint>
#include <optional>
#include <vector>

class QCheckBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QMenu;
class QSpinBox;
class QSplitter;
class QTabWidget;
class QTableView;
class QTableWidget;
class QTextBrowser;
class QTimer;
class QToolButton;

namespace npuscope::gui {

class AreaStatsModel;
class TimelineMarkerModel;
class TimelineView;

// Every loaded rank on one time axis: rows rank -> process -> thread (and counters), lazily loaded
// per rank in the background when a rank is expanded, a details panel for the selected slice
// (args, parent chain, flows with jumps), search with next/previous, and statistics of a
// Shift+dragged area exportable to CSV, point / range markers, and row tools: a level cap per thread
// row, pin / hide / move rows (row header menu), a row filter, per-rank time offsets and "align ranks
// on step N". Follows the Workspace step (zooms to ProfilerStep#N), selected rank (scrolls to it) and collective focus
// (brings the member ranks to the top, marks their arrivals and zooms to the op; aligns them on request);
// publishes a selected range as the Workspace time window. Painting never runs SQL: rank data is
// loaded once into immutable arrays. A rank whose timeline cannot be loaded says why in its row header, in the
// dock's error line and in Parse issues. GUI thread only.
class TimelineDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "timelineDock";

    explicit TimelineDock(Workspace* workspace, QWidget* parent = nullptr);
    ~TimelineDock() override;

    TimelineView* view() const { return m_view; }
    // Expands every rank (loading the timelines not loaded yet), now or as soon as the rank list is known.
    void expandAllRanks();
    void setRankExpanded(int rankIndex, bool expanded);
    // Jobs of up to this many ranks with a timeline file load every rank's timeline when opened; larger ones load the
    // selected and the slowest rank's first (default 8; 0: none until the user asks).
    void setAutoLoadRanks(int ranks);
    int autoLoadRanks() const { return m_autoLoadRanks; }

    // Selects the slice with this slice.id in a loaded rank; false if none has it.
    bool selectSliceById(int64_t sliceId, bool centre = true);
    QString detailsText() const;

    void search(const QString& text, bool caseSensitive);
    int searchHitCount() const { return static_cast<int>(m_hits.size()); }
    int currentHit() const { return m_hitIndex; }
    void nextHit();
    void previousHit();
    // Slices highlighted as the occurrences of the Workspace's selected operator (0 when none is selected).
    size_t highlightedCount() const;

    AreaStatsModel* statsModel() const { return m_statsModel; }
    bool exportStatsCsv(const QString& path) const;

    // Rows whose name contains text (the filter box).
    void setRowFilter(const QString& text);
    // Nesting levels a thread row shows until expanded (the "Levels" box).
    void setMaxLevels(int levels);
    // Display offset of a rank (index into the view's ranks), ns: display time = data time + offset.
    void setRankOffset(int rankIndex, int64_t offsetNs);
    // Sets every loaded rank's offset so that their ProfilerStep#step slices start together;
    // returns how many ranks have that step (the others keep their offset).
    int alignRanksOnStep(int64_t step);
    void resetOffsets();
    // Shifts the member ranks of the Workspace's collective focus (an instance) so that their ops end together: the
    // first member keeps its offset, every other member gets first's end + offset − its end. Returns how many ranks
    // were aligned (0 without an instance in focus).
    int alignRanksOnCollective();
    // Expands a rank (by rank id) and scrolls its header to the top.
    void scrollToRank(int64_t rank);

    TimelineMarkerModel* markerModel() const { return m_markerModel; }
    // A point marker at the mouse position (or the window centre), a range marker from the selected range.
    void addMarkerAtCursor();
    bool addMarkerFromRange();
    void removeSelectedMarkers();

    // Keeps offsets, markers, pinned and hidden rows per set of inputs in the application settings and restores
    // them when the same inputs are opened again (TimelineSession). Off by default (tests, screenshots).
    void setSessionPersistence(bool on);
    // Saves the current state now (it is also saved after every change, on reload and on destruction).
    void saveSession();
    const TimelineSession& session() const { return m_session; }

private:
    // The constructor's parts (TimelineDock.cpp): the two bars above the tracks, the pane beside them, and what the
    // track view's and the workspace's signals do.
    QHBoxLayout* buildSearchBar(QWidget* root);
    QHBoxLayout* buildRowBar(QWidget* root);
    void buildTabs(QSplitter* splitter);
    void connectView();
    void connectWorkspace();
    void reload() override;
    // Asks the Workspace's DeferredLoadService for the rank's timeline (urgent: before the queued ranks).
    void startLoad(int rankIndex, bool urgent = false);
    // The service answered for rank: read its arrays (in-memory pool), then lay out with the other arrivals.
    void readRank(int64_t rank, const DeferredLoadService::Result& result);
    void ranksArrived();
    // Zooms to the span of the loaded ranks' ProfilerStep slices; false when they have none.
    bool fitToSteps();
    struct RankList;
    void loadFirstTimelines(const RankList& list);
    // The rank's timeline could not be loaded: its row says so, and the dock's error line.
    void rankFailed(int rankIndex, const QString& message);
    void showSelection(int rank, const query::SliceRef& ref);
    void computeStats(int64_t begin, int64_t end);
    void applyStep();
    // Marks the Workspace's collective focus: loads the member ranks, puts them first, zooms to the ops.
    void applyCollectiveFocus();
    // Zooms to the focused ops (display time), false when there is none to show.
    bool fitCollectiveFocus();
    int rankIndexOf(int64_t rank) const;
    void offsetsChanged();
    void updateSpanNote();
    void applyTimeWindow();
    void addRankActions(QMenu* menu, int row);
    void promptAlign();
    void rangeChanged(int64_t begin, int64_t end);
    void goToHit(int index);
    // The results tab lists m_hits (the first 5,000).
    void fillHitsTable();
    // Finds the selected operator's kernels on the loaded ranks, highlights them and (zoom) goes to the first one in
    // the selected step.
    void highlightOperator(bool zoom);
    std::vector<query::RankTimelinePtr> loadedRanks(bool selectedOnly) const;

    // Rank timelines load independently (every result delivered); the others keep only the newest request.
    QueryRunner* m_loadRunner;
    QTimer* m_arrivalTimer = nullptr;
    bool m_arrivedRanks = false; // a rank's arrays arrived since the last layout
    bool m_arrivalPending = false; // a layout waits for the timer (counted in the Workspace's busy count)
    int m_autoLoadRanks = 8;
    bool m_fittedToSteps = false; // the first arrival after an open zoomed to the steps
    std::optional<int64_t> m_openOnRank; // loadFirstTimelines' rank, scrolled to once the rows are laid out
    QueryRunner* m_statsRunner;
    QueryRunner* m_searchRunner;
    QueryRunner* m_detailsRunner;
    QueryRunner* m_operatorRunner;
    TimelineView* m_view;
    QLineEdit* m_searchEdit;
    QCheckBox* m_caseBox;
    QLabel* m_searchLabel;
    QToolButton* m_clearOperator;
    QTabWidget* m_tabs;
    QTextBrowser* m_details;
    QLineEdit* m_filterEdit;
    QSpinBox* m_levelsSpin;
    AreaStatsModel* m_statsModel;
    TimelineMarkerModel* m_markerModel;
    QTableView* m_markerView;
    QTableView* m_statsView;
    QLabel* m_statsLabel;
    QLabel* m_spanLabel;
    QTableWidget* m_hitsTable;
    std::vector<query::SearchHit> m_hits;
    int m_hitIndex = -1;
    bool m_expandAllPending = false;
    bool m_persistSession = false;
    bool m_restoring = false; // changes made while loading or restoring are not saved
    QString m_sessionKey;
    TimelineSession m_session;
};

} // namespace npuscope::gui
