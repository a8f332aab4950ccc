// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/mindspore/MindSporeTimelineImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/mindspore/MindSporeStepTraceImporter.h"
#include "npuscope/io/parse/SliceTracker.h"
#include "npuscope/io/torch_npu/TraceViewImporter.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

namespace fs = std::filesystem;

namespace npuscope::io {

namespace {

// pids MindSpore's timeline generator writes (it emits no process_name events).
constexpr int64_t kDevicePid = 1;
constexpr int64_t kAiCpuPid = 9000;
// MindSpore copies the step trace's per-op / parallel-stream spans (stream_<id>_parallel_<k>, ...) into the timeline
// under this pid, one tid per stream.
constexpr int64_t kStepTraceStreamsPid = 10000;
// The process npuscope adds for the step_trace_raw spans; far from any pid MindSpore writes.
constexpr int64_t kStepTracePid = 0x7fff0000;
constexpr int64_t kStepsTid = 0;

// The {id} of ascend_timeline_display_{id}.json / timeline_display_{id}.json, or "" for another name.
std::string fileId(const fs::path& file)
{
    static const std::regex kName(R"(^(?:ascend_)?timeline_display_(\d+)\.json$)");
    std::smatch m;
    const std::string name = file.filename().string();
    return std::regex_match(name, m, kName) ? m[1].str() : std::string();
}

// min_cycle_counter_{id}.txt: the syscnt tick of the rank's first task (the timeline's 0), e.g. "43806841592.0".
std::optional<int64_t> firstTaskNs(const fs::path& file, TrText& problem)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    const std::string s = text.str().substr(0, 64);
    // Ticks x 10 ns: one decimal digit of a tick is exactly one ns.
    const auto ns = parseScaled(trim(s), 1);
    if (!ns || *ns < 0) {
        problem = issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1: not a cycle counter (\"%2\")"),
            { file.filename().string(), std::string(trim(s).substr(0, 32)) });
        return std::nullopt;
    }
    return ns;
}

class StepTraceTrack {
public:
    explicit StepTraceTrack(ImportContext& ctx)
        : m_ctx(ctx)
    {
    }

    // Adds the "Step Trace" process: ProfilerStep#N spans with their iteration interval / FP+BP / tail parts on one
    // row. (The per-op / parallel-stream spans of the step trace are already in the timeline file, pid 10000.)
    void write(const std::vector<MindSporeStepTraceImporter::StepSpans>& steps)
    {
        auto& w = m_ctx.writer();
        model::ProcessRow process;
        process.rankId = m_ctx.rankId();
        process.pid = kStepTracePid;
        process.name = "Step Trace";
        process.label = "step_trace_raw";
        process.sortIndex = -1;
        w.upsertProcess(process);
        thread(kStepsTid, "Steps", 0);

        std::vector<Span> stepSpans;
        for (const auto& s : steps) {
            if (!s.start || !s.end || *s.end < *s.start)
                continue;
            stepSpans.push_back({ *s.start, *s.end - *s.start, "ProfilerStep#" + std::to_string(s.step) });
            if (s.fp && *s.fp > *s.start) // step 1 has none (fp_point = start_point)
                stepSpans.push_back({ *s.start, *s.fp - *s.start, "Iteration interval" });
            if (s.fp && s.bp && *s.bp > *s.fp)
                stepSpans.push_back({ *s.fp, *s.bp - *s.fp, "FP+BP" });
            if (s.bp && *s.end > *s.bp)
                stepSpans.push_back({ *s.bp, *s.end - *s.bp, "Tail" });
        }
        writeTrack(kStepsTid, stepSpans);
    }

private:
    struct Span {
        int64_t ts = 0, dur = 0;
        std::string name;
    };

    void thread(int64_t tid, const std::string& name, int64_t sortIndex)
    {
        model::ThreadRow t;
        t.rankId = m_ctx.rankId();
        t.pid = kStepTracePid;
        t.tid = tid;
        t.name = name;
        t.sortIndex = sortIndex;
        m_ctx.writer().upsertThread(t);
    }

    void writeTrack(int64_t tid, std::vector<Span>& spans)
    {
        SliceTracker::sort(spans.begin(), spans.end());
        model::SliceRow row;
        row.rankId = m_ctx.rankId();
        row.pid = kStepTracePid;
        row.tid = tid;
        row.catId = m_ctx.writer().intern("step_trace");
        SliceTracker nesting;
        for (const auto& s : spans) {
            row.ts = s.ts;
            row.dur = s.dur;
            row.depth = nesting.place(s.ts, s.dur).depth;
            row.nameId = m_ctx.writer().intern(s.name);
            m_ctx.writer().addSlice(row);
        }
    }

    ImportContext& m_ctx;
};

} // namespace

bool MindSporeTimelineImporter::run(ImportContext& ctx)
{
    TraceViewImporter::Options options;
    options.processName = [](int64_t pid) -> std::optional<std::string> {
        if (pid == kDevicePid)
            return std::string("Device");
        if (pid == kAiCpuPid)
            return std::string("AI CPU");
        if (pid == kStepTraceStreamsPid)
            return std::string("Step trace streams");
        return "Process " + std::to_string(pid);
    };
    options.threadName
        = [](int64_t, int64_t tid) -> std::optional<std::string> { return "Stream " + std::to_string(tid); };

    const fs::path file(ctx.file());
    const std::string id = fileId(file);
    std::optional<int64_t> base;
    if (!id.empty()) {
        const fs::path counter = file.parent_path() / ("min_cycle_counter_" + id + ".txt");
        TrText problem;
        base = firstTaskNs(counter, problem);
        if (!problem.source.empty())
            ctx.warning(std::nullopt, problem);
    }
    if (base) {
        options.tsOffsetNs = *base;
        ctx.info(std::nullopt,
            issueText(
                QT_TRANSLATE_NOOP("ParseIssue",
                    "timeline placed on the device system counter clock (ns since the counter started, not epoch) by "
                    "min_cycle_counter_%1.txt; ranks of one server share that clock, other servers do not"),
                { id }));
    } else {
        ctx.info(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                "timeline is relative: times are µs from the rank's first task and the profile holds no epoch base (no "
                "min_cycle_counter_{id}.txt next to it), so this rank's timeline starts at 0 and does not line up with "
                "other ranks")));
    }
    const bool ok = TraceViewImporter::run(ctx, options);
    if (!ok || !base || ctx.cancelled())
        return ok;

    // The step trace is on the same syscnt clock: draw its steps and op spans next to the tasks.
    const fs::path stepTrace = file.parent_path() / ("step_trace_raw_" + id + "_detail_time.csv");
    std::error_code ec;
    if (!fs::is_regular_file(stepTrace, ec))
        return ok;
    std::vector<MindSporeStepTraceImporter::StepSpans> steps;
    std::string error;
    if (!MindSporeStepTraceImporter::readSpans(stepTrace.string(), steps, error)) {
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "step spans not drawn: %1: %2"),
                { stepTrace.filename().string(), error }));
        return ok;
    }
    StepTraceTrack(ctx).write(steps);
    ctx.info(std::nullopt,
        issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1 steps of %2 drawn as the Step Trace process (same clock)"),
            { std::to_string(steps.size()), stepTrace.filename().string() }));
    return ok;
}

} // namespace npuscope::io
