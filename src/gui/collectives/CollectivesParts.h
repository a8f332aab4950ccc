// SPDX-License-Identifier: Apache-2.0
#pragma once

// What CollectivesDock.cpp and BlameDock.cpp share. Private to src/gui/collectives.

#include "npuscope/gui/common/Workspace.h"

#include <QItemSelectionModel>
#include <QTableView>

namespace npuscope::gui::collectives_detail {

// Clears table's selected row when no rank and no collective are selected any more (Esc), so that the same row can be
// clicked again.
inline void clearRowWhenNothingSelected(Workspace* ws, QTableView* table)
{
    auto clearRow = [ws, table] {
        if (!ws->collectiveFocus() && ws->selectedRanks().empty())
            table->selectionModel()->clear();
    };
    QObject::connect(ws, &Workspace::collectiveFocusChanged, table, clearRow);
    QObject::connect(ws, &Workspace::selectedRankChanged, table, clearRow);
}

} // namespace npuscope::gui::collectives_detail
