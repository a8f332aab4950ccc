// SPDX-License-Identifier: Apache-2.0
#include "npuscope/load/HcclTasks.h"

#include "npuscope/load/SourceDetails.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <map>
#include <utility>

namespace npuscope::load {

namespace {

// A number written as a number or as a decimal string (torch_npu writes notify ids as strings).
std::optional<int64_t> integerOf(const nlohmann::json& args, const char* key)
{
    const auto it = args.find(key);
    if (it == args.end())
        return std::nullopt;
    if (it->is_number_integer())
        return it->get<int64_t>();
    if (it->is_number())
        return static_cast<int64_t>(it->get<double>());
    if (it->is_string()) {
        try {
            return std::stoll(it->get<std::string>());
        } catch (const std::exception&) {
            return std::nullopt;
        }
    }
    return std::nullopt;
}

std::string textOf(const nlohmann::json& args, const char* key)
{
    const auto it = args.find(key);
    return it != args.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The task as its args describe it; nullopt when the args are unreadable.
std::optional<query::HcclTask> taskOf(model::Database& db, const query::HcclTaskSlice& s)
{
    const SliceArgs a = SourceDetails::sliceArgs(db, s.sliceId);
    query::HcclTask t;
    t.ts = s.ts;
    t.dur = s.dur;
    t.plane = s.plane;
    t.type = s.name;
    if (!a.json)
        return a.error.empty() ? std::optional(t) : std::nullopt;
    const auto args = nlohmann::json::parse(*a.json, nullptr, false);
    if (!args.is_object())
        return std::nullopt;
    if (const std::string type = textOf(args, "task type"); !type.empty())
        t.type = type;
    t.transport = textOf(args, "transport type");
    t.rdmaType = textOf(args, "rdma type");
    t.src = integerOf(args, "src rank").value_or(-1);
    t.dst = integerOf(args, "dst rank").value_or(-1);
    t.sizeBytes = integerOf(args, "size(Byte)").value_or(0);
    return t;
}

} // namespace

std::vector<HcclOpFigures> HcclTasks::read(model::Database& db)
{
    std::vector<HcclOpFigures> out;
    // The profiler's own figures of each (rank, op name), the first row of a name.
    std::map<std::pair<int64_t, std::string>, std::pair<std::optional<int64_t>, std::optional<int64_t>>> written;
    auto st = db.prepare("SELECT rank_id, op_name, transit_ns, wait_ns FROM comm_op WHERE is_total = 0 AND op_name "
                         "IS NOT NULL ORDER BY rank_id, id");
    while (st.step())
        written.try_emplace({ st.int64(0), st.text(1) }, st.optInt(2), st.optInt(3));
    for (const auto& op : query::HcclTaskQuery::ops(db)) {
        HcclOpFigures f;
        f.rank = op.rank;
        f.name = op.name;
        f.ts = op.ts;
        f.dur = op.dur;
        std::vector<query::HcclTask> tasks;
        tasks.reserve(op.tasks.size());
        for (const auto& s : op.tasks) {
            if (auto t = taskOf(db, s))
                tasks.push_back(std::move(*t));
            else
                ++f.tasksWithoutArgs;
        }
        f.tasks = query::taskFigures(std::move(tasks));
        if (const auto it = written.find({ op.rank, op.name }); it != written.end()) {
            f.profilerTransitNs = it->second.first;
            f.profilerWaitNs = it->second.second;
        }
        for (const auto& p : f.tasks.planes) {
            const auto near = [](int64_t a, const std::optional<int64_t>& b) { return b && std::llabs(a - *b) <= 1000; };
            if (near(p.communicationNs, f.profilerTransitNs) && near(p.waitNs, f.profilerWaitNs)) {
                f.profilerPlane = p.plane;
                break;
            }
        }
        out.push_back(std::move(f));
    }
    return out;
}

} // namespace npuscope::load
