// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/operators/OperatorTableModel.h"

#include "npuscope/gui/common/TimeFormat.h"
#include "npuscope/gui/compare/CompareColumns.h"
#include "npuscope/gui/flops/FlopsHeatmap.h"
#include "npuscope/query/compare/RunComparison.h"

#include <algorithm>

namespace npuscope::gui {

using query::OperatorCompareRow;

namespace {

QVariant longValue(int64_t v) { return QVariant::fromValue<qlonglong>(v); }
QString micros(int64_t ns) { return TimeFormat::format(ns, TimeFormat::Unit::Microseconds); }

// A baseline side with no kernel (a key only the comparison rank has) has no min / max / mean.
bool hasBase(const OperatorCompareRow& r) { return r.base.count > 0; }

// A time column of the baseline's own figures: absent when the baseline has no kernel of that key.
RowColumn<OperatorCompareRow> baseTime(QString title, QString definition, int64_t (*get)(const OperatorCompareRow&))
{
    return { TimeFormat::columnHeader(std::move(title), TimeFormat::Unit::Microseconds), std::move(definition),
        [get](const OperatorCompareRow& r) { return hasBase(r) ? longValue(get(r)) : QVariant(); },
        [get](const OperatorCompareRow& r) { return hasBase(r) ? micros(get(r)) : TimeFormat::kAbsent; } };
}

} // namespace

OperatorTableModel::OperatorTableModel(QObject* parent)
    : RowTableModel(parent)
{
    constexpr Qt::Alignment left = Qt::AlignLeft | Qt::AlignVCenter;
    const auto us = TimeFormat::Unit::Microseconds;
    m_ownColumns = {
        { tr("Key"),
            tr("The kernel's Type, its Name, or its Name and Input Shapes (\"Name [Input Shapes]\"), as chosen in "
               "Group by"),
            [](const OperatorCompareRow& r) { return QVariant(QString::fromStdString(r.base.key)); }, {}, left },
        { tr("Count"), tr("Kernels of the rank with this key (in compare mode: of the baseline rank)"),
            [](const OperatorCompareRow& r) { return longValue(r.base.count); } },
        { TimeFormat::columnHeader(tr("Total"), us),
            tr("\u03a3 Duration of the key's kernels over every loaded step (µs)"),
            [](const OperatorCompareRow& r) { return longValue(r.base.totalNs); },
            [](const OperatorCompareRow& r) { return micros(r.base.totalNs); } },
        baseTime(tr("Mean"), tr("Total \u00f7 count, rounded to the nearest ns (µs)"),
            [](const OperatorCompareRow& r) { return r.base.meanNs(); }),
        baseTime(tr("Min"), tr("The shortest single kernel Duration (µs)"),
            [](const OperatorCompareRow& r) { return r.base.minNs; }),
        baseTime(tr("Max"), tr("The longest single kernel Duration (µs)"),
            [](const OperatorCompareRow& r) { return r.base.maxNs; }),
        { TimeFormat::columnHeader(tr("Wait"), us),
            tr("\u03a3 Wait Time of the key's kernels (µs); a kernel without Wait Time counts 0"),
            [](const OperatorCompareRow& r) { return longValue(r.base.waitNs); },
            [](const OperatorCompareRow& r) { return micros(r.base.waitNs); } },
        { tr("Block dim"),
            tr("Block Dim of the key's kernels: one value, or the smallest–largest when they differ; — when "
               "the files have none"),
            [](const OperatorCompareRow& r) {
                return r.base.blockDimMax >= 0 ? longValue(r.base.blockDimMax) : QVariant();
            },
            [](const OperatorCompareRow& r) {
                if (r.base.blockDimMax < 0)
                    return TimeFormat::kAbsent;
                return r.base.blockDimMin == r.base.blockDimMax
                    ? QString::number(r.base.blockDimMax)
                    : QStringLiteral("%1–%2").arg(r.base.blockDimMin).arg(r.base.blockDimMax);
            } },
        { tr("Shapes"), tr("The Input Shapes of the key (grouped by name + shapes)"),
            [](const OperatorCompareRow& r) { return QVariant(QString::fromStdString(r.base.shapes)); }, {}, left },
        { tr("Accelerator"),
            tr("The Accelerator Core (op_summary: Task Type) values of the key's kernels: AI_CORE, AI_VECTOR_CORE, "
               "MIX_AIC, MIX_AIV, AI_CPU, HCCL / COMMUNICATION, …"),
            [](const OperatorCompareRow& r) { return QVariant(QString::fromStdString(r.base.accelerator)); }, {},
            left },
        { tr("FLOPs"),
            tr("Floating-point operations of the key's ops from MindSpore's flops_N.txt (joined by kernel Name = the "
               "file's op full name): \u03a3 over the key's distinct names in the file; \u2014 when none is"),
            [](const OperatorCompareRow& r) { return r.base.flops ? QVariant(*r.base.flops) : QVariant(); },
            [](const OperatorCompareRow& r) {
                return r.base.flops ? FlopsHeatmap::withPrefix(*r.base.flops, QStringLiteral("FLOPs"))
                                    : TimeFormat::kAbsent;
            } },
        { tr("FLOPS"),
            tr("FLOPs \u00f7 the time they took by the file's own FLOPS (\u03a3 FLOPs \u00f7 \u03a3 of each name's "
               "FLOPs \u00f7 its FLOPS), in FLOP/s"),
            [](const OperatorCompareRow& r) {
                return r.base.flopsPerSecond ? QVariant(*r.base.flopsPerSecond) : QVariant();
            },
            [](const OperatorCompareRow& r) {
                return r.base.flopsPerSecond ? FlopsHeatmap::withPrefix(*r.base.flopsPerSecond, QStringLiteral("FLOP/s"))
                                             : TimeFormat::kAbsent;
            } },
        { TimeFormat::columnHeader(tr("Baseline total"), us),
            tr("\u03a3 Duration of the key's kernels on the baseline rank R (µs); 0 when R has none"),
            [](const OperatorCompareRow& r) { return longValue(r.base.totalNs); },
            [](const OperatorCompareRow& r) { return micros(r.base.totalNs); } },
        { TimeFormat::columnHeader(tr("Comparison total"), us),
            tr("\u03a3 Duration of the key's kernels on the comparison rank R2 (µs); 0 when R2 has none"),
            [](const OperatorCompareRow& r) { return longValue(r.compareTotalNs); },
            [](const OperatorCompareRow& r) { return micros(r.compareTotalNs); } },
        { TimeFormat::columnHeader(tr("Difference"), us),
            tr("Comparison total \u2212 baseline total (µs): the extra time R2 spends on this key; positive first"),
            [](const OperatorCompareRow& r) { return longValue(r.diffNs()); },
            [](const OperatorCompareRow& r) { return micros(r.diffNs()); } },
    };
    setColumns(m_ownColumns);
}

void OperatorTableModel::setComparison(std::shared_ptr<const query::RunDiff> diff, query::OperatorGroupBy by)
{
    if (diff == m_diff && (!diff || by == m_diffBy))
        return;
    beginResetModel();
    m_diff = std::move(diff);
    m_diffBy = by;
    m_diffRows.clear();
    std::vector<RowColumn<OperatorCompareRow>> columns = m_ownColumns;
    if (m_diff) {
        if (by != query::OperatorGroupBy::Shape) {
            for (const auto& d : by == query::OperatorGroupBy::Type ? m_diff->types : m_diff->kernels)
                m_diffRows.emplace(d.key, &d);
        }
        auto more = CompareColumns::make<OperatorCompareRow>(
            QString(), tr("ms/step"), 3, [this](const OperatorCompareRow& r) -> std::optional<CompareFigures> {
                const auto it = m_diffRows.find(r.base.key);
                if (it == m_diffRows.end())
                    return std::nullopt;
                return CompareFigures { it->second->baseMs, it->second->newMs };
            });
        columns.insert(columns.end(), more.begin(), more.end());
    }
    setColumns(std::move(columns));
    endResetModel();
}

bool OperatorTableModel::hasFlops() const
{
    return std::any_of(rows().begin(), rows().end(), [](const OperatorCompareRow& r) { return r.base.flops; });
}

void OperatorTableModel::setRows(const std::vector<query::OperatorRow>& rows)
{
    std::vector<OperatorCompareRow> out;
    out.reserve(rows.size());
    for (const auto& r : rows)
        out.push_back({ r, r.rank, r.count, r.totalNs });
    m_compare = false;
    resetRows(std::move(out));
}

void OperatorTableModel::setCompareRows(std::vector<OperatorCompareRow> rows)
{
    m_compare = true;
    resetRows(std::move(rows));
}

} // namespace npuscope::gui
