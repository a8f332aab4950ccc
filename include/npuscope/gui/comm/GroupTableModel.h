// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/CommQuery.h"

#include <QAbstractTableModel>

#include <vector>

namespace npuscope::gui {

// Communication groups: name (tp / pp / dp … from profiler_metadata.json or msprof-analyze's communication_group.json,
// else the hash), size, global ranks, where the membership came from, and op count. Groups listed in
// communication_group.json without a hash (CommQuery::listedGroups) have an empty hash: they are named by their kind
// ("p2p", "collective"), show "—" as hash and ops, and cannot filter the communication views. GUI thread only.
class GroupTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Hash, Size, Ops, Source, Ranks, ColumnCount };
    enum Role {
        RawValueRole = Qt::UserRole + 1, // qlonglong for Size / Ops, QString otherwise
        GroupHashRole, // QString hash, for every column (empty for a group without hash)
    };

    explicit GroupTableModel(QObject* parent = nullptr);

    // commLoaded false: the load has no communication ops at all, so the Ops column shows "—", not 0.
    void setGroups(std::vector<query::Group> groups, bool commLoaded = true);
    bool commLoaded() const { return m_commLoaded; }
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
    bool m_commLoaded = true;
};

} // namespace npuscope::gui
