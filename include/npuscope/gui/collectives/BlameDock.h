// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryDock.h"
#include "npuscope/query/BlameAnalysis.h"

#include <memory>

class QComboBox;
class QLabel;
class QTableView;
class QTextBrowser;

namespace npuscope::gui {

class BlameTableModel;

// Per step, who held the cluster up (query::BlameAnalysis): the roots by induced wait with cause, share and evidence,
// and the selected root's chain of ops. A handful of roots per step whatever the rank count, so it reads the same at
// 1,024 ranks. Selecting a root selects its rank (a link: both ranks) and the step; the first root is shown when a
// step is chosen without touching the selection. GUI thread only.
class BlameDock : public QueryDock {
    Q_OBJECT
public:
    static constexpr const char* kObjectName = "blameDock";

    explicit BlameDock(Workspace* workspace, QWidget* parent = nullptr);

    BlameTableModel* model() const { return m_model; }
    QTableView* tableView() const { return m_table; }
    QComboBox* stepBox() const { return m_step; }
    QLabel* summaryLabel() const { return m_summary; }
    QTextBrowser* chainView() const { return m_chain; }

private:
    void reload() override;
    void showStep();
    void showRoot();

    std::shared_ptr<const query::BlameResult> m_result;
    BlameTableModel* m_model;
    QComboBox* m_step;
    QLabel* m_summary;
    QTableView* m_table;
    QTextBrowser* m_chain;
    bool m_quiet = false; // the current row changes by itself: leave the Workspace selection alone
};

} // namespace npuscope::gui
