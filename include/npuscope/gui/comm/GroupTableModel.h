// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/CommQuery.h"

#include "npuscope/gui/compare/CompareColumns.h"
#include "npuscope/gui/compare/ComparedRowTableModel.h"

#include <map>
#include <memory>
#include <vector>

namespace npuscope::query {
struct RunDiff;
}

namespace npuscope::gui {

// Communication groups: name (tp / pp / dp … from profiler_metadata.json or msprof-analyze's communication_group.json,
// else the hash), size, global ranks, where the membership came from, and op count. Groups listed in
// communication_group.json without a hash (CommQuery::listedGroups) have an empty hash: they are named by their kind
// ("p2p", "collective"), show "—" as hash and ops, and cannot filter the communication views. GUI thread only.
class GroupTableModel : public ComparedRowTableModel<query::Group> {
    Q_OBJECT
public:
    enum Column { Name, Hash, Size, Ops, Source, Ranks, ColumnCount };
    enum Role {
        RawValueRole = ValueRole, // qlonglong for Size / Ops, QString otherwise
        GroupHashRole, // QString hash, for every column (empty for a group without hash)
    };

    explicit GroupTableModel(QObject* parent = nullptr);

    // commLoaded false: the load has no communication ops at all, so the Ops column shows "—", not 0.
    void setGroups(std::vector<query::Group> groups, bool commLoaded = true);
    bool commLoaded() const { return m_commLoaded; }
    const std::vector<query::Group>& groups() const { return rows(); }
    int rowOfHash(const std::string& hash) const;
    // Compare mode (setComparison): Base / New / Δ / Δ % of the group's communication elapse (ms per rank and step,
    // summed over its op types; query::CommDiff by group), appended after ColumnCount.
    // The Δ column in compare mode, -1 otherwise.
    int compareDeltaColumn() const { return comparison() ? ColumnCount + 2 : -1; }
    // "0-7" style compact rank list ("0,8,16-23").
    static QString rankList(const std::vector<int64_t>& ranks);

protected:
    std::optional<QVariant> cellData(const query::Group& group, int column, int role) const override;
    std::vector<RowColumn<query::Group>> comparisonColumns(const query::RunDiff* diff) override;

private:
    bool m_commLoaded = true;
    std::map<std::string, CompareFigures> m_groupFigures; // by group hash
};

} // namespace npuscope::gui
