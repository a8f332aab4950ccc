// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/cann/CannProfImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/parse/JsonFile.h"
#include "npuscope/io/parse/SliceTracker.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <tuple>

namespace fs = std::filesystem;

namespace npuscope::io {

namespace {

// device_<n>/timeline/x.json -> device_<n>; device_<n>/info.json.<n> -> device_<n>.
fs::path deviceDir(const std::string& file)
{
    const fs::path p(file);
    return p.parent_path().filename() == "timeline" ? p.parent_path().parent_path() : p.parent_path();
}

// start_info.<n> of the device folder: {"collectionTimeBegin" (epoch µs), "clockMonotonicRaw" (ns)}.
std::optional<nlohmann::json> startInfo(const fs::path& device)
{
    std::error_code ec;
    for (fs::directory_iterator it(device, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string n = it->path().filename().string();
        if (n.rfind("start_info.", 0) == 0 && n.find(".done") == std::string::npos)
            return peekJsonObject(it->path());
    }
    return std::nullopt;
}

} // namespace

bool CannProfImporter::runInfo(ImportContext& ctx)
{
    nlohmann::json root;
    if (!readJsonFile(ctx, root))
        return false;
    auto& w = ctx.writer();
    model::RankRow row;
    row.rankId = ctx.rankId();
    row.deviceId = jsonInt(root, "devices");
    if (auto h = root.find("hostname"); h != root.end() && h->is_string())
        row.host = h->get<std::string>();
    for (const char* key : { "version", "platform_version", "pid_name", "hwtype", "cpuNums", "sysClockFreq" }) {
        if (auto v = root.find(key); v != root.end() && v->is_primitive())
            w.addRankInfo(ctx.rankId(), std::string("cann.") + key, v->is_string() ? v->get<std::string>() : v->dump());
    }
    if (auto d = root.find("DeviceInfo"); d != root.end() && d->is_array() && !d->empty() && (*d)[0].is_object()) {
        for (const char* key : { "hwts_frequency", "aic_frequency", "ai_core_num", "ai_cpu_core_num", "aiv_num" }) {
            if (auto v = (*d)[0].find(key); v != (*d)[0].end() && v->is_primitive())
                w.addRankInfo(
                    ctx.rankId(), std::string("cann.") + key, v->is_string() ? v->get<std::string>() : v->dump());
        }
    }
    const fs::path device = deviceDir(ctx.file());
    if (const auto start = startInfo(device)) {
        for (const char* key : { "collectionTimeBegin", "clockMonotonicRaw", "collectionDateBegin" }) {
            if (auto v = start->find(key); v != start->end() && v->is_string())
                w.addRankInfo(ctx.rankId(), std::string("cann.start.") + key, v->get<std::string>());
        }
    } else {
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP(
                "ParseIssue", "no start_info next to info.json; timeline times cannot be converted to epoch")));
    }
    std::error_code ec;
    for (fs::directory_iterator it(device, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string n = it->path().filename().string();
        if (n.rfind("end_info.", 0) != 0 || n.find(".done") != std::string::npos)
            continue;
        if (const auto e = peekJsonObject(it->path())) {
            if (auto us = jsonInt(*e, "collectionTimeEnd"))
                row.collectionEndNs = *us * 1000;
            if (auto v = e->find("clockMonotonicRaw"); v != e->end() && v->is_string())
                w.addRankInfo(ctx.rankId(), "cann.end.clockMonotonicRaw", v->get<std::string>());
        }
    }
    w.updateRank(row);
    ctx.finish();
    return true;
}

bool CannProfImporter::runTimeline(ImportContext& ctx)
{
    const auto start = startInfo(deviceDir(ctx.file()));
    const auto beginUs = start ? jsonInt(*start, "collectionTimeBegin") : std::nullopt;
    const auto monoNs = start ? jsonInt(*start, "clockMonotonicRaw") : std::nullopt;
    if (!beginUs || !monoNs) {
        ctx.error(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                "no start_info (collectionTimeBegin, clockMonotonicRaw) in the device folder; the monotonic-raw "
                "timestamps cannot be placed in time, file not imported")));
        return false;
    }
    const int64_t offsetNs = *beginUs * 1000 - *monoNs;
    // Bare arrays (readJsonFile expects objects); these files are a few hundred KB each.
    std::ifstream in(ctx.file());
    if (!in) {
        ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "cannot open the file")));
        return false;
    }
    const auto root = nlohmann::json::parse(in, nullptr, false);
    if (root.is_discarded()) {
        ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "not valid JSON")));
        return false;
    }
    if (!root.is_array()) {
        ctx.error(
            std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "top level is not an array of trace events")));
        return false;
    }
    auto& w = ctx.writer();
    struct Event {
        int64_t pid, tid, ts, dur;
        const nlohmann::json* e;
    };
    std::vector<Event> slices;
    for (const auto& e : root) {
        if (!e.is_object())
            continue;
        const std::string ph = e.value("ph", std::string());
        const auto pid = jsonInt(e, "pid");
        const auto tid = jsonInt(e, "tid");
        if (!pid)
            continue;
        if (ph == "M") {
            const std::string name = e.value("name", std::string());
            const auto args = e.find("args");
            if (args == e.end() || !args->is_object())
                continue;
            if (name == "process_name" || name == "process_sort_index" || name == "process_labels") {
                model::ProcessRow p;
                p.rankId = ctx.rankId();
                p.pid = *pid;
                if (name == "process_name" && args->contains("name") && (*args)["name"].is_string())
                    p.name = (*args)["name"].get<std::string>();
                if (name == "process_labels" && args->contains("labels") && (*args)["labels"].is_string())
                    p.label = (*args)["labels"].get<std::string>();
                if (name == "process_sort_index")
                    p.sortIndex = jsonInt(*args, "sort_index");
                w.upsertProcess(p);
            } else if ((name == "thread_name" || name == "thread_sort_index") && tid) {
                model::ThreadRow t;
                t.rankId = ctx.rankId();
                t.pid = *pid;
                t.tid = *tid;
                if (name == "thread_name" && args->contains("name") && (*args)["name"].is_string())
                    t.name = (*args)["name"].get<std::string>();
                if (name == "thread_sort_index")
                    t.sortIndex = jsonInt(*args, "sort_index");
                w.upsertThread(t);
            }
            continue;
        }
        if (ph != "X")
            continue;
        const auto ts = e.find("ts");
        const auto dur = e.find("dur");
        if (ts == e.end() || !ts->is_number() || dur == e.end() || !dur->is_number()) {
            ctx.warning(
                std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "X event without numeric ts/dur; skipped")));
            continue;
        }
        const auto tsNs = doubleToNs(ts->get<double>(), 1.0e3);
        const auto durNs = doubleToNs(dur->get<double>(), 1.0e3);
        if (!tsNs || !durNs)
            continue;
        slices.push_back({ *pid, tid.value_or(0), *tsNs + offsetNs, std::max<int64_t>(0, *durNs), &e });
    }
    // Depth per track: by track, then in SliceTracker's order (stable: equal spans keep file order).
    std::stable_sort(slices.begin(), slices.end(), [](const Event& a, const Event& b) {
        if (a.pid != b.pid || a.tid != b.tid)
            return std::tie(a.pid, a.tid) < std::tie(b.pid, b.tid);
        return SliceTracker::before(a.ts, a.dur, b.ts, b.dur);
    });
    SliceTracker nesting;
    std::pair<int64_t, int64_t> track { -1, -1 };
    for (const auto& s : slices) {
        if (std::make_pair(s.pid, s.tid) != track) {
            track = { s.pid, s.tid };
            nesting.reset();
            model::ThreadRow t;
            t.rankId = ctx.rankId();
            t.pid = s.pid;
            t.tid = s.tid;
            w.upsertThread(t);
        }
        model::SliceRow r;
        r.rankId = ctx.rankId();
        r.pid = s.pid;
        r.tid = s.tid;
        r.ts = s.ts;
        r.dur = s.dur;
        r.depth = nesting.place(s.ts, s.dur).depth;
        r.nameId = w.intern(s.e->value("name", std::string()));
        if (auto c = s.e->find("cat"); c != s.e->end() && c->is_string())
            r.catId = w.intern(c->get<std::string>());
        if (auto a = s.e->find("args"); a != s.e->end() && a->is_object())
            r.args = a->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        w.addSlice(r);
    }
    ctx.finish();
    return true;
}

