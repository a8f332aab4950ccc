// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"
#include "npuscope/query/compare/RunComparison.h"

#include <memory>

class QComboBox;
class QLabel;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace npuscope::gui {

class CommDiffModel;
class OperatorDiffModel;
class RankDeltaStrip;
class WaterfallChart;

// Compare mode: the opened model (new) against the Workspace baseline (base), by query::RunComparison (mean per step
// of every step on each side). The headline (DiffReport), the cluster step as a waterfall, a per-rank Δ strip of a
// chosen component (a click selects the rank), and category / op type / kernel and communication Δ tables. The
// comparison is BaselineComparison's, the one the other docks' compare columns show. Without a baseline the dock says
// how to choose one. GUI thread only.
class CompareDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "compareDock";

    CompareDock(Workspace* workspace, QWidget* parent = nullptr);

    // The last comparison shown, nullptr before one arrives or without a baseline.
    const query::RunDiff* diff() const { return m_diff.get(); }
    QLabel* headline() const { return m_headline; }
    WaterfallChart* waterfall() const { return m_waterfall; }
    RankDeltaStrip* strip() const { return m_strip; }
    OperatorDiffModel* kernelModel() const { return m_kernels; }

protected:
    void reload() override;

private:
    void showDiff(std::shared_ptr<const query::RunDiff> diff);
    void showMessage(const QString& text);

    std::shared_ptr<const query::RunDiff> m_diff;
    QStackedWidget* m_pages;
    QLabel* m_message;
    QLabel* m_headline;
    QLabel* m_levelNote;
    QLabel* m_sides;
    WaterfallChart* m_waterfall;
    RankDeltaStrip* m_strip;
    QComboBox* m_component;
    QTabWidget* m_tabs;
    OperatorDiffModel* m_categories;
    OperatorDiffModel* m_types;
    OperatorDiffModel* m_kernels;
    CommDiffModel* m_comm;
};

} // namespace npuscope::gui
