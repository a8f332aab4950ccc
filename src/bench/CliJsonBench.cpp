// SPDX-License-Identifier: Apache-2.0
#include "BenchCases.h"

#include "npuscope/testgen/ClusterGenerator.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace npuscope::bench {

ChildRun runMeasured(const std::vector<std::string>& argv, const std::string& outFile)
{
    ChildRun r;
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid < 0)
        return r;
    if (pid == 0) {
        const int out = open(outFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int null = open("/dev/null", O_WRONLY);
        if (out < 0 || null < 0)
            _exit(127);
        dup2(out, 1);
        dup2(null, 2);
        execv(args[0], args.data());
        _exit(127);
    }
    int status = 0;
    rusage usage {};
    if (wait4(pid, &status, 0, &usage) != pid)
        return r;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    r.peakRssMb = static_cast<double>(usage.ru_maxrss) / 1024.0; // kB
    std::error_code ec;
    r.outBytes = fs::file_size(outFile, ec);
    return r;
}

std::string cliExe()
{
    std::error_code ec;
    const auto self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("npuscope-cli") : (self.parent_path() / "npuscope-cli").string();
}

int cliJson(const std::vector<std::string>& args)
{
    int ranks = 1024;
    double traceMb = 1.0;
    std::string work = (fs::temp_directory_path() / "npuscope-bench").string();
    std::string path;
    std::string cli = cliExe();
    for (size_t i = 0; i + 1 < args.size(); i += 2) {
        if (args[i] == "--ranks")
            ranks = std::atoi(args[i + 1].c_str());
        else if (args[i] == "--trace-mb")
            traceMb = std::atof(args[i + 1].c_str());
        else if (args[i] == "--work")
            work = args[i + 1];
        else if (args[i] == "--path")
            path = args[i + 1];
        else if (args[i] == "--cli")
            cli = args[i + 1];
        else
            return 2;
    }
    if (path.empty()) {
        // The case: tp 8, pp 4; --trace-mb sets the kernels (and so the tp all-reduces) per step.
        testgen::GeneratorOptions g;
        g.outDir = (fs::path(work) / ("cli-json" + std::to_string(ranks))).string();
        g.ranks = ranks;
        g.tp = ranks >= 8 ? 8 : 1;
        g.pp = ranks >= 64 ? 4 : 1;
        g.traceMb = traceMb;
        g.seed = 42;
        std::string error;
        if (!testgen::ClusterGenerator::generate(g, error)) {
            std::fprintf(stderr, "npuscope-bench: generate %d ranks: %s\n", ranks, error.c_str());
            return 1;
        }
        path = g.outDir;
    }
    std::error_code ec;
    fs::create_directories(work, ec);
    const std::string out = (fs::path(work) / "cli-json.out").string();
    const std::vector<std::string> text { cli, "summary", "--no-cache", path };
    const std::vector<std::string> json { cli, "summary", "--json", "--no-cache", path };
    runMeasured(text, out); // warm the page cache
    const auto t = runMeasured(text, out);
    const auto j = runMeasured(json, out);
    fs::remove(out, ec);
    if (!t.ok || !j.ok) {
        std::fprintf(stderr, "npuscope-bench: %s summary failed on %s\n", cli.c_str(), path.c_str());
        return 1;
    }
    print("cli-json.text_s", t.seconds, "s");
    print("cli-json.json_s", j.seconds, "s");
    print("cli-json.time_ratio", j.seconds / std::max(1e-9, t.seconds), "x text");
    print("rss.cli-json.text_mb", t.peakRssMb, "MB");
    print("rss.cli-json.json_mb", j.peakRssMb, "MB");
    print("rss.cli-json.ratio", j.peakRssMb / std::max(1e-9, t.peakRssMb), "x text");
    print("cli-json.json_out_mb", static_cast<double>(j.outBytes) / 1e6, "MB");
    return 0;
}

} // namespace npuscope::bench
