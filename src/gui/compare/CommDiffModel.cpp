// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/compare/CommDiffModel.h"

#include "npuscope/gui/compare/DeltaColors.h"

namespace npuscope::gui {

namespace {

QVariant optional(const std::optional<double>& v) { return v ? QVariant(*v) : QVariant(); }

} // namespace

CommDiffModel::CommDiffModel(QObject* parent)
    : RowTableModel(parent)
{
    using query::CommDiff;
    const auto left = Qt::AlignLeft | Qt::AlignVCenter;
    auto deltaElapse = [](const CommDiff& r) { return r.newElapseMs - r.baseElapseMs; };
    auto deltaWait = [](const CommDiff& r) { return r.newWaitMs - r.baseWaitMs; };
    RowColumn<CommDiff> dElapse { tr("\u0394 elapse ms"), tr("New \u2212 base elapse, ms per rank and step"),
        [deltaElapse](const CommDiff& r) { return deltaElapse(r); },
        [deltaElapse](const CommDiff& r) { return DeltaColors::signedText(deltaElapse(r), 3); } };
    dElapse.foreground = [deltaElapse](const CommDiff& r) { return DeltaColors::foreground(deltaElapse(r), 3); };
    RowColumn<CommDiff> dWait { tr("\u0394 wait ms"), tr("New \u2212 base wait, ms per rank and step"),
        [deltaWait](const CommDiff& r) { return deltaWait(r); },
        [deltaWait](const CommDiff& r) { return DeltaColors::signedText(deltaWait(r), 3); } };
    dWait.foreground = [deltaWait](const CommDiff& r) { return DeltaColors::foreground(deltaWait(r), 3); };
    setColumns({
        { tr("Op type"), tr("Communication op type"),
            [](const CommDiff& r) { return QString::fromStdString(r.opType); }, {}, left },
        { tr("Group"), tr("The '@' group hash (Ascend) or process group name (Kineto)"),
            [](const CommDiff& r) { return QString::fromStdString(r.group); }, {}, left },
        { tr("Base count"), tr("Ops per rank and step in the baseline"), [](const CommDiff& r) { return r.baseCount; },
            [](const CommDiff& r) { return QString::number(r.baseCount, 'f', 1); } },
        { tr("New count"), tr("Ops per rank and step in the opened run"), [](const CommDiff& r) { return r.newCount; },
            [](const CommDiff& r) { return QString::number(r.newCount, 'f', 1); } },
        { tr("Base elapse ms"), tr("Elapse per rank and step in the baseline"),
            [](const CommDiff& r) { return r.baseElapseMs; },
            [](const CommDiff& r) { return QString::number(r.baseElapseMs, 'f', 3); } },
        { tr("New elapse ms"), tr("Elapse per rank and step in the opened run"),
            [](const CommDiff& r) { return r.newElapseMs; },
            [](const CommDiff& r) { return QString::number(r.newElapseMs, 'f', 3); } },
        dElapse,
        dWait,
        { tr("Base GB/s"), tr("\u03a3 transit size \u00f7 \u03a3 transit time of the bandwidth rows (10^3-based)"),
            [](const CommDiff& r) { return optional(r.baseBandwidthGbps); } },
        { tr("New GB/s"), tr("\u03a3 transit size \u00f7 \u03a3 transit time of the bandwidth rows (10^3-based)"),
            [](const CommDiff& r) { return optional(r.newBandwidthGbps); } },
    });
}

} // namespace npuscope::gui
