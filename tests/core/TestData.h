// SPDX-License-Identifier: Apache-2.0
#pragma once

// Shared helpers for the core tests: sample paths and scratch folders.

#include <filesystem>
#include <random>
#include <string>

namespace npuscope::test {

inline std::filesystem::path dataDir() { return std::filesystem::path(NPUSCOPE_TEST_DATA); }

// A fresh folder under the system temp dir, removed when the object dies.
class ScratchDir {
public:
    ScratchDir()
    {
        std::random_device rd;
        m_path = std::filesystem::temp_directory_path() / ("npuscope-test-" + std::to_string(rd()));
        std::filesystem::create_directories(m_path);
    }
    ~ScratchDir()
    {
        std::error_code ec;
        std::filesystem::permissions(m_path, std::filesystem::perms::owner_all, ec);
        std::filesystem::remove_all(m_path, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

} // namespace npuscope::test
