// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/comm/CommDurationModel.h"

#include "npuscope/gui/common/TimeFormat.h"

namespace npuscope::gui {

namespace {

    using query::RankDuration;

    QVariant optionalNs(bool has, int64_t ns) { return has ? QVariant::fromValue<qlonglong>(ns) : QVariant(); }
    QVariant optionalReal(const std::optional<double>& v) { return v ? QVariant(*v) : QVariant(); }

    // A time column (ms); absent figures are "—" and say why.
    RowColumn<RankDuration> timeColumn(
        const QString& title, const QString& definition, std::function<QVariant(const RankDuration&)> value)
    {
        RowColumn<RankDuration> c(title, definition, value);
        c.text = [value](const RankDuration& r) {
            const QVariant v = value(r);
            return v.isValid() ? TimeFormat::format(static_cast<int64_t>(v.toLongLong()), TimeFormat::Unit::Milliseconds)
                               : TimeFormat::kAbsent;
        };
        return c;
    }

    RowColumn<RankDuration> realColumn(const QString& title, const QString& definition, int decimals,
        std::function<QVariant(const RankDuration&)> value)
    {
        RowColumn<RankDuration> c(title, definition, value);
        c.text = [value, decimals](const RankDuration& r) {
            const QVariant v = value(r);
            return v.isValid() ? QString::number(v.toDouble(), 'f', decimals) : TimeFormat::kAbsent;
        };
        return c;
    }

    QString bandwidthTip(double sizeMb, int64_t timeNs)
    {
        return CommDurationModel::tr("%1 MB in %2 ms")
            .arg(sizeMb, 0, 'f', 3)
            .arg(TimeFormat::format(timeNs, TimeFormat::Unit::Milliseconds));
    }

} // namespace

CommDurationModel::CommDurationModel(QObject* parent)
    : RowTableModel(parent)
{
    const QString sum = tr(", summed over the rank's selected ops (ms)");
    const QString bandwidth
        = tr("\u03a3 Transit Size (MB) / \u03a3 Transit Time (ms) of the %1 rows of the rank's selected ops (GB/s)");
    std::vector<RowColumn<RankDuration>> columns {
        { tr("Rank"), tr("Global rank"), [](const RankDuration& r) { return QVariant::fromValue<qlonglong>(r.rank); } },
        { tr("Ops"), tr("Number of the rank's communication ops in the selection"),
            [](const RankDuration& r) { return QVariant::fromValue<qlonglong>(r.opCount); } },
        timeColumn(tr("Elapsed (ms)"), tr("Elapse Time") + sum,
            [](const RankDuration& r) { return QVariant::fromValue<qlonglong>(r.elapseNs); }),
        timeColumn(tr("Transit (ms)"), tr("Transit Time") + sum,
            [](const RankDuration& r) { return optionalNs(r.hasTransit, r.transitNs); }),
        timeColumn(tr("Wait (ms)"), tr("Wait Time") + sum,
            [](const RankDuration& r) { return optionalNs(r.hasWait, r.waitNs); }),
        timeColumn(tr("Sync (ms)"), tr("Synchronization Time") + sum,
            [](const RankDuration& r) { return optionalNs(r.hasSync, r.syncNs); }),
        timeColumn(tr("Idle (ms)"), tr("Idle Time") + sum,
            [](const RankDuration& r) { return optionalNs(r.hasIdle, r.idleNs); }),
        realColumn(tr("Wait Ratio"), tr("Wait / (Wait + Transit)\nWait Ratio = \u03a3Wait / (\u03a3Wait + \u03a3Transit) over the rank's selected ops"), 4,
            [](const RankDuration& r) { return optionalReal(r.waitRatio); }),
        realColumn(tr("Sync Ratio"), tr("Synchronization / (Synchronization + Transit)\nSync Ratio = \u03a3Sync / (\u03a3Sync + \u03a3Transit) over the rank's selected ops"), 4,
            [](const RankDuration& r) { return optionalReal(r.syncRatio); }),
        realColumn(tr("SDMA (GB/s)"), bandwidth.arg(QStringLiteral("SDMA")), 3,
            [](const RankDuration& r) { return optionalReal(r.sdmaBandwidthGbps); }),
        realColumn(tr("RDMA (GB/s)"), bandwidth.arg(QStringLiteral("RDMA")), 3,
            [](const RankDuration& r) { return optionalReal(r.rdmaBandwidthGbps); }),
    };
    for (int c = Transit; c <= SyncRatio; ++c) {
        columns[static_cast<size_t>(c)].toolTip = [value = columns[static_cast<size_t>(c)].value](const RankDuration& r) {
            return value(r).isValid()
                ? QVariant()
                : QVariant(tr("Not in these files: this generation (e.g. MindSpore hccl_raw) records communication "
                              "and wait cost only"));
        };
    }
    columns[SdmaBandwidth].toolTip = [](const RankDuration& r) { return bandwidthTip(r.sdmaSizeMb, r.sdmaTimeNs); };
    columns[RdmaBandwidth].toolTip = [](const RankDuration& r) { return bandwidthTip(r.rdmaSizeMb, r.rdmaTimeNs); };
    setColumns(std::move(columns));
}

void CommDurationModel::setRows(std::vector<query::RankDuration> rows) { resetRows(std::move(rows)); }

int CommDurationModel::rowOfRank(int64_t rank) const
{
    for (size_t i = 0; i < rows().size(); ++i) {
        if (rows()[i].rank == rank)
            return static_cast<int>(i);
    }
    return -1;
}

std::vector<int> CommDurationModel::widestRows(int column) const
{
    int low = -1, high = -1, absent = -1;
    double lowValue = 0, highValue = 0;
    for (int row = 0; row < rowCount(); ++row) {
        const QVariant raw = data(index(row, column), RawValueRole);
        if (!raw.isValid()) {
            absent = absent < 0 ? row : absent;
            continue;
        }
        const double v = raw.toDouble();
        if (low < 0 || v < lowValue) {
            low = row;
            lowValue = v;
        }
        if (high < 0 || v > highValue) {
            high = row;
            highValue = v;
        }
    }
    std::vector<int> out;
    for (int row : { low, high, absent }) {
        if (row >= 0)
            out.push_back(row);
    }
    return out;
}

std::optional<QVariant> CommDurationModel::cellData(const query::RankDuration& row, int, int role) const
{
    if (role == RankIdRole)
        return QVariant::fromValue<qlonglong>(row.rank);
    return std::nullopt;
}

} // namespace npuscope::gui
