// SPDX-License-Identifier: Apache-2.0
#include "FuzzScratch.h"

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace fs = std::filesystem;

namespace npuscope::fuzz {

FuzzScratch& FuzzScratch::instance()
{
    static FuzzScratch scratch;
    return scratch;
}

namespace {

// A RAM folder when there is one (every input is written to a file, several per input for the folder targets):
// NPUSCOPE_FUZZ_SCRATCH, else /dev/shm, else the system temp folder.
fs::path scratchBase()
{
    if (const char* dir = std::getenv("NPUSCOPE_FUZZ_SCRATCH"); dir && *dir)
        return dir;
    std::error_code ec;
    if (fs::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0)
        return "/dev/shm";
    return fs::temp_directory_path();
}

} // namespace

FuzzScratch::FuzzScratch()
    : m_root(scratchBase() / ("npuscope-fuzz-" + std::to_string(::getpid())))
{
    std::error_code ec;
    fs::remove_all(m_root, ec);
    fs::create_directories(m_root);
}

FuzzScratch::~FuzzScratch()
{
    std::error_code ec;
    fs::remove_all(m_root, ec);
}

std::string FuzzScratch::write(const std::string& relativePath, const uint8_t* data, size_t size)
{
    const fs::path path = m_root / relativePath;
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out)
        throw std::runtime_error("fuzz scratch: cannot write " + path.string());
    return path.string();
}

std::string FuzzScratch::write(const std::string& relativePath, const std::string& text)
{
    return write(relativePath, reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

fs::path FuzzScratch::freshFolder(const std::string& name)
{
    const fs::path path = m_root / name;
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path, ec);
    fs::create_directories(path);
    return path;
}

} // namespace npuscope::fuzz
