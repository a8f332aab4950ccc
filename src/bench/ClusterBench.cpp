// SPDX-License-Identifier: Apache-2.0
#include "BenchCases.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/query/RankQuery.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

namespace fs = std::filesystem;

namespace npuscope::bench {

namespace {

std::string selfExe()
{
    std::error_code ec;
    const auto p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("npuscope-bench") : p.string();
}

std::vector<int> parseList(const std::string& text)
{
    std::vector<int> out;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
        out.push_back(std::atoi(item.c_str()));
    return out;
}

uint64_t summaryBytes(const io::LoadPlan& plan)
{
    uint64_t total = 0;
    for (const auto& r : plan.ranks) {
        for (const auto& f : r.files) {
            if (!io::isDeferredKind(f.kind))
                total += f.size;
        }
    }
    return total;
}

// Runs a command and returns its stdout lines parsed as `name value unit`.
std::map<std::string, double> runChild(const std::string& cmd)
{
    std::map<std::string, double> out;
    FILE* pipe = popen(cmd.c_str(), "r");
    if (!pipe)
        return out;
    char line[512];
    while (std::fgets(line, sizeof line, pipe)) {
        char name[256];
        double value = 0;
        if (std::sscanf(line, "%255s %lf", name, &value) == 2)
            out[name] = value;
    }
    pclose(pipe);
    return out;
}

} // namespace

double peakRssMb()
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("VmHWM:", 0) == 0)
            return std::strtod(line.c_str() + 6, nullptr) / 1024.0; // kB
    }
    return -1;
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const auto i = static_cast<size_t>(
        std::min<double>(static_cast<double>(v.size() - 1), p * static_cast<double>(v.size() - 1) + 0.5));
    return v[i];
}

bool parseArgs(const std::vector<std::string>& args, std::initializer_list<IntArg> ints,
    std::initializer_list<TextArg> texts, std::initializer_list<RealArg> reals)
{
    for (size_t i = 0; i + 1 < args.size(); i += 2) {
        bool known = false;
        for (const auto& a : ints) {
            if (args[i] == a.name) {
                *a.value = std::max(a.min, std::atoi(args[i + 1].c_str()));
                known = true;
            }
        }
        for (const auto& a : texts) {
            if (args[i] == a.name) {
                *a.value = args[i + 1];
                known = true;
            }
        }
        for (const auto& a : reals) {
            if (args[i] == a.name) {
                *a.value = std::max(a.min, std::atof(args[i + 1].c_str()));
                known = true;
            }
        }
        if (!known)
            return false;
    }
    return true;
}

bool parseSize(const std::string& text, int& width, int& height)
{
    return text.empty() || std::sscanf(text.c_str(), "%dx%d", &width, &height) == 2;
}

std::string defaultWorkDir() { return (fs::temp_directory_path() / "npuscope-bench").string(); }

bool generateOnce(const testgen::GeneratorOptions& g, const char* caseName)
{
    std::string error;
    if (fs::exists(fs::path(g.outDir) / testgen::ClusterGenerator::kMarkerFile)
        || testgen::ClusterGenerator::generate(g, error))
        return true;
    std::fprintf(stderr, "npuscope-bench%s%s: generate: %s\n", *caseName ? " " : "", caseName, error.c_str());
    return false;
}

testgen::GeneratorOptions pipelineCluster(const std::string& work, const char* name, int ranks)
{
    testgen::GeneratorOptions g;
    g.outDir = (fs::path(work) / (name + std::to_string(ranks))).string();
    g.ranks = ranks / 32 * 32;
    g.pp = 4;
    g.tp = 8;
    g.steps = 3;
    g.traceMb = 0.01;
    g.slowRank = 37;
    return g;
}

std::optional<io::LoadPlan> warmPlan(const std::string& path, const load::ParseCache& cache, const char* caseName)
{
    auto plan = io::Detector::detect({ path });
    if (!openSummary(plan, cache)) {
        std::fprintf(stderr, "npuscope-bench %s: nothing loaded from %s\n", caseName, path.c_str());
        return std::nullopt;
    }
    return plan;
}

