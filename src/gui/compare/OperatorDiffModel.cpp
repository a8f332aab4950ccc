// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/compare/OperatorDiffModel.h"

#include "npuscope/gui/compare/DeltaColors.h"

namespace npuscope::gui {

OperatorDiffModel::OperatorDiffModel(const QString& keyTitle, QObject* parent)
    : RowTableModel(parent)
{
    using query::OperatorDiff;
    const auto left = Qt::AlignLeft | Qt::AlignVCenter;
    RowColumn<OperatorDiff> delta { tr("\u0394 ms"), tr("New \u2212 base, ms per rank and step"),
        [](const OperatorDiff& r) { return r.deltaMs(); },
        [](const OperatorDiff& r) { return DeltaColors::signedText(r.deltaMs(), 3); } };
    delta.foreground = [](const OperatorDiff& r) { return DeltaColors::foreground(r.deltaMs(), 3); };
    RowColumn<OperatorDiff> pct { tr("\u0394 %"), tr("(new \u2212 base) \u00f7 base \u00d7 100; \u2014 when base is 0"),
        [](const OperatorDiff& r) { return r.baseMs > 0 ? QVariant(r.deltaMs() / r.baseMs * 100.0) : QVariant(); },
        [](const OperatorDiff& r) {
            if (!(r.baseMs > 0))
                return QStringLiteral("\u2014");
            return DeltaColors::signedText(r.deltaMs() / r.baseMs * 100.0, 1);
        } };
    pct.foreground = [](const OperatorDiff& r) {
        return r.baseMs > 0 ? DeltaColors::foreground(r.deltaMs() / r.baseMs * 100.0, 1) : QVariant();
    };
    setColumns({
        { keyTitle, tr("The operator key compared"),
            [](const OperatorDiff& r) { return QString::fromStdString(r.key); }, {}, left },
        { tr("Category"), tr("The operators view's category (GPU kernels mapped onto it, docs/metrics.md)"),
            [](const OperatorDiff& r) { return QString::fromStdString(r.category); }, {}, left },
        { tr("Base count"), tr("Calls per rank and step in the baseline"),
            [](const OperatorDiff& r) { return r.baseCount; },
            [](const OperatorDiff& r) { return QString::number(r.baseCount, 'f', 1); } },
        { tr("New count"), tr("Calls per rank and step in the opened run"),
            [](const OperatorDiff& r) { return r.newCount; },
            [](const OperatorDiff& r) { return QString::number(r.newCount, 'f', 1); } },
        { tr("Base ms"), tr("Total duration per rank and step in the baseline"),
            [](const OperatorDiff& r) { return r.baseMs; },
            [](const OperatorDiff& r) { return QString::number(r.baseMs, 'f', 3); } },
        { tr("New ms"), tr("Total duration per rank and step in the opened run"),
            [](const OperatorDiff& r) { return r.newMs; },
            [](const OperatorDiff& r) { return QString::number(r.newMs, 'f', 3); } },
        delta,
        pct,
    });
}

} // namespace npuscope::gui
