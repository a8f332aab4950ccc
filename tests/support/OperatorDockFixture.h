// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "GuiTestSupport.h"

#include "npuscope/gui/operators/OperatorDock.h"
#include "npuscope/gui/operators/OperatorTableModel.h"

#include <QComboBox>
#include <QSortFilterProxyModel>

namespace npuscope::test {

// The two-rank window with the Operators dock watched, and readers of its table in view order.
class OperatorDockFixture : public TwoRanksWindow {
protected:
    void SetUp() override
    {
        TwoRanksWindow::SetUp();
        m_dock = m_window->operatorDock();
        ASSERT_NE(m_dock, nullptr);
        m_testers.watch({ m_dock->model(), m_dock->proxy() });
    }

    // Shows the window with the dock in front and waits for its import and query.
    void showDock()
    {
        m_window->focusDock(m_dock);
        m_window->show();
        ASSERT_TRUE(m_window->waitUntilIdle());
        ASSERT_FALSE(m_dock->isImporting());
    }

    QString key(int viewRow) const
    {
        return m_dock->proxy()->index(viewRow, gui::OperatorTableModel::Key).data().toString();
    }
    qlonglong value(int viewRow, int column) const
    {
        return m_dock->proxy()->index(viewRow, column).data(gui::OperatorTableModel::ValueRole).toLongLong();
    }
    // The view row of a key, -1 when absent.
    int rowOf(const QString& k) const
    {
        for (int r = 0; r < m_dock->proxy()->rowCount(); ++r) {
            if (key(r) == k)
                return r;
        }
        return -1;
    }
    // Σ of a column's values over the rows in view.
    qlonglong columnSum(int column) const
    {
        qlonglong sum = 0;
        for (int r = 0; r < m_dock->proxy()->rowCount(); ++r)
            sum += value(r, column);
        return sum;
    }
    qlonglong countSum() const { return columnSum(gui::OperatorTableModel::Count); }
    void select(QComboBox* combo, int data)
    {
        const int i = combo->findData(data);
        ASSERT_GE(i, 0);
        combo->setCurrentIndex(i);
        ASSERT_TRUE(m_window->waitUntilIdle());
    }

    gui::OperatorDock* m_dock = nullptr;
};

} // namespace npuscope::test
