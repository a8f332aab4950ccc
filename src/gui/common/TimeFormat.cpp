// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/TimeFormat.h"

#include <QCoreApplication>
#include <QVariant>

#include <cmath>

namespace npuscope::gui {

const QString TimeFormat::kAbsent = QStringLiteral("\u2014");

namespace {

// value / 1000 with three decimals, exact in integer arithmetic.
QString fixed3(int64_t thousandths)
{
    const bool negative = thousandths < 0;
    const uint64_t magnitude
        = negative ? static_cast<uint64_t>(-(thousandths + 1)) + 1 : static_cast<uint64_t>(thousandths);
    QString s = QString::number(magnitude / 1000) + QLatin1Char('.')
        + QStringLiteral("%1").arg(magnitude % 1000, 3, 10, QLatin1Char('0'));
    return negative ? QLatin1Char('-') + s : s;
}

int64_t roundedDiv(int64_t value, int64_t divisor)
{
    const int64_t half = divisor / 2;
    return value >= 0 ? (value + half) / divisor : (value - half) / divisor;
}

} // namespace

QString TimeFormat::format(int64_t ns, Unit unit)
{
    if (unit == Unit::Microseconds)
        return fixed3(ns);
    return fixed3(roundedDiv(ns, 1000));
}

QString TimeFormat::format(const std::optional<int64_t>& ns, Unit unit) { return ns ? format(*ns, unit) : kAbsent; }

QString TimeFormat::tableCell(int64_t ns, Unit unit)
{
    if (unit == Unit::Microseconds)
        return fixed3(ns);
    // Tenths of a ms, rounded half away from zero like format(), still without a double.
    const int64_t tenths = roundedDiv(ns, 100000);
    const bool negative = tenths < 0;
    const uint64_t magnitude = negative ? static_cast<uint64_t>(-(tenths + 1)) + 1 : static_cast<uint64_t>(tenths);
    const QString s = QString::number(magnitude / 10) + QLatin1Char('.') + QString::number(magnitude % 10);
    return negative ? QLatin1Char('-') + s : s;
}

QString TimeFormat::tableCell(const std::optional<int64_t>& ns, Unit unit)
{
    return ns ? tableCell(*ns, unit) : kAbsent;
}

namespace {
// A dynamic property of the application object, so the preference lives and dies with the application.
constexpr const char* kTableUnitProperty = "npuscopeTableUnit";
}

TimeFormat::Unit TimeFormat::tableUnit()
{
    const QCoreApplication* app = QCoreApplication::instance();
    const QVariant v = app ? app->property(kTableUnitProperty) : QVariant();
    return v.isValid() && v.toInt() == static_cast<int>(Unit::Microseconds) ? Unit::Microseconds : Unit::Milliseconds;
}

void TimeFormat::setTableUnit(Unit unit)
{
    if (QCoreApplication* app = QCoreApplication::instance())
        app->setProperty(kTableUnitProperty, static_cast<int>(unit));
}

QString TimeFormat::withUnit(int64_t ns, Unit unit) { return format(ns, unit) + QLatin1Char(' ') + unitSuffix(unit); }

QString TimeFormat::unitSuffix(Unit unit)
{
    return unit == Unit::Microseconds ? QStringLiteral("\u00b5s") : QStringLiteral("ms");
}

QString TimeFormat::columnHeader(QString title, Unit unit)
{
    title.replace(QStringLiteral("("), QStringLiteral("\n("));
    return title + QStringLiteral(" [%1]").arg(unitSuffix(unit));
}

QString TimeFormat::adaptive(double ns)
{
    const double a = std::abs(ns);
    auto fmt = [](double v, const char* suffix) {
        const int decimals = std::abs(v) >= 100 ? 0 : (std::abs(v) >= 10 ? 1 : 2);
        return QString::number(v, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(suffix);
    };
    if (a >= 1e9)
        return fmt(ns / 1e9, "s");
    if (a >= 1e6)
        return fmt(ns / 1e6, "ms");
    if (a >= 1e3)
        return fmt(ns / 1e3, "\u00b5s");
    return fmt(ns, "ns");
}

QString TimeFormat::axisTick(double ns, double step)
{
    if (ns == 0)
        return QStringLiteral("0");
    // One unit and one precision along the whole axis, from the tick step.
    double divisor = 1.0;
    const char* unit = "ns";
    if (step >= 1e8) {
        divisor = 1e9;
        unit = "s";
    } else if (step >= 1e5) {
        divisor = 1e6;
        unit = "ms";
    } else if (step >= 1e2) {
        divisor = 1e3;
        unit = "\u00b5s";
    }
    const double scaled = step / divisor;
    const int decimals = scaled >= 1 ? 0 : (scaled >= 0.1 ? 1 : 2);
    return QString::number(ns / divisor, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(unit);
}

} // namespace npuscope::gui
