// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/RowTableModel.h"

#include <memory>
#include <vector>

namespace npuscope::query {
struct RunDiff;
}

namespace npuscope::gui {

// A row table that gains columns in compare mode (BaselineComparison): the model's own columns, then the ones
// comparisonColumns makes for the comparison after them. GUI thread only.
template <class Row> class ComparedRowTableModel : public RowTableModel<Row> {
public:
    using RowTableModel<Row>::RowTableModel;

    // Compare mode against a baseline run: the own columns and comparisonColumns(diff) after them; nullptr removes
    // them, and the table is as without baseline. A model reset.
    void setComparison(std::shared_ptr<const query::RunDiff> diff)
    {
        if (diff == m_diff)
            return;
        this->beginResetModel();
        m_diff = std::move(diff);
        std::vector<RowColumn<Row>> columns = m_ownColumns;
        auto more = comparisonColumns(m_diff.get());
        columns.insert(columns.end(), more.begin(), more.end());
        this->setColumns(std::move(columns));
        this->endResetModel();
    }
    const std::shared_ptr<const query::RunDiff>& comparison() const { return m_diff; }

protected:
    // The model's own columns, shown with or without a comparison.
    void setOwnColumns(std::vector<RowColumn<Row>> columns)
    {
        m_ownColumns = columns;
        this->setColumns(std::move(columns));
    }
    // The columns the comparison diff adds, none for nullptr; the model drops what it kept of the previous one.
    virtual std::vector<RowColumn<Row>> comparisonColumns(const query::RunDiff* diff) = 0;

private:
    std::vector<RowColumn<Row>> m_ownColumns;
    std::shared_ptr<const query::RunDiff> m_diff;
};

} // namespace npuscope::gui
