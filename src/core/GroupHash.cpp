// SPDX-License-Identifier: Apache-2.0
#include "npuscope/core/GroupHash.h"

namespace npuscope {

uint64_t groupDoubleHash(std::string_view rawGroupName)
{
    uint32_t h0 = 0;
    uint32_t h1 = 0;
    // Python's ord() is a code point; the group ids are ASCII, so bytes and code points agree.
    for (unsigned char c : rawGroupName) {
        h0 = h0 * 29u + c;
        h1 = h1 * 131u + c;
    }
    return (static_cast<uint64_t>(h0) << 32) | h1;
}

std::string groupDoubleHashText(std::string_view rawGroupName) { return std::to_string(groupDoubleHash(rawGroupName)); }

} // namespace npuscope
