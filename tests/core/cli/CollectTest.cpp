// SPDX-License-Identifier: Apache-2.0
// npuscope-cli collect against an sshd this test starts on 127.0.0.1 with keys made for it (Debian's
// openssh-server and rsync; skipped with a message when they are missing or sshd cannot start).
#include "TestSupport.h"

#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>

using namespace npuscope;
using npuscope::test::runCli;
using npuscope::test::ScratchDir;

namespace fs = std::filesystem;

namespace {

std::string shellArg(const fs::path& p) { return "'" + p.string() + "'"; }

// A port nothing listens on at the moment (bound, then released).
int freePort()
{
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = 0;
    if (::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0
        && ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    ::close(s);
    return port;
}

std::string readText(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::map<std::string, std::string> contents(const fs::path& dir)
{
    std::map<std::string, std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file())
            continue;
        out[e.path().lexically_relative(dir).string()] = readText(e.path());
    }
    return out;
}

// Bytes of the regular files under dir; files rsync renames meanwhile are skipped, not an error.
uintmax_t bytesUnder(const fs::path& dir)
{
    uintmax_t n = 0;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code e2;
        if (it->is_regular_file(e2))
            n += it->file_size(e2) == static_cast<uintmax_t>(-1) ? 0 : it->file_size(e2);
    }
    return n;
}

