// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/RankBarChart.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/query/StepTimeGap.h"

#include "npuscope/gui/common/QueryDock.h"

#include <map>
#include <optional>
#include <vector>

class QLabel;
class QScrollArea;

namespace npuscope::gui {

class StepSplitPie;

// Where the step goes: a donut of the selected rank's split (the cluster mean's when no rank is
// selected) next to one stacked bar per rank. Under the donut a line says which step time it shows (the step wall
// time) and why Stage, the step time of Cluster steps' Stage column, is shorter (query::StepTimeGap). Above both, the
// advice finding that explains the most of the step, with a link to Advice (issue 36: the Overview leads with the main
// problem). Follows the
// Workspace step and rank; clicking a bar selects that rank. GUI thread only.
class OverviewDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "overviewDock";

    explicit OverviewDock(Workspace* workspace, QWidget* parent = nullptr);

    // What the donut shows: the rank (nullopt = cluster mean) and its split.
    std::optional<int64_t> shownRank() const { return m_shownRank; }
    std::optional<query::StepSplit> shownSplit() const;
    StepSplitPie* pie() const { return m_pie; }
    // Compare mode: the baseline's donut left of the opened run's (BaselineComparison: the selected rank's, else
    // the cluster mean, each the mean per step); hidden without a baseline.
    StepSplitPie* basePie() const { return m_basePie; }
    RankBarChart* chart() const { return m_chart; }
    // The line under the donut: its figure's definition and its difference from Stage.
    QLabel* stepTimeNote() const { return m_stepTimeNote; }
    // The line above everything: the advice finding that explains the most of the step (Workspace::topFinding),
    // hidden until Advice has one.
    QLabel* leadFinding() const { return m_leadFinding; }
    // The text of that line for a gap (the donut's rank or the cluster mean); public for the tests.
    static QString stepTimeNoteText(const query::StepTimeGap& gap);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void reload() override;
    void showSelection();
    void showBaseline();
    void showStepTimeNote(const std::optional<query::StepTimeGap>& gap);
    void showLeadFinding();
    // Compare mode: "New run, step +x ms (+y %) against the baseline · " (cluster or the selected rank); empty
    // without a comparison.
    QString newRunTitle() const;

    StepSplitPie* m_pie;
    StepSplitPie* m_basePie;
    RankBarChart* m_chart;
    QScrollArea* m_scroll;
    QLabel* m_chartTitle;
    QLabel* m_stepTimeNote;
    QLabel* m_leadFinding = nullptr;
    std::optional<query::StepSplit> m_meanSplit;
    std::optional<query::StepTimeGap> m_meanGap;
    std::map<int64_t, query::StepTimeGap> m_rankGaps;
    int m_rankCount = 0;
    int m_meanRanks = 0;
    int m_otherGenerationRanks = 0;
    bool m_loaded = false;
    std::optional<QString> m_group; // the communication group the view is restricted to, by name
    std::optional<int64_t> m_shownRank;
};

} // namespace npuscope::gui
