// SPDX-License-Identifier: Apache-2.0
#include "FolderDescription.h"

#include <algorithm>
#include <fstream>
#include <string>
#include <string_view>

namespace fs = std::filesystem;

namespace npuscope::fuzz {

namespace {

// root/path with empty, "." and ".." components dropped and the length limits applied; empty when nothing is left.
fs::path safePath(std::string_view path)
{
    fs::path out;
    size_t depth = 0;
    size_t start = 0;
    while (start <= path.size() && depth < FolderDescription::kMaxDepth) {
        size_t end = path.find('/', start);
        if (end == std::string_view::npos)
            end = path.size();
        std::string part(path.substr(start, std::min(end - start, FolderDescription::kMaxComponent)));
        if (part.find('\0') != std::string::npos)
            part = part.substr(0, part.find('\0'));
        if (!part.empty() && part != "." && part != "..") {
            out /= part;
            ++depth;
        }
        start = end + 1;
    }
    return out;
}

std::string unescape(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) {
            const char c = text[++i];
            out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
        } else {
            out += text[i];
        }
    }
    return out;
}

} // namespace

void FolderDescription::materialise(const uint8_t* data, size_t size, const fs::path& root)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    size_t entries = 0;
    size_t start = 0;
    while (start < text.size() && entries < kMaxEntries) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++entries;
        std::error_code ec;
        if (const size_t arrow = line.find(" -> "); arrow != std::string_view::npos) {
            const fs::path link = safePath(line.substr(0, arrow));
            if (link.empty())
                continue;
            // A target outside root would let detection walk the whole machine: only links inside the tree.
            const fs::path target(std::string(line.substr(arrow + 4)));
            const fs::path resolved = ((root / link).parent_path() / target).lexically_normal();
            const auto [r, t] = std::mismatch(root.begin(), root.end(), resolved.begin(), resolved.end());
            if (target.is_absolute() || r != root.end())
                continue;
            fs::create_directories((root / link).parent_path(), ec);
            fs::create_symlink(target, root / link, ec);
            continue;
        }
        const size_t tab = line.find('\t');
        const std::string_view pathText = line.substr(0, tab);
        const fs::path rel = safePath(pathText);
        if (rel.empty())
            continue;
        if (tab == std::string_view::npos && pathText.back() == '/') {
            fs::create_directories(root / rel, ec);
            continue;
        }
        fs::create_directories((root / rel).parent_path(), ec);
        if (fs::is_directory(root / rel, ec))
            continue;
        std::ofstream out(root / rel, std::ios::binary | std::ios::trunc);
        if (tab != std::string_view::npos)
            out << unescape(line.substr(tab + 1));
    }
}

} // namespace npuscope::fuzz
