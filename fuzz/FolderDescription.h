// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace npuscope::fuzz {

// A folder tree written from fuzzed text, so detection and whole loads can be fuzzed. One entry per line:
//   path/to/file<TAB>content     a file (content: \n, \t and \\ escapes; no TAB: an empty file)
//   path/to/folder/              a folder
//   path/to/link -> target       a symbolic link (relative, resolving inside the root: loops and dangling
//                                links welcome, a way out of the root is skipped)
// Path components "", "." and ".." are dropped, so nothing is written outside the root. At most kMaxEntries
// entries, kMaxComponent bytes per component and kMaxDepth components, so a description cannot fill the disk.
class FolderDescription {
public:
    static constexpr size_t kMaxEntries = 64;
    static constexpr size_t kMaxComponent = 96;
    static constexpr size_t kMaxDepth = 8;

    // Writes the tree described by data under root (an existing, empty folder). Entries that cannot be created
    // (a file where a folder is needed, a name the file system refuses) are skipped.
    static void materialise(const uint8_t* data, size_t size, const std::filesystem::path& root);
};

} // namespace npuscope::fuzz
