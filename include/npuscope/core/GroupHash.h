// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace npuscope {

// The number after '@' in communication op keys: msprof-analyze's double_hash of the raw HCCL
// group name (FORMATS.md §4): h0 = h0*29 + c, h1 = h1*131 + c (both mod 2^32), result (h0<<32)|h1.
uint64_t groupDoubleHash(std::string_view rawGroupName);
std::string groupDoubleHashText(std::string_view rawGroupName);

} // namespace npuscope
