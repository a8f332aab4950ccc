// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/memory/OperatorMemoryModel.h"

#include "npuscope/gui/common/TimeFormat.h"

#include <QBrush>
#include <QColor>
#include <QStringList>

namespace npuscope::gui {

using query::OperatorMemoryRow;

namespace {

QVariant optLong(const std::optional<int64_t>& v) { return v ? QVariant::fromValue<qlonglong>(*v) : QVariant(); }
QString ms(const std::optional<int64_t>& ns) { return TimeFormat::format(ns, TimeFormat::Unit::Milliseconds); }

// query::operatorMemoryFlagText, translated.
QString flagText(uint32_t flags)
{
    QStringList parts;
    if (flags & query::LateReturn)
        parts << OperatorMemoryModel::tr("late return");
    if (flags & query::HeldToEnd)
        parts << OperatorMemoryModel::tr("held to end");
    return parts.join(QStringLiteral(", "));
}

} // namespace

OperatorMemoryModel::OperatorMemoryModel(QObject* parent)
    : RowTableModel(parent)
{
    constexpr Qt::Alignment left = Qt::AlignLeft | Qt::AlignVCenter;
    const auto msUnit = TimeFormat::Unit::Milliseconds;
    // A time point column: ms after the origin, epoch µs in the tooltip.
    auto timeColumn = [this, msUnit](QString title, QString definition, std::optional<int64_t> OperatorMemoryRow::*f) {
        RowColumn<OperatorMemoryRow> c { TimeFormat::columnHeader(std::move(title), msUnit), std::move(definition),
            [f](const OperatorMemoryRow& r) { return optLong(r.*f); },
            [this, f](const OperatorMemoryRow& r) { return (r.*f) ? ms(*(r.*f) - m_origin) : TimeFormat::kAbsent; } };
        c.toolTip = [f](const OperatorMemoryRow& r) {
            return (r.*f) ? QVariant(
                       QStringLiteral("%1 µs (epoch)").arg(TimeFormat::format(*(r.*f), TimeFormat::Unit::Microseconds)))
                          : QVariant();
        };
        return c;
    };
    auto durationColumn = [msUnit](QString title, QString definition, std::optional<int64_t> OperatorMemoryRow::*f) {
        return RowColumn<OperatorMemoryRow> { TimeFormat::columnHeader(std::move(title), msUnit), std::move(definition),
            [f](const OperatorMemoryRow& r) { return optLong(r.*f); },
            [f](const OperatorMemoryRow& r) { return ms(r.*f); } };
    };
    RowColumn<OperatorMemoryRow> flags { tr("Flags"),
        tr("Inefficient blocks (docs/metrics.md): late return = back to the pool \u2265 1 ms and \u2265 25 % of its "
           "lifetime after the tensor was freed; held to end = \u2265 1 MB allocated in the profile and never freed "
           "in it"),
        [](const OperatorMemoryRow& r) { return r.flags ? QVariant(flagText(r.flags)) : QVariant(); },
        [](const OperatorMemoryRow& r) { return flagText(r.flags); },
        left };
    flags.foreground
        = [](const OperatorMemoryRow& r) { return r.flags ? QVariant(QBrush(QColor(190, 60, 30))) : QVariant(); };
    setColumns({
        { tr("Name"), tr("Name: the operator that allocated the block (\"cann::\" rows: CANN / GE memory)"),
            [](const OperatorMemoryRow& r) { return QVariant(QString::fromStdString(r.name)); }, {}, left },
        { tr("Size\n[KB]"), tr("Size(KB) of the block"),
            [](const OperatorMemoryRow& r) { return r.sizeKb ? QVariant(*r.sizeKb) : QVariant(); },
            [](const OperatorMemoryRow& r) {
                return r.sizeKb ? QString::number(*r.sizeKb, 'f', 1) : TimeFormat::kAbsent;
            } },
        timeColumn(tr("Allocation"), tr("Allocation Time, ms after the rank's first memory sample"),
            &OperatorMemoryRow::allocTs),
        timeColumn(tr("Release"),
            tr("Release Time: the tensor was freed (ms after the first memory sample); empty when not inside the "
               "profile"),
            &OperatorMemoryRow::releaseTs),
        timeColumn(tr("Active release"),
            tr("Active Release Time: the block went back to the allocator's pool (ms after the first memory sample)"),
            &OperatorMemoryRow::activeReleaseTs),
        durationColumn(tr("Duration"), tr("Duration = Release \u2212 Allocation (ms)"), &OperatorMemoryRow::dur),
        durationColumn(tr("Active duration"), tr("Active Duration = Active release \u2212 Allocation (ms)"),
            &OperatorMemoryRow::activeDur),
        { tr("Component"), tr("GE for \"cann::\" rows (CANN / GE memory), else PTA (torch_npu's caching allocator)"),
            [](const OperatorMemoryRow& r) { return QVariant(QString::fromStdString(r.component)); }, {}, left },
        { tr("Device"), tr("Device Type"),
            [](const OperatorMemoryRow& r) { return QVariant(QString::fromStdString(r.device)); }, {}, left },
        flags,
    });
}

void OperatorMemoryModel::setRows(std::vector<OperatorMemoryRow> rows, int64_t origin)
{
    m_origin = origin;
    resetRows(std::move(rows));
}

} // namespace npuscope::gui
