// SPDX-License-Identifier: Apache-2.0
#pragma once

// Shared helpers for the core tests: sample paths, scratch folders and running the CLI.

#include <array>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <sys/wait.h>

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

struct CliRun {
    int status = -1; // exit code, -1 when it did not exit normally
    std::string out; // stdout (and stderr with withStderr)
};

// Runs npuscope-cli with args (already shell-quoted where needed) and captures its output.
inline CliRun runCli(const std::string& args, bool withStderr = false)
{
    CliRun r;
    const std::string cmd = std::string(NPUSCOPE_CLI) + " " + args + (withStderr ? " 2>&1" : " 2>/dev/null");
    FILE* pipe = popen(cmd.c_str(), "r");
    if (!pipe)
        return r;
    std::array<char, 4096> buf {};
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0)
        r.out.append(buf.data(), n);
    const int status = pclose(pipe);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

} // namespace npuscope::test
