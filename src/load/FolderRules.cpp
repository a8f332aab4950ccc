// SPDX-License-Identifier: Apache-2.0
#include "npuscope/load/FolderRules.h"

namespace fs = std::filesystem;

namespace npuscope::load {

fs::path resolvedPath(const fs::path& p)
{
    std::error_code ec;
    const fs::path absolute = fs::absolute(p, ec);
    if (ec)
        return p.lexically_normal();
    auto canonical = fs::weakly_canonical(absolute, ec);
    return ec ? absolute.lexically_normal() : canonical;
}

bool isInsideFolder(const fs::path& inner, const fs::path& outer)
{
    auto i = inner.begin();
    for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
        if (o->empty())
            continue; // trailing separator
        if (i == inner.end() || *i != *o)
            return false;
    }
    return true;
}

} // namespace npuscope::load
