// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/CommQuery.h"

#include <QAbstractTableModel>

#include <vector>

namespace npuscope::gui {

// Communication groups: name (tp / pp / dp … from profiler_metadata.json, else the hash), size,
// global ranks, where the membership came from, and op count. GUI thread only.
class GroupTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Hash, Size, Ops, Source, Ranks, ColumnCount };
    enum Role {
        RawValueRole = Qt::UserRole + 1, // qlonglong for Size / Ops, QString otherwise
        GroupHashRole, // QString hash, for every column
    };

    explicit GroupTableModel(QObject* parent = nullptr);

    void setGroups(std::vector<query::Group> groups);
    const std::vector<query::Group>& groups() const { return m_groups; }
    int rowOfHash(const std::string& hash) const;
    // "0-7" style compact rank list ("0,8,16-23").
    static QString rankList(const std::vector<int64_t>& ranks);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<query::Group> m_groups;
};

} // namespace npuscope::gui
