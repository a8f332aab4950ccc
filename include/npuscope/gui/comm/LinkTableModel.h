// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/CommAnalysisQuery.h"

#include <QAbstractTableModel>

#include <vector>

namespace npuscope::gui {

// Links (global src → dst) with transport, time, size and bandwidth = Σsize / Σtime.
// GUI thread only; rows come from CommAnalysisQuery::linkTable in a worker.
class LinkTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Src, Dst, Transport, Time, Size, Bandwidth, Op, Group, Step, SlowestOp, ColumnCount };
    enum Role {
        // qlonglong for ranks / step / time ns, double for size / bandwidth, QString otherwise.
        RawValueRole = Qt::UserRole + 1,
    };

    explicit LinkTableModel(QObject* parent = nullptr);

    void setRows(std::vector<query::LinkRow> rows);
    const std::vector<query::LinkRow>& rows() const { return m_rows; }
    // Group hash → display name (tp, dp, … or the hash).
    void setGroupNames(std::vector<std::pair<std::string, std::string>> names);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString groupName(const std::optional<std::string>& hash) const;

    std::vector<query::LinkRow> m_rows;
    std::vector<std::pair<std::string, std::string>> m_groupNames;
};

} // namespace npuscope::gui