// sshd on 127.0.0.1 for the current user, with its own host key and authorized key; stopped on destruction.
class TestSshd {
public:
    explicit TestSshd(const fs::path& dir)
        : m_dir(dir)
    {
        if (!fs::exists("/usr/sbin/sshd")
            || std::system("command -v rsync >/dev/null && command -v ssh-keygen "
                           ">/dev/null")
                != 0) {
            m_problem = "openssh-server, ssh-keygen or rsync not installed (scripts/deps.sh --test-extras)";
            return;
        }
        for (const char* key : { "hostkey", "userkey", "otherkey" }) {
            const std::string cmd = "ssh-keygen -q -t ed25519 -N '' -f " + shellArg(dir / key) + " >/dev/null";
            if (std::system(cmd.c_str()) != 0) {
                m_problem = "ssh-keygen failed";
                return;
            }
        }
        fs::copy_file(dir / "userkey.pub", dir / "authorized_keys");
        fs::permissions(dir / "authorized_keys", fs::perms::owner_read | fs::perms::owner_write);
        if (::geteuid() == 0 && !fs::exists("/run/sshd")) {
            std::error_code ec;
            fs::create_directories("/run/sshd", ec); // sshd's privilege separation folder, when run as root
        }
        m_port = freePort();
        const int deadPort = freePort();
        std::ofstream(dir / "sshd_config")
            << "Port " << m_port << "\nListenAddress 127.0.0.1\nHostKey " << (dir / "hostkey").string()
            << "\nAuthorizedKeysFile " << (dir / "authorized_keys").string()
            << "\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
               "UsePAM no\nStrictModes no\nPidFile "
            << (dir / "sshd.pid").string() << "\nLogLevel ERROR\n";
        const std::string user = ::getenv("USER") ? ::getenv("USER") : (::geteuid() == 0 ? "root" : "");
        auto host = [&](const char* name, int port, const char* key) {
            return std::string("Host ") + name + "\n  HostName 127.0.0.1\n  Port " + std::to_string(port) + "\n  User "
                + user + "\n  IdentityFile " + (dir / key).string()
                + "\n  IdentitiesOnly yes\n  IdentityAgent none\n  UserKnownHostsFile " + (dir / "known_hosts").string()
                + "\n  StrictHostKeyChecking accept-new\n  LogLevel ERROR\n";
        };
        std::ofstream(dir / "ssh_config")
            << host("goodhost", m_port, "userkey") << host("badkeyhost", m_port, "otherkey")
            << host("deadhost", deadPort, "userkey");
        m_pid = ::fork();
        if (m_pid == 0) {
            const std::string config = (dir / "sshd_config").string();
            const std::string log = (dir / "sshd.log").string();
            ::freopen(log.c_str(), "w", stderr);
            ::execl("/usr/sbin/sshd", "/usr/sbin/sshd", "-D", "-e", "-f", config.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        const std::string probe
            = "ssh -F " + shellArg(dir / "ssh_config") + " -o BatchMode=yes goodhost true 2>/dev/null";
        for (int i = 0; i < 50; ++i) {
            if (std::system(probe.c_str()) == 0)
                return;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        m_problem = "sshd did not start: " + readText(dir / "sshd.log");
    }
    ~TestSshd()
    {
        if (m_pid > 0) {
            ::kill(m_pid, SIGTERM);
            ::waitpid(m_pid, nullptr, 0);
        }
    }
    const std::string& problem() const { return m_problem; }
    fs::path config() const { return m_dir / "ssh_config"; }

private:
    fs::path m_dir;
    pid_t m_pid = -1;
    int m_port = 0;
    std::string m_problem;
};

std::string generate(const fs::path& out, int ranks, double traceMb)
{
    testgen::GeneratorOptions o;
    o.outDir = out.string();
    o.ranks = ranks;
    o.traceMb = traceMb;
    std::string error;
    EXPECT_TRUE(testgen::ClusterGenerator::generate(o, error)) << error;
    return o.outDir;
}

// collect with dir/hosts, the test sshd's client config and RUN.
std::string collectArgs(const fs::path& dir, const TestSshd& sshd, const fs::path& run)
{
    return "collect --hosts " + shellArg(dir / "hosts") + " --ssh-config " + shellArg(sshd.config()) + " --out "
        + shellArg(run);
}

} // namespace

// One good host, one whose key is refused, one nobody listens on: the good one is copied (slimmed) and verified,
// the others are reported in plain words, and no host name or address is printed or written where the viewer reads.
TEST(Collect, CopiesReachableHostsAndExplainsTheOthers)
{
    ScratchDir dir;
    TestSshd sshd(dir.path());
    if (!sshd.problem().empty())
        GTEST_SKIP() << "collect test skipped: " << sshd.problem();
    const auto remote = generate(dir.path() / "remote prof", 4, 0.05);
    std::ofstream(dir.path() / "hosts") << "# test hosts\ngoodhost\nbadkeyhost\n\ndeadhost  # down\n";
    const fs::path run = dir.path() / "run";
    const std::string base = collectArgs(dir.path(), sshd, run) + " --jobs 3";
    const auto r = runCli(base + " --remote-dir " + shellArg(remote) + " --slim summary", true);
    EXPECT_EQ(r.status, 1) << r.out;
    const auto original = contents(remote);
    size_t expected = 0;
    for (const auto& [rel, text] : original) {
        const std::string name = fs::path(rel).filename().string();
        expected += name == "trace_view.json" || name == "kernel_details.csv" || name == "operator_memory.csv" ? 0 : 1;
    }
    EXPECT_EQ(expected, 4u * 8u + 1u); // 8 summary files per rank and the generator's marker
    EXPECT_NE(r.out.find("host0: ok, " + std::to_string(expected) + " files"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("host1: FAILED: the host refused the key"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("host2: FAILED: unreachable (ssh: Connection refused)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 of 3 hosts copied"), std::string::npos) << r.out;
    for (const char* secret : { "127.0.0.1", "goodhost", "badkeyhost", "deadhost" })
        EXPECT_EQ(r.out.find(secret), std::string::npos) << secret << " printed:\n" << r.out;

    // The copy: the original's files but the per-rank timeline / kernel / operator-memory ones, same bytes.
    const auto copied = contents(run / "host0");
    EXPECT_EQ(copied.size(), expected);
    for (const auto& [rel, text] : copied) {
        ASSERT_TRUE(original.count(rel)) << rel;
        EXPECT_TRUE(original.at(rel) == text) << rel;
        EXPECT_NE(fs::path(rel).filename(), "trace_view.json");
    }
    // The mapping table is the user's alone.
    const fs::path table = run / "collect_hosts.tsv";
    const std::string tsv = readText(table);
    EXPECT_NE(tsv.find("host0\tgoodhost\tok\t" + std::to_string(expected) + "\t"), std::string::npos) << tsv;
    EXPECT_NE(tsv.find("host2\tdeadhost\tfailed"), std::string::npos) << tsv;
    EXPECT_EQ(fs::status(table).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);

    // A missing folder says so; --show-host-ips adds what ssh said.
    const auto missing = runCli(base + " --remote-dir " + shellArg(dir.path() / "nowhere") + " --show-host-ips", true);
    EXPECT_NE(missing.out.find("host0: FAILED: no folder " + (dir.path() / "nowhere").string() + " on the host"),
        std::string::npos)
        << missing.out;
    EXPECT_NE(missing.out.find("127.0.0.1"), std::string::npos) << missing.out;
}

// A transfer killed half way resumes: the second run completes it and every file is the original byte for byte.
TEST(Collect, ResumesAfterAKilledTransfer)
{
    ScratchDir dir;
    TestSshd sshd(dir.path());
    if (!sshd.problem().empty())
        GTEST_SKIP() << "collect test skipped: " << sshd.problem();
    const auto remote = generate(dir.path() / "prof", 2, 1.5);
    std::ofstream(dir.path() / "hosts") << "goodhost\n";
    const fs::path run = dir.path() / "run";
    const std::string base = collectArgs(dir.path(), sshd, run) + " --remote-dir " + shellArg(remote);
    // 300 KB/s for about 3.5 MB: killed once some 300 KB arrived, well before the end.
    const std::string killedRun = "exec " + std::string(NPUSCOPE_CLI) + " " + base + " --bwlimit 300 >"
        + shellArg(dir.path() / "killed.log") + " 2>&1";
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::execl("/bin/sh", "sh", "-c", killedRun.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ASSERT_GT(pid, 0);
    for (int i = 0; i < 300; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        std::error_code ec;
        if (fs::exists(run / "host0", ec) && bytesUnder(run / "host0") > 300'000)
            break;
    }
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 130) << status;
    const std::string killedOut = readText(dir.path() / "killed.log");
    EXPECT_NE(killedOut.find("rsync was interrupted; run the same command again to resume"), std::string::npos)
        << killedOut;
    const uintmax_t total = bytesUnder(remote);
    const uintmax_t partial = fs::exists(run / "host0") ? bytesUnder(run / "host0") : 0;
    EXPECT_LT(partial, total) << killedOut;
    EXPECT_GT(partial, 0u) << killedOut;
    // A file cut off waits in a .npuscope-partial folder: every file under its real name is complete.
    size_t partFiles = 0;
    for (const auto& e : fs::recursive_directory_iterator(run / "host0")) {
        if (!e.is_regular_file())
            continue;
        const auto rel = fs::relative(e.path(), run / "host0");
        if (rel.parent_path().filename() == ".npuscope-partial") {
            ++partFiles;
            continue;
        }
        EXPECT_EQ(e.file_size(), fs::file_size(fs::path(remote) / rel)) << rel << " has its real name, half copied";
    }
    std::cout << "killed transfer: " << partial << " of " << total << " bytes, " << partFiles
              << " file(s) waiting in .npuscope-partial\n";
    const auto resumed = runCli(base, true);
    ASSERT_EQ(resumed.status, 0) << resumed.out;
    EXPECT_NE(resumed.out.find("sizes verified"), std::string::npos) << resumed.out;
    EXPECT_TRUE(contents(remote) == contents(run / "host0")); // no .npuscope-partial folder left either
}

// --ranks: the listed ranks' files by --slim, the other ranks' summary files only.
TEST(Collect, RanksChooseWhoseTimelinesAreCopied)
{
    ScratchDir dir;
    TestSshd sshd(dir.path());
    if (!sshd.problem().empty())
        GTEST_SKIP() << "collect test skipped: " << sshd.problem();
    const auto remote = generate(dir.path() / "prof", 4, 0.05);
    std::ofstream(dir.path() / "hosts") << "goodhost\n";
    const std::string base = collectArgs(dir.path(), sshd, dir.path() / "run") + " --remote-dir " + shellArg(remote);
    const auto r = runCli(base + " --slim timeline --ranks 1,7", true);
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("found on no host: 7"), std::string::npos) << r.out;
    const auto copied = contents(dir.path() / "run" / "host0");
    size_t traces = 0;
    for (const auto& [rel, text] : copied) {
        const std::string name = fs::path(rel).filename().string();
        EXPECT_NE(name, "kernel_details.csv") << rel;
        if (name == "trace_view.json") {
            ++traces;
            EXPECT_NE(rel.find("rank1_"), std::string::npos) << rel;
        }
    }
    EXPECT_EQ(traces, 1u);
    // Rank 2 with every file (the default --slim all); rank 1's trace stays.
    const auto all = runCli(base + " --ranks 2", true);
    ASSERT_EQ(all.status, 0) << all.out;
    std::set<std::string> kernels;
    for (const auto& [rel, text] : contents(dir.path() / "run" / "host0")) {
        if (fs::path(rel).filename() == "kernel_details.csv")
            kernels.insert(rel.substr(0, rel.find('/')));
        if (fs::path(rel).filename() == "trace_view.json" || fs::path(rel).filename() == "kernel_details.csv") {
            EXPECT_TRUE(rel.find("rank1_") != std::string::npos || rel.find("rank2_") != std::string::npos) << rel;
        }
    }
    EXPECT_EQ(kernels.size(), 1u);
    EXPECT_EQ(runCli(base + " --slim summary --ranks 1", true).status, 2);
}
