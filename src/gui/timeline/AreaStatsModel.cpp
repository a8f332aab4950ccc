// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/timeline/AreaStatsModel.h"

#include "npuscope/gui/common/TimeFormat.h"

#include <QFile>
#include <QTextStream>

namespace npuscope::gui {

using query::AreaStat;

AreaStatsModel::AreaStatsModel(QObject* parent)
    : RowTableModel(parent)
{
    auto ns = [](int64_t AreaStat::* member) {
        return [member](const AreaStat& s) { return QVariant::fromValue<qlonglong>(s.*member); };
    };
    auto us = [](int64_t AreaStat::* member) {
        return [member](const AreaStat& s) { return TimeFormat::withUnit(s.*member, TimeFormat::Unit::Microseconds); };
    };
    const QString scope = tr(", over the slices of this name in the selected time range and rows");
    std::vector<RowColumn<AreaStat>> columns {
        { tr("Name"), tr("Slice name"), [](const AreaStat& s) { return QVariant(QString::fromStdString(s.name)); }, {},
            {}, [](const AreaStat& s) { return QVariant(QString::fromStdString(s.name)); } },
        { tr("Count"), tr("Number of slices") + scope,
            [](const AreaStat& s) { return QVariant::fromValue<qlonglong>(static_cast<qlonglong>(s.count)); } },
        { tr("Total wall"), tr("\u03a3 duration (wall time)") + scope, ns(&AreaStat::totalWall), us(&AreaStat::totalWall) },
        { tr("Total self"), tr("\u03a3 self time (duration minus the time of nested slices)") + scope,
            ns(&AreaStat::totalSelf), us(&AreaStat::totalSelf) },
        { tr("Average"), tr("Total wall / Count"), [](const AreaStat& s) { return QVariant(s.average()); },
            [](const AreaStat& s) {
                return TimeFormat::withUnit(static_cast<int64_t>(s.average() + 0.5), TimeFormat::Unit::Microseconds);
            } },
        { tr("Min"), tr("Shortest duration") + scope, ns(&AreaStat::minWall), us(&AreaStat::minWall) },
        { tr("Max"), tr("Longest duration") + scope, ns(&AreaStat::maxWall), us(&AreaStat::maxWall) },
    };
    columns[Name].alignment = {};
    setColumns(std::move(columns));
}

void AreaStatsModel::setStats(std::vector<query::AreaStat> stats) { resetRows(std::move(stats)); }

std::optional<QVariant> AreaStatsModel::cellData(const query::AreaStat& stat, int column, int role) const
{
    if (role == SortRole)
        return valueOf(stat, column);
    return std::nullopt;
}

bool AreaStatsModel::exportCsv(const QString& path) const
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        return false;
    QTextStream out(&file);
    out << "name,count,total_wall_ns,total_self_ns,average_ns,min_ns,max_ns\n";
    for (const AreaStat& s : rows()) {
        out << csvField(QString::fromStdString(s.name)) << ',' << s.count << ',' << s.totalWall << ',' << s.totalSelf
            << ',' << static_cast<qint64>(s.average() + 0.5) << ',' << s.minWall << ',' << s.maxWall << '\n';
    }
    return out.status() == QTextStream::Ok;
}

} // namespace npuscope::gui
