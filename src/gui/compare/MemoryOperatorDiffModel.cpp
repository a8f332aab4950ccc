// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/compare/MemoryOperatorDiffModel.h"

#include "npuscope/gui/compare/CompareColumns.h"

namespace npuscope::gui {

MemoryOperatorDiffModel::MemoryOperatorDiffModel(QObject* parent)
    : RowTableModel(parent)
{
    using query::MemoryOperatorDiff;
    const auto left = Qt::AlignLeft | Qt::AlignVCenter;
    std::vector<RowColumn<MemoryOperatorDiff>> columns {
        { tr("Operator"), tr("The operator_memory Name"),
            [](const MemoryOperatorDiff& r) { return QVariant(QString::fromStdString(r.name)); }, {}, left },
        { tr("Base allocations"), tr("operator_memory rows of the name in the baseline"),
            [](const MemoryOperatorDiff& r) { return QVariant::fromValue<qlonglong>(r.baseCount); } },
        { tr("New allocations"), tr("operator_memory rows of the name in the opened run"),
            [](const MemoryOperatorDiff& r) { return QVariant::fromValue<qlonglong>(r.newCount); } },
    };
    auto more = CompareColumns::make<MemoryOperatorDiff>(
        tr("allocated"), tr("MB"), 2, [](const MemoryOperatorDiff& r) -> std::optional<CompareFigures> {
            return CompareFigures { r.baseMb, r.newMb };
        });
    columns.insert(columns.end(), more.begin(), more.end());
    setColumns(std::move(columns));
}

std::vector<query::MemoryOperatorDiff> MemoryOperatorDiffModel::rowsOfRank(const query::RunDiff& diff, int64_t newRank)
{
    std::optional<int64_t> baseRank;
    for (const auto& r : diff.ranks) {
        if (r.newRank == newRank)
            baseRank = r.rank;
    }
    std::vector<query::MemoryOperatorDiff> out;
    if (!baseRank)
        return out;
    for (const auto& m : diff.memoryOperators) {
        if (m.rank == *baseRank)
            out.push_back(m);
    }
    return out;
}

} // namespace npuscope::gui
