// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/collectives/BlameTableModel.h"

#include <QCoreApplication>

namespace npuscope::gui {

namespace {

QString ms(int64_t ns) { return QString::number(static_cast<double>(ns) / 1e6, 'f', 3); }

} // namespace

QString BlameTableModel::rootText(const query::BlameRoot& root)
{
    return root.link ? tr("link %1-%2").arg(root.link->first).arg(root.link->second)
                     : tr("rank %1").arg(root.rank.value_or(-1));
}

QString BlameTableModel::causeText(query::BlameCause cause)
{
    return QCoreApplication::translate("BlameCause", query::blameCauseName(cause));
}

QString BlameTableModel::evidenceText(const query::BlameRoot& r)
{
    if (r.cause == query::BlameCause::Link)
        return tr("transit %1 ms where the same size takes %2 ms").arg(ms(r.transitNs), ms(r.expectedTransitNs));
    QString text = tr("%1 ms more work than its peers before an op").arg(ms(r.ownExcessNs));
    if (r.computingNs && r.peerComputingNs)
        text += tr("; computing %1 ms (peers %2)").arg(ms(*r.computingNs), ms(*r.peerComputingNs));
    if (r.freeNs && r.peerFreeNs)
        text += tr("; free %1 ms (peers %2)").arg(ms(*r.freeNs), ms(*r.peerFreeNs));
    return text;
}

BlameTableModel::BlameTableModel(QObject* parent)
    : RowTableModel(parent)
{
    using query::BlameRoot;
    const auto left = Qt::AlignLeft | Qt::AlignVCenter;
    setColumns({
        { tr("Root"), tr("The rank, or the link, the waiting started from"),
            [](const BlameRoot& r) { return rootText(r); }, {}, left },
        { tr("Cause"),
            tr("compute, host (device idle: dispatch-bound), link or unknown (docs/metrics.md, “Blame”)"),
            [](const BlameRoot& r) { return causeText(r.cause); }, {}, left },
        { tr("Induced wait (ms)"), tr("The wait of other ranks traced back to this root in the step"),
            [](const BlameRoot& r) { return static_cast<double>(r.inducedWaitNs) / 1e6; },
            [](const BlameRoot& r) { return ms(r.inducedWaitNs); } },
        { tr("Share"), tr("Of the step's induced wait (its roots' sum)"), [](const BlameRoot& r) { return r.share; },
            [](const BlameRoot& r) {
                // A text bar keeps the share readable in any table width and in copied text.
                const int filled = static_cast<int>(r.share * 20.0 + 0.5);
                return QStringLiteral("%1 %2 %")
                    .arg(QString(filled, QChar(0x2588)) + QString(20 - filled, QChar(0x2591)))
                    .arg(r.share * 100.0, 0, 'f', 1);
            },
            left },
        { tr("Instances"), tr("Delayed instances this root is the largest cause of"),
            [](const BlameRoot& r) { return static_cast<qlonglong>(r.instances); } },
        { tr("Evidence"), tr("What makes this root the cause; the chain is in the tooltip"),
            [](const BlameRoot& r) { return evidenceText(r); }, {}, left,
            [](const BlameRoot& r) { return tr("chain of %1 hops from its costliest instance").arg(r.chain.size()); } },
    });
}

} // namespace npuscope::gui
