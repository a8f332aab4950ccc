// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/steps/StageTableModel.h"

#include "npuscope/gui/comm/GroupTableModel.h"
#include "npuscope/gui/steps/StepTableModel.h"

namespace npuscope::gui {

using query::StageBreakdown;
using query::StepColumn;

namespace {

    QString rankText(const StageBreakdown& row)
    {
        return row.ranks.empty() ? QStringLiteral("()") : GroupTableModel::rankList(row.ranks);
    }

} // namespace

StageTableModel::StageTableModel(QObject* parent)
    : RowTableModel(parent)
{
    const QString definition = tr("msprof-analyze pipeline stage row: each value is the maximum over the stage's ranks");
    std::vector<RowColumn<StageBreakdown>> columns {
        { tr("Stage #"), definition,
            [](const StageBreakdown& r) { return QVariant::fromValue<qlonglong>(r.stage); } },
        { tr("Ranks"), definition,
            [](const StageBreakdown& r) { return QVariant::fromValue<qlonglong>(static_cast<qlonglong>(r.ranks.size())); },
            &rankText, Qt::AlignLeft | Qt::AlignVCenter },
    };
    for (int column = Computing; column < ColumnCount; ++column) {
        const StepColumn c = *stepColumn(column);
        columns.push_back({ QString::fromUtf8(query::stepColumnTitle(c)), definition,
            [c](const StageBreakdown& r) {
                const auto v = r.value(c);
                return v ? QVariant::fromValue<qlonglong>(*v) : QVariant();
            },
            [this, c](const StageBreakdown& r) { return TimeFormat::tableCell(r.value(c), m_unit); } });
    }
    for (int column = 0; column < ColumnCount; ++column) {
        const auto c = stepColumn(column);
        columns[static_cast<size_t>(column)].toolTip = [c](const StageBreakdown& row) {
            QString tip = QStringLiteral("Stage %1 (ranks %2)").arg(row.stage).arg(rankText(row));
            if (c) {
                tip += QStringLiteral("\n%1: max over the stage's ranks")
                           .arg(QString::fromUtf8(query::stepColumnTitle(*c)));
                if (const auto v = row.value(*c))
                    tip += QStringLiteral("\n%1 ns").arg(*v);
            }
            if (row.stepCount > 1)
                tip += QStringLiteral("\nmean of %1 steps").arg(row.stepCount);
            return tip;
        };
    }
    setColumns(std::move(columns));
}

void StageTableModel::setRows(std::vector<query::StageBreakdown> rows) { resetRows(std::move(rows)); }

void StageTableModel::setUnit(TimeFormat::Unit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    emitColumnChanged(0, ColumnCount - 1, { Qt::DisplayRole });
}

std::optional<StepColumn> StageTableModel::stepColumn(int column)
{
    // The step table's time columns up to Preparing, in the same order.
    static_assert(ColumnCount - Computing == StepTableModel::Preparing - StepTableModel::Computing + 1);
    static_assert(StageTime - Computing == StepTableModel::Stage - StepTableModel::Computing);
    if (column < Computing || column >= ColumnCount)
        return std::nullopt;
    return StepTableModel::kTimeColumns[static_cast<size_t>(column - Computing)];
}

QVariant StageTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole && stepColumn(section))
        return TimeFormat::columnHeader(RowTableModel::headerData(section, orientation, role).toString(), m_unit);
    return RowTableModel::headerData(section, orientation, role);
}

} // namespace npuscope::gui
