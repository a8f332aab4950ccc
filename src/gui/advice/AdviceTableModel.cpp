// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/advice/AdviceTableModel.h"
#include "npuscope/gui/comm/GroupTableModel.h"

#include <QApplication>
#include <QColor>
#include <QCoreApplication>
#include <QStyle>

#include <algorithm>

namespace npuscope::gui {

using query::advice::Finding;
using query::advice::Severity;

namespace {

QColor severityColour(Severity s)
{
    switch (s) {
    // Tints readable on the light and the dark palette.
    case Severity::Critical:
        return QColor(0xd3, 0x2f, 0x2f);
    case Severity::Warning:
        return QColor(0xd0, 0x70, 0x00);
    case Severity::Info:
        break;
    }
    return QColor(0x3d, 0x8b, 0xe0);
}

constexpr size_t kWhereItems = 6;

} // namespace

QString AdviceTableModel::valueText(double value, const std::string& unit)
{
    // The rules write "us" (ASCII, as in the JSON contract); the views write µs everywhere.
    const QString u = unit == "us" ? QStringLiteral("\u00b5s") : QString::fromStdString(unit);
    if (u == QLatin1String("share"))
        return QString::number(value * 100, 'g', 4) + QStringLiteral(" %");
    return QString::number(value, 'g', 4)
        + (u.isEmpty() || u == QLatin1String("ratio") ? QString() : QLatin1Char(' ') + u);
}

QString AdviceTableModel::impactText(const Finding& f)
{
    if (!(f.impactNs > 0))
        return QStringLiteral("\u2014");
    const QString ms = QString::number(f.impactNs / 1e6, 'f', f.impactNs >= 1e7 ? 1 : 3);
    if (!(f.impactShare > 0))
        return tr("%1 ms").arg(ms);
    return tr("%1 ms (%2 %)").arg(ms, QString::number(f.impactShare * 100, 'f', 1));
}

QString AdviceTableModel::impactSentence(const Finding& f)
{
    if (!(f.impactNs > 0))
        return tr("the rule does not estimate the step time it explains (docs/metrics.md, \u201cImpact\u201d)");
    const QString ms = QString::number(f.impactNs / 1e6, 'f', 3);
    if (!(f.impactShare > 0))
        return tr("explains %1 ms (no step time loaded)").arg(ms);
    return tr("explains %1 ms (%2 % of the step)").arg(ms, QString::number(f.impactShare * 100, 'f', 1));
}

double AdviceTableModel::impactSortKey(const Finding& f)
{
    // Severity in the whole part (ms below 10^12 keep a sub-µs resolution beside it), so that sorting by the column
    // descending is the query's order and a critical finding without an estimate stays among the critical ones.
    return static_cast<int>(f.severity) * 1e12 + f.impactNs / 1e6;
}

QString AdviceTableModel::severityText(query::advice::Severity severity)
{
    switch (severity) {
    case query::advice::Severity::Info:
        return tr("info");
    case query::advice::Severity::Warning:
        return tr("warning");
    case query::advice::Severity::Critical:
        return tr("critical");
    }
    return tr("info");
}

QString AdviceTableModel::categoryText(const std::string& category)
{
    static constexpr struct {
        const char* key;
        const char* text;
    } kCategories[] { { "delimitation", QT_TR_NOOP("delimitation") }, { "slow_rank", QT_TR_NOOP("slow rank") },
        { "communication", QT_TR_NOOP("communication") }, { "computation", QT_TR_NOOP("computation") },
        { "scheduling", QT_TR_NOOP("scheduling") }, { "memory", QT_TR_NOOP("memory") } };
    for (const auto& c : kCategories) {
        if (category == c.key)
            return tr(c.text);
    }
    return QString::fromStdString(category);
}

QString AdviceTableModel::translated(const query::advice::FindingText& form, const std::string& english)
{
    if (!form.translatable() && form.source.empty())
        return QString::fromStdString(english);
    return QString::fromStdString(form.render([](const char* context, const std::string& source) {
        return QCoreApplication::translate(context, source.c_str()).toStdString();
    }));
}

QString AdviceTableModel::listSeparator() { return tr(", ", "the separator of the items of a list"); }

QString AdviceTableModel::whereText(const Finding& f)
{
    QStringList parts;
    if (!f.ranks.empty()) {
        // Ascending ranks (a pipeline stage) read as ranges: "ranks 0-255 (256)", not "0, 1, 2, 3, 4, 5, … (256)".
        if (f.ranks.size() > 2 && std::is_sorted(f.ranks.begin(), f.ranks.end()))
            return tr("ranks ") + GroupTableModel::rankList(f.ranks)
                + (f.ranks.size() > kWhereItems ? QStringLiteral(" (%1)").arg(f.ranks.size()) : QString());
        for (size_t i = 0; i < f.ranks.size() && i < kWhereItems; ++i)
            parts << QString::number(f.ranks[i]);
        if (f.ranks.size() > kWhereItems)
            parts << QStringLiteral("\u2026 (%1)").arg(f.ranks.size());
        return tr("ranks ") + parts.join(listSeparator());
    }
    for (size_t i = 0; i < f.links.size() && i < kWhereItems; ++i)
        parts << QStringLiteral("%1 \u2192 %2 %3")
                     .arg(f.links[i].src)
                     .arg(f.links[i].dst)
                     .arg(QString::fromStdString(f.links[i].transport));
    return parts.join(listSeparator());
}

AdviceTableModel::AdviceTableModel(QObject* parent)
    : RowTableModel(parent)
{
    const auto left = Qt::AlignLeft | Qt::AlignVCenter;
    auto str = [](const std::string& s) { return QString::fromStdString(s); };
    setColumns({
        { tr("Severity"), tr("critical, warning or info (docs/metrics.md, “Advice rules”)"),
            [](const Finding& f) { return static_cast<int>(f.severity); },
            [](const Finding& f) { return severityText(f.severity); }, left },
        { tr("Impact"),
            tr("The step time the finding explains, in ms of the mean step (or of the step concerned) and as a share "
               "of that step (docs/metrics.md, \u201cImpact\u201d); \u2014 when the rule cannot estimate it. Sorted as "
               "the advice ranks: severity, then impact"),
            [](const Finding& f) { return impactSortKey(f); }, [](const Finding& f) { return impactText(f); },
            Qt::AlignRight | Qt::AlignVCenter, [](const Finding& f) { return impactSentence(f); } },
        { tr("Rule"), tr("The rule id (npuscope.advice/1 \u201cid\u201d)"),
            [str](const Finding& f) { return str(f.id); }, {}, left },
        { tr("Category"), tr("delimitation, slow_rank, communication, computation, scheduling or memory"),
            [str](const Finding& f) { return str(f.category); },
            [](const Finding& f) { return categoryText(f.category); }, left },
        { tr("Value"), tr("The measured figure, in the unit shown"), [](const Finding& f) { return f.value; },
            [](const Finding& f) { return valueText(f.value, f.unit); } },
        { tr("Threshold"), tr("The figure the value was compared with"), [](const Finding& f) { return f.threshold; },
            [](const Finding& f) { return valueText(f.threshold, f.unit); }, Qt::AlignRight | Qt::AlignVCenter,
            [](const Finding& f) { return translated(f.thresholdForm, f.thresholdText); } },
        { tr("Ranks / links"), tr("The ranks concerned (the most affected first), else the links"),
            [](const Finding& f) { return whereText(f); }, {}, left },
        { tr("Message"), tr("What was measured"), [](const Finding& f) { return translated(f.messageForm, f.message); },
            {}, left, [](const Finding& f) { return translated(f.messageForm, f.message); } },
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
