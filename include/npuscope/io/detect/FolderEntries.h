// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <system_error>
#include <vector>

namespace npuscope::io {

// What folderEntries lists.
enum class EntryType { Files, Folders };

// The regular files (or the folders) directly in dir, sorted, passing over entries that cannot be read; ec says why
// the folder could not be listed, or not to its end. Any thread.
std::vector<std::filesystem::path> folderEntries(const std::filesystem::path& dir, EntryType type, std::error_code& ec);
// The same for a caller to whom a folder that cannot be listed is an empty one.
std::vector<std::filesystem::path> folderEntries(const std::filesystem::path& dir, EntryType type);

} // namespace npuscope::io
