// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/HcclTaskFigures.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace npuscope::query {

namespace {

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

enum class Kind { Other, Copy, NotifyWait, RdmaPayload, RdmaNotify };

Kind kindOf(const HcclTask& t)
{
    if (contains(t.type, "Reduce_Inline") || contains(t.type, "Reduce Inline") || t.type == "Memcpy")
        return Kind::Copy;
    if (contains(t.type, "Notify_Wait") || contains(t.type, "Notify Wait"))
        return Kind::NotifyWait;
    if (contains(t.type, "RDMASendPayload") || contains(t.rdmaType, "RDMASendPayload"))
        return Kind::RdmaPayload;
    if (contains(t.type, "RDMASendNotify") || contains(t.rdmaType, "RDMASendNotify"))
        return Kind::RdmaNotify;
    return Kind::Other;
}

} // namespace

std::optional<double> HcclTaskLink::bandwidthGbps() const
{
    if (timeNs <= 0)
        return std::nullopt;
    return static_cast<double>(sizeBytes) / static_cast<double>(timeNs); // B/ns = GB/s
}

HcclTaskFigures taskFigures(std::vector<HcclTask> tasks)
{
    std::stable_sort(tasks.begin(), tasks.end(),
        [](const HcclTask& a, const HcclTask& b) { return std::tie(a.plane, a.ts) < std::tie(b.plane, b.ts); });
    HcclTaskFigures f;
    f.tasks = tasks.size();
    std::map<std::tuple<int64_t, int64_t, std::string>, HcclTaskLink> links;
    auto link = [&links](const HcclTask& t) -> HcclTaskLink& {
        auto& l = links[{ t.src, t.dst, t.transport }];
        l.src = t.src;
        l.dst = t.dst;
        l.transport = t.transport;
        return l;
    };
    auto plane = [&f](const HcclTask& t) -> HcclPlaneFigures& {
        if (f.planes.empty() || f.planes.back().plane != t.plane)
            f.planes.push_back({ t.plane, 0, 0, 0 });
        return f.planes.back();
    };
    for (size_t i = 0; i < tasks.size(); ++i) {
        const HcclTask& t = tasks[i];
        const Kind kind = kindOf(t);
        ++plane(t).tasks;
        if (kind == Kind::NotifyWait) {
            f.notifyWaitNs += t.dur;
            plane(t).waitNs += t.dur; // taken back below when the wait closes an RDMA run
        }
        if (kind == Kind::Copy && t.transport == "SDMA") {
            f.sdmaNs += t.dur;
            plane(t).communicationNs += t.dur;
            auto& l = link(t);
            l.timeNs += t.dur;
            l.sizeBytes += t.sizeBytes;
            continue;
        }
        // An RDMA run: payload, notify, then the wait for the peer's notify, consecutive on one plane.
        if (kind == Kind::RdmaPayload && i + 2 < tasks.size() && tasks[i + 1].plane == t.plane
            && tasks[i + 2].plane == t.plane && kindOf(tasks[i + 1]) == Kind::RdmaNotify
            && kindOf(tasks[i + 2]) == Kind::NotifyWait) {
            const int64_t runNs = t.dur + tasks[i + 1].dur + tasks[i + 2].dur;
            f.rdmaNs += runNs;
            plane(t).communicationNs += runNs;
            plane(t).tasks += 2;
            f.notifyWaitNs += tasks[i + 2].dur;
            f.rdmaWaitNs += tasks[i + 2].dur;
            ++f.rdmaRuns;
            auto& l = link(t);
            l.timeNs += runNs;
            l.sizeBytes += t.sizeBytes;
            i += 2;
        }
    }
    for (auto& [key, l] : links)
        f.links.push_back(std::move(l));
    return f;
}

std::vector<HcclOpSlices> HcclTaskQuery::ops(model::Database& db)
{
    std::vector<HcclOpSlices> ops;
    std::vector<std::pair<int64_t, HcclTaskSlice>> tasks; // (rank, task)
    auto st = db.prepare(
        "SELECT s.id, s.rank_id, s.ts, s.dur, s.tid, n.value, COALESCE(t.name, '') LIKE 'Plane %' AS task "
        "FROM process p JOIN slice s ON s.rank_id = p.rank_id AND s.pid = p.pid "
        "LEFT JOIN thread t ON t.rank_id = s.rank_id AND t.pid = s.pid AND t.tid = s.tid "
        "JOIN string n ON n.id = s.name_id WHERE p.name = 'HCCL' ORDER BY s.rank_id, s.ts, s.id");
    while (st.step()) {
        if (st.int64(6) != 0) {
            tasks.push_back({ st.int64(1), { st.int64(0), st.int64(2), st.int64(3), st.int64(4), st.text(5) } });
        } else {
            HcclOpSlices op;
            op.rank = st.int64(1);
            op.ts = st.int64(2);
            op.dur = st.int64(3);
            op.name = st.text(5);
            ops.push_back(std::move(op));
        }
    }
    // Each task to the op of its rank that contains its start: the last op starting at or before it.
    for (auto& [rank, task] : tasks) {
        auto it = std::upper_bound(ops.begin(), ops.end(), std::make_pair(rank, task.ts),
            [](const std::pair<int64_t, int64_t>& key, const HcclOpSlices& op) {
                return key < std::make_pair(op.rank, op.ts);
            });
        if (it == ops.begin())
            continue;
        --it;
        if (it->rank == rank && task.ts <= it->ts + it->dur)
            it->tasks.push_back(std::move(task));
    }
    return ops;
}

} // namespace npuscope::query
