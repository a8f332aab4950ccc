// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/CommAnalysisQuery.h"

#include "npuscope/gui/common/RowTableModel.h"

#include <vector>

namespace npuscope::gui {

// Links (global src → dst) with transport, time, size and bandwidth = Σsize / Σtime.
// GUI thread only; rows come from CommAnalysisQuery::linkTable in a worker.
class LinkTableModel : public RowTableModel<query::LinkRow> {
    Q_OBJECT
public:
    enum Column { Src, Dst, Transport, Time, Size, Bandwidth, Op, Group, Step, SlowestOp, ColumnCount };
    enum Role {
        // qlonglong for ranks / step / time ns, double for size / bandwidth, QString otherwise.
        RawValueRole = ValueRole,
    };

    explicit LinkTableModel(QObject* parent = nullptr);

    void setRows(std::vector<query::LinkRow> rows);
    // Group hash → display name (tp, dp, … or the hash).
    void setGroupNames(std::vector<std::pair<std::string, std::string>> names);

private:
    QString groupName(const std::optional<std::string>& hash) const;

    std::vector<std::pair<std::string, std::string>> m_groupNames;
};

} // namespace npuscope::gui
