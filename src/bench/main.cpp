// SPDX-License-Identifier: Apache-2.0
// npuscope-bench: prints `name value unit` lines. Ratios compare against a baseline measured in the
// same run, so the figures mean something on any machine. Never used as a pass/fail test.

#include "BenchCases.h"
#include "npuscope/core/RunOnThreads.h"
#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/io/torch_npu/TraceViewImporter.h"
#include "npuscope/model/Database.h"
#include "npuscope/model/ModelWriter.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using npuscope::bench::Clock;
using npuscope::bench::secondsSince;

int usage()
{
    std::fprintf(stderr,
        "usage: npuscope-bench ingest FILE [--repeat N] [--model-only]\n"
        "       npuscope-bench ingest-generated [--mb 500] [--work DIR]\n"
        "       npuscope-bench cluster-open [--ranks 64,256,1024] [--flat-dp 1024] [--work DIR] [--threads N]\n"
        "                                   [--formats torch_npu,mindspore,mindspore-legacy]\n"
        "       npuscope-bench cli-json [--ranks 1024] [--trace-mb 1] [--work DIR] [--path CLUSTER] [--cli EXE] "
        "[--repeat 3]\n"
        "       npuscope-bench reopen [--mb 500] [--work DIR]\n"
        "       npuscope-bench timeline [SLICES]\n"
        "       npuscope-bench comm [--ranks 1024] [--work DIR]\n"
        "       npuscope-bench gui-open --path P [--repeat 3] [--expand-seconds 15] [--size 1920x1080]\n"
        "       npuscope-bench strategy-graph --path P [--frames 15] [--size 1920x1080]\n"
        "       npuscope-bench ops [--rows 1000000] [--ranks 8]\n"
        "       npuscope-bench memory [--points 5000000] [--frames 20]\n"
        "       npuscope-bench marey [--devices 1024] [--ops 2000] [--cluster DIR] [--work DIR] [--png DIR]\n"
        "       npuscope-bench lazy [--ranks 1024] [--work DIR] [--path CLUSTER]\n"
        "       npuscope-bench imported-open [--ranks 1024] [--work DIR] [--path CLUSTER] [--repeat 3]\n"
        "       npuscope-bench slim [--ranks 256] [--trace-mb 2] [--work DIR]\n"
        "       npuscope-bench blame [--ranks 1024] [--work DIR] [--path CLUSTER]\n"
        "       npuscope-bench critical-path [--ranks 1024] [--work DIR] [--path CLUSTER]\n"
        "       npuscope-bench advise [--ranks 1024] [--work DIR] [--path CLUSTER] [--repeat 3]\n"
        "       npuscope-bench diff [--ranks 1024] [--work DIR] [--cli EXE]\n"
        "  ingest            trace_view.json throughput: import into the model (on every core) vs a single-thread\n"
        "                    simdjson On Demand pass touching every field (floor), and their ratio\n"
        "  ingest-generated  the same on a generated trace_view.json of about --mb MB\n"
        "  cluster-open      generated clusters: time to cluster views ready and peak RSS per size; a flat DP\n"
        "                    cluster with every-pair links: peak RSS / summary bytes and MB/s; --formats adds each\n"
        "                    size's MindSpore forms with their ready time over the torch_npu form's (ready_ratio)\n"
        "  cli-json          npuscope-cli summary --json vs the text form: time and peak RSS (child processes)\n"
        "  reopen            a generated trace opened twice through the parse cache\n"
        "  gui-open          the main window's open of P until its visible views are ready vs the engine's\n"
        "                    cluster-open of P, then expand all ranks and every view raised: longest GUI stall\n"
        "  strategy-graph    the Strategy graph view of P: ready after the load, worst median frame over zoom\n"
        "                    levels vs a blank frame of the same size\n"
        "  comm              generated cluster: step/group/op switch and matrix frame times\n"
        "  ops               operator table regroup / compare on --rows kernel rows vs an SQL GROUP BY\n"
        "  memory            memory curve frames of --points samples vs drawing every point, and LTTB times\n"
        "  marey             Marey frames of --devices x --ops (synthetic) vs a per-operator paint; with --cluster\n"
        "                    the time to open the view of that cluster's step on a warm parse cache\n"
        "  lazy              memory peaks after a warm summary open vs from every memory_record row; kernel totals\n"
        "                    per rank cold / cached vs importing every kernel table\n"
        "  imported-open     a folder of imported rank files opened vs the warm parse-cache reopen of the cluster\n"
        "  slim              bytes slim --keep summary keeps of a generated cluster with --trace-mb traces\n"
        "  blame             PP 4 x TP 8 cluster: summary load + blame (blame.cluster_s) vs the summary load\n"
        "  critical-path     PP 4 x TP 8 cluster: summary load + step kernels + critical path (critical_path.cluster_s)\n"
        "                    vs the summary load; the slowest what-if replay of one step\n"
        "  advise            PP 4 x TP 8 cluster: the advice cold after a summary open, and by part (indexes, link\n"
        "                    table, rules)\n"
        "  diff              two PP 4 x TP 8 clusters (slow rank 5): cli diff --json vs summary --json, time and "
        "RSS\n");
    return 2;
}

