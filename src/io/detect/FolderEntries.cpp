// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/detect/FolderEntries.h"

#include <algorithm>

namespace fs = std::filesystem;

namespace npuscope::io {

std::vector<fs::path> folderEntries(const fs::path& dir, EntryType type, std::error_code& ec)
{
    std::vector<fs::path> out;
    for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
         it.increment(ec)) {
        std::error_code entryError;
        if (type == EntryType::Folders ? it->is_directory(entryError) : it->is_regular_file(entryError))
            out.push_back(it->path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<fs::path> folderEntries(const fs::path& dir, EntryType type)
{
    std::error_code ec;
    return folderEntries(dir, type, ec);
}

} // namespace npuscope::io
