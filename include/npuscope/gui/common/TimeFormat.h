// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

#include <cstdint>
#include <optional>

namespace npuscope::gui {

// Formats int64 nanoseconds for display without going through a double, so a value shown in
// µs reads exactly as it is written in step_trace_time.csv. Any thread.
class TimeFormat {
public:
    enum class Unit { Microseconds, Milliseconds };

    static const QString kAbsent; // "—"

    // 3 decimals in the unit ("8873.756"); ms values are rounded half away from zero to the µs.
    static QString format(int64_t ns, Unit unit);
    static QString format(const std::optional<int64_t>& ns, Unit unit);
    // A cell of the step tables: µs with 3 decimals as the files write them ("8873.756"), ms with one ("8.9"): the
    // spread between ranks shows at 0.1 ms and the exact value is in the cell's tooltip.
    static QString tableCell(int64_t ns, Unit unit);
    static QString tableCell(const std::optional<int64_t>& ns, Unit unit);
    // The unit the step tables start in (Settings → Time unit; Appearance::apply sets it): ms unless set. GUI thread.
    static Unit tableUnit();
    static void setTableUnit(Unit unit);
    // Same with the unit suffix ("8873.756 µs").
    static QString withUnit(int64_t ns, Unit unit);
    static QString unitSuffix(Unit unit);
    // A time column's header: its title broken before "(" so the column stays narrow, and the unit
    // ("Communication\n(Not Overlapped) [µs]").
    static QString columnHeader(QString title, Unit unit);
    // A compact human value with an adaptive unit for axes and legends ("1.25 ms", "830 µs").
    static QString adaptive(double ns);
    // A tick of a time axis whose ticks are stepNs apart (a 1-2-5 step, ChartWidget::niceStep): one unit and one
    // precision along the whole axis, from the step ("0", "50 ms", "100 ms"; "0.5 ms", "1.0 ms").
    static QString axisTick(double ns, double stepNs);
};

} // namespace npuscope::gui