using npuscope::bench::peakRssMb;

void print(const char* name, double value, const char* unit) { npuscope::bench::print(name, value, unit); }

struct IngestResult {
    double secs = 0;
    bool ok = false;
    int64_t slices = 0, counters = 0, flows = 0, issues = 0;
};

IngestResult ingestOnce(const std::string& path)
{
    IngestResult r;
    auto db = npuscope::model::Database::createModel();
    {
        // Preparing the writer's statements is per-database setup, not per-file work: not timed.
        npuscope::model::ModelWriter writer(*db);
        npuscope::io::ImportContext ctx(writer, 0, path);
        const auto t0 = Clock::now();
        writer.begin();
        r.ok = npuscope::io::TraceViewImporter::run(ctx);
        writer.commit();
        r.secs = secondsSince(t0);
    }
    r.slices = db->scalarInt("SELECT count(*) FROM slice").value_or(0);
    r.counters = db->scalarInt("SELECT count(*) FROM counter").value_or(0);
    r.flows = db->scalarInt("SELECT count(*) FROM flow").value_or(0);
    r.issues = db->scalarInt("SELECT count(*) FROM parse_issue").value_or(0);
    return r;
}

int ingestImpl(const std::string& path, int repeat, bool modelOnly)
{
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec || size == 0) {
        std::fprintf(stderr, "npuscope-bench: cannot read %s\n", path.c_str());
        return 1;
    }
    const double mb = static_cast<double>(size) / 1e6;

    // Interleave floor and ingest so both see the same page cache and machine load; keep the best.
    double floorBest = 1e30, rawBest = 1e30, ingestBest = 1e30;
    IngestResult last;
    for (int i = 0; i < repeat && modelOnly; ++i) {
        last = ingestOnce(path);
        ingestBest = std::min(ingestBest, last.secs);
    }
    for (int i = 0; i < repeat && !modelOnly; ++i) {
        auto t0 = Clock::now();
        const auto bytes = npuscope::io::TraceViewImporter::parseOnly(path);
        const double floorSecs = secondsSince(t0);
        if (!bytes) {
            std::fprintf(stderr, "npuscope-bench: %s is not valid JSON (floor parse failed)\n", path.c_str());
            return 1;
        }
        floorBest = std::min(floorBest, floorSecs);
        t0 = Clock::now();
        if (!npuscope::io::TraceViewImporter::walkRawOnly(path)) {
            std::fprintf(stderr, "npuscope-bench: %s is not valid JSON (raw floor failed)\n", path.c_str());
            return 1;
        }
        rawBest = std::min(rawBest, secondsSince(t0));
        last = ingestOnce(path);
        ingestBest = std::min(ingestBest, last.secs);
    }

    // floor: one thread of simdjson On Demand over the whole file, touching (validating) every member
    // and element and materialising nothing: the fastest single-thread pass over this file.
    const double floorMbps = mb / floorBest;
    const double modelMbps = mb / ingestBest;
    print("file.size_mb", mb, "MB");
    if (modelOnly) {
        print("ingest.model_mbps", modelMbps, "MB/s");
        print("ingest.model_s", ingestBest, "s");
        return 0;
    }
    print("ingest.floor_mbps", floorMbps, "MB/s");
    print("ingest.model_mbps", modelMbps, "MB/s");
    print("ingest.ratio", modelMbps / floorMbps, "x");
    print("ingest.floor_s", floorBest, "s");
    // The raw floor: the same walk taking every key and value as its raw token (simdjson's structural pass alone,
    // nothing unescaped or checked), faster than any importer that reads values can be.
    print("ingest.raw_floor_mbps", mb / rawBest, "MB/s");
    print("ingest.raw_ratio", modelMbps / (mb / rawBest), "x");
    print("ingest.threads", static_cast<double>(npuscope::hardwareThreads()), "threads");
    print("ingest.model_s", ingestBest, "s");
    print("ingest.slices", static_cast<double>(last.slices), "rows");
    print("ingest.counters", static_cast<double>(last.counters), "rows");
    print("ingest.flows", static_cast<double>(last.flows), "rows");
    print("ingest.issues", static_cast<double>(last.issues), "rows");
    print("ingest.ok", last.ok ? 1 : 0, "bool");
    print("rss.peak_mb", peakRssMb(), "MB");
    print("rss.ratio", peakRssMb() / mb, "x file");
    return 0;
}

