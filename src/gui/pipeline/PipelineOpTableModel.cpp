// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/pipeline/PipelineOpTableModel.h"

#include <optional>

namespace npuscope::gui {

namespace {

using R = query::PipelineOp;

template <class T> QVariant optValue(const std::optional<T>& v) { return v ? QVariant(*v) : QVariant(); }
QVariant optValue(const std::optional<int64_t>& v) { return v ? QVariant::fromValue<qlonglong>(*v) : QVariant(); }

// A 0..1 share shown as a percentage with one decimal.
RowColumn<R> shareColumn(
    const QString& title, const QString& definition, std::function<std::optional<double>(const R&)> share)
{
    return RowColumn<R>(
        title, definition, [share](const R& r) { return optValue(share(r)); },
        [share](const R& r) {
            const auto v = share(r);
            return v ? QString::number(*v * 100, 'f', 1) : QStringLiteral("\u2014");
        });
}

RowColumn<R> intColumn(
    const QString& title, const QString& definition, std::function<std::optional<int64_t>(const R&)> n)
{
    return RowColumn<R>(title, definition, [n](const R& r) { return optValue(n(r)); });
}

} // namespace

PipelineOpTableModel::PipelineOpTableModel(QObject* parent)
    : RowTableModel(parent)
{
    setColumns({
        intColumn(tr("Op"), tr("op_id (0 feeds the device queue)"), [](const R& r) { return std::optional(r.opId); }),
        RowColumn<R>(
            tr("Type"), tr("op_type"), [](const R& r) { return QVariant(QString::fromStdString(r.opType)); }, {},
            Qt::AlignLeft | Qt::AlignVCenter),
        intColumn(tr("Feeds"),
            tr("The operator this one feeds (parent_id); empty for the root, which feeds the device "
               "queue"),
            [](const R& r) { return r.parentId; }),
        intColumn(tr("Workers"), tr("num_workers: threads of the operator"), [](const R& r) { return r.numWorkers; }),
        shareColumn(tr("Queue used [%]"),
            tr("Output queue usage: output_queue_usage_rate, else mean queue size \u00f7 capacity"),
            [](const R& r) { return r.queueUsage; }),
        intColumn(tr("Capacity"), tr("Output queue capacity in rows (output_queue_length)"),
            [](const R& r) { return r.queueCapacity; }),
        RowColumn<R>(
            tr("Mean size"), tr("Mean rows in the output queue (output_queue_average_size)"),
            [](const R& r) { return optValue(r.queueAvgSize); },
            [](const R& r) {
                return r.queueAvgSize ? QString::number(*r.queueAvgSize, 'f', 1) : QStringLiteral("\u2014");
            }),
        shareColumn(tr("Empty [%]"), tr("Samples with an empty output queue \u00f7 samples"),
            [](const R& r) { return r.queueEmptyRate; }),
        RowColumn<R>(
            tr("CPU [%]"), tr("Mean user + sys CPU use of the operator's threads (minddata_cpu_utilization op_info)"),
            [](const R& r) { return optValue(r.cpuPct()); },
            [](const R& r) { return r.cpuPct() ? QString::number(*r.cpuPct(), 'f', 1) : QStringLiteral("\u2014"); }),
    });
}

} // namespace npuscope::gui
