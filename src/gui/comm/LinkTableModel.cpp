// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/comm/LinkTableModel.h"

#include "npuscope/gui/common/TimeFormat.h"

namespace npuscope::gui {

using query::LinkRow;

namespace {

    QVariant longValue(int64_t v) { return QVariant::fromValue<qlonglong>(v); }
    QVariant textValue(const std::string& s) { return QString::fromStdString(s); }
    QString decimals3(const QVariant& v) { return v.isValid() ? QString::number(v.toDouble(), 'f', 3) : TimeFormat::kAbsent; }

} // namespace

LinkTableModel::LinkTableModel(QObject* parent)
    : RowTableModel(parent)
{
    constexpr Qt::Alignment left = Qt::AlignLeft | Qt::AlignVCenter;
    std::vector<RowColumn<LinkRow>> columns {
        { tr("Src"), tr("Sending rank (global; L<n>: rank local to the group)"),
            [](const LinkRow& r) { return longValue(r.src); } },
        { tr("Dst"), tr("Receiving rank (global; L<n>: rank local to the group)"),
            [](const LinkRow& r) { return longValue(r.dst); } },
        { tr("Transport"), tr("Transport type of the link (HCCS, PCIE, RDMA, SDMA, SIO, LOCAL)"),
            [](const LinkRow& r) { return textValue(r.transport); }, {}, left },
        { tr("Time (ms)"), tr("\u03a3 Transit Time of the link over its ops (ms)"),
            [](const LinkRow& r) { return longValue(r.timeNs); },
            [](const LinkRow& r) { return TimeFormat::format(static_cast<int64_t>(r.timeNs), TimeFormat::Unit::Milliseconds); } },
        { tr("Size (MB)"), tr("\u03a3 Transit Size of the link over its ops (MB, 10^6 B)"),
            [](const LinkRow& r) { return QVariant(r.sizeMb); },
            [](const LinkRow& r) { return decimals3(r.sizeMb); } },
        { tr("Bandwidth (GB/s)"), tr("\u03a3 transit size / \u03a3 transit time of the link's ops (total slot)"),
            [](const LinkRow& r) { return r.bandwidthGbps ? QVariant(*r.bandwidthGbps) : QVariant(); },
            [](const LinkRow& r) { return decimals3(r.bandwidthGbps ? QVariant(*r.bandwidthGbps) : QVariant()); } },
        { tr("Op"), tr("Communication op type of the link's ops"), [](const LinkRow& r) { return textValue(r.opType); },
            {}, left },
        { tr("Group"), tr("Communication group of the link (tp, dp, \u2026 or its hash)"),
            [this](const LinkRow& r) { return QVariant(groupName(r.groupHash)); }, {}, left },
        { tr("Step"), tr("Step of the link's ops; all: summed over every step"),
            [](const LinkRow& r) { return r.step ? longValue(*r.step) : QVariant(); },
            [](const LinkRow& r) { return r.step ? QString::number(*r.step) : tr("all"); } },
        { tr("Slowest op"), tr("The op with the longest transit time on this link"),
            [](const LinkRow& r) { return textValue(r.slowestOp); }, {}, left },
    };
    for (int c : { Src, Dst }) {
        columns[static_cast<size_t>(c)].text = [c](const LinkRow& r) {
            const int64_t rank = c == Src ? r.src : r.dst;
            return r.localRanks ? QStringLiteral("L%1").arg(rank) : QString::number(rank);
        };
        columns[static_cast<size_t>(c)].toolTip = [this](const LinkRow& r) {
            if (!r.localRanks)
                return QVariant();
            return QVariant(tr("Group-local rank as written in communication_matrix.json: the global ranks of group %1 "
                               "are unknown")
                                .arg(groupName(r.groupHash)));
        };
    }
    setColumns(std::move(columns));
}

void LinkTableModel::setRows(std::vector<query::LinkRow> rows) { resetRows(std::move(rows)); }

void LinkTableModel::setGroupNames(std::vector<std::pair<std::string, std::string>> names)
{
    m_groupNames = std::move(names);
    emitColumnChanged(Group, Group);
}

QString LinkTableModel::groupName(const std::optional<std::string>& hash) const
{
    if (!hash)
        return TimeFormat::kAbsent;
    for (const auto& [h, n] : m_groupNames) {
        if (h == *hash)
            return QString::fromStdString(n);
    }
    return QString::fromStdString(*hash);
}

} // namespace npuscope::gui
