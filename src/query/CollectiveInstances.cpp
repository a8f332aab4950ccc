// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/CollectiveInstances.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>

namespace npuscope::query {

namespace {

struct Row {
    InstanceMember m;
    int64_t step = 0;
    bool p2p = false;
    std::string opName, groupHash;
};

void finish(CollectiveInstance& inst)
{
    auto& ms = inst.members;
    size_t last = 0;
    for (size_t i = 1; i < ms.size(); ++i) {
        if (ms[i].waitNs < ms[last].waitNs
            || (ms[i].waitNs == ms[last].waitNs && ms[i].alignedStartNs > ms[last].alignedStartNs))
            last = i;
    }
    inst.lastArriver = last;
    int64_t lo = ms.front().alignedStartNs, hi = lo, end = ms.front().alignedEndNs();
    inst.waitTotalNs = 0;
    inst.waitCostNs = 0;
    for (const auto& m : ms) {
        lo = std::min(lo, m.alignedStartNs);
        hi = std::max(hi, m.alignedStartNs);
        end = std::max(end, m.alignedEndNs());
        inst.waitTotalNs += m.waitNs;
        inst.waitCostNs += m.waitNs - ms[last].waitNs;
    }
    inst.spreadNs = hi - lo;
    inst.alignedEndNs = end;
}

// Offsets per clock domain: each collective's members end together, so the offsets are the least-squares fit of
// end = common end of the instance + offset of the member's domain, over the collectives with members on several
// domains, solved by alternating the two (ends given offsets, offsets given ends) until the offsets settle. Domains
// meet mostly in collectives of one domain's peers, so a plain median of residuals would never move; the mean does,
// a little each round.
std::vector<int64_t> estimateOffsets(const std::vector<CollectiveInstance>& insts, const std::vector<int>& domainOfRank,
    int domains, std::vector<int64_t>& used)
{
    std::vector<double> off(static_cast<size_t>(domains), 0.0);
    used.assign(static_cast<size_t>(domains), 0);
    std::vector<int64_t> result(static_cast<size_t>(domains), 0);
    if (domains < 2)
        return result;
    struct Member {
        int domain;
        double end;
    };
    std::vector<std::pair<size_t, size_t>> spans; // [begin, end) into members per spanning instance
    std::vector<Member> members;
    for (const auto& inst : insts) {
        if (inst.p2p || inst.members.size() < 2)
            continue;
        const int d0 = domainOfRank[static_cast<size_t>(inst.members.front().rank)];
        const bool spanning = std::any_of(inst.members.begin(), inst.members.end(),
            [&](const InstanceMember& m) { return domainOfRank[static_cast<size_t>(m.rank)] != d0; });
        if (!spanning)
            continue;
        const size_t begin = members.size();
        std::vector<int> seen;
        for (const auto& m : inst.members) {
            const int d = domainOfRank[static_cast<size_t>(m.rank)];
            members.push_back({ d, static_cast<double>(m.endNs() - inst.members.front().endNs()) });
            if (std::find(seen.begin(), seen.end(), d) == seen.end()) {
                seen.push_back(d);
                used[static_cast<size_t>(d)] += 1;
            }
        }
        spans.emplace_back(begin, members.size());
    }
    if (spans.empty())
        return result;
    std::vector<double> sum(static_cast<size_t>(domains));
    std::vector<double> count(static_cast<size_t>(domains));
    std::vector<double> common(spans.size());
    for (int round = 0; round < 400; ++round) {
        for (size_t i = 0; i < spans.size(); ++i) {
            double t = 0;
            for (size_t k = spans[i].first; k < spans[i].second; ++k)
                t += members[k].end - off[static_cast<size_t>(members[k].domain)];
            common[i] = t / static_cast<double>(spans[i].second - spans[i].first);
        }
        std::fill(sum.begin(), sum.end(), 0.0);
        std::fill(count.begin(), count.end(), 0.0);
        for (size_t i = 0; i < spans.size(); ++i) {
            for (size_t k = spans[i].first; k < spans[i].second; ++k) {
                sum[static_cast<size_t>(members[k].domain)] += members[k].end - common[i];
                count[static_cast<size_t>(members[k].domain)] += 1;
            }
        }
        double moved = 0;
        for (size_t d = 0; d < off.size(); ++d) {
            if (count[d] == 0)
                continue;
            const double next = sum[d] / count[d];
            moved = std::max(moved, std::abs(next - off[d]));
            off[d] = next;
        }
        if (moved < 10.0) // ns
            break;
    }
    for (size_t d = 0; d < off.size(); ++d)
        result[d] = std::llround(off[d] - off[0]); // domain 0 holds the lowest rank
    return result;
}

} // namespace

CollectiveSet CollectiveInstances::build(model::Database& db)
{
    CollectiveSet out;
    std::vector<Row> rows;
    std::map<int64_t, std::string> hosts; // rank -> host ("" unknown)
    std::set<std::tuple<int64_t, std::string, int64_t, int64_t>> links; // (step, group, src, dst) of p2p links
    {
        auto guard = db.lock();
        auto h = db.prepare("SELECT rank_id, COALESCE(host, '') FROM rank ORDER BY rank_id");
        while (h.step())
            hosts[h.int64(0)] = h.text(1);
        std::unordered_map<int64_t, double> sizes;
        auto b = db.prepare("SELECT comm_op_id, SUM(COALESCE(size_mb, 0)) FROM comm_bandwidth "
                            "WHERE transport <> 'LOCAL' GROUP BY comm_op_id");
        while (b.step())
            sizes[b.int64(0)] = b.real(1);
        auto st = db.prepare("SELECT id, rank_id, step, kind, op_key, op_name, COALESCE(op_type, ''), "
                             "COALESCE(group_hash, ''), start_ns, elapse_ns, transit_ns, wait_ns, sync_ns, idle_ns "
                             "FROM comm_op WHERE is_total = 0 AND step IS NOT NULL ORDER BY id");
        while (st.step()) {
            Row r;
            r.m.commOpId = st.int64(0);
            r.m.rank = st.int64(1);
            r.step = st.int64(2);
            r.p2p = st.text(3) == "p2p";
            r.m.opKey = st.text(4);
            r.opName = st.text(5);
            r.m.opType = st.text(6);
            r.groupHash = st.text(7);
            r.m.startNs = st.optInt(8).value_or(0);
            r.m.elapseNs = st.optInt(9).value_or(0);
            r.m.transitNs = st.optInt(10).value_or(0);
            r.m.waitNs = st.optInt(11).value_or(0);
            r.m.syncNs = st.optInt(12).value_or(0);
            r.m.idleNs = st.optInt(13).value_or(0);
            if (auto it = sizes.find(r.m.commOpId); it != sizes.end())
                r.m.sizeMb = it->second;
            rows.push_back(std::move(r));
        }
        auto l = db.prepare("SELECT DISTINCT step, COALESCE(group_hash, ''), src, dst FROM comm_link "
                            "WHERE kind = 'p2p' AND step IS NOT NULL AND src IS NOT NULL AND dst IS NOT NULL "
                            "AND src <> dst");
        while (l.step())
            links.emplace(l.int64(0), l.text(1), l.int64(2), l.int64(3));
    }

    // Clock domains: one per host, or per rank when the host is unknown.
    int64_t maxRank = -1;
    for (const auto& r : rows)
        maxRank = std::max(maxRank, r.m.rank);
    for (const auto& [rank, host] : hosts)
        maxRank = std::max(maxRank, rank);
    std::vector<int> domainOfRank(static_cast<size_t>(maxRank + 1), -1);
    std::map<std::string, int> domainIds;
    auto domainName = [&](int64_t rank) {
        auto it = hosts.find(rank);
        return it != hosts.end() && !it->second.empty() ? it->second : "rank " + std::to_string(rank);
    };
    std::vector<int64_t> ranksSeen;
    for (const auto& [rank, host] : hosts)
        ranksSeen.push_back(rank);
    for (const auto& r : rows)
        ranksSeen.push_back(r.m.rank);
    std::sort(ranksSeen.begin(), ranksSeen.end());
    ranksSeen.erase(std::unique(ranksSeen.begin(), ranksSeen.end()), ranksSeen.end());
    for (int64_t rank : ranksSeen) {
        auto [it, inserted] = domainIds.emplace(domainName(rank), static_cast<int>(domainIds.size()));
        domainOfRank[static_cast<size_t>(rank)] = it->second;
    }
    const int domains = static_cast<int>(domainIds.size());

    // Collectives, and p2p groups written as one key on every side, by (step, group, op name).
    std::map<std::tuple<int64_t, std::string, std::string>, std::vector<size_t>> byKey;
    // p2p groups per step: which op types occur.
    std::map<std::pair<int64_t, std::string>, std::pair<bool, bool>> p2pTypes; // (has send, has receive)
    for (size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        if (!r.p2p)
            continue;
        auto& t = p2pTypes[{ r.step, r.groupHash }];
        (r.m.opType == "receive" ? t.second : t.first) = true;
    }
    std::map<std::pair<int64_t, std::string>, std::vector<size_t>> pairRows; // p2p groups matched send -> receive
    for (size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        if (r.p2p) {
            const auto& t = p2pTypes[{ r.step, r.groupHash }];
            if (t.first && t.second) {
                pairRows[{ r.step, r.groupHash }].push_back(i);
                continue;
            }
        }
        byKey[{ r.step, r.groupHash, r.opName }].push_back(i);
    }
    auto makeInstance = [&](const Row& first) {
        CollectiveInstance inst;
        inst.step = first.step;
        inst.groupHash = first.groupHash;
        inst.opName = first.opName;
        inst.opKey = first.groupHash.empty() ? first.opName : first.opName + "@" + first.groupHash;
        inst.opType = first.m.opType;
        inst.p2p = first.p2p;
        return inst;
    };
    std::vector<CollectiveInstance> insts;
    for (const auto& [key, idx] : byKey) {
        CollectiveInstance inst = makeInstance(rows[idx.front()]);
        for (size_t i : idx)
            inst.members.push_back(rows[i].m);
        std::stable_sort(inst.members.begin(), inst.members.end(),
            [](const InstanceMember& a, const InstanceMember& b) { return a.rank < b.rank; });
        insts.push_back(std::move(inst));
    }

    std::vector<int64_t> used;
    const std::vector<int64_t> off = estimateOffsets(insts, domainOfRank, domains, used);
    auto offsetOf = [&](int64_t rank) { return off[static_cast<size_t>(domainOfRank[static_cast<size_t>(rank)])]; };
    for (auto& inst : insts) {
        for (auto& m : inst.members)
            m.alignedStartNs = m.startNs - offsetOf(m.rank);
    }
    for (auto& r : rows)
        r.m.alignedStartNs = r.m.startNs - offsetOf(r.m.rank);

    // Send -> receive pairs: per (step, group) the receives of every rank in start order; a send takes the first
    // unmatched receive of its size on a linked peer (per-pair order is FIFO), the nearest in aligned time when
    // several peers qualify.
    for (const auto& pairRow : pairRows) {
        // Not a structured binding: clang 14 cannot capture one in a lambda.
        const auto& sg = pairRow.first;
        const auto& idx = pairRow.second;
        std::map<int64_t, std::vector<size_t>> recvs; // rank -> rows
        std::vector<size_t> sends;
        std::set<int64_t> members;
        for (size_t i : idx) {
            members.insert(rows[i].m.rank);
            (rows[i].m.opType == "receive" ? recvs[rows[i].m.rank] : sends).push_back(i);
        }
        auto byStart = [&](size_t a, size_t b) {
            return std::make_pair(rows[a].m.alignedStartNs, a) < std::make_pair(rows[b].m.alignedStartNs, b);
        };
        std::sort(sends.begin(), sends.end(), byStart);
        for (auto& [rank, v] : recvs)
            std::sort(v.begin(), v.end(), byStart);
        std::map<int64_t, std::vector<bool>> taken;
        for (auto& [rank, v] : recvs)
            taken[rank].assign(v.size(), false);
        const bool groupHasLinks = std::any_of(links.begin(), links.end(),
            [&](const auto& l) { return std::get<0>(l) == sg.first && std::get<1>(l) == sg.second; });
        for (size_t si : sends) {
            const Row& s = rows[si];
            const double tol = 1e-6 * std::max(1.0, s.m.sizeMb);
            std::optional<std::pair<int64_t, size_t>> best; // (rank, index into recvs[rank])
            int64_t bestDistance = 0;
            for (auto& [q, v] : recvs) {
                if (q == s.m.rank || (groupHasLinks && !links.count({ sg.first, sg.second, s.m.rank, q })))
                    continue;
                const auto& t = taken[q];
                for (size_t k = 0; k < v.size(); ++k) {
                    if (t[k] || std::abs(rows[v[k]].m.sizeMb - s.m.sizeMb) > tol)
                        continue;
                    const Row& r = rows[v[k]];
                    const int64_t d = std::llabs((r.m.alignedStartNs + r.m.waitNs) - (s.m.alignedStartNs + s.m.waitNs));
                    if (!best || d < bestDistance) {
                        best = std::make_pair(q, k);
                        bestDistance = d;
                    }
                    break;
                }
            }
            if (!best) {
                out.unmatched.push_back({ s.step, s.m.rank, s.m.opKey, s.m.opType });
                continue;
            }
            taken[best->first][best->second] = true;
            CollectiveInstance inst = makeInstance(s);
            inst.members.push_back(s.m);
            inst.members.push_back(rows[recvs[best->first][best->second]].m);
            insts.push_back(std::move(inst));
        }
        for (auto& [q, v] : recvs) {
            for (size_t k = 0; k < v.size(); ++k) {
                if (!taken[q][k])
                    out.unmatched.push_back({ rows[v[k]].step, q, rows[v[k]].m.opKey, rows[v[k]].m.opType });
            }
        }
    }
    for (auto& inst : insts)
        finish(inst);
    std::sort(insts.begin(), insts.end(), [](const CollectiveInstance& a, const CollectiveInstance& b) {
        const auto& la = a.members[a.lastArriver];
        const auto& lb = b.members[b.lastArriver];
        return std::tie(a.step, la.alignedStartNs, a.opKey) < std::tie(b.step, lb.alignedStartNs, b.opKey);
    });
    out.instances = std::move(insts);
    std::sort(out.unmatched.begin(), out.unmatched.end(), [](const UnmatchedP2p& a, const UnmatchedP2p& b) {
        return std::tie(a.step, a.rank, a.opKey) < std::tie(b.step, b.rank, b.opKey);
    });
    for (const auto& [name, id] : domainIds) {
        ClockOffset o;
        o.domain = name;
        o.offsetNs = off[static_cast<size_t>(id)];
        o.instances = used.empty() ? 0 : used[static_cast<size_t>(id)];
        for (int64_t rank : ranksSeen) {
            if (domainOfRank[static_cast<size_t>(rank)] == id)
                o.ranks.push_back(rank);
        }
        out.offsets.push_back(std::move(o));
    }
    return out;
}

} // namespace npuscope::query
