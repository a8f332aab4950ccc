// SPDX-License-Identifier: Apache-2.0
// Helpers of the advice tests.
#pragma once

#include "npuscope/query/advice/Finding.h"

#include <string>
#include <vector>

namespace npuscope::test {

// The findings of one rule id, in their order.
inline std::vector<query::advice::Finding> withId(
    const std::vector<query::advice::Finding>& findings, const std::string& id)
{
    std::vector<query::advice::Finding> out;
    for (const auto& f : findings) {
        if (f.id == id)
            out.push_back(f);
    }
    return out;
}

} // namespace npuscope::test
