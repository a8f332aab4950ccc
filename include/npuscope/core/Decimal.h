// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace npuscope {

// Strips ASCII whitespace (space, TAB, CR, LF) at both ends. torch_npu appends a literal TAB to
// time columns as an Excel guard, so every numeric field goes through this.
std::string_view trim(std::string_view s);

// True for cells that mean "no value": empty, "N/A", "NA", "None", "null", "-" (after trim).
bool isMissing(std::string_view s);

// Parses a decimal number ("-12.345", "1736408883688177.930", "5e-05") exactly into an integer
// scaled by 10^scaleDigits, rounding half away from zero. Never goes through a double, so epoch
// microsecond strings keep their nanoseconds. nullopt for missing or malformed input, or overflow.
std::optional<int64_t> parseScaled(std::string_view s, int scaleDigits);

// Microsecond text -> nanoseconds; millisecond text -> nanoseconds; second text -> nanoseconds.
inline std::optional<int64_t> usToNs(std::string_view s) { return parseScaled(s, 3); }
inline std::optional<int64_t> msToNs(std::string_view s) { return parseScaled(s, 6); }

// Plain conversions with the same trimming and missing-value rules.
std::optional<int64_t> parseInt(std::string_view s);
std::optional<double> parseDouble(std::string_view s);

// Double in a unit -> int64 ns, for values that only exist as JSON doubles (ms fields of
// communication.json). Rounds to nearest; nullopt for NaN/inf.
std::optional<int64_t> doubleToNs(double value, double nsPerUnit);

} // namespace npuscope