std::optional<WarmCluster> warmCluster(
    const std::string& path, const testgen::GeneratorOptions& g, const std::string& work, const char* caseName)
{
    if (path.empty() && !generateOnce(g, caseName))
        return std::nullopt;
    WarmCluster c;
    c.cache = std::make_unique<load::ParseCache>(
        load::ParseCache::Options { (fs::path(work) / (std::string(caseName) + "-cache")).string(), 64ull << 30 });
    auto plan = warmPlan(path.empty() ? g.outDir : path, *c.cache, caseName);
    if (!plan)
        return std::nullopt;
    c.plan = std::move(*plan);
    return c;
}

std::optional<WarmCluster> warmPipelineCase(const std::vector<std::string>& args, const char* caseName,
    const std::function<void(testgen::GeneratorOptions&)>& plant, int& status)
{
    int ranks = 1024;
    std::string work = defaultWorkDir();
    std::string path;
    status = 2;
    if (!parseArgs(args, { { "--ranks", &ranks, 32 } }, { { "--work", &work }, { "--path", &path } }))
        return std::nullopt;
    status = 1;
    auto g = pipelineCluster(work, caseName, ranks);
    plant(g);
    return warmCluster(path, g, work, caseName); // the timed opens of the case are warm
}

void print(const std::string& name, double value, const char* unit)
{
    std::printf("%s %.3f %s\n", name.c_str(), value, unit);
    std::fflush(stdout);
}

int clusterOpenChild(const std::vector<std::string>& args)
{
    if (args.empty())
        return 2;
    load::LoadOptions options;
    options.loadTimelines = args.size() > 3 && args[3] == "1";
    if (args.size() > 1)
        options.threads = std::atoi(args[1].c_str());
    std::optional<load::ParseCache> cache;
    if (args.size() > 2 && args[2] != "-") {
        cache.emplace(load::ParseCache::Options { args[2], 64ull << 30 });
        options.cache = &*cache;
    }
    load::LoadReport report;
    options.report = &report;
    const auto t0 = Clock::now();
    const auto plan = io::Detector::detect({ args[0] });
    const double detectS = secondsSince(t0);
    auto db = load::Loader::load(plan, options);
    const double loadS = secondsSince(t0);
    // What the cluster views ask for when they first appear.
    const auto averaged = query::StepQuery::averaged(*db);
    const auto stats = query::clusterStats(averaged);
    const auto steps = query::StepQuery::steps(*db);
    const auto breakdown
        = query::StepQuery::breakdown(*db, steps.empty() ? std::nullopt : std::optional(steps.front()));
    const auto groups = query::CommQuery::groups(*db);
    const auto issues = query::IssueQuery::problemCount(*db);
    const double readyS = secondsSince(t0);
    print("detect_s", detectS, "s");
    print("load_s", loadS, "s");
    print("ready_s", readyS, "s");
    print("ranks", static_cast<double>(averaged.size()), "ranks");
    print("groups", static_cast<double>(groups.size()), "groups");
    print("problems", static_cast<double>(issues), "rows");
    print("parse_s", report.parseSeconds, "s");
    print("merge_s", report.mergeSeconds, "s");
    print("postload_s", report.postLoadSeconds, "s");
    print("index_s", report.indexSeconds, "s");
    print("input_mb", static_cast<double>(summaryBytes(plan)) / 1e6, "MB");
    print("rss_mb", peakRssMb(), "MB");
    return stats.empty() && breakdown.empty() ? 1 : 0;
}