bool CannProfImporter::isProfDir(const fs::path& dir)
{
    if (dir.filename().string().rfind("PROF_", 0) != 0)
        return false;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().filename().string().rfind("device_", 0) == 0 && it->is_directory(ec))
            return true;
    }
    return false;
}

bool CannProfImporter::runStepTrace(ImportContext& ctx)
{
    std::ifstream in(ctx.file());
    if (!in) {
        ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "cannot open the file")));
        return false;
    }
    const auto root = nlohmann::json::parse(in, nullptr, false);
    if (root.is_discarded() || !root.is_array()) {
        ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "not a JSON array of trace events")));
        return false;
    }
    struct Parts {
        std::optional<int64_t> total, fpBp, tail;
    };
    std::map<int64_t, Parts> steps;
    // The "(ns)" args are whole ns written as floats ("47587810.0").
    auto nsArg = [](const nlohmann::json& args, const char* key) -> std::optional<int64_t> {
        const auto it = args.find(key);
        if (it == args.end() || !it->is_number())
            return std::nullopt;
        return static_cast<int64_t>(std::llround(it->get<double>()));
    };
    for (const auto& e : root) {
        if (!e.is_object() || e.value("ph", std::string()) != "X")
            continue;
        const auto args = e.find("args");
        if (args == e.end() || !args->is_object())
            continue;
        const auto id = jsonInt(*args, "Iteration ID");
        if (!id)
            continue;
        const std::string cat = e.value("cat", std::string());
        Parts& p = steps[*id];
        if (cat == "Iteration Time")
            p.total = nsArg(*args, "Iteration Time(ns)");
        else if (cat == "FP_BP Time")
            p.fpBp = nsArg(*args, "FP_BP Time(ns)");
        else if (cat == "Iteration Refresh")
            p.tail = nsArg(*args, "Iteration Refresh(ns)");
    }
    int64_t written = 0;
    for (const auto& [step, p] : steps) {
        if (!p.total)
            continue;
        model::StepTraceRow r;
        r.rankId = ctx.rankId();
        r.step = step;
        r.total = p.total;
        r.fpBp = p.fpBp;
        r.tail = p.tail;
        if (p.fpBp && p.tail && *p.total >= *p.fpBp + *p.tail)
            r.iterationInterval = *p.total - *p.fpBp - *p.tail;
        ctx.writer().addStepTrace(r);
        ++written;
    }
    if (written == 0)
        ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP(
                "ParseIssue", "no \"Iteration <N>\" events with Iteration Time(ns); no steps from this file")));
    ctx.finish();
    return true;
}

