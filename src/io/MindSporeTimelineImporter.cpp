// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/MindSporeTimelineImporter.h"

#include "npuscope/io/TraceViewImporter.h"

namespace npuscope::io {

namespace {

// pids MindSpore's timeline generator writes (it emits no process_name events).
constexpr int64_t kDevicePid = 1;
constexpr int64_t kAiCpuPid = 9000;

} // namespace

bool MindSporeTimelineImporter::run(ImportContext& ctx)
{
    TraceViewImporter::Options options;
    options.processName = [](int64_t pid) -> std::optional<std::string> {
        if (pid == kDevicePid)
            return std::string("Device");
        if (pid == kAiCpuPid)
            return std::string("AI CPU");
        return "Process " + std::to_string(pid);
    };
    options.threadName
        = [](int64_t, int64_t tid) -> std::optional<std::string> { return "Stream " + std::to_string(tid); };
    ctx.info(std::nullopt,
        "timeline is relative: times are µs from the rank's first task and the profile holds no epoch base, so "
        "this rank's timeline starts at 0 and does not line up with other ranks");
    return TraceViewImporter::run(ctx, options);
}

} // namespace npuscope::io
