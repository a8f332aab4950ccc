// SPDX-License-Identifier: Apache-2.0
// communication.json and communication_matrix.json of a generated rank: per step the time and bandwidth info of
// every p2p and collective op with their totals, and per group and op type the link matrices of the top, middle
// and bottom ops by bandwidth with the per-link totals.
#include "ClusterGeneratorParts.h"

#include <nlohmann/json.hpp>

#include <map>

namespace npuscope::testgen::detail {

namespace {

using Json = nlohmann::ordered_json;

Json bandwidthInfo(const std::vector<const CommOp*>& ops, bool total)
{
    struct Acc {
        double size = 0;
        int64_t time = 0;
        std::map<std::string, std::pair<int64_t, double>> dist; // packet MB text -> (count, ms)
    };
    std::map<std::string, Acc> acc;
    for (const CommOp* op : ops) {
        for (const auto& l : op->links) {
            if (l.transport == "LOCAL")
                continue;
            auto& a = acc[l.transport];
            a.size += l.sizeMb;
            a.time += l.timeNs;
            auto& d = a.dist[fixed(l.sizeMb, 6)];
            d.first += 1;
            d.second += nsToMs(l.timeNs);
        }
    }
    Json out = Json::object();
    auto entry = [&](const char* name, const Acc* a, bool withDist) {
        Json e;
        const double size = a ? a->size : 0.0;
        const int64_t time = a ? a->time : 0;
        Json dist = Json::object();
        if (a && withDist) {
            for (const auto& [k, v] : a->dist)
                dist[k] = Json::array({ v.first, v.second });
        }
        if (total) {
            e["Transit Time(ms)"] = nsToMs(time);
            e["Transit Size(MB)"] = size;
            e["Size Distribution"] = dist;
        } else {
            e["Transit Size(MB)"] = size;
            e["Transit Time(ms)"] = nsToMs(time);
            e["Bandwidth(GB/s)"] = time > 0 ? round4(size / nsToMs(time)) : 0.0;
            e["Large Packet Ratio"] = 0.0;
            e["Size Distribution"] = dist;
        }
        out[name] = std::move(e);
    };
    auto find = [&](const char* name) -> const Acc* {
        auto it = acc.find(name);
        return it == acc.end() ? nullptr : &it->second;
    };
    entry("RDMA", find("RDMA"), true);
    entry("HCCS", find("HCCS"), true);
    entry("PCIE", nullptr, false);
    entry("SDMA", find("HCCS"), false); // HCCS links move data with SDMA; torch_npu repeats the totals
    entry("SIO", nullptr, false);
    return out;
}

Json timeInfo(int64_t start, bool withStart, int64_t elapse, int64_t transit, int64_t wait, int64_t sync, int64_t idle)
{
    Json t;
    if (withStart)
        t["Start Timestamp(us)"] = static_cast<double>(start / 100) / 10.0;
    t["Elapse Time(ms)"] = nsToMs(elapse);
    t["Transit Time(ms)"] = nsToMs(transit);
    t["Wait Time(ms)"] = nsToMs(wait);
    t["Synchronization Time(ms)"] = nsToMs(sync);
    t["Idle Time(ms)"] = nsToMs(idle);
    t["Wait Time Ratio"]
        = wait + transit > 0 ? round4(static_cast<double>(wait) / static_cast<double>(wait + transit)) : 0.0;
    t["Synchronization Time Ratio"]
        = sync + transit > 0 ? round4(static_cast<double>(sync) / static_cast<double>(sync + transit)) : 0.0;
    return t;
}

// {"step<N>": {"p2p": {...}, "collective": {...}}}, the nesting both files share; fill(step, p2p, kind) writes the
// ops of one step and kind into kind.
template <class Fill> std::string perStepAndKind(const std::vector<StepPlan>& steps, Fill fill)
{
    Json root = Json::object();
    for (const auto& sp : steps) {
        Json stepObj;
        for (const bool p2p : { true, false }) {
            Json kind = Json::object();
            fill(sp, p2p, kind);
            stepObj[p2p ? "p2p" : "collective"] = std::move(kind);
        }
        root["step" + std::to_string(sp.step)] = std::move(stepObj);
    }
    return root.dump();
}

} // namespace

std::string communicationJson(const Cluster& c, const std::vector<StepPlan>& steps)
{
    return perStepAndKind(steps, [&](const StepPlan& sp, bool p2p, Json& kind) {
        std::vector<const CommOp*> all;
        int64_t e = 0, tr = 0, w = 0, sy = 0, id = 0;
        for (const auto& op : sp.ops) {
            if (op.p2p != p2p)
                continue;
            all.push_back(&op);
            Json info;
            info["Communication Time Info"] = timeInfo(op.ts, true, op.elapse(), op.transit, op.wait, op.sync, op.idle);
            info["Communication Bandwidth Info"] = bandwidthInfo({ &op }, false);
            kind[opKey(c, op) + "@" + c.layout.groups[static_cast<size_t>(op.group)].hash] = std::move(info);
            e += op.elapse();
            tr += op.transit;
            w += op.wait;
            sy += op.sync;
            id += op.idle;
        }
        if (!all.empty()) {
            Json info;
            info["Communication Time Info"] = timeInfo(0, false, e, tr, w, sy, id);
            info["Communication Bandwidth Info"] = bandwidthInfo(all, true);
            kind["Total Op Info"] = std::move(info);
        }
    });
}

namespace {

Json linkJson(const LinkInst& l, const std::string* opName)
{
    Json j;
    j["Transport Type"] = l.transport;
    j["Transit Size(MB)"] = l.sizeMb;
    j["Transit Time(ms)"] = nsToMs(l.timeNs);
    j["Bandwidth(GB/s)"] = round4(l.bandwidth());
    if (opName)
        j["Op Name"] = *opName;
    return j;
}

} // namespace

std::string matrixJson(const Cluster& c, const std::vector<StepPlan>& steps)
{
    return perStepAndKind(steps, [&](const StepPlan& sp, bool p2p, Json& kind) {
        // (group, type) -> ops in time order
        std::map<std::pair<int, std::string>, std::vector<const CommOp*>> byGroup;
        for (const auto& op : sp.ops) {
            if (op.p2p == p2p)
                byGroup[{ op.group, op.type }].push_back(&op);
        }
        for (const auto& [key, ops] : byGroup) {
            const Group& g = c.layout.groups[static_cast<size_t>(key.first)];
            const std::string suffix = "@" + g.hash;
            const std::string type = lowerType(key.second);
            // Per link: ops ranked by that link's bandwidth, highest first.
            std::map<std::string, std::vector<std::pair<const LinkInst*, const CommOp*>>> perLink;
            std::vector<std::string> linkOrder;
            for (const CommOp* op : ops) {
                for (const auto& l : op->links) {
                    const std::string lk = std::to_string(l.srcLocal) + "-" + std::to_string(l.dstLocal);
                    if (!perLink.count(lk))
                        linkOrder.push_back(lk);
                    perLink[lk].emplace_back(&l, op);
                }
            }
            for (auto& [lk, v] : perLink) {
                std::stable_sort(v.begin(), v.end(),
                    [](const auto& a, const auto& b) { return a.first->bandwidth() > b.first->bandwidth(); });
            }
            const size_t n = ops.size();
            std::vector<std::pair<std::string, size_t>> slots { { "top1", 0 } };
            if (n >= 3)
                slots.emplace_back("middle", n / 2);
            slots.emplace_back("bottom1", n - 1);
            if (n >= 2)
                slots.emplace_back("bottom2", n - 2);
            if (n >= 4)
                slots.emplace_back("bottom3", n - 3);
            for (const auto& [slot, rankIndex] : slots) {
                Json links = Json::object();
                for (const auto& lk : linkOrder) {
                    const auto& v = perLink[lk];
                    const size_t i = std::min(rankIndex, v.size() - 1);
                    const std::string name = opKey(c, *v[i].second);
                    links[lk] = linkJson(*v[i].first, &name);
                }
                kind[type + "-" + slot + suffix] = std::move(links);
            }
            Json totals = Json::object();
            for (const auto& lk : linkOrder) {
                LinkInst sum = *perLink[lk].front().first;
                sum.sizeMb = 0;
                sum.timeNs = 0;
                for (const auto& [l, op] : perLink[lk]) {
                    sum.sizeMb += l->sizeMb;
                    sum.timeNs += l->timeNs;
                }
                totals[lk] = linkJson(sum, nullptr);
            }
            kind[type + "-total" + suffix] = std::move(totals);
        }
    });
}

} // namespace npuscope::testgen::detail