std::vector<PlannedRank> CannProfImporter::planRanks(const fs::path& dir)
{
    std::vector<PlannedRank> out;
    static const std::regex kDevice(R"(^device_(\d+)$)");
    static const std::regex kTimeline(R"(^(msprof|step_trace)_\d+(_\d+)*\.json$)");
    std::vector<fs::path> devices;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::smatch m;
        const std::string n = it->path().filename().string();
        if (std::regex_match(n, m, kDevice))
            devices.push_back(it->path());
    }
    std::sort(devices.begin(), devices.end());
    for (const auto& device : devices) {
        const std::string n = device.filename().string();
        const int64_t deviceId = parseInt(n.substr(7)).value_or(0);
        PlannedRank r;
        r.path = fs::absolute(device).lexically_normal().string();
        r.rank = deviceId;
        r.rankSource = "device_id";
        const fs::path info = device / ("info.json." + std::to_string(deviceId));
        if (fs::is_regular_file(info, ec)) {
            r.files.push_back({ FileKind::CannInfo, fs::absolute(info).lexically_normal().string(),
                static_cast<uint64_t>(fs::file_size(info, ec)) });
            if (const auto j = peekJsonObject(info); j && jsonInt(*j, "rank_id").value_or(-1) >= 0) {
                r.rank = *jsonInt(*j, "rank_id");
                r.rankSource = "rank_id_field";
            }
        }
        std::vector<fs::path> timelines;
        for (fs::directory_iterator it(device / "timeline", ec), end; !ec && it != end; it.increment(ec)) {
            const std::string t = it->path().filename().string();
            if (std::regex_match(t, kTimeline))
                timelines.push_back(it->path());
        }
        std::sort(timelines.begin(), timelines.end());
        for (const auto& t : timelines)
            r.files.push_back({ FileKind::CannTimeline, fs::absolute(t).lexically_normal().string(),
                static_cast<uint64_t>(fs::file_size(t, ec)) });
        // The step table: per model, the step_trace file with the highest index (each repeats every iteration).
        static const std::regex kStepTrace(R"(^step_trace_\d+_(\d+)_(\d+)\.json$)");
        std::map<int64_t, std::pair<int64_t, fs::path>> perModel; // model -> (index, file)
        for (const auto& t : timelines) {
            std::smatch m;
            const std::string name = t.filename().string();
            if (!std::regex_match(name, m, kStepTrace))
                continue;
            const int64_t model = parseInt(m[1].str()).value_or(0);
            const int64_t index = parseInt(m[2].str()).value_or(0);
            auto it = perModel.find(model);
            if (it == perModel.end() || index > it->second.first)
                perModel[model] = { index, t };
        }
        for (const auto& [model, chosen] : perModel)
            r.files.push_back({ FileKind::CannStepTrace, fs::absolute(chosen.second).lexically_normal().string(),
                static_cast<uint64_t>(fs::file_size(chosen.second, ec)) });
        if (!r.files.empty())
            out.push_back(std::move(r));
    }
    return out;
}

} // namespace npuscope::io
