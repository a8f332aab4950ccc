// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/statistics/StatisticsTableModels.h"

#include "StatisticsColumns.h"

namespace npuscope::gui {

using namespace statistics;

OpStatisticTableModel::OpStatisticTableModel(QObject* parent)
    : RowTableModel(parent)
{
    using R = query::OpStatisticRow;
    setColumns({
        textColumn<R>(tr("OP Type"), tr("op_statistic.csv: OP Type"), [](const R& r) { return str(r.opType); }),
        textColumn<R>(tr("Core Type"), tr("op_statistic.csv: Core Type (the unit the op ran on)"),
            [](const R& r) { return str(r.coreType); }),
        numberColumn<R>(tr("Ranks"), tr("Ranks shown whose op_statistic.csv lists the type"),
            [](const R& r) { return qlonglong(r.ranks); }),
        numberColumn<R>(
            tr("Count"), tr("Count, summed over the ranks shown"), [](const R& r) { return qlonglong(r.count); }),
        timeColumn<R>(tr("Total"), tr("Total Time, summed over the ranks shown"),
            [](const R& r) { return std::optional<int64_t>(r.totalNs); }),
        meanColumn<R>(tr("Mean"), tr("Total ÷ Count over the ranks shown (the file's Avg Time on one rank)")),
        timeColumn<R>(tr("Min"), tr("Min Time: the least over the ranks shown"), [](const R& r) { return r.minNs; }),
        timeColumn<R>(tr("Max"), tr("Max Time: the largest over the ranks shown"), [](const R& r) { return r.maxNs; }),
        shareColumn<R>(tr("Share [%]"),
            tr("The type's total time over the total of every type, on the ranks shown (the file's "
               "Ratio(%) on one rank)")),
    });
}

ApiStatisticTableModel::ApiStatisticTableModel(QObject* parent)
    : RowTableModel(parent)
{
    using R = query::ApiStatisticRow;
    setColumns({
        textColumn<R>(tr("Level"), tr("api_statistic.csv: Level (acl, runtime, hccl, node, communication)"),
            [](const R& r) { return str(r.level); }),
        textColumn<R>(tr("API Name"), tr("api_statistic.csv: API Name"), [](const R& r) { return str(r.apiName); }),
        numberColumn<R>(tr("Ranks"), tr("Ranks shown whose api_statistic.csv lists the API"),
            [](const R& r) { return qlonglong(r.ranks); }),
        numberColumn<R>(
            tr("Count"), tr("Count, summed over the ranks shown"), [](const R& r) { return qlonglong(r.count); }),
        timeColumn<R>(tr("Total"), tr("Time, summed over the ranks shown"),
            [](const R& r) { return std::optional<int64_t>(r.totalNs); }),
        meanColumn<R>(tr("Mean"), tr("Total ÷ Count over the ranks shown (the file's Avg on one rank)")),
        timeColumn<R>(tr("Min"), tr("Min: the least over the ranks shown"), [](const R& r) { return r.minNs; }),
        timeColumn<R>(tr("Max"), tr("Max: the largest over the ranks shown"), [](const R& r) { return r.maxNs; }),
        shareColumn<R>(
            tr("Share [%]"), tr("The API's time over the time of every API of its level, on the ranks shown")),
    });
}

} // namespace npuscope::gui