int ingest(const std::string& path, int repeat) { return ingestImpl(path, repeat, false); }

} // namespace

namespace npuscope::bench {
// src/bench/TimelineBench.cpp: paint and hover figures of a generated 5M-slice timeline.
int runTimelineBench(int argc, char** argv);
} // namespace npuscope::bench

int main(int argc, char** argv)
{
    try {
        if (argc < 2)
            return usage();
        const std::string_view command = argv[1];
        const std::vector<std::string> rest(argv + 2, argv + argc);
        if (command == "cluster-open")
            return npuscope::bench::clusterOpen(rest);
        if (command == "internal-open")
            return npuscope::bench::clusterOpenChild(rest);
        if (command == "cli-json")
            return npuscope::bench::cliJson(rest);
        if (command == "reopen")
            return npuscope::bench::reopen(rest);
        if (command == "timeline")
            return npuscope::bench::runTimelineBench(argc, argv);
        if (command == "comm")
            return npuscope::bench::commViews(argc, argv, rest);
        if (command == "gui-open")
            return npuscope::bench::guiOpen(argc, argv, rest);
        if (command == "strategy-graph")
            return npuscope::bench::strategyGraph(argc, argv, rest);
        if (command == "ops")
            return npuscope::bench::opsTable(rest);
        if (command == "memory")
            return npuscope::bench::memoryCurve(argc, argv, rest);
        if (command == "marey")
            return npuscope::bench::mareyView(argc, argv, rest);
        if (command == "lazy")
            return npuscope::bench::lazyAggregates(rest);
        if (command == "imported-open")
            return npuscope::bench::importedOpen(rest);
        if (command == "slim")
            return npuscope::bench::slimRatio(rest);
        if (command == "blame")
            return npuscope::bench::blameCluster(rest);
        if (command == "critical-path")
            return npuscope::bench::criticalPathCluster(rest);
        if (command == "advise")
            return npuscope::bench::adviseCluster(rest);
        if (command == "diff")
            return npuscope::bench::diffRuns(rest);
        if (command == "ingest-generated")
            return npuscope::bench::ingestGenerated(rest, &ingest);
        if (command != "ingest" || argc < 3)
            return usage();
        const std::string path = argv[2];
        int repeat = 1;
        bool modelOnly = false;
        for (int i = 3; i < argc; ++i) {
            const std::string_view arg = argv[i];
            if (arg == "--model-only") {
                modelOnly = true;
            } else if (arg == "--repeat" && i + 1 < argc) {
                repeat = std::max(1, std::atoi(argv[++i]));
            } else {
                return usage();
            }
        }
        return ingestImpl(path, repeat, modelOnly);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "npuscope-bench: %s\n", e.what());
        return 1;
    }
}
