// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/collectives/CollectivesTableModel.h"

#include <QStringList>

namespace npuscope::gui {

namespace {

QString ranksText(const std::vector<int64_t>& ranks)
{
    constexpr size_t kShown = 8;
    QStringList parts;
    for (size_t i = 0; i < ranks.size() && i < kShown; ++i)
        parts << QString::number(ranks[i]);
    if (ranks.size() <= kShown)
        return parts.join(QStringLiteral(", "));
    // The count first: a narrow column elides the tail, and "0, 1, 2, … …" (its "…" and the list's) told nothing.
    return QStringLiteral("(%1) %2, \u2026").arg(ranks.size()).arg(parts.join(QStringLiteral(", ")));
}

} // namespace

CollectivesTableModel::CollectivesTableModel(QObject* parent)
    : RowTableModel(parent)
{
    const auto left = Qt::AlignLeft | Qt::AlignVCenter;
    auto ms = [](double v) { return QString::number(v, 'f', 3); };
    setColumns({
        { tr("Step"), tr("The step the op ran in"),
            [](const CollectiveRow& r) { return static_cast<qlonglong>(r.step); } },
        { tr("Op"), tr("The op key (name@group hash); a send / receive pair: the send's"),
            [](const CollectiveRow& r) { return r.opKey; }, {}, left },
        { tr("Type"), tr("allReduce, send, ..."), [](const CollectiveRow& r) { return r.opType; }, {}, left },
        { tr("Kind"), tr("collective, or p2p (a send matched with its receive)"),
            [](const CollectiveRow& r) {
                return r.kind == QLatin1String("collective") ? CollectivesTableModel::tr("collective") : r.kind;
            },
            {}, left },
        { tr("Group"), tr("The group's name when known, else its hash"), [](const CollectiveRow& r) { return r.group; },
            {}, left },
        { tr("Members"), tr("The ranks that took part"),
            [](const CollectiveRow& r) { return static_cast<qlonglong>(r.ranks.size()); },
            [](const CollectiveRow& r) { return ranksText(r.ranks); }, left },
        { tr("Last arriver"), tr("The member that waited least (docs/metrics.md, “Collective instances”)"),
            [](const CollectiveRow& r) { return static_cast<qlonglong>(r.lastArriver); } },
        { tr("Spread (ms)"), tr("Latest − earliest start, after the per-host clock offsets"),
            [](const CollectiveRow& r) { return r.spreadMs; },
            [ms](const CollectiveRow& r) { return ms(r.spreadMs); } },
        { tr("Wait cost (ms)"), tr("Σ (member wait − the last arriver's wait)"),
            [](const CollectiveRow& r) { return r.waitCostMs; },
            [ms](const CollectiveRow& r) { return ms(r.waitCostMs); } },
        { tr("Delay (ms)"), tr("Σ member wait above its role's least wait: what blame explains"),
            [](const CollectiveRow& r) { return r.delayMs; }, [ms](const CollectiveRow& r) { return ms(r.delayMs); } },
        { tr("Root"), tr("Where blame traced this instance's delay to (empty: on time or within the normal spread)"),
            [](const CollectiveRow& r) { return r.root; }, {}, left },
        { tr("Critical path"),
            tr("Whether the step's critical path passes this op (computed by the Critical path view for its step; "
               "docs/metrics.md, “Critical path”)"),
            [this](const CollectiveRow& r) { return criticalPathText(r); }, {}, left },
    });
}

void CollectivesTableModel::setCriticalPath(std::optional<Workspace::CriticalPathMark> mark)
{
    if (m_criticalPath == mark)
        return;
    m_criticalPath = std::move(mark);
    emitColumnChanged(CriticalPath, CriticalPath);
}

QString CollectivesTableModel::criticalPathText(const CollectiveRow& row) const
{
    if (!m_criticalPath || m_criticalPath->step != row.step)
        return tr("not computed");
    for (const int64_t id : row.commOps) {
        if (m_criticalPath->contains(id))
            return tr("on the path");
    }
    return QString();
}

} // namespace npuscope::gui
