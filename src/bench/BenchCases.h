// SPDX-License-Identifier: Apache-2.0
#pragma once

// The npuscope-bench cases beyond `ingest`. Each prints `name value unit` lines and returns an
// exit status; none of them is a pass/fail test.

#include "npuscope/io/detect/LoadPlan.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::load {
class ParseCache;
}
namespace npuscope::model {
class Database;
}

namespace npuscope::testgen {
struct GeneratorOptions;
}

namespace npuscope::bench {

// The clock every case times with, and the time from t0 to now in seconds or milliseconds.
using Clock = std::chrono::steady_clock;
inline double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
inline double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}
// Seconds fn takes to run.
template <typename Fn> double secondsOf(Fn&& fn)
{
    const auto t0 = Clock::now();
    fn();
    return secondsSince(t0);
}

// The folder a case generates into unless --work names another: <temp>/npuscope-bench.
std::string defaultWorkDir();

// One "--name value" argument of a case: an integer kept at least min, or a text.
struct IntArg {
    const char* name;
    int* value;
    int min;
};
struct TextArg {
    const char* name;
    std::string* value;
};
// A number with a fraction ("--trace-mb 0.5"), kept at least min.
struct RealArg {
    const char* name;
    double* value;
    double min;
};
// The min of an IntArg or RealArg that keeps every value as given.
inline constexpr int kAnyInt = std::numeric_limits<int>::min();
inline constexpr double kAnyReal = -std::numeric_limits<double>::infinity();
// Reads a case's "--name value" pairs into the given settings; false for a name that is not one of them.
bool parseArgs(const std::vector<std::string>& args, std::initializer_list<IntArg> ints,
    std::initializer_list<TextArg> texts = {}, std::initializer_list<RealArg> reals = {});

// A window size "WxH" (--size) into width and height; an empty text leaves them as they are. False when text is not a
// size.
bool parseSize(const std::string& text, int& width, int& height);

// Generates g's cluster into g.outDir unless a finished one is there already (the generator's marker file), so a
// case reruns on the same files; false, with the case's name (when not empty) and the reason on stderr, when
// generation fails.
bool generateOnce(const testgen::GeneratorOptions& g, const char* caseName);

// The TP8 x PP4 cluster of the advice and blame cases: ranks rounded down to a multiple of 32, 3 steps, tiny traces,
// rank 37 computing slower, written to work/<name><ranks>.
testgen::GeneratorOptions pipelineCluster(const std::string& work, const char* name, int ranks);

// The detection plan of path with its summary already in cache (one untimed open), so the timed opens of a case are
// warm; nullopt, with the case's name on stderr, when nothing loads.
std::optional<io::LoadPlan> warmPlan(const std::string& path, const load::ParseCache& cache, const char* caseName);

// What the warm cases (advise, blame) start from: a parse cache in work/<caseName>-cache and the plan of the cluster
// at path, or of g generated once (generateOnce) when path is empty, with its summary already in that cache
// (warmPlan), so the timed opens are warm.
struct WarmCluster {
    std::unique_ptr<load::ParseCache> cache;
    io::LoadPlan plan;
};
// nullopt, said on stderr, when generation fails or nothing loads.
std::optional<WarmCluster> warmCluster(
    const std::string& path, const testgen::GeneratorOptions& g, const std::string& work, const char* caseName);

// The opening of a warm PP 4 x TP 8 case (blame, critical-path): --ranks (default 1024), --work and --path read from
// args, the pipelineCluster changed by plant, then warmCluster. nullopt with the exit status in status (2: a usage
// error, 1: nothing generated or loaded).
std::optional<WarmCluster> warmPipelineCase(const std::vector<std::string>& args, const char* caseName,
    const std::function<void(testgen::GeneratorOptions&)>& plant, int& status);

// A summary open of plan (no timelines) through cache, as the GUI opens a cluster (LazyBench.cpp).
std::unique_ptr<model::Database> openSummary(const io::LoadPlan& plan, const load::ParseCache& cache);

// Peak resident set size of this process in MB (VmHWM), or -1 when /proc is unavailable.
double peakRssMb();
void print(const std::string& name, double value, const char* unit);
// A child process run by runMeasured.
struct ChildRun {
    bool ok = false;
    double seconds = 0;
    double peakRssMb = 0; // the child's ru_maxrss
    uint64_t outBytes = 0;
};
// Runs argv with stdout to outFile (stderr discarded); wall time and the child's own peak RSS (wait4's rusage).
ChildRun runMeasured(const std::vector<std::string>& argv, const std::string& outFile);
// The npuscope-cli next to this executable.
std::string cliExe();

// The p-quantile (0..1, nearest rank) of v; 0 for an empty v.
double percentile(std::vector<double> v, double p);

// cluster-open [--ranks 64,256,1024] [--flat-dp 1024] [--work DIR] [--threads N] [--formats LIST]: generated clusters,
// time from start to "cluster views ready" (detect + summary files of every rank + the cluster views' queries), each
// open in a fresh child process so its peak RSS is its own; then a flat data-parallel cluster of --flat-dp ranks
// with every-pair links (--all-to-all-groups; 0 skips it): peak RSS / summary bytes and MB/s of the summary files.
// --formats (torch_npu, mindspore, mindspore-legacy) also writes each size's cluster in those forms and prints
// their figures under cluster-open.<ranks>.<form> with ready_ratio, their ready time over the torch_npu form's of
// the same cluster in the same run; the forms of a size are then opened in turn three times, each keeping its
// fastest open.
int clusterOpen(const std::vector<std::string>& args);
// internal: one open measured in this process (used by clusterOpen through a child process).
int clusterOpenChild(const std::vector<std::string>& args);

