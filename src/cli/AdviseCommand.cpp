// SPDX-License-Identifier: Apache-2.0
// npuscope-cli advise: the expert advice (text, npuscope.advice/1, and the HTML report).
#include "CliSupport.h"

#include "npuscope/query/advice/AdviceQuery.h"
#include "npuscope/query/advice/AdviceReport.h"
#include "npuscope/query/advice/HtmlReport.h"

#include <fstream>
#include <iostream>

namespace {

constexpr const char* kUsage = R"(  advise [--json] [--html FILE] [--capacity-gb G] [--peak-tflops P] [--with-kernels] [--with-timeline]
         [--no-cache] PATH...
      Expert advice (docs/metrics.md, "Advice rules"): every rule with its threshold, the measured value, the
      ranks / links / ops / steps concerned, a suggestion and the view that shows the evidence; critical
      first. Rule ids: stage_imbalance, computation_dispersion, scheduling_dispersion, communication_dispersion
      (over comparable ranks = same pipeline stage and TP position), slow_rank, slow_link, wait_ratio,
      small_packets, rdma_retransmission, alignment, preparing, step_variance, bubble_share, flops_light,
      mfu (model FLOPs utilisation; needs --peak-tflops P, the chip's peak in TFLOP/s, else info), memory_peak
      (with --capacity-gb G), aicpu_long (with --with-kernels); with --with-timeline, for every rank:
      idle_gap (the longest device idle gaps and their cause: host launched late, long gap on the host side,
      other device work), collective_bound (host- or device-bound slow collectives), sdma_contention (SDMA
      below 14.4 GB/s while a MatMul runs) and dispatch_chain (aten op -> launch -> device task times).
      --with-kernels also imports every rank's kernel rows (as ops does), --with-timeline every rank's
      timeline (trace_view.json; both costly on large clusters). --json prints the npuscope.advice/1
      document. --html FILE also writes the self-contained HTML report (inline CSS and SVG, no script, no
      network: overview, the critical path of every step (it reads every rank's step kernels, as critical-path
      does), every finding with its evidence, the input); stdout is unchanged. The parse cache is used as by summary.
)";

int run(const std::vector<std::string>& args)
{
    npuscope::cli::ReportArgs report;
    bool kernels = false, timeline = false;
    std::string htmlPath;
    npuscope::query::advice::AdviceOptions advice;
    npuscope::cli::Options options("advise");
    options.report(report)
        .flag("--with-kernels", kernels)
        .flag("--with-timeline", timeline)
        .value("--peak-tflops", "a positive number", advice.peakTflops, npuscope::cli::parsePositive)
        .text("--html", [&](const std::string& v) { htmlPath = v; }, "a FILE")
        .value("--capacity-gb", "a positive number", advice.capacityMb, npuscope::cli::parseCapacityMb);
    if (const auto status = options.parse(args))
        return *status;
    // Every rule but aicpu_long and the timeline rules reads what the summary load imports; the kernel rows (every
    // rank's kernel_details.csv) only with --with-kernels, the timelines only with --with-timeline.
    const npuscope::io::DeferredGroups groups = (kernels ? npuscope::io::kKernelsGroup : npuscope::io::kNoGroup)
        | (timeline ? npuscope::io::kTimelineGroup : npuscope::io::kNoGroup);
    auto db = npuscope::cli::loadRanks("advise", report, groups);
    if (!db)
        return 1;
    const auto findings = npuscope::query::advice::AdviceQuery::run(*db, advice);
    if (!htmlPath.empty()) {
        // The critical path reads every rank's step kernels, as `critical-path` loads them.
        const auto graph = npuscope::cli::dependencyGraph(*db, report, std::nullopt);
        const auto path = npuscope::query::CriticalPath::run(graph);
        const std::string html = npuscope::query::advice::HtmlReport::build(*db, findings,
            { .paths = report.paths,
                .generatedAt = {},
                .skipFirstStep = advice.skipFirstStep,
                .graph = &graph,
                .criticalPath = &path });
        std::ofstream file(htmlPath, std::ios::binary);
        file << html;
        file.close();
        if (!file) {
            std::cerr << "npuscope-cli advise: cannot write " << htmlPath << "\n";
            return 1;
        }
    }
    npuscope::cli::printReport(
        report, [&] { return npuscope::query::advice::AdviceReport::json(findings); },
        [&] { return npuscope::query::advice::AdviceReport::text(findings); });
    return 0;
}

const bool kRegistered = npuscope::cli::registerCommand({ "advise", kUsage, &run, 70 });

} // namespace
