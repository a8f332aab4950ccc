// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/MetricText.h"

#include "npuscope/query/MetricDefinitions.h"

#include <QObject>

#include <algorithm>
#include <array>

namespace npuscope::gui {

namespace {

    // Which columns show a metric of query::MetricDefinitions: the model's class (without namespace), the column's
    // title as its tr() source string, the metric's name. The titles are matched translated, so the table works in
    // every language; a column not listed keeps its own tooltip.
    struct ColumnMetric {
        const char* model;
        const char* title;
        std::string_view metric;
    };
    constexpr std::array kColumns {
        ColumnMetric { "CommDurationModel", "Elapsed (ms)", "Elapse Time" },
        ColumnMetric { "CommDurationModel", "Transit (ms)", "Transit Time" },
        ColumnMetric { "CommDurationModel", "Wait (ms)", "Wait Time" },
        ColumnMetric { "CommDurationModel", "Sync (ms)", "Synchronization Time" },
        ColumnMetric { "CommDurationModel", "Idle (ms)", "Idle Time" },
        ColumnMetric { "CommDurationModel", "Wait Ratio", "Wait Ratio" },
        ColumnMetric { "CommDurationModel", "Sync Ratio", "Synchronization Ratio" },
        ColumnMetric { "CommDurationModel", "SDMA (GB/s)", "Bandwidth" },
        ColumnMetric { "CommDurationModel", "RDMA (GB/s)", "Bandwidth" },
        ColumnMetric { "LinkTableModel", "Time (ms)", "Transit Time" },
        ColumnMetric { "LinkTableModel", "Size (MB)", "Transit Size" },
        ColumnMetric { "LinkTableModel", "Bandwidth (GB/s)", "Bandwidth" },
        ColumnMetric { "CommDiffModel", "Base elapse ms", "Elapse Time" },
        ColumnMetric { "CommDiffModel", "New elapse ms", "Elapse Time" },
        ColumnMetric { "CommDiffModel", "Base GB/s", "Bandwidth" },
        ColumnMetric { "CommDiffModel", "New GB/s", "Bandwidth" },
        ColumnMetric { "OperatorTableModel", "Count", "Kernel count" },
        ColumnMetric { "OperatorTableModel", "Total", "Kernel total" },
        ColumnMetric { "OperatorTableModel", "Mean", "Kernel mean" },
        ColumnMetric { "OperatorTableModel", "Min", "Kernel min / max" },
        ColumnMetric { "OperatorTableModel", "Max", "Kernel min / max" },
        ColumnMetric { "OperatorTableModel", "Wait", "Kernel wait" },
        ColumnMetric { "CollectivesTableModel", "Last arriver", "Last arriver" },
        ColumnMetric { "CollectivesTableModel", "Spread (ms)", "Spread" },
        ColumnMetric { "CollectivesTableModel", "Wait cost (ms)", "Wait cost" },
        ColumnMetric { "CollectivesTableModel", "Delay (ms)", "Instance delay" },
        ColumnMetric { "BlameTableModel", "Cause", "Blame cause" },
        ColumnMetric { "BlameTableModel", "Induced wait (ms)", "Induced wait" },
        ColumnMetric { "BlameTableModel", "Share", "Blame share" },
        ColumnMetric { "BlameTableModel", "Instances", "Blamed instances" },
        ColumnMetric { "AreaStatsModel", "Count", "Slice count" },
        ColumnMetric { "AreaStatsModel", "Total wall", "Wall time" },
        ColumnMetric { "AreaStatsModel", "Total self", "Self time" },
        ColumnMetric { "AreaStatsModel", "Average", "Average wall time" },
        ColumnMetric { "AreaStatsModel", "Min", "Min / max wall time" },
        ColumnMetric { "AreaStatsModel", "Max", "Min / max wall time" },
        ColumnMetric { "ModuleMemoryModel", "Peak\n[MB]", "Module peak" },
        ColumnMetric { "ModuleMemoryModel", "Last\n[MB]", "Module last" },
        ColumnMetric { "OperatorMemoryModel", "Size\n[KB]", "Block size" },
        ColumnMetric { "OperatorMemoryModel", "Component", "Memory component" },
        ColumnMetric { "GroupTableModel", "Size", "Group size" },
        ColumnMetric { "GroupTableModel", "Ops", "Group ops" },
        ColumnMetric { "AdviceTableModel", "Severity", "Advice severity" },
        ColumnMetric { "AdviceTableModel", "Value", "Advice value" },
        ColumnMetric { "AdviceTableModel", "Threshold", "Advice threshold" },
        ColumnMetric { "IssueTableModel", "Severity", "Issue severity" },
    };

    // "Elapsed (ms)", "Total\n[µs]", "Size (MB) [x]" -> "Elapsed", "Total", "Size".
    QString withoutUnit(QString title)
    {
        title = title.section(QLatin1Char('\n'), 0, 0).trimmed();
        for (;;) {
            const qsizetype open
                = std::max(title.lastIndexOf(QLatin1String(" (")), title.lastIndexOf(QLatin1String(" [")));
            if (open <= 0 || !(title.endsWith(QLatin1Char(')')) || title.endsWith(QLatin1Char(']'))))
                return title;
            title = title.left(open).trimmed();
        }
    }

    // Translates a MetricDefinitions string (its storage is static and NUL-terminated: a string literal).
    QString translated(std::string_view s)
    {
        return s.empty() ? QString() : QCoreApplication::translate("MetricDefinitions", s.data());
    }

} // namespace

QString MetricText::name(std::string_view metric)
{
    for (const auto& d : query::MetricDefinitions::all()) {
        if (d.name == metric)
            return translated(d.name);
    }
    return {};
}

QString MetricText::definition(std::string_view metric)
{
    for (const auto& d : query::MetricDefinitions::all()) {
        if (d.name == metric)
            return translated(d.definition);
    }
    return {};
}

std::string_view MetricText::metricOf(const QObject& model, const QString& title)
{
    const QString className = QString::fromLatin1(model.metaObject()->className());
    const QString shortName = className.section(QStringLiteral("::"), -1);
    const QByteArray context = className.toLatin1();
    const QString shown = withoutUnit(title);
    for (const auto& c : kColumns) {
        if (shortName != QLatin1String(c.model))
            continue;
        if (withoutUnit(QCoreApplication::translate(context.constData(), c.title)) == shown)
            return c.metric;
    }
    return {};
}

QString MetricText::headerTip(const QObject& model, const QString& title, const QString& note)
{
    const std::string_view metric = metricOf(model, title);
    const QString text = definition(metric);
    if (text.isEmpty())
        return note;
    const QString head = tr("%1: %2").arg(name(metric), text);
    return note.isEmpty() || note == text ? head : head + QLatin1Char('\n') + note;
}

} // namespace npuscope::gui
