// SPDX-License-Identifier: Apache-2.0
#include "BenchCases.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/SummaryReport.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
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
    const auto t0 = Clock::now();
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
    r.seconds = secondsSince(t0);
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
    std::string work = defaultWorkDir();
    std::string path;
    std::string cli = cliExe();
    int repeat = 3;
    if (!parseArgs(args, { { "--ranks", &ranks, kAnyInt }, { "--repeat", &repeat, 1 } },
            { { "--work", &work }, { "--path", &path }, { "--cli", &cli } }, { { "--trace-mb", &traceMb, kAnyReal } }))
        return 2;
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
    // Alternating pairs, the median of each form: one pair on a 2-core machine shared with other work swung the
    // ratio between 1.23 and 1.51.
    std::vector<ChildRun> texts, jsons;
    for (int i = 0; i < repeat; ++i) {
        texts.push_back(runMeasured(text, out));
        jsons.push_back(runMeasured(json, out));
    }
    fs::remove(out, ec);
    const auto failed = [](const std::vector<ChildRun>& runs) {
        return std::any_of(runs.begin(), runs.end(), [](const ChildRun& m) { return !m.ok; });
    };
    if (failed(texts) || failed(jsons)) {
        std::fprintf(stderr, "npuscope-bench: %s summary failed on %s\n", cli.c_str(), path.c_str());
        return 1;
    }
    const auto median = [](const std::vector<ChildRun>& runs, double ChildRun::*field) {
        std::vector<double> v;
        for (const auto& r : runs)
            v.push_back(r.*field);
        return percentile(v, 0.5);
    };
    ChildRun t = texts.front(), j = jsons.front();
    t.seconds = median(texts, &ChildRun::seconds);
    j.seconds = median(jsons, &ChildRun::seconds);
    t.peakRssMb = median(texts, &ChildRun::peakRssMb);
    j.peakRssMb = median(jsons, &ChildRun::peakRssMb);
    print("cli-json.pairs", repeat, "runs");
    print("cli-json.text_s", t.seconds, "s");
    print("cli-json.json_s", j.seconds, "s");
    print("cli-json.time_ratio", j.seconds / std::max(1e-9, t.seconds), "x text");
    print("rss.cli-json.text_mb", t.peakRssMb, "MB");
    print("rss.cli-json.json_mb", j.peakRssMb, "MB");
    print("rss.cli-json.ratio", j.peakRssMb / std::max(1e-9, t.peakRssMb), "x text");
    print("cli-json.json_out_mb", static_cast<double>(j.outBytes) / 1e6, "MB");

    // The documents' own cost, in this process on one load of the cluster (what the ratio above is made of):
    // median of --repeat writes of each form into a stream that drops the bytes.
    auto db = load::Loader::load(io::Detector::detect({ path }), load::LoadOptions {});
    std::vector<double> textWrites, jsonWrites;
    for (int i = 0; i < repeat; ++i) {
        auto t0 = Clock::now();
        const std::string printed = query::SummaryReport::text(*db);
        textWrites.push_back(secondsSince(t0));
        std::ofstream sink; // never opened: every write is dropped
        t0 = Clock::now();
        query::SummaryReport::write(sink, *db);
        jsonWrites.push_back(secondsSince(t0));
    }
    print("cli-json.text_report_s", percentile(textWrites, 0.5), "s");
    print("cli-json.json_report_s", percentile(jsonWrites, 0.5), "s");
    return 0;
}

} // namespace npuscope::bench
