// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace npuscope::fuzz {

// The folder a fuzz run writes its inputs to: one per process in a RAM folder (NPUSCOPE_FUZZ_SCRATCH, else /dev/shm,
// else the system temp folder), removed at exit.
// The importers read files by path, so each input is written to a file with the name the real file has.
// One thread at a time.
class FuzzScratch {
public:
    static FuzzScratch& instance();

    const std::filesystem::path& root() const { return m_root; }
    // Writes data to root()/relativePath (parent folders created) and returns the absolute path.
    std::string write(const std::string& relativePath, const uint8_t* data, size_t size);
    std::string write(const std::string& relativePath, const std::string& text);
    // Empties folder (below root()) and creates it again; returns its absolute path.
    std::filesystem::path freshFolder(const std::string& name);

    ~FuzzScratch();
    FuzzScratch(const FuzzScratch&) = delete;
    FuzzScratch& operator=(const FuzzScratch&) = delete;

private:
    FuzzScratch();
    std::filesystem::path m_root;
};

} // namespace npuscope::fuzz