int clusterOpen(const std::vector<std::string>& args)
{
    std::vector<int> sizes { 64, 256, 1024 };
    int flatDp = 1024;
    std::string work = defaultWorkDir();
    std::string threads = "0";
    std::string ranks, formatList;
    if (!parseArgs(args, { { "--flat-dp", &flatDp, kAnyInt } },
            { { "--ranks", &ranks }, { "--work", &work }, { "--threads", &threads }, { "--formats", &formatList } }))
        return 2;
    if (!ranks.empty())
        sizes = parseList(ranks);
    // The torch_npu form is always measured first: the other forms' ratios are against it.
    std::vector<testgen::OutputFormat> formats { testgen::OutputFormat::TorchNpu };
    {
        std::stringstream list(formatList);
        std::string name;
        while (std::getline(list, name, ',')) {
            const auto f = testgen::formatFromName(name);
            if (!f)
                return 2;
            if (*f != testgen::OutputFormat::TorchNpu)
                formats.push_back(*f);
        }
    }
    // One group per size (each of its forms) and one for the flat cluster: a group is generated, then opened.
    struct Form {
        testgen::OutputFormat format;
        std::string dir, prefix;
        std::map<std::string, double> best; // the child's figures of its fastest open
    };
    struct Group {
        int ranks;
        bool flat;
        std::vector<Form> forms;
    };
    std::vector<Group> groups;
    for (int n : sizes) {
        Group g { n, false, {} };
        for (const auto f : formats)
            g.forms.push_back({ f, {}, {}, {} });
        groups.push_back(std::move(g));
    }
    if (flatDp > 0)
        groups.push_back({ flatDp, true, { { testgen::OutputFormat::TorchNpu, {}, {}, {} } } });
    for (auto& [n, flat, forms] : groups) {
        const std::string name = (flat ? "flat-dp" : "cluster") + std::to_string(n);
        for (auto& form : forms) {
            const bool torch = form.format == testgen::OutputFormat::TorchNpu;
            testgen::GeneratorOptions g;
            g.outDir = (fs::path(work) / (torch ? name : name + "-" + testgen::formatName(form.format))).string();
            g.ranks = n;
            g.steps = 3;
            g.traceMb = 0.01; // timelines are not part of the cluster open
            // The flat case is one data-parallel group of every rank, linked every pair to every pair (a 1,024-way
            // all-to-all: the largest communication_matrix.json a cluster can have).
            g.tp = n >= 8 && !flat ? 8 : 1;
            g.pp = n >= 64 && !flat ? 4 : 1;
            g.allToAllGroups = flat;
            g.seed = 42;
            g.format = form.format;
            std::string error;
            const auto t0 = Clock::now();
            if (!testgen::ClusterGenerator::generate(g, error)) {
                std::fprintf(stderr, "npuscope-bench: generate %d ranks: %s\n", n, error.c_str());
                return 1;
            }
            // The torch_npu form keeps the figure names it always had; another form adds its name.
            form.dir = g.outDir;
            form.prefix = "cluster-open." + name.substr(flat ? 0 : 7)
                + (torch ? "" : std::string(".") + testgen::formatName(form.format));
            print(form.prefix + ".generate_s", secondsSince(t0), "s");
        }
        // Warm the page cache once so every figure measures parsing, not the disk. With several forms each is opened
        // in turn three times and keeps its fastest open, so a change of machine load does not decide the ratio.
        for (const auto& form : forms)
            runChild(selfExe() + " internal-open '" + form.dir + "' " + threads + " - 0");
        const int rounds = forms.size() > 1 ? 3 : 1;
        for (int round = 0; round < rounds; ++round) {
            for (auto& form : forms) {
                const auto r = runChild(selfExe() + " internal-open '" + form.dir + "' " + threads + " - 0");
                if (r.empty() || !r.count("ready_s")) {
                    std::fprintf(stderr, "npuscope-bench: child open of %s failed\n", form.dir.c_str());
                    return 1;
                }
                if (form.best.empty() || r.at("ready_s") < form.best.at("ready_s"))
                    form.best = r;
            }
        }
        if (rounds > 1)
            print(forms.front().prefix + ".rounds", rounds, "opens per form (fastest kept)");
        for (const auto& [format, dir, prefix, r] : forms) {
            const bool torch = format == testgen::OutputFormat::TorchNpu;
            print(prefix + ".ready_s", r.at("ready_s"), "s");
            print(prefix + ".load_s", r.at("load_s"), "s");
            print(prefix + ".detect_s", r.at("detect_s"), "s");
            for (const char* stage : { "parse_s", "merge_s", "postload_s", "index_s" }) {
                if (const auto it = r.find(stage); it != r.end())
                    print(prefix + "." + stage, it->second, "s");
            }
            print(prefix + ".ranks", r.at("ranks"), "ranks");
            print(prefix + ".input_mb", r.at("input_mb"), "MB");
            if (!torch) {
                print(prefix + ".problems", r.at("problems"), "rows");
                print(prefix + ".ready_ratio", r.at("ready_s") / std::max(1e-9, forms.front().best.at("ready_s")),
                    "x torch_npu");
                continue;
            }
            const std::string rss = "rss." + (flat ? name : "cluster-" + std::to_string(n));
            print(rss + ".peak_mb", r.at("rss_mb"), "MB");
            print(rss + ".ratio", r.at("rss_mb") / std::max(1e-9, r.at("input_mb")), "x input");
            if (flat)
                print(prefix + ".mb_per_s", r.at("input_mb") / std::max(1e-9, r.at("load_s")), "MB/s");
        }
    }
    return 0;
}

