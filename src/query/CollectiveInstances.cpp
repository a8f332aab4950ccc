// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/CollectiveInstances.h"
#include "npuscope/query/DependencyGraph.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace npuscope::query {

namespace {

// A comm_op row as read: the figures of its InstanceMember, strings as ids into Inputs::strings (a 1,024-rank cluster
// has 190,000 rows; with four strings each they held more memory than the model's comm tables).
struct Row {
    int64_t commOpId = 0, rank = 0, step = 0;
    int64_t startNs = 0, alignedStartNs = 0, elapseNs = 0, transitNs = 0, waitNs = 0, syncNs = 0, idleNs = 0;
    double sizeMb = 0;
    int32_t opKey = 0, opName = 0, opType = 0, groupHash = 0; // Inputs::strings
    bool p2p = false;
    int64_t endNs() const { return startNs + elapseNs; }
};

void finish(CollectiveInstance& inst)
{
    auto& ms = inst.members;
    // Who the instance waited for is the dependency graph's rule (one model for Blame and the critical path).
    const size_t last = binding::lastArriver(inst);
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

namespace {

// What build reads from the model.
struct Inputs {
    std::vector<Row> rows; // comm_op rows with a step, in id order
    std::vector<std::string> strings; // the rows' op keys, names, types and group hashes, each once
    int32_t receive = -1; // strings: "receive"
    const std::string& text(int32_t id) const { return strings[static_cast<size_t>(id)]; }
    InstanceMember member(const Row& r) const
    {
        InstanceMember m;
        m.rank = r.rank;
        m.commOpId = r.commOpId;
        m.opKey = text(r.opKey);
        m.opType = text(r.opType);
        m.startNs = r.startNs;
        m.alignedStartNs = r.alignedStartNs;
        m.elapseNs = r.elapseNs;
        m.transitNs = r.transitNs;
        m.waitNs = r.waitNs;
        m.syncNs = r.syncNs;
        m.idleNs = r.idleNs;
        m.sizeMb = r.sizeMb;
        return m;
    }
    std::map<int64_t, std::string> hosts; // rank -> host ("" unknown)
    std::set<std::tuple<int64_t, std::string, int64_t, int64_t>> links; // (step, group, src, dst) of p2p links
};

Inputs readInputs(model::Database& db)
{
    Inputs in;
    auto guard = db.lock();
    auto h = db.prepare("SELECT rank_id, COALESCE(host, '') FROM rank ORDER BY rank_id");
    while (h.step())
        in.hosts[h.int64(0)] = h.text(1);
    std::unordered_map<int64_t, double> sizes;
    auto b = db.prepare("SELECT comm_op_id, SUM(COALESCE(size_mb, 0)) FROM comm_bandwidth "
                        "WHERE transport <> 'LOCAL' GROUP BY comm_op_id");
    while (b.step())
        sizes[b.int64(0)] = b.real(1);
    {
        auto count = db.prepare("SELECT COUNT(*) FROM comm_op WHERE is_total = 0 AND step IS NOT NULL");
        if (count.step())
            in.rows.reserve(static_cast<size_t>(count.int64(0)));
    }
    std::unordered_map<std::string, int32_t> ids;
    auto intern = [&](std::string_view v) {
        auto [it, inserted] = ids.try_emplace(std::string(v), static_cast<int32_t>(in.strings.size()));
        if (inserted)
            in.strings.emplace_back(v);
        return it->second;
    };
    in.receive = intern("receive");
    auto st = db.prepare("SELECT id, rank_id, step, kind, op_key, op_name, COALESCE(op_type, ''), "
                         "COALESCE(group_hash, ''), start_ns, elapse_ns, transit_ns, wait_ns, sync_ns, idle_ns "
                         "FROM comm_op WHERE is_total = 0 AND step IS NOT NULL ORDER BY id");
    while (st.step()) {
        Row r;
        r.commOpId = st.int64(0);
        r.rank = st.int64(1);
        r.step = st.int64(2);
        r.p2p = st.textView(3).value_or(std::string_view()) == "p2p";
        r.opKey = intern(st.textView(4).value_or(std::string_view()));
        r.opName = intern(st.textView(5).value_or(std::string_view()));
        r.opType = intern(st.textView(6).value_or(std::string_view()));
        r.groupHash = intern(st.textView(7).value_or(std::string_view()));
        r.startNs = st.optInt(8).value_or(0);
        r.elapseNs = st.optInt(9).value_or(0);
        r.transitNs = st.optInt(10).value_or(0);
        r.waitNs = st.optInt(11).value_or(0);
        r.syncNs = st.optInt(12).value_or(0);
        r.idleNs = st.optInt(13).value_or(0);
        if (auto it = sizes.find(r.commOpId); it != sizes.end())
            r.sizeMb = it->second;
        in.rows.push_back(r);
    }
    auto l = db.prepare("SELECT DISTINCT step, COALESCE(group_hash, ''), src, dst FROM comm_link "
                        "WHERE kind = 'p2p' AND step IS NOT NULL AND src IS NOT NULL AND dst IS NOT NULL "
                        "AND src <> dst");
    while (l.step())
        in.links.emplace(l.int64(0), l.text(1), l.int64(2), l.int64(3));
    return in;
}

// Clock domains: one per host, or per rank when the host is unknown.
struct Domains {
    std::vector<int> ofRank; // rank -> domain id, -1 for a rank not seen
    std::map<std::string, int> ids; // domain name -> id, ids in the order of the ranks
    std::vector<int64_t> ranks; // every rank seen, ascending
};

Domains clockDomains(const Inputs& in)
{
    Domains d;
    for (const auto& [rank, host] : in.hosts)
        d.ranks.push_back(rank);
    for (const auto& r : in.rows)
        d.ranks.push_back(r.rank);
    std::sort(d.ranks.begin(), d.ranks.end());
    d.ranks.erase(std::unique(d.ranks.begin(), d.ranks.end()), d.ranks.end());
    d.ofRank.assign(d.ranks.empty() ? 0 : static_cast<size_t>(d.ranks.back() + 1), -1);
    for (int64_t rank : d.ranks) {
        const auto host = in.hosts.find(rank);
        const std::string name
            = host != in.hosts.end() && !host->second.empty() ? host->second : "rank " + std::to_string(rank);
        auto [it, inserted] = d.ids.emplace(name, static_cast<int>(d.ids.size()));
        d.ofRank[static_cast<size_t>(rank)] = it->second;
    }
    return d;
}

// The rows by instance, as row indices sorted so that each instance's rows are one run (in row order): collectives, and
// p2p groups written as one key on every side, by (step, group, op name); p2p groups with both sends and receives in a
// step by (step, group), to be matched send -> receive. (Maps keyed by the strings held 15 MB on 1,024 ranks.)
struct Grouped {
    std::vector<uint32_t> collective;
    std::vector<uint32_t> pairs;
};

Grouped groupRows(const Inputs& in)
{
    const auto& rows = in.rows;
    // p2p groups per step: which op types occur.
    std::map<std::pair<int64_t, int32_t>, std::pair<bool, bool>> p2pTypes; // (has send, has receive)
    for (const auto& r : rows) {
        if (!r.p2p)
            continue;
        auto& t = p2pTypes[{ r.step, r.groupHash }];
        (r.opType == in.receive ? t.second : t.first) = true;
    }
    // The strings' lexicographic order, so the instances come in the order of their (step, group, name) as text.
    std::vector<int32_t> byText(in.strings.size()), order(in.strings.size());
    for (size_t i = 0; i < byText.size(); ++i)
        byText[i] = static_cast<int32_t>(i);
    std::sort(byText.begin(), byText.end(), [&](int32_t a, int32_t b) { return in.text(a) < in.text(b); });
    for (size_t i = 0; i < byText.size(); ++i)
        order[static_cast<size_t>(byText[i])] = static_cast<int32_t>(i);
    Grouped g;
    for (size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        const auto t = r.p2p ? p2pTypes.find({ r.step, r.groupHash }) : p2pTypes.end();
        (t != p2pTypes.end() && t->second.first && t->second.second ? g.pairs : g.collective)
            .push_back(static_cast<uint32_t>(i));
    }
    auto groupKey
        = [&](uint32_t i) { return std::make_pair(rows[i].step, order[static_cast<size_t>(rows[i].groupHash)]); };
    std::stable_sort(g.collective.begin(), g.collective.end(), [&](uint32_t a, uint32_t b) {
        const auto ka = groupKey(a), kb = groupKey(b);
        return ka != kb ? ka < kb
                        : order[static_cast<size_t>(rows[a].opName)] < order[static_cast<size_t>(rows[b].opName)];
    });
    std::stable_sort(g.pairs.begin(), g.pairs.end(), [&](uint32_t a, uint32_t b) { return groupKey(a) < groupKey(b); });
    return g;
}

// Calls f(begin, end) for each run of v whose rows share key(row).
template <class Key, class F> void forEachRun(const std::vector<uint32_t>& v, Key key, F f)
{
    for (size_t b = 0; b < v.size();) {
        size_t e = b + 1;
        while (e < v.size() && key(v[e]) == key(v[b]))
            ++e;
        f(v.begin() + static_cast<std::ptrdiff_t>(b), v.begin() + static_cast<std::ptrdiff_t>(e));
        b = e;
    }
}

CollectiveInstance makeInstance(const Inputs& in, const Row& first)
{
    CollectiveInstance inst;
    inst.step = first.step;
    inst.groupHash = in.text(first.groupHash);
    inst.opName = in.text(first.opName);
    inst.opKey = inst.groupHash.empty() ? inst.opName : inst.opName + "@" + inst.groupHash;
    inst.opType = in.text(first.opType);
    inst.p2p = first.p2p;
    return inst;
}

// Send -> receive pairs of one (step, group): the receives of every rank in start order; a send takes the first
// unmatched receive of its size on a linked peer (per-pair order is FIFO), the nearest in aligned time when several
// peers qualify. Pairs go to insts, what found no partner to unmatched.
void matchPairs(const std::pair<int64_t, std::string>& sg, const std::vector<uint32_t>& idx, const Inputs& in,
    std::vector<CollectiveInstance>& insts, std::vector<UnmatchedP2p>& unmatched)
{
    const auto& rows = in.rows;
    std::map<int64_t, std::vector<size_t>> recvs; // rank -> rows
    std::vector<size_t> sends;
    for (size_t i : idx)
        (rows[i].opType == in.receive ? recvs[rows[i].rank] : sends).push_back(i);
    auto byStart = [&](size_t a, size_t b) {
        return std::make_pair(rows[a].alignedStartNs, a) < std::make_pair(rows[b].alignedStartNs, b);
    };
    std::sort(sends.begin(), sends.end(), byStart);
    for (auto& [rank, v] : recvs)
        std::sort(v.begin(), v.end(), byStart);
    std::map<int64_t, std::vector<bool>> taken;
    for (auto& [rank, v] : recvs)
        taken[rank].assign(v.size(), false);
    const bool groupHasLinks = std::any_of(in.links.begin(), in.links.end(),
        [&](const auto& l) { return std::get<0>(l) == sg.first && std::get<1>(l) == sg.second; });
    for (size_t si : sends) {
        const Row& s = rows[si];
        const double tol = 1e-6 * std::max(1.0, s.sizeMb);
        std::optional<std::pair<int64_t, size_t>> best; // (rank, index into recvs[rank])
        int64_t bestDistance = 0;
        for (auto& [q, v] : recvs) {
            if (q == s.rank || (groupHasLinks && !in.links.count({ sg.first, sg.second, s.rank, q })))
                continue;
            const auto& t = taken[q];
            for (size_t k = 0; k < v.size(); ++k) {
                if (t[k] || std::abs(rows[v[k]].sizeMb - s.sizeMb) > tol)
                    continue;
                const Row& r = rows[v[k]];
                const int64_t d = std::llabs((r.alignedStartNs + r.waitNs) - (s.alignedStartNs + s.waitNs));
                if (!best || d < bestDistance) {
                    best = std::make_pair(q, k);
                    bestDistance = d;
                }
                break;
            }
        }
        if (!best) {
            unmatched.push_back({ s.step, s.rank, in.text(s.opKey), in.text(s.opType) });
            continue;
        }
        taken[best->first][best->second] = true;
        CollectiveInstance inst = makeInstance(in, s);
        inst.members.reserve(2);
        inst.members.push_back(in.member(s));
        inst.members.push_back(in.member(rows[recvs[best->first][best->second]]));
        insts.push_back(std::move(inst));
    }
    for (auto& [q, v] : recvs) {
        for (size_t k = 0; k < v.size(); ++k) {
            if (!taken[q][k])
                unmatched.push_back({ rows[v[k]].step, q, in.text(rows[v[k]].opKey), in.text(rows[v[k]].opType) });
        }
    }
}

} // namespace

CollectiveSet CollectiveInstances::build(model::Database& db)
{
    CollectiveSet out;
    Inputs in = readInputs(db);
    auto& rows = in.rows;
    const Domains domains = clockDomains(in);
    Grouped grouped = groupRows(in);
    auto collectiveKey = [&](uint32_t i) { return std::make_tuple(rows[i].step, rows[i].groupHash, rows[i].opName); };
    auto pairKey = [&](uint32_t i) { return std::make_pair(rows[i].step, rows[i].groupHash); };
    std::vector<CollectiveInstance> insts;
    {
        size_t count = 0;
        forEachRun(grouped.collective, collectiveKey, [&](auto, auto) { ++count; });
        count += static_cast<size_t>(std::count_if(
            grouped.pairs.begin(), grouped.pairs.end(), [&](uint32_t i) { return rows[i].opType != in.receive; }));
        insts.reserve(count);
    }
    forEachRun(grouped.collective, collectiveKey, [&](auto first, auto last) {
        CollectiveInstance inst = makeInstance(in, rows[*first]);
        inst.members.reserve(static_cast<size_t>(last - first));
        for (auto it = first; it != last; ++it)
            inst.members.push_back(in.member(rows[*it]));
        std::stable_sort(inst.members.begin(), inst.members.end(),
            [](const InstanceMember& a, const InstanceMember& b) { return a.rank < b.rank; });
        insts.push_back(std::move(inst));
    });
    grouped.collective = {};

    std::vector<int64_t> used;
    const std::vector<int64_t> off = estimateOffsets(insts, domains.ofRank, static_cast<int>(domains.ids.size()), used);
    auto offsetOf = [&](int64_t rank) { return off[static_cast<size_t>(domains.ofRank[static_cast<size_t>(rank)])]; };
    for (auto& inst : insts) {
        for (auto& m : inst.members)
            m.alignedStartNs = m.startNs - offsetOf(m.rank);
    }
    for (auto& r : rows)
        r.alignedStartNs = r.startNs - offsetOf(r.rank);
    forEachRun(grouped.pairs, pairKey, [&](auto b, auto e) {
        matchPairs(
            { rows[*b].step, in.text(rows[*b].groupHash) }, std::vector<uint32_t>(b, e), in, insts, out.unmatched);
    });

    std::vector<Row>().swap(rows); // the members hold what the rest needs
    for (auto& inst : insts)
        finish(inst);
    std::sort(insts.begin(), insts.end(), [](const CollectiveInstance& a, const CollectiveInstance& b) {
        const auto& la = a.members[a.lastArriver];
        const auto& lb = b.members[b.lastArriver];
        return std::tie(a.step, la.alignedStartNs, a.opKey) < std::tie(b.step, lb.alignedStartNs, b.opKey);
    });
    out.instances = std::move(insts);
    // Moving the vector keeps its strings where they are, so the members' views stay valid.
    out.strings = std::make_shared<const std::vector<std::string>>(std::move(in.strings));
    std::sort(out.unmatched.begin(), out.unmatched.end(), [](const UnmatchedP2p& a, const UnmatchedP2p& b) {
        return std::tie(a.step, a.rank, a.opKey) < std::tie(b.step, b.rank, b.opKey);
    });
    for (const auto& [name, id] : domains.ids) {
        ClockOffset o;
        o.domain = name;
        o.offsetNs = off[static_cast<size_t>(id)];
        o.instances = used.empty() ? 0 : used[static_cast<size_t>(id)];
        for (int64_t rank : domains.ranks) {
            if (domains.ofRank[static_cast<size_t>(rank)] == id)
                o.ranks.push_back(rank);
        }
        out.offsets.push_back(std::move(o));
    }
    return out;
}

} // namespace npuscope::query
