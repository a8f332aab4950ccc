// SPDX-License-Identifier: Apache-2.0
#pragma once

// Column kinds of the Statistics view's tables (StatisticsTableModels.cpp); titles come translated by the caller.

#include "npuscope/gui/common/RowTableModel.h"
#include "npuscope/gui/common/TimeFormat.h"

#include <functional>
#include <optional>

namespace npuscope::gui::statistics {

inline constexpr auto kUs = TimeFormat::Unit::Microseconds;

// Time columns in µs with three decimals, as the profiler writes these files (many ops take a few µs).
template <class Row>
RowColumn<Row> timeColumn(
    const QString& title, const QString& definition, std::function<std::optional<int64_t>(const Row&)> ns)
{
    return RowColumn<Row>(
        TimeFormat::columnHeader(title, kUs), definition,
        [ns](const Row& r) {
            const auto v = ns(r);
            return v ? QVariant::fromValue<qlonglong>(*v) : QVariant();
        },
        [ns](const Row& r) { return TimeFormat::format(ns(r), kUs); });
}

template <class Row> RowColumn<Row> meanColumn(const QString& title, const QString& definition)
{
    return RowColumn<Row>(
        TimeFormat::columnHeader(title, kUs), definition,
        [](const Row& r) { return r.meanNs ? QVariant(*r.meanNs) : QVariant(); },
        [](const Row& r) { return r.meanNs ? QString::number(*r.meanNs / 1000.0, 'f', 3) : TimeFormat::kAbsent; });
}

template <class Row>
RowColumn<Row> textColumn(const QString& title, const QString& definition, std::function<QString(const Row&)> text)
{
    return RowColumn<Row>(
        title, definition, [text](const Row& r) { return QVariant(text(r)); }, {}, Qt::AlignLeft | Qt::AlignVCenter);
}

template <class Row>
RowColumn<Row> numberColumn(const QString& title, const QString& definition, std::function<qlonglong(const Row&)> n)
{
    return RowColumn<Row>(title, definition, [n](const Row& r) { return QVariant::fromValue(n(r)); });
}

template <class Row> RowColumn<Row> shareColumn(const QString& title, const QString& definition)
{
    return RowColumn<Row>(
        title, definition, [](const Row& r) { return QVariant(r.sharePct); },
        [](const Row& r) { return QString::number(r.sharePct, 'f', 2); });
}

inline QString str(const std::string& s) { return QString::fromStdString(s); }

} // namespace npuscope::gui::statistics
