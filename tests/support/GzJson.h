// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <array>
#include <filesystem>
#include <string>

namespace npuscope::test {

// A whole JSON file (gzip or plain: gzread passes plain files through) as one nlohmann DOM: the independent reading
// that the Kineto importer's rows and the comparison's figures are checked against.
inline nlohmann::json readJsonMaybeGz(const std::filesystem::path& path)
{
    gzFile f = gzopen(path.string().c_str(), "rb");
    std::string text;
    std::array<char, 1 << 16> buf {};
    int n = 0;
    while (f && (n = gzread(f, buf.data(), static_cast<unsigned>(buf.size()))) > 0)
        text.append(buf.data(), static_cast<std::size_t>(n));
    if (f)
        gzclose(f);
    return nlohmann::json::parse(text);
}

} // namespace npuscope::test
