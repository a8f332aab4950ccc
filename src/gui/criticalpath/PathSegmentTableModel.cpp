// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/criticalpath/PathSegmentTableModel.h"

#include <QCoreApplication>

namespace npuscope::gui {

namespace {

QString ms(int64_t ns) { return QString::number(static_cast<double>(ns) / 1e6, 'f', 3); }

// The translations of query::pathKindName's words.
[[maybe_unused]] const char* const kKindWords[] = { QT_TRANSLATE_NOOP("PathKind", "compute"),
    QT_TRANSLATE_NOOP("PathKind", "communication"), QT_TRANSLATE_NOOP("PathKind", "host"),
    QT_TRANSLATE_NOOP("PathKind", "idle") };

} // namespace

QString PathSegmentTableModel::kindText(query::PathKind kind)
{
    return QCoreApplication::translate("PathKind", query::pathKindName(kind));
}

PathSegmentTableModel::PathSegmentTableModel(QObject* parent)
    : RowTableModel(parent)
{
    const auto left = Qt::AlignLeft | Qt::AlignVCenter;
    setColumns({
        { tr("Rank"), tr("The rank the segment runs on"),
            [](const PathRow& r) { return static_cast<qlonglong>(r.rank); } },
        { tr("Kind"),
            tr("compute (a kernel), communication (the last arriver's own wait, then the transfer), host (the device "
               "waiting for the host to launch the next task) or idle (before the step's first task)"),
            [](const PathRow& r) { return kindText(r.kind); }, {}, left },
        { tr("Operator"), tr("The kernel or communication op; empty for host and idle"),
            [](const PathRow& r) { return r.op; }, {}, left },
        { tr("Start (ms)"), tr("From the start of the path (the slowest rank's step start)"),
            [](const PathRow& r) { return static_cast<double>(r.offsetNs) / 1e6; },
            [](const PathRow& r) { return ms(r.offsetNs); } },
        { tr("Duration (ms)"), tr("The segment's time on the path"),
            [](const PathRow& r) { return static_cast<double>(r.durNs) / 1e6; },
            [](const PathRow& r) { return ms(r.durNs); } },
        { tr("Share"), tr("Of the path's length (the step time of the slowest rank)"),
            [](const PathRow& r) { return r.share; },
            [](const PathRow& r) { return QStringLiteral("%1 %").arg(r.share * 100.0, 0, 'f', 2); } },
    });
}

} // namespace npuscope::gui
