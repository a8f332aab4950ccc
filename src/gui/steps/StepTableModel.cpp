// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/steps/StepTableModel.h"
#include "npuscope/gui/common/DivergingScale.h"
#include "npuscope/gui/common/MetricText.h"

#include "npuscope/gui/compare/CompareColumns.h"
#include "npuscope/query/compare/RunComparison.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <cmath>

namespace npuscope::gui {

using query::StepColumn;

StepTableModel::StepTableModel(QObject* parent)
    : ComparedRowTableModel(parent)
{
    // Titles and the sort value; the cells' text, tint and tooltips are in cellData.
    std::vector<RowColumn<query::StepBreakdown>> columns;
    for (int c = 0; c < ColumnCount; ++c) {
        // The definition of query::MetricDefinitions, translated (MetricText).
        columns.push_back({ columnTitle(c), MetricText::definition(columnTitle(c).toStdString()),
            [this, c](const query::StepBreakdown& row) {
                if (c == Host) {
                    const auto host = m_hosts.find(row.rank);
                    return host == m_hosts.end() ? QVariant() : QVariant(host->second);
                }
                const auto v = rawValue(row, c);
                return v ? QVariant::fromValue<qlonglong>(*v) : QVariant();
            } });
    }
    setOwnColumns(std::move(columns));
}

std::vector<RowColumn<query::StepBreakdown>> StepTableModel::comparisonColumns(const query::RunDiff* diff)
{
    m_rankDiffs.clear();
    if (!diff)
        return {};
    for (const auto& r : diff->ranks)
        m_rankDiffs[r.newRank] = &r;
    auto figures = [this](query::DiffComponent c) {
        return [this, c](const query::StepBreakdown& row) -> std::optional<CompareFigures> {
            const auto it = m_rankDiffs.find(row.rank);
            if (it == m_rankDiffs.end())
                return std::nullopt;
            return CompareFigures { it->second->base.value(c), it->second->neu.value(c) };
        };
    };
    using query::DiffComponent;
    const QString ms = QStringLiteral("ms");
    std::vector<RowColumn<query::StepBreakdown>> columns;
    auto add = [&columns](std::vector<RowColumn<query::StepBreakdown>> more) {
        columns.insert(columns.end(), more.begin(), more.end());
    };
    add(CompareColumns::make<query::StepBreakdown>(tr("step"), ms, 3, figures(DiffComponent::Step)));
    add(CompareColumns::make<query::StepBreakdown>(
        tr("computing"), ms, 3, figures(DiffComponent::Computing), { CompareColumns::Delta }));
    add(CompareColumns::make<query::StepBreakdown>(tr("comm. not overlapped"), ms, 3,
        figures(DiffComponent::CommunicationNotOverlapped), { CompareColumns::Delta }));
    add(CompareColumns::make<query::StepBreakdown>(
        tr("free"), ms, 3, figures(DiffComponent::Free), { CompareColumns::Delta }));
    return columns;
}

void StepTableModel::setRows(std::vector<query::StepBreakdown> rows,
    const std::array<query::ColumnStats, query::kStepColumnCount>& stats, const query::ColumnStats& wallStats)
{
    m_stats = stats;
    m_wallStats = wallStats;
    resetRows(std::move(rows));
}

void StepTableModel::clear() { setRows({}, {}); }

void StepTableModel::setHosts(std::map<int64_t, QString> hosts)
{
    if (hosts == m_hosts)
        return;
    m_hosts = std::move(hosts);
    emit headerDataChanged(Qt::Horizontal, Host, Host);
    emitColumnChanged(Host, Host);
}

bool StepTableModel::isColumnShown(int column) const
{
    if (column == Rank || column == Device || column == WallTime)
        return true;
    if (column == Host)
        return !m_hosts.empty();
    const auto c = stepColumn(column);
    if (!c)
        return false;
    auto anyRowHas = [this](StepColumn col) {
        return std::any_of(rows().begin(), rows().end(), [col](const auto& r) { return r.value(col).has_value(); });
    };
    if (query::isIterationTraceColumn(*c))
        return anyRowHas(*c);
    const bool oldGeneration = anyRowHas(StepColumn::Total) || anyRowHas(StepColumn::IterationInterval)
        || anyRowHas(StepColumn::FpBp) || anyRowHas(StepColumn::Tail);
    return !oldGeneration || anyRowHas(*c);
}

void StepTableModel::setUnit(TimeFormat::Unit unit)
{
    if (unit == m_unit)
        return;
    m_unit = unit;
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    emitColumnChanged(0, ColumnCount - 1, { Qt::DisplayRole });
}

void StepTableModel::setHighlightedRank(std::optional<int64_t> rank)
{
    if (rank == m_highlightedRank)
        return;
    const int oldRow = m_highlightedRank ? rowOfRank(*m_highlightedRank) : -1;
    m_highlightedRank = rank;
    const int newRow = rank ? rowOfRank(*rank) : -1;
    for (int row : { oldRow, newRow }) {
        if (row >= 0)
            emit dataChanged(index(row, 0), index(row, columnCount() - 1), { Qt::FontRole });
    }
}

int StepTableModel::rowOfRank(int64_t rank) const
{
    const auto it = std::find_if(rows().begin(), rows().end(), [rank](const auto& r) { return r.rank == rank; });
    return it == rows().end() ? -1 : static_cast<int>(it - rows().begin());
}

bool StepTableModel::isTimeColumn(int column) { return column == WallTime || stepColumn(column).has_value(); }

std::optional<StepColumn> StepTableModel::stepColumn(int column)
{
    if (column < Computing || column >= ColumnCount)
        return std::nullopt;
    return kTimeColumns[static_cast<size_t>(column - Computing)];
}

// The titles of columnTitle() and query::stepColumnTitle(), for lupdate: the header translates them (tr() looks them
// up in "npuscope::gui::StepTableModel"; scripts/update-translations.sh adds the namespace lupdate does not see).
[[maybe_unused]] constexpr const char* kTranslatedTitles[] = { QT_TRANSLATE_NOOP("StepTableModel", "Rank"),
    QT_TRANSLATE_NOOP("StepTableModel", "Device"), QT_TRANSLATE_NOOP("StepTableModel", "Host"),
    QT_TRANSLATE_NOOP("StepTableModel", "Step wall time"), QT_TRANSLATE_NOOP("StepTableModel", "Computing"),
    QT_TRANSLATE_NOOP("StepTableModel", "Communication(Not Overlapped)"),
    QT_TRANSLATE_NOOP("StepTableModel", "Overlapped"), QT_TRANSLATE_NOOP("StepTableModel", "Communication"),
    QT_TRANSLATE_NOOP("StepTableModel", "Free"), QT_TRANSLATE_NOOP("StepTableModel", "Stage"),
    QT_TRANSLATE_NOOP("StepTableModel", "Bubble"),
    QT_TRANSLATE_NOOP("StepTableModel", "Communication(Not Overlapped and Exclude Receive)"),
    QT_TRANSLATE_NOOP("StepTableModel", "Preparing"), QT_TRANSLATE_NOOP("StepTableModel", "Total"),
    QT_TRANSLATE_NOOP("StepTableModel", "Iteration interval"), QT_TRANSLATE_NOOP("StepTableModel", "FP+BP"),
    QT_TRANSLATE_NOOP("StepTableModel", "Tail") };

QString StepTableModel::columnTitle(int column)
{
    if (column == Rank)
        return QStringLiteral("Rank");
    if (column == Device)
        return QStringLiteral("Device");
    if (column == Host)
        return QStringLiteral("Host");
    if (column == WallTime)
        return QStringLiteral("Step wall time"); // the name of the metric (query::MetricDefinitions)
    const auto c = stepColumn(column);
    return c ? QString::fromUtf8(query::stepColumnTitle(*c)) : QString();
}

std::optional<int64_t> StepTableModel::rawValue(const query::StepBreakdown& row, int column) const
{
    if (column == Rank)
        return row.rank;
    if (column == Device)
        return row.device;
    if (column == WallTime)
        return row.wallTime();
    const auto c = stepColumn(column);
    return c ? row.value(*c) : std::nullopt;
}

const query::ColumnStats* StepTableModel::statsOf(int column) const
{
    if (column == WallTime)
        return &m_wallStats;
    const auto c = stepColumn(column);
    return c ? &m_stats[static_cast<size_t>(*c)] : nullptr;
}

std::optional<double> StepTableModel::deviation(const query::StepBreakdown& row, int column) const
{
    const query::ColumnStats* stats = statsOf(column);
    return stats ? query::deviationFromMedian(rawValue(row, column), *stats) : std::nullopt;
}

// Every role of a cell is answered here: the tint and tooltips need the column statistics.
std::optional<QVariant> StepTableModel::cellData(const query::StepBreakdown& row, int column, int role) const
{
    if (column >= ColumnCount) { // compare mode's columns: their descriptors, and the rank id for selection
        if (role == RankIdRole)
            return QVariant::fromValue<qlonglong>(row.rank);
        if (role == Qt::FontRole && m_highlightedRank && row.rank == *m_highlightedRank) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return std::nullopt;
    }
    if (column == Host) {
        const auto host = m_hosts.find(row.rank);
        if (role == Qt::DisplayRole)
            return host == m_hosts.end() ? TimeFormat::kAbsent : host->second;
        if (role == RawValueRole)
            return host == m_hosts.end() ? QVariant() : QVariant(host->second);
        if (role == RankIdRole)
            return QVariant::fromValue<qlonglong>(row.rank);
        return QVariant();
    }

    switch (role) {
    case Qt::DisplayRole: {
        const auto v = rawValue(row, column);
        if (column == Rank || column == Device)
            return v ? QString::number(*v) : TimeFormat::kAbsent;
        return TimeFormat::tableCell(v, m_unit);
    }
    case RawValueRole: {
        const auto v = rawValue(row, column);
        return v ? QVariant::fromValue<qlonglong>(*v) : QVariant();
    }
    case RankIdRole:
        return QVariant::fromValue<qlonglong>(row.rank);
    case DeviationRole: {
        const auto d = deviation(row, column);
        return d ? QVariant(*d) : QVariant();
    }
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::FontRole:
        if (m_highlightedRank && row.rank == *m_highlightedRank) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return QVariant();
    case Qt::BackgroundRole: {
        // Deviation from the median, neutral within the band (DivergingScale, docs/metrics.md), and neutral when the
        // difference is within the band of the median step wall time: a part of the step that moves by less than that
        // cannot make the step that much slower (0.1 ms more Free is 30 % of a 0.4 ms median, not a finding).
        const auto d = deviation(row, column);
        if (!d)
            return QVariant();
        const query::ColumnStats* stats = statsOf(column);
        const auto v = rawValue(row, column);
        const double band = DivergingScale::neutralBand();
        if (stats && stats->median && v && m_wallStats.median
            && std::abs(static_cast<double>(*v) - *stats->median) <= band * *m_wallStats.median)
            return QVariant();
        const QColor colour = DivergingScale::colour(*d, band, QGuiApplication::palette());
        return colour.isValid() ? QVariant(QBrush(colour)) : QVariant();
    }
    case Qt::ToolTipRole: {
        QString tip = tr("Rank %1 \u00b7 %2").arg(row.rank).arg(tr(columnTitle(column).toUtf8().constData()));
        if (const auto v = rawValue(row, column); v && isTimeColumn(column))
            tip += QStringLiteral("\n%1 \u00b5s = %2 ns")
                       .arg(TimeFormat::format(*v, TimeFormat::Unit::Microseconds))
                       .arg(*v);
        if (const auto d = deviation(row, column))
            tip += QLatin1Char('\n')
                + tr("%1%2 % vs the median of the ranks").arg(*d >= 0 ? "+" : "").arg(*d * 100, 0, 'f', 1);
        if (row.stepCount > 1)
            tip += QLatin1Char('\n') + tr("mean of %1 steps").arg(row.stepCount);
        return tip;
    }
    default:
        return QVariant();
    }
}

QVariant StepTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return RowTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        // The English title stays the key of the metric definitions; the header shows its translation.
        const QString title = tr(columnTitle(section).toUtf8().constData());
        if (section == WallTime) // two lines, like the long step_trace titles, so the column stays narrow
            return tr("Step wall\ntime") + QStringLiteral(" [%1]").arg(TimeFormat::unitSuffix(m_unit));
        return stepColumn(section) ? TimeFormat::columnHeader(title, m_unit) : title;
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Rank:
            return tr("Rank: the global rank id (from the profile's metadata or its folder name)");
        case Device:
            return tr("Device: the NPU device id on its host (the rank's local card)");
        case Host:
            return tr("Host by its host_ips_mapping.txt id (View ▸ Show host IPs for the real IP)");
        case Total:
            return tr("total: previous iteration end → this iteration end (old MindSpore step trace)");
        case IterationInterval:
            return tr("iteration_interval: previous iteration end → forward start (data loading, host work)");
        case FpBp:
            return tr("fp_and_bp: forward start → backward end");
        case Tail:
            return tr("tail: backward end → iteration end (gradient all-reduce, optimizer)");
        case WallTime:
            // The definition, and what the header's "slowest rank" has to do with this column.
            return RowTableModel::headerData(section, orientation, role).toString() + QStringLiteral("\n")
                + tr("From the step's start on the host (ProfilerStep#N) to the end of its last device task; Stage "
                     "is shorter by Preparing and Bubble. \"Slowest rank\" is the rank with the largest step wall "
                     "time: sorted by this column, slowest first, it is the top row.")
                + QStringLiteral("\n") + DivergingScale::legend();
        default: {
            // The metric's definition (query::MetricDefinitions, as docs/metrics.md words it), else its title; the
            // colour rule for the time columns.
            const QVariant definition = RowTableModel::headerData(section, orientation, role);
            const QString text = definition.isValid() ? definition.toString() : columnTitle(section);
            return isTimeColumn(section) ? text + QStringLiteral("\n") + DivergingScale::legend() : text;
        }
        }
    }
    return {};
}

} // namespace npuscope::gui