// Parses [--mb M] [--work DIR] and generates one rank with a trace_view.json of about M MB into
// DIR/single. Returns the exit status to use, 0 when the rank is ready.
int generateSingleRank(
    const std::vector<std::string>& args, double& mb, std::string& work, testgen::GeneratorOptions& g)
{
    mb = 500;
    work = defaultWorkDir();
    if (!parseArgs(args, {}, { { "--work", &work } }, { { "--mb", &mb, kAnyReal } }))
        return 2;
    g.outDir = (fs::path(work) / "single").string();
    g.ranks = 1;
    g.steps = 3;
    g.traceMb = mb;
    g.seed = 42;
    std::string error;
    if (!testgen::ClusterGenerator::generate(g, error)) {
        std::fprintf(stderr, "npuscope-bench: generate: %s\n", error.c_str());
        return 1;
    }
    return 0;
}

int reopen(const std::vector<std::string>& args)
{
    double mb = 0;
    std::string work;
    testgen::GeneratorOptions g;
    if (const int status = generateSingleRank(args, mb, work, g))
        return status;
    const fs::path cacheDir = fs::path(work) / "reopen-cache";
    std::error_code ec;
    fs::remove_all(cacheDir, ec);
    const std::string cmd = selfExe() + " internal-open '" + g.outDir + "' 0 '" + cacheDir.string() + "' 1";
    runChild(selfExe() + " internal-open '" + g.outDir + "' 0 - 0"); // warm the page cache
    const auto first = runChild(cmd);
    const auto second = runChild(cmd);
    if (first.empty() || second.empty())
        return 1;
    uint64_t cacheBytes = 0;
    for (const auto& e : fs::directory_iterator(cacheDir, ec))
        cacheBytes += e.file_size();
    print("reopen.trace_mb", mb, "MB");
    print("reopen.first_s", first.at("load_s"), "s");
    print("reopen.second_s", second.at("load_s"), "s");
    print("reopen.ratio", second.at("load_s") / std::max(1e-9, first.at("load_s")), "x first");
    print("reopen.cache_mb", static_cast<double>(cacheBytes) / 1e6, "MB");
    print("rss.reopen.first_mb", first.at("rss_mb"), "MB");
    print("rss.reopen.second_mb", second.at("rss_mb"), "MB");
    fs::remove_all(cacheDir, ec);
    return 0;
}

int ingestGenerated(const std::vector<std::string>& args, int (*ingest)(const std::string&, int))
{
    double mb = 0;
    std::string work;
    testgen::GeneratorOptions g;
    const auto t0 = Clock::now();
    if (const int status = generateSingleRank(args, mb, work, g))
        return status;
    print("ingest.generate_s", secondsSince(t0), "s");
    for (const auto& e : fs::recursive_directory_iterator(g.outDir)) {
        if (e.path().filename() == "trace_view.json")
            return ingest(e.path().string(), 1);
    }
    std::fprintf(stderr, "npuscope-bench: no trace_view.json generated\n");
    return 1;
}

} // namespace npuscope::bench
