// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/comm/GroupTableModel.h"
#include "npuscope/gui/comm/GroupText.h"

#include "npuscope/query/compare/RunComparison.h"

#include <algorithm>

namespace npuscope::gui {

using query::Group;

namespace {

// What query::Group::ranksSource names (docs/schema.md comm_group.ranks_source), in short words (the column is sized to
// its contents): self_link = each rank's self-link gives its local rank; self_link_identity = the rest are assumed
// local = global. The raw name stays the column's sort value.
QString sourceText(const std::string& source)
{
    if (source == "metadata")
        return GroupTableModel::tr("profiler_metadata.json");
    if (source == "self_link")
        return GroupTableModel::tr("self-links");
    if (source == "self_link_identity")
        return GroupTableModel::tr("self-links + identity");
    if (source == "unknown")
        return GroupTableModel::tr("unknown");
    return QString::fromStdString(source); // file names: communication_group.json, cluster_analysis.db
}

} // namespace

GroupTableModel::GroupTableModel(QObject* parent)
    : ComparedRowTableModel(parent)
{
    constexpr Qt::Alignment left = Qt::AlignLeft | Qt::AlignVCenter;
    auto count = [](int64_t n) { return QVariant::fromValue<qlonglong>(n); };
    std::vector<RowColumn<Group>> columns {
        { tr("Name"),
            tr("Group name: tp, pp, dp \u2026 from profiler_metadata.json or communication_group.json, else \u201cgroup\u201d "
               "and its first ranks (the Hash column has the hash)"),
            [](const Group& g) {
                if (g.name)
                    return QVariant(QString::fromStdString(*g.name));
                if (g.hash.empty())
                    return QVariant(QString::fromStdString(g.kind.value_or("group")));
                // Not the hash again (the next column shows it): what tells the group apart at a glance.
                return QVariant(groupShortText(std::nullopt, g.hash, g.ranks));
            },
            {}, left },
        { tr("Hash"), tr("The group hash ops and links are tagged with (the @ suffix of an op name)"),
            [](const Group& g) {
                return QVariant(g.hash.empty() ? QStringLiteral("\u2014") : QString::fromStdString(g.hash));
            },
            {}, left },
        { tr("Size"), tr("Number of ranks in the group"),
            [count](const Group& g) { return count(static_cast<int64_t>(g.ranks.size())); } },
        { tr("Ops"), tr("Number of communication ops of the group, over all ranks and steps"),
            [count](const Group& g) { return count(g.opCount); },
            [this](const Group& g) {
                return g.hash.empty() || !m_commLoaded ? QStringLiteral("\u2014") : QString::number(g.opCount);
            } },
        { tr("Membership from"), tr("Where the group's global ranks come from"),
            [](const Group& g) { return QVariant(QString::fromStdString(g.ranksSource)); },
            [](const Group& g) { return sourceText(g.ranksSource); }, left },
        { tr("Global ranks"), tr("The group's global ranks"),
            [](const Group& g) { return QVariant(rankList(g.ranks)); }, {}, left },
    };
    columns[Name].toolTip = [](const Group& g) {
        return g.rawName ? QVariant(tr("raw HCCL group id: %1").arg(QString::fromStdString(*g.rawName))) : QVariant();
    };
    columns[Ranks].toolTip = [](const Group& g) { return QVariant(rankList(g.ranks)); };
    columns[Ops].toolTip = [this](const Group&) {
        return m_commLoaded
            ? QVariant()
            : QVariant(tr("No communication ops are loaded (no communication.json or communication tables)"));
    };
    setOwnColumns(std::move(columns));
}

std::vector<RowColumn<Group>> GroupTableModel::comparisonColumns(const query::RunDiff* diff)
{
    m_groupFigures.clear();
    if (!diff)
        return {};
    for (const auto& c : diff->communication) {
        auto& f = m_groupFigures[c.group];
        f.base = f.base.value_or(0) + c.baseElapseMs;
        f.neu = f.neu.value_or(0) + c.newElapseMs;
    }
    return CompareColumns::make<Group>(
        tr("elapse"), tr("ms/step"), 3, [this](const Group& g) -> std::optional<CompareFigures> {
            const auto it = m_groupFigures.find(g.hash);
            if (g.hash.empty() || it == m_groupFigures.end())
                return std::nullopt;
            return it->second;
        });
}

void GroupTableModel::setGroups(std::vector<query::Group> groups, bool commLoaded)
{
    m_commLoaded = commLoaded;
    resetRows(std::move(groups));
}

int GroupTableModel::rowOfHash(const std::string& hash) const
{
    for (size_t i = 0; i < rows().size(); ++i) {
        if (rows()[i].hash == hash)
            return static_cast<int>(i);
    }
    return -1;
}

QString GroupTableModel::rankList(const std::vector<int64_t>& ranks)
{
    std::vector<int64_t> sorted = ranks;
    std::sort(sorted.begin(), sorted.end());
    QStringList parts;
    for (size_t i = 0; i < sorted.size();) {
        size_t j = i;
        while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1)
            ++j;
        parts << (j > i + 1
                ? QStringLiteral("%1-%2").arg(sorted[i]).arg(sorted[j])
                : (j == i + 1 ? QStringLiteral("%1,%2").arg(sorted[i]).arg(sorted[j]) : QString::number(sorted[i])));
        i = j + 1;
    }
    return parts.join(QLatin1Char(','));
}

std::optional<QVariant> GroupTableModel::cellData(const query::Group& group, int column, int role) const
{
    if (role == GroupHashRole)
        return QVariant(QString::fromStdString(group.hash));
    if (column >= ColumnCount)
        return std::nullopt;
    // A group listed without a hash names no op or link; every cell says so.
    if (role == Qt::ToolTipRole && group.hash.empty())
        return QVariant(tr("%1 group listed in communication_group.json without a group hash: no op or link names it")
                            .arg(QString::fromStdString(group.kind.value_or(""))));
    return std::nullopt;
}

} // namespace npuscope::gui
