// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/RowTableModel.h"
#include "npuscope/query/CriticalPath.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace npuscope::gui {

// One segment of a step's critical path (query::CriticalPath) as the Critical path view lists it.
struct PathRow {
    int64_t rank = 0;
    query::PathKind kind = query::PathKind::Compute;
    QString op; // empty for host and idle
    int64_t offsetNs = 0; // from the path's start
    int64_t writtenStart = 0; // on the rank's own clock (the timeline's)
    int64_t durNs = 0;
    double share = 0; // of the path's length
};

// The path's segments in time order; sortable. GUI thread only.
class PathSegmentTableModel : public RowTableModel<PathRow> {
    Q_OBJECT
public:
    enum Column { Rank, Kind, Operator, Start, Duration, Share, ColumnCount };

    explicit PathSegmentTableModel(QObject* parent = nullptr);
    void setSegments(std::vector<PathRow> rows) { resetRows(std::move(rows)); }
    // query::pathKindName, translated ("compute", "communication", "host", "idle").
    static QString kindText(query::PathKind kind);
};

} // namespace npuscope::gui