// ingest-generated [--mb 500] [--work DIR]: generates one rank with a trace_view.json of about that
// size and runs the ingest case on it (floor, model, ratio, peak RSS as a fraction of the file).
// reopen [--mb 500] [--work DIR]: the same generated trace opened twice through an empty parse
// cache, each in a fresh child process: the second open reads the cache.
int reopen(const std::vector<std::string>& args);

// comm [--ranks 1024] [--work DIR]: a generated cluster in the offscreen main window; median / p95 of a
// step, group and op switch until the communication matrix and duration table are redrawn, of a matrix
// frame, and the in-memory index build times (src/bench/CommBench.cpp).
int commViews(int argc, char** argv, const std::vector<std::string>& args);

// gui-open --path P [--repeat 3] [--expand-seconds 15] [--size 1920x1080]: the main window (on the display, else
// offscreen) opens P until every visible dock is ready (gui.ready_s) against the engine's cluster-open of P in the same
// run (engine.ready_s), the two in turn --repeat times (medians, and the pairs within 1.2x + 0.5 s), then a scripted session: expand all ranks, raise every view in turn, cancel what is left; the GUI
// thread's longest stall (StallWatchdog) during the open and the session (gui.max_stall_ms).
int guiOpen(int argc, char** argv, const std::vector<std::string>& args);

// strategy-graph --path P [--frames 15] [--size 1920x1080]: the Strategy graph view of P in the main window: how long
// after the load it is ready (strategy.ready_s) and the median frame at each zoom level, the worst of them
// (strategy.frame_median_ms), against a blank frame of the same size (strategy.blank_frame_median_ms).
int strategyGraph(int argc, char** argv, const std::vector<std::string>& args);

// ops [--rows 1000000] [--ranks 8]: a model of that many kernel rows; the operator table's index build, regroup
// (type, name, name + shapes) and two-rank compare (query::OperatorQuery) against an SQL GROUP BY of the same rows
// in the same run (src/bench/OpsBench.cpp).
int opsTable(const std::vector<std::string>& args);

// memory [--points 5000000] [--frames 20]: memory detail curve frames (1600 px wide, offscreen) of that many
// synthetic samples against drawing every point unreduced, and the LTTB times (src/bench/MemoryBench.cpp).
int memoryCurve(int argc, char** argv, const std::vector<std::string>& args);

// marey [--devices 1024] [--ops 2000] [--frames 15] [--cluster DIR] [--work DIR] [--png DIR]: Marey frames (1920x1080,
// offscreen) of a synthetic step against the naive per-operator paint; with --cluster, opening the view of that
// cluster's first step (summary, kernels of every rank through a warm parse cache in --work, query, layout)
// (src/bench/MareyBench.cpp).
int mareyView(int argc, char** argv, const std::vector<std::string>& args);
// lazy [--ranks 1024] [--work DIR] [--path CLUSTER]: memory peaks right after a warm summary open (memory_peak)
// against the same query over every rank's memory_record rows, and the FLOPs kernel totals per rank cold and warm
// against importing every rank's kernel table (src/bench/LazyBench.cpp).
int lazyAggregates(const std::vector<std::string>& args);

// cli-json [--ranks 1024] [--trace-mb 1] [--work DIR] [--path CLUSTER] [--cli EXE] [--repeat 3]: `npuscope-cli
// summary --json --no-cache` against the text form on a generated tp 8 / pp 4 cluster (or CLUSTER), each a child
// process measured with wait4, in --repeat alternating pairs: median wall time and peak RSS of both and their ratios
// (src/bench/CliJsonBench.cpp).
int cliJson(const std::vector<std::string>& args);
// imported-open [--ranks 1024] [--work DIR] [--path CLUSTER] [--repeat 3]: the cluster's warm parse-cache summary
// reopen against the first open (no cache) of a folder of its `npuscope-cli import` rank files imported in one
// process (joined), and against the same files merged at each open (no joined model), with no cache and a warm one.
// slim [--ranks 256] [--trace-mb 2] [--work DIR]: bytes `npuscope-cli slim --keep summary` keeps of a generated
// cluster (src/bench/ClusterImportBench.cpp).
int importedOpen(const std::vector<std::string>& args);
int slimRatio(const std::vector<std::string>& args);
// blame [--ranks 1024] [--work DIR] [--path CLUSTER]: a generated PP 4 x TP 8 cluster (slow rank 37, clocks skewed
// 500 µs); summary load + blame analysis from a warm parse cache against the summary load alone (BlameBench.cpp).
int blameCluster(const std::vector<std::string>& args);
// critical-path [--ranks 1024] [--work DIR] [--path CLUSTER]: a generated PP 4 x TP 8 cluster; summary load + step
// kernels + dependency graph + critical path from a warm parse cache against the summary load alone, and the slowest
// what-if replay of one step (CriticalPathBench.cpp).
int criticalPathCluster(const std::vector<std::string>& args);

// diff [--ranks 1024] [--work DIR] [--cli EXE]: two generated PP 4 x TP 8 clusters of the same seed (the second with
// --slow-rank 5); `npuscope-cli diff --json A B` against `npuscope-cli summary --json B`, each a child process, cold
// (its own empty parse cache, filled by the run), warm (reading it) and --no-cache: wall time and peak RSS of both and
// their ratios (issue 20: within 2x) (src/bench/DiffBench.cpp).
int diffRuns(const std::vector<std::string>& args);

int ingestGenerated(const std::vector<std::string>& args, int (*ingest)(const std::string&, int));

// advise [--ranks 1024] [--work DIR] [--path CLUSTER] [--repeat 3]: the advice after a warm summary open, cold and
// by part (communication indexes, link table, rules on warm indexes), the fastest of --repeat runs each.
int adviseCluster(const std::vector<std::string>& args);

} // namespace npuscope::bench
