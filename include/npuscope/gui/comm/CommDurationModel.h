// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/CommAnalysisQuery.h"

#include "npuscope/gui/common/RowTableModel.h"

#include <vector>

namespace npuscope::gui {

// One row per rank: communication time split and bandwidths over the selected ops. Times in ms.
// GUI thread only; rows come from CommAnalysisQuery::durations in a worker.
class CommDurationModel : public RowTableModel<query::RankDuration> {
    Q_OBJECT
public:
    enum Column {
        Rank,
        Ops,
        Elapsed,
        Transit,
        Wait,
        Sync,
        Idle,
        WaitRatio,
        SyncRatio,
        SdmaBandwidth,
        RdmaBandwidth,
        ColumnCount
    };
    enum Role {
        // qlonglong ns for times, double for ratios / GB/s, qlonglong for Rank / Ops; invalid when absent.
        RawValueRole = ValueRole,
        RankIdRole,
    };

    explicit CommDurationModel(QObject* parent = nullptr);

    void setRows(std::vector<query::RankDuration> rows);
    int rowOfRank(int64_t rank) const;
    // Rows whose text in a column is the longest: the smallest and largest values and the first absent one
    // (numbers of one column share their format, so more digits mean a wider text).
    std::vector<int> widestRows(int column) const;

protected:
    std::optional<QVariant> cellData(const query::RankDuration& row, int column, int role) const override;
};

} // namespace npuscope::gui
