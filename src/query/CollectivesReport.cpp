// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/CollectivesReport.h"
#include "npuscope/query/ReportText.h"

#include "npuscope/query/CommQuery.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <sstream>

namespace npuscope::query {

namespace {

using ojson = nlohmann::ordered_json;

double ms(int64_t ns) { return static_cast<double>(ns) / 1.0e6; }
double us(int64_t ns) { return static_cast<double>(ns) / 1.0e3; }

template <typename T> ojson orNull(const std::optional<T>& v) { return v ? ojson(*v) : ojson(nullptr); }
ojson msOrNull(const std::optional<int64_t>& v) { return v ? ojson(ms(*v)) : ojson(nullptr); }

std::string fmt(int decimals, double v) { return report::fixed(decimals, v); }

std::string rootLabel(const BlameRoot& r)
{
    if (r.link)
        return "link " + std::to_string(r.link->first) + "-" + std::to_string(r.link->second);
    return "rank " + std::to_string(r.rank.value_or(-1));
}

ojson offsetsJson(const CollectiveSet& set)
{
    ojson a = ojson::array();
    for (const auto& o : set.offsets) {
        if (o.offsetNs == 0 && o.instances == 0)
            continue;
        a.push_back({ { "domain", o.domain }, { "ranks", o.ranks }, { "offset_us", us(o.offsetNs) },
            { "instances", o.instances } });
    }
    return a;
}

// Instances passing the filter, by wait cost (largest first), at most top.
std::vector<size_t> selected(model::Database& db, const BlameResult& blame, const CollectivesFilter& f)
{
    std::optional<std::string> hash;
    if (f.group) {
        hash = *f.group;
        for (const auto& g : CommQuery::groups(db)) {
            if (g.name && *g.name == *f.group)
                hash = g.hash;
        }
    }
    std::vector<size_t> idx;
    const auto& insts = blame.set.instances;
    for (size_t i = 0; i < insts.size(); ++i) {
        if ((f.step && insts[i].step != *f.step) || (hash && insts[i].groupHash != *hash))
            continue;
        idx.push_back(i);
    }
    std::stable_sort(
        idx.begin(), idx.end(), [&](size_t a, size_t b) { return insts[a].waitCostNs > insts[b].waitCostNs; });
    if (f.top && idx.size() > *f.top)
        idx.resize(*f.top);
    return idx;
}

const BlameRoot* rootOf(const BlameResult& blame, size_t inst)
{
    const auto [s, r] = blame.rootOf[inst];
    return s < 0 ? nullptr : &blame.steps[static_cast<size_t>(s)].roots[static_cast<size_t>(r)];
}

ojson hopJson(const BlameResult& blame, const BlameHop& h)
{
    const auto& in = blame.set.instances[h.instance];
    const InstanceMember* m = &in.members.front();
    for (const auto& mm : in.members) {
        if (mm.rank == h.rank)
            m = &mm;
    }
    return { { "step", in.step }, { "group", in.groupHash }, { "op_key", m->opKey }, { "op_type", m->opType },
        { "rank", h.rank }, { "relation", h.relation }, { "start_us", us(m->alignedStartNs) },
        { "end_us", us(m->alignedEndNs()) }, { "wait_ms", ms(m->waitNs) }, { "transit_ms", ms(m->transitNs) },
        { "last_arriver", in.members[in.lastArriver].rank } };
}

} // namespace

ojson CollectivesReport::rootJson(const BlameRoot& root)
{
    ojson j;
    if (root.link)
        j["link"] = { { "src", root.link->first }, { "dst", root.link->second } };
    else
        j["rank"] = orNull(root.rank);
    j["cause"] = blameCauseName(root.cause);
    return j;
}

ojson CollectivesReport::collectivesJson(model::Database& db, const BlameResult& blame, const CollectivesFilter& f)
{
    std::map<std::string, std::string> names;
    for (const auto& g : CommQuery::groups(db)) {
        if (g.name)
            names[g.hash] = *g.name;
    }
    ojson j;
    j["schema"] = "npuscope.collectives/1";
    j["clock_offsets"] = offsetsJson(blame.set);
    j["instance_count"] = blame.set.instances.size();
    ojson unmatched = ojson::array();
    for (const auto& u : blame.set.unmatched)
        unmatched.push_back({ { "step", u.step }, { "rank", u.rank }, { "op_key", u.opKey }, { "op_type", u.opType } });
    j["unmatched_p2p"] = std::move(unmatched);
    ojson arr = ojson::array();
    for (size_t i : selected(db, blame, f)) {
        const auto& in = blame.set.instances[i];
        ojson o;
        o["step"] = in.step;
        o["group"] = in.groupHash;
        auto nm = names.find(in.groupHash);
        o["group_name"] = nm == names.end() ? ojson(nullptr) : ojson(nm->second);
        o["op_key"] = in.opKey;
        o["op_type"] = in.opType;
        o["kind"] = in.p2p ? "p2p" : "collective";
        ojson members = ojson::array();
        for (const auto& m : in.members) {
            members.push_back({ { "rank", m.rank }, { "op_key", m.opKey }, { "op_type", m.opType },
                { "start_us", us(m.startNs) }, { "aligned_start_us", us(m.alignedStartNs) },
                { "elapse_ms", ms(m.elapseNs) }, { "transit_ms", ms(m.transitNs) }, { "wait_ms", ms(m.waitNs) },
                { "sync_ms", ms(m.syncNs) }, { "idle_ms", ms(m.idleNs) }, { "size_mb", m.sizeMb } });
        }
        o["members"] = std::move(members);
        o["last_arriver"] = in.members[in.lastArriver].rank;
        o["spread_ms"] = ms(in.spreadNs);
        o["wait_total_ms"] = ms(in.waitTotalNs);
        o["wait_cost_ms"] = ms(in.waitCostNs);
        o["delay_ms"] = ms(blame.delayNs[i]);
        const BlameRoot* r = rootOf(blame, i);
        o["root"] = r ? rootJson(*r) : ojson(nullptr);
        arr.push_back(std::move(o));
    }
    j["instances"] = std::move(arr);
    return j;
}

std::string CollectivesReport::collectivesText(
    model::Database& db, const BlameResult& blame, const CollectivesFilter& f)
{
    std::ostringstream s;
    const auto idx = selected(db, blame, f);
    s << blame.set.instances.size() << " instances, " << blame.set.unmatched.size() << " unmatched send/receive\n";
    for (const auto& o : blame.set.offsets) {
        if (o.offsetNs != 0)
            s << "clock offset " << o.domain << ": " << fmt(1, us(o.offsetNs)) << " us\n";
    }
    s << "step  op_key  type  members  last_arriver  spread_ms  wait_cost_ms  root\n";
    for (size_t i : idx) {
        const auto& in = blame.set.instances[i];
        const BlameRoot* r = rootOf(blame, i);
        s << in.step << "  " << in.opKey << "  " << in.opType << "  " << in.members.size() << "  "
          << in.members[in.lastArriver].rank << "  " << fmt(3, ms(in.spreadNs)) << "  " << fmt(3, ms(in.waitCostNs))
          << "  " << (r ? rootLabel(*r) + " (" + blameCauseName(r->cause) + ")" : std::string("-")) << "\n";
    }
    return s.str();
}

ojson CollectivesReport::blameJson(const BlameResult& blame, std::optional<int64_t> step)
{
    ojson j;
    j["schema"] = "npuscope.blame/1";
    j["clock_offsets"] = offsetsJson(blame.set);
    ojson steps = ojson::array();
    for (const auto& bs : blame.steps) {
        if (step && bs.step != *step)
            continue;
        ojson so;
        so["step"] = bs.step;
        so["induced_wait_ms"] = ms(bs.inducedWaitNs);
        so["unattributed_wait_ms"] = ms(bs.unattributedNs);
        so["delay_ms"] = ms(bs.delayNs);
        so["delayed_instances"] = bs.delayedInstances;
        ojson roots = ojson::array();
        for (const auto& r : bs.roots) {
            ojson ro = rootJson(r);
            ro["induced_wait_ms"] = ms(r.inducedWaitNs);
            ro["share"] = r.share;
            ro["instances"] = r.instances;
            ro["evidence"] = { { "own_excess_ms", ms(r.ownExcessNs) }, { "computing_ms", msOrNull(r.computingNs) },
                { "peer_computing_ms", msOrNull(r.peerComputingNs) }, { "free_ms", msOrNull(r.freeNs) },
                { "peer_free_ms", msOrNull(r.peerFreeNs) }, { "transit_ms", ms(r.transitNs) },
                { "expected_transit_ms", ms(r.expectedTransitNs) } };
            ojson chain = ojson::array();
            for (const auto& h : r.chain)
                chain.push_back(hopJson(blame, h));
            ro["chain"] = std::move(chain);
            roots.push_back(std::move(ro));
        }
        so["roots"] = std::move(roots);
        steps.push_back(std::move(so));
    }
    j["steps"] = std::move(steps);
    return j;
}

std::string CollectivesReport::blameText(const BlameResult& blame, std::optional<int64_t> step)
{
    std::ostringstream s;
    for (const auto& bs : blame.steps) {
        if (step && bs.step != *step)
            continue;
        s << "step " << bs.step << ": " << fmt(3, ms(bs.delayNs)) << " ms of delay in " << bs.delayedInstances
          << " delayed instances; " << fmt(3, ms(bs.inducedWaitNs)) << " ms induced by roots, "
          << fmt(3, ms(bs.unattributedNs)) << " ms within the normal spread\n";
        for (size_t i = 0; i < bs.roots.size() && i < 10; ++i) {
            const auto& r = bs.roots[i];
            s << "  " << rootLabel(r) << "  " << blameCauseName(r.cause) << "  " << fmt(3, ms(r.inducedWaitNs))
              << " ms  " << fmt(1, 100.0 * r.share) << " %  (" << r.instances << " instances, chain of "
              << r.chain.size() << " hops)\n";
        }
        if (bs.roots.size() > 10)
            s << "  ... " << bs.roots.size() - 10 << " more roots\n";
    }
    return s.str();
}

} // namespace npuscope::query
