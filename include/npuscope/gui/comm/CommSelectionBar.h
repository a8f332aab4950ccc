// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/CommAnalysisQuery.h"

#include <QWidget>

class QComboBox;

namespace npuscope::gui {

class DeferredReload;
class QueryRunner;
class Workspace;

// Step, group and op choosers bound to the Workspace selection, shared by the communication docks:
// choosing writes the Workspace, Workspace changes update the combos. The op list comes from the shared
// in-memory CommOpIndex (no database lock) and is refreshed only while the bar is visible. GUI thread only.
class CommSelectionBar : public QWidget {
    Q_OBJECT
public:
    // Concrete ops are listed only up to this many (1,024-rank clusters have thousands).
    static constexpr int kMaxOps = 400;

    explicit CommSelectionBar(Workspace* workspace, QWidget* parent = nullptr);

    // The Workspace's step, group and op as the communication queries take them.
    static query::CommSelection selection(const Workspace& workspace);
    // The same without the op: what the op (or op slot) choices are listed for.
    static query::CommSelection stepAndGroup(const Workspace& workspace);

    QComboBox* stepCombo() const { return m_step; }
    QComboBox* groupCombo() const { return m_group; }
    QComboBox* opCombo() const { return m_op; }

private:
    void reloadLists();
    void reloadOps();
    void syncFromWorkspace();

    Workspace* m_workspace;
    QueryRunner* m_listRunner;
    QueryRunner* m_opRunner;
    QComboBox* m_step;
    QComboBox* m_group;
    QComboBox* m_op;
    DeferredReload* m_opsReload;
    bool m_updating = false;
};

} // namespace npuscope::gui
