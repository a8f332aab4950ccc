// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/advice/AdviceTableModel.h"

#include <QApplication>
#include <QColor>
#include <QStyle>

namespace npuscope::gui {

using query::advice::Finding;
using query::advice::Severity;

namespace {

QColor severityColour(Severity s)
{
    switch (s) {
    case Severity::Critical:
        return QColor(0xc6, 0x28, 0x28);
    case Severity::Warning:
        return QColor(0xb2, 0x5a, 0x00);
    case Severity::Info:
        break;
    }
    return QColor(0x15, 0x65, 0xc0);
}

constexpr size_t kWhereItems = 6;

} // namespace

QString AdviceTableModel::valueText(double value, const std::string& unit)
{
    const QString u = QString::fromStdString(unit);
    if (u == QLatin1String("share"))
        return QString::number(value * 100, 'g', 4) + QStringLiteral(" %");
    return QString::number(value, 'g', 4)
        + (u.isEmpty() || u == QLatin1String("ratio") ? QString() : QLatin1Char(' ') + u);
}

QString AdviceTableModel::whereText(const Finding& f)
{
    QStringList parts;
    if (!f.ranks.empty()) {
        for (size_t i = 0; i < f.ranks.size() && i < kWhereItems; ++i)
            parts << QString::number(f.ranks[i]);
        if (f.ranks.size() > kWhereItems)
            parts << QStringLiteral("\u2026 (%1)").arg(f.ranks.size());
        return tr("ranks ") + parts.join(QStringLiteral(", "));
    }
    for (size_t i = 0; i < f.links.size() && i < kWhereItems; ++i)
        parts << QStringLiteral("%1 \u2192 %2 %3")
                     .arg(f.links[i].src)
                     .arg(f.links[i].dst)
                     .arg(QString::fromStdString(f.links[i].transport));
    return parts.join(QStringLiteral(", "));
}

AdviceTableModel::AdviceTableModel(QObject* parent)
    : RowTableModel(parent)
{
    const auto left = Qt::AlignLeft | Qt::AlignVCenter;
    auto str = [](const std::string& s) { return QString::fromStdString(s); };
    setColumns({
        { tr("Severity"), tr("critical, warning or info (docs/metrics.md, “Advice rules”)"),
            [](const Finding& f) { return static_cast<int>(f.severity); },
            [](const Finding& f) { return QString::fromUtf8(query::advice::severityName(f.severity).data()); }, left },
        { tr("Rule"), tr("The rule id (npuscope.advice/1 \u201cid\u201d)"),
            [str](const Finding& f) { return str(f.id); }, {}, left },
        { tr("Category"), tr("delimitation, slow_rank, communication, computation, scheduling or memory"),
            [str](const Finding& f) { return str(f.category); }, {}, left },
        { tr("Value"), tr("The measured figure, in the unit shown"), [](const Finding& f) { return f.value; },
            [](const Finding& f) { return valueText(f.value, f.unit); } },
        { tr("Threshold"), tr("The figure the value was compared with"), [](const Finding& f) { return f.threshold; },
            [](const Finding& f) { return valueText(f.threshold, f.unit); }, Qt::AlignRight | Qt::AlignVCenter,
            [str](const Finding& f) { return str(f.thresholdText); } },
        { tr("Ranks / links"), tr("The ranks concerned (the most affected first), else the links"),
            [](const Finding& f) { return whereText(f); }, {}, left },
        { tr("Message"), tr("What was measured"), [str](const Finding& f) { return str(f.message); }, {}, left,
            [str](const Finding& f) { return str(f.message); } },
    });
}

void AdviceTableModel::setFindings(std::vector<Finding> findings) { resetRows(std::move(findings)); }

std::optional<QVariant> AdviceTableModel::cellData(const Finding& row, int column, int role) const
{
    if (column != Severity)
        return std::nullopt;
    if (role == Qt::ForegroundRole)
        return QVariant(severityColour(row.severity));
    if (role == Qt::DecorationRole) {
        const QStyle::StandardPixmap icon = row.severity == Severity::Critical ? QStyle::SP_MessageBoxCritical
            : row.severity == Severity::Warning                                ? QStyle::SP_MessageBoxWarning
                                                                               : QStyle::SP_MessageBoxInformation;
        return QVariant(QApplication::style()->standardIcon(icon));
    }
    return std::nullopt;
}

} // namespace npuscope::gui
