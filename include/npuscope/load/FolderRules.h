// SPDX-License-Identifier: Apache-2.0
// Path checks of the commands that write beside a profile (import, slim): never into an input folder.
#pragma once

#include <filesystem>

namespace npuscope::load {

// The real path of p (symlinks resolved), or p made absolute and normal when it does not exist yet.
std::filesystem::path resolvedPath(const std::filesystem::path& p);

// True when inner is outer or below it, component by component (/a/bc is not inside /a/b). Both resolved.
bool isInsideFolder(const std::filesystem::path& inner, const std::filesystem::path& outer);

} // namespace npuscope::load
