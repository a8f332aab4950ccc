// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/memory/ModuleMemoryModel.h"

namespace npuscope::gui {

using query::ModuleMemory;

ModuleMemoryModel::ModuleMemoryModel(QObject* parent)
    : RowTableModel(parent)
{
    auto mb = [](double v) { return QString::number(v, 'f', 3); };
    setColumns({
        { tr("Module"), tr("CANN module (Component of npu_module_mem.csv: SLOG, HCCL, RUNTIME, ...)"),
            [](const ModuleMemory& m) { return QVariant(QString::fromStdString(m.module)); }, {},
            Qt::AlignLeft | Qt::AlignVCenter },
        { tr("Peak\n[MB]"), tr("The largest Total Reserved(MB) of the module"),
            [](const ModuleMemory& m) { return QVariant(m.peakMb); },
            [mb](const ModuleMemory& m) { return mb(m.peakMb); } },
        { tr("Last\n[MB]"), tr("Total Reserved(MB) of the module's last sample"),
            [](const ModuleMemory& m) { return QVariant(m.lastMb); },
            [mb](const ModuleMemory& m) { return mb(m.lastMb); } },
        { tr("Samples"), tr("Rows of the module"),
            [](const ModuleMemory& m) {
                return QVariant::fromValue<qlonglong>(static_cast<qlonglong>(m.points.size()));
            } },
    });
}

} // namespace npuscope::gui
