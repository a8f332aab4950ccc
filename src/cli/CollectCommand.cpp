// SPDX-License-Identifier: Apache-2.0
// npuscope-cli collect: copies each host's profiler output over the system's ssh and rsync (the user's keys or agent,
// BatchMode: never a password prompt, never a password anywhere), several hosts at a time, resumable, verified.
// Every program is started with execvp and an argv (no shell on this side); the remote path is single-quoted for the
// remote shell and rsync gets it with --protect-args.
#include "CliSupport.h"

#include "npuscope/io/detect/Detector.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;

namespace {

constexpr const char* kUsage
    = R"(  collect --hosts FILE --remote-dir DIR --out RUN [--jobs N] [--slim summary|timeline|all] [--ranks LIST]
          [--ssh-config F] [--bwlimit KBPS] [--show-host-ips]
      Copy DIR (the profiler output folder, the same path on every host) from each host of FILE (one ssh
      destination per line, [user@]host or an alias of your ssh config; # starts a comment) into RUN/host<k>, k
      the host's line number from 0, with the system's ssh and rsync: your keys or ssh-agent only (BatchMode, no
      password prompt; never put a password in a file), N hosts at a time (default 8), with progress. A killed or
      failed copy resumes where it stopped when the same command runs again; a file cut off keeps its part in a
      .npuscope-partial folder beside it, never under its own name, until it is complete (rsync --partial-dir);
      every file's size is verified after the copy. --slim summary leaves out the per-rank timeline, kernel and
      operator-memory files (trace_view.json, kernel_details.csv, op_summary*.csv, operator_memory.csv, MindSpore
      timeline_display files, and an imported folder's rank_<id>.<group>.npgroup files but the kernel totals),
      --slim timeline only the kernel and operator-memory files (rsync name rules: the hosts need no npuscope).
      --ranks LIST (rank ids and ranges, 0,3,8-15) keeps what --slim keeps (default all) for those ranks only;
      the other ranks get their summary files: the summary files are copied first, the folders of the listed
      ranks found in the copy (as npuscope detects them), then their files. RUN/collect_hosts.tsv (readable by
      you only) maps host<k> to the host; messages name hosts by host<k> only, unless --show-host-ips.
      Unreachable hosts, refused keys, missing folders and a full disk are reported per host; the others are
      still copied (exit status 1 if any host failed).
)";

std::atomic<bool> g_stop { false };

void onSignal(int) { g_stop = true; }

struct Options {
    std::string hostsFile;
    std::string remoteDir;
    std::string out;
    int jobs = 8;
    std::string slim = "all";
    std::string sshConfig;
    long long bwlimit = 0;
    bool showHosts = false;
    std::optional<std::set<int64_t>> ranks; // --ranks: only their per-rank files by --slim, the others' summary
};

struct Host {
    std::string destination; // as written in the hosts file
    std::string id; // host<k>
};

struct Outcome {
    bool ok = false;
    std::string message;
    uint64_t files = 0;
    uint64_t bytes = 0;
    std::set<int64_t> listedRanks; // ranks of --ranks found in this host's copy
};

// rsync keeps a file cut off by an interruption here (relative: one such folder beside the file), so an unfinished
// file never has its real name, which the viewer would read as a whole file; the next run resumes from it.
constexpr const char* kPartialDir = ".npuscope-partial";

struct Process {
    int status = -1; // exit status; 128 + signal when killed
    std::string out;
    std::string err;
    std::string startError; // the program could not be started
};

// Runs argv (argv[0] looked up in PATH) with stdin from /dev/null, collecting stdout and stderr; onOut sees stdout as
// it arrives. The child is sent SIGTERM once g_stop is set.
Process runProgram(const std::vector<std::string>& argv, const std::function<void(const std::string&)>& onOut = {})
{
    Process result;
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    int outPipe[2];
    int errPipe[2];
    if (::pipe2(outPipe, O_CLOEXEC) != 0)
        return { -1, {}, {}, std::strerror(errno) };
    if (::pipe2(errPipe, O_CLOEXEC) != 0) {
        ::close(outPipe[0]);
        ::close(outPipe[1]);
        return { -1, {}, {}, std::strerror(errno) };
    }
    const pid_t pid = ::fork();
    if (pid == 0) {
        // Only async-signal-safe calls until exec.
        const int null = ::open("/dev/null", O_RDONLY);
        ::dup2(null, 0);
        ::dup2(outPipe[1], 1);
        ::dup2(errPipe[1], 2);
        ::execvp(args[0], args.data());
        const char* why = "cannot start the program\n";
        [[maybe_unused]] auto n = ::write(2, why, std::strlen(why));
        ::_exit(127);
    }
    ::close(outPipe[1]);
    ::close(errPipe[1]);
    if (pid < 0) {
        ::close(outPipe[0]);
        ::close(errPipe[0]);
        return { -1, {}, {}, std::strerror(errno) };
    }
    pollfd fds[2] = { { outPipe[0], POLLIN, 0 }, { errPipe[0], POLLIN, 0 } };
    bool open[2] = { true, true };
    bool signalled = false;
    char buf[8192];
    while (open[0] || open[1]) {
        if (g_stop && !signalled) {
            ::kill(pid, SIGTERM);
            signalled = true;
        }
        for (int i = 0; i < 2; ++i)
            fds[i].fd = open[i] ? (i == 0 ? outPipe[0] : errPipe[0]) : -1;
        if (::poll(fds, 2, 200) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; ++i) {
            if (!open[i] || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
            if (n <= 0) {
                open[i] = false;
                continue;
            }
            const std::string chunk(buf, static_cast<size_t>(n));
            if (i == 0) {
                result.out += chunk;
                if (onOut)
                    onOut(chunk);
            } else {
                result.err += chunk;
            }
        }
    }
    ::close(outPipe[0]);
    ::close(errPipe[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return result;
}

// Single-quotes text for the remote POSIX shell ssh hands its command to.
std::string shellQuoted(const std::string& text)
{
    std::string q = "'";
    for (char c : text)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// The ssh command line shared by the probe and rsync (rsync splits -e itself and honours single quotes).
std::vector<std::string> sshArgs(const Options& o)
{
    std::vector<std::string> a { "ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=15", "-o",
        "ServerAliveInterval=15" };
    if (!o.sshConfig.empty()) {
        a.push_back("-F");
        a.push_back(o.sshConfig);
    }
    return a;
}

std::string rsyncShell(const Options& o)
{
    std::string s;
    for (const auto& a : sshArgs(o))
        s += (s.empty() ? "" : " ") + shellQuoted(a);
    return s;
}

// Whether text holds one of the needles; phrase is the first found.
bool mentions(const std::string& text, std::initializer_list<const char*> needles, std::string& phrase)
{
    for (const char* n : needles) {
        if (text.find(n) != std::string::npos) {
            phrase = n;
            return true;
        }
    }
    return false;
}

// What an ssh or rsync failure means, without the host's address (ssh's own messages name it) unless asked.
std::string explain(const Process& p, const Options& o, const std::string& what)
{
    std::string phrase;
    std::string message;
    if (!p.startError.empty() || p.status == 127)
        message = what + " could not be started (is it installed? " + p.startError + ")";
    else if (mentions(p.err, { "Permission denied" }, phrase))
        message = "the host refused the key (ssh: " + phrase
            + "); check that your key is loaded (ssh-add -l) and in the host's authorized_keys";
    else if (mentions(p.err, { "Host key verification failed", "REMOTE HOST IDENTIFICATION HAS CHANGED" }, phrase))
        message = "host key not trusted (ssh: " + phrase + "); connect once with ssh to check and accept it";
    else if (mentions(p.err,
                 { "Connection refused", "Connection timed out", "No route to host", "Could not resolve hostname",
                     "Network is unreachable", "Operation timed out", "Connection closed",
                     "Name or service not known" },
                 phrase))
        message = "unreachable (ssh: " + phrase + ")";
    else if (mentions(p.err, { "No space left on device", "Disk quota exceeded" }, phrase))
        message = "the local disk is full (" + phrase + ") under " + o.out
            + "; free space and run the same command again, it resumes";
    else if (mentions(p.err, { "rsync: command not found", "rsync: not found" }, phrase))
        message = "rsync is not installed on the host";
    else if (p.status >= 128 || (what.rfind("rsync", 0) == 0 && p.status == 20)) // 20: rsync got a signal
        message = what + " was interrupted; run the same command again to resume";
    else
        message = what + " failed (exit status " + std::to_string(p.status) + ")";
    if (o.showHosts && !p.err.empty())
        message += "; " + what + " said: " + p.err.substr(0, p.err.find_last_not_of("\r\n") + 1);
    return message;
}

std::vector<std::string> excludes(const std::string& slim)
{
    std::vector<std::string> names;
    // (rank_<id>.<group>.npgroup: the group files of an imported folder, npuscope-cli import --keep)
    if (slim == "summary")
        names = { "trace_view.json", "ascend_timeline_display_*.json", "timeline_display_*.json",
            "rank_*.timeline.npgroup" };
    if (slim == "summary" || slim == "timeline") {
        names.insert(names.end(),
            { "kernel_details.csv", "op_summary*.csv", "operator_memory.csv", "rank_*.kernels.npgroup",
                "rank_*.memory.npgroup" });
    }
    std::vector<std::string> args;
    for (const auto& n : names)
        args.push_back("--exclude=" + n);
    return args;
}

// text as a literal part of an rsync filter pattern (wildcard characters escaped).
std::string rsyncLiteral(const std::string& text)
{
    std::string out;
    for (char c : text) {
        if (c == '*' || c == '?' || c == '[' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

// The filter rules of a copy with --ranks: the --slim level's exclusions for every file, then the listed ranks' own
// files (includes), then the summary level's exclusions for the rest. rsync takes the first rule that matches a name.
std::vector<std::string> rankFilters(const Options& o, const std::vector<std::string>& includes)
{
    auto rules = excludes(o.slim);
    rules.insert(rules.begin(), std::string("--exclude=") + kPartialDir + "/"); // never inside the listed folders
    for (const auto& pattern : includes)
        rules.push_back("--include=" + pattern);
    for (const auto& e : excludes("summary"))
        rules.push_back(e);
    return rules;
}

// rsync include patterns (anchored at the copy's root) for the files of the ranks of o.ranks that detection finds in
// local: everything under a rank's folder, or an imported rank's group files; their ids into found.
std::vector<std::string> listedRankIncludes(const Options& o, const fs::path& local, std::set<int64_t>& found)
{
    std::vector<std::string> patterns;
    const auto plan = npuscope::io::Detector::detect({ local.string() });
    const fs::path root = fs::absolute(local).lexically_normal();
    for (const auto& r : plan.ranks) {
        if (!o.ranks->count(r.rank))
            continue;
        const bool imported = r.files.size() == 1 && r.files.front().kind == npuscope::io::FileKind::ImportedRank;
        const fs::path folder = imported ? fs::path(r.path).parent_path() : fs::path(r.path);
        std::string rel = folder.lexically_normal().lexically_relative(root).generic_string();
        if (rel == ".")
            rel.clear();
        if (rel.rfind("..", 0) == 0)
            continue; // not under the copy (cannot happen for a plan of local)
        while (!rel.empty() && rel.back() == '/')
            rel.pop_back();
        found.insert(r.rank);
        const std::string prefix = rel.empty() ? std::string("/") : "/" + rsyncLiteral(rel) + "/";
        const std::string pattern = imported ? prefix + "rank_" + std::to_string(r.rank) + ".*.npgroup"
                                             : (rel.empty() ? "***" : prefix + "***");
        if (std::find(patterns.begin(), patterns.end(), pattern) == patterns.end())
            patterns.push_back(pattern);
    }
    return patterns;
}

class Progress {
public:
    explicit Progress(size_t hosts)
        : m_total(hosts)
    {
    }
    void percent(const std::string& id, int value)
    {
        std::lock_guard lock(m_mutex);
        int& last = m_last[id];
        if (value < last + 10 && !(value == 100 && last != 100))
            return;
        last = value;
        std::cerr << "collect: [" << m_done << "/" << m_total << " hosts done] " << id << " " << value << " %\n";
    }
    void done(const std::string& id, const Outcome& r)
    {
        std::lock_guard lock(m_mutex);
        ++m_done;
        std::cerr << "collect: [" << m_done << "/" << m_total << " hosts done] " << id << ": "
                  << (r.ok ? "ok, " + std::to_string(r.files) + " files, " + std::to_string(r.bytes)
                                 + " bytes, sizes verified"
                           : "FAILED: " + r.message)
                  << "\n";
    }

private:
    std::mutex m_mutex;
    size_t m_total;
    size_t m_done = 0;
    std::map<std::string, int> m_last;
};

// The last "NN%" of rsync --info=progress2 output.
void parsePercent(const std::string& chunk, const std::function<void(int)>& report)
{
    for (size_t at = chunk.find('%'); at != std::string::npos; at = chunk.find('%', at + 1)) {
        size_t start = at;
        while (start > 0 && std::isdigit(static_cast<unsigned char>(chunk[start - 1])))
            --start;
        if (start < at)
            report(std::stoi(chunk.substr(start, at - start)));
    }
}

Outcome collectHost(const Host& host, const Options& o, Progress& progress)
{
    Outcome r;
    const fs::path local = fs::path(o.out) / host.id;
    // 1. Can we log in, and is the folder there? (exit 3: missing; 255: ssh itself failed)
    auto probe = sshArgs(o);
    probe.push_back("--");
    probe.push_back(host.destination);
    probe.push_back("test -d " + shellQuoted(o.remoteDir) + " || exit 3");
    const auto p = runProgram(probe);
    if (p.status == 3) {
        r.message = "no folder " + o.remoteDir + " on the host";
        return r;
    }
    if (p.status != 0) {
        r.message = explain(p, o, "ssh");
        return r;
    }
    std::error_code ec;
    fs::create_directories(local, ec);
    if (ec) {
        r.message = "cannot create " + local.string() + ": " + ec.message();
        return r;
    }
    const std::string source = host.destination + ":" + o.remoteDir + "/";
    const std::vector<std::string> base { "rsync", "-a", "--protect-args", "-e", rsyncShell(o) };
    // 2. Copy; a file cut off by an interruption waits in kPartialDir, so the next run sends only the rest. With
    // --ranks, the summary files first, then (rules by the rank folders detection finds in them) the listed ranks'.
    auto copyWith = [&](const std::vector<std::string>& rules) {
        auto copy = base;
        copy.insert(copy.end(), rules.begin(), rules.end());
        copy.insert(
            copy.end(), { std::string("--partial-dir=") + kPartialDir, "--info=progress2", "--no-inc-recursive" });
        if (o.bwlimit > 0)
            copy.push_back("--bwlimit=" + std::to_string(o.bwlimit));
        copy.insert(copy.end(), { source, local.string() + "/" });
        return runProgram(copy, [&](const std::string& chunk) {
            parsePercent(chunk, [&](int value) { progress.percent(host.id, value); });
        });
    };
    auto rules = excludes(o.ranks ? std::string("summary") : o.slim);
    rules.insert(rules.begin(), std::string("--exclude=") + kPartialDir + "/");
    auto c = copyWith(rules);
    if (c.status == 0 && o.ranks) {
        rules = rankFilters(o, listedRankIncludes(o, local, r.listedRanks));
        c = copyWith(rules);
    }
    if (c.status != 0) {
        r.message = explain(c, o, "rsync");
        return r;
    }
    auto common = base;
    common.insert(common.end(), rules.begin(), rules.end());
    // 3. Verify: a dry run comparing sizes lists every file still missing or of another size.
    auto verify = common;
    verify.insert(verify.end(), { "--dry-run", "--size-only", "--out-format=%n", source, local.string() + "/" });
    const auto v = runProgram(verify);
    if (v.status != 0) {
        r.message = explain(v, o, "rsync (verification)");
        return r;
    }
    std::istringstream lines(v.out);
    std::string line;
    uint64_t differ = 0;
    while (std::getline(lines, line)) {
        if (!line.empty() && line.back() != '/')
            ++differ;
    }
    if (differ) {
        r.message = std::to_string(differ) + " files differ in size after the copy; run the same command again";
        return r;
    }
    for (fs::recursive_directory_iterator it(local, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code e2;
        if (it->is_regular_file(e2)) {
            ++r.files;
            r.bytes += it->file_size(e2);
        }
    }
    r.ok = true;
    return r;
}

int run(const std::vector<std::string>& args)
{
    Options o;
    npuscope::cli::Options parser("collect");
    parser.text("--hosts", [&](const std::string& v) { o.hostsFile = v; })
        .text("--remote-dir", [&](const std::string& v) { o.remoteDir = v; })
        .text("--out", [&](const std::string& v) { o.out = v; })
        .text("--ssh-config", [&](const std::string& v) { o.sshConfig = v; })
        .integer("--jobs", 1, 256, "an integer in 1..256", [&](long long n) { o.jobs = static_cast<int>(n); })
        .integer("--bwlimit", 1, 1LL << 40, "a positive integer (KB/s)", [&](long long n) { o.bwlimit = n; })
        .ranks(o.ranks)
        .value("--slim", "summary, timeline or all",
            [&](const std::string& v) {
                if (v != "summary" && v != "timeline" && v != "all")
                    return false;
                o.slim = v;
                return true;
            })
        .flag("--show-host-ips", o.showHosts);
    if (const auto status = parser.parse(args))
        return *status;
    if (o.hostsFile.empty() || o.remoteDir.empty() || o.out.empty())
        return npuscope::cli::usageError("collect", "needs --hosts FILE, --remote-dir DIR and --out RUN");
    if (o.ranks && o.slim == "summary")
        return npuscope::cli::usageError("collect", "--ranks chooses the ranks --slim timeline or all keeps");
    std::ifstream in(o.hostsFile);
    if (!in) {
        std::cerr << "npuscope-cli collect: cannot read " << o.hostsFile << "\n";
        return 1;
    }
    std::vector<Host> hosts;
    std::string line;
    while (std::getline(in, line)) {
        line = line.substr(0, line.find('#'));
        const auto a = line.find_first_not_of(" \t\r");
        if (a == std::string::npos)
            continue;
        const std::string h = line.substr(a, line.find_last_not_of(" \t\r") + 1 - a);
        if (h.front() == '-' || h.find_first_of(" \t") != std::string::npos) {
            std::cerr << "npuscope-cli collect: " << o.hostsFile << ": line " << hosts.size() + 1
                      << " is not an ssh destination\n";
            return 2;
        }
        hosts.push_back({ h, "host" + std::to_string(hosts.size()) });
    }
    if (hosts.empty()) {
        std::cerr << "npuscope-cli collect: no hosts in " << o.hostsFile << "\n";
        return 2;
    }
    std::error_code ec;
    fs::create_directories(o.out, ec);
    if (ec) {
        std::cerr << "npuscope-cli collect: cannot create " << o.out << ": " << ec.message() << "\n";
        return 1;
    }
    struct sigaction sa { };
    sa.sa_handler = onSignal;
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);

    Progress progress(hosts.size());
    std::vector<Outcome> outcomes(hosts.size());
    std::atomic<size_t> next { 0 };
    std::vector<std::thread> pool;
    for (int t = 0; t < std::min<int>(o.jobs, static_cast<int>(hosts.size())); ++t) {
        pool.emplace_back([&] {
            for (size_t i = next.fetch_add(1); i < hosts.size() && !g_stop; i = next.fetch_add(1)) {
                outcomes[i] = collectHost(hosts[i], o, progress);
                progress.done(hosts[i].id, outcomes[i]);
            }
        });
    }
    for (auto& t : pool)
        t.join();

    // The mapping table holds the real destinations: readable by the user only, and not a file the viewer reads.
    const fs::path table = fs::path(o.out) / "collect_hosts.tsv";
    {
        const int fd = ::open(table.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        std::ostringstream text;
        text << "mapping_id\thost\tstatus\tfiles\tbytes\n";
        for (size_t i = 0; i < hosts.size(); ++i)
            text << hosts[i].id << "\t" << hosts[i].destination << "\t"
                 << (outcomes[i].ok                                 ? "ok"
                            : g_stop && outcomes[i].message.empty() ? "not started"
                                                                    : "failed")
                 << "\t" << outcomes[i].files << "\t" << outcomes[i].bytes << "\n";
        const std::string s = text.str();
        if (fd < 0 || ::write(fd, s.data(), s.size()) != static_cast<ssize_t>(s.size())) {
            std::cerr << "npuscope-cli collect: cannot write " << table.string() << "\n";
            if (fd >= 0)
                ::close(fd);
            return 1;
        }
        ::fchmod(fd, 0600);
        ::close(fd);
    }
    const auto failed = std::count_if(outcomes.begin(), outcomes.end(), [](const Outcome& r) { return !r.ok; });
    if (o.ranks) {
        std::set<int64_t> missing = *o.ranks;
        for (const auto& r : outcomes) {
            for (const int64_t rank : r.listedRanks)
                missing.erase(rank);
        }
        if (!missing.empty() && !failed) {
            std::string list;
            size_t shown = 0;
            for (auto it = missing.begin(); it != missing.end() && shown < 20; ++it, ++shown)
                list += (list.empty() ? "" : ",") + std::to_string(*it);
            if (missing.size() > shown)
                list += ", ... (" + std::to_string(missing.size()) + " ranks)";
            std::cerr << "collect: ranks of --ranks found on no host: " << list << "\n";
        }
    }
    std::cerr << "collect: " << hosts.size() - static_cast<size_t>(failed) << " of " << hosts.size()
              << " hosts copied into " << o.out << " (host<k> -> host: " << table.string() << ")\n";
    if (g_stop)
        return 130;
    return failed ? 1 : 0;
}

const bool kRegistered = npuscope::cli::registerCommand({ "collect", kUsage, &run, 100 });

} // namespace
