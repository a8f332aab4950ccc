// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/BlameAnalysis.h"
#include "npuscope/core/EnumNames.h"
#include "npuscope/query/TranslationMarker.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace npuscope::query {

namespace {

constexpr EnumName<BlameCause> kCauseNames[] {
    { BlameCause::Compute, QT_TRANSLATE_NOOP("BlameCause", "compute") },
    { BlameCause::Host, QT_TRANSLATE_NOOP("BlameCause", "host") },
    { BlameCause::Link, QT_TRANSLATE_NOOP("BlameCause", "link") },
};

} // namespace

const char* blameCauseName(BlameCause cause)
{
    return nameOf(kCauseNames, cause, QT_TRANSLATE_NOOP("BlameCause", "unknown"));
}

namespace {

int64_t median(std::vector<int64_t> v)
{
    if (v.empty())
        return 0;
    const size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
    return v[mid];
}

// A member's place in its rank's op sequence (32 bytes: a 1,024-rank cluster has 120,000).
struct Slot {
    static constexpr int64_t kNoGap = std::numeric_limits<int64_t>::min();
    uint32_t inst = 0, member = 0;
    int64_t startNs = 0;
    int64_t gap = kNoGap; // start minus the end of the rank's previous op of the step (its own clock)
    int32_t role = -1; // index into roles
    std::optional<int64_t> gapNs() const { return gap == kNoGap ? std::nullopt : std::optional(gap); }
};

// Ranks doing the same thing: the same ordinal op of a step, of the same type and kind.
struct Role {
    std::vector<int64_t> gaps, ranks;
    size_t waitCount = 0;
    int64_t minWait = 0, medianGap = 0;
    bool hasGap = false;
};

// Who a delay is charged to: a rank (kind 0) or a link between two ranks (kind 1, a < b).
struct RootKey {
    int kind = 0;
    int64_t a = 0, b = 0;
    auto operator<=>(const RootKey&) const = default;
};

struct Part {
    RootKey key;
    BlameCause cause = BlameCause::Unknown;
    double weight = 0;
};

// Why an instance's last arriver was late, its largest reason: its own work (at instance `inst`), a slow transfer
// (at `inst`), a wait in an earlier instance (`inst`, whose own reasons follow), or nothing found.
struct Reason {
    enum Kind { Own, Link, Inherit, None } kind = None;
    size_t inst = 0;
    int64_t rank = 0;
};

constexpr size_t kMaxParts = 8; // a delay's distribution keeps its largest roots
// Where a delay goes when no significant reason explains it (the normal spread between ranks): no root.
constexpr RootKey kUnattributed { 2, 0, 0 };

class Blamer {
public:
    Blamer(model::Database& db, CollectiveSet set)
        : m_set(std::move(set))
    {
        auto guard = db.lock();
        auto st = db.prepare("SELECT rank_id, step, computing_ns, free_ns FROM step_trace WHERE step IS NOT NULL");
        while (st.step())
            m_stepTrace[{ st.int64(0), st.int64(1) }] = { st.optInt(2), st.optInt(3) };
    }

    BlameResult run()
    {
        indexSlots();
        BlameResult out;
        const auto& insts = m_set.instances;
        out.delayNs.assign(insts.size(), 0);
        out.rootOf.assign(insts.size(), { -1, -1 });
        m_dist.assign(insts.size(), {});
        m_reason.assign(insts.size(), {});
        m_done.assign(insts.size(), false);
        // Instances are ordered by their last arriver's start, so every earlier op a last arriver waited in comes
        // first.
        for (size_t i = 0; i < insts.size(); ++i)
            distribute(i);

        struct Acc {
            int64_t induced = 0, instances = 0, costliest = 0;
            size_t costliestInst = 0;
            std::map<BlameCause, int64_t> causes;
        };
        std::map<int64_t, std::map<RootKey, Acc>> roots;
        std::map<int64_t, std::pair<int64_t, int64_t>> stepTotals; // step -> (Σ delay, delayed instances)
        std::vector<RootKey> topKey(insts.size());
        std::map<int64_t, int64_t> unattributed; // step -> Σ delay no significant reason explains
        for (size_t i = 0; i < insts.size(); ++i) {
            int64_t maxExcess = 0;
            const int64_t delay = delayOf(i, maxExcess);
            if (delay <= 0 || maxExcess < BlameAnalysis::kMinDelayNs)
                continue;
            out.delayNs[i] = delay;
            auto& tot = stepTotals[insts[i].step];
            tot.first += delay;
            tot.second += 1;
            const auto& dist = m_dist[i];
            const Part* top = nullptr;
            int64_t topShare = 0;
            for (const auto& part : dist) {
                auto share = static_cast<int64_t>(std::llround(static_cast<double>(delay) * part.weight));
                if (part.key == kUnattributed) {
                    unattributed[insts[i].step] += share;
                    continue;
                }
                // A delay does not grow as it travels: a root late by d (its own excess work or slow transfers in
                // the step, summed) made no member wait more than d here. The rest of its share is the normal
                // spread that joined it on the way (a 38.5 µs excess carried down 49 hops of pipeline waits took
                // 5.4 % of a step's delay before).
                if (const int64_t bound = boundOf(i, part.key, insts[i].step); share > bound) {
                    unattributed[insts[i].step] += share - bound;
                    share = bound;
                }
                if (share <= 0)
                    continue;
                Acc& acc = roots[insts[i].step][part.key];
                acc.induced += share;
                acc.causes[part.cause] += share;
                if (share > acc.costliest) {
                    acc.costliest = share;
                    acc.costliestInst = i;
                }
                if (!top || share > topShare) {
                    top = &part;
                    topShare = share;
                }
            }
            if (top) {
                roots[insts[i].step][top->key].instances += 1;
                topKey[i] = top->key;
            } else {
                topKey[i] = kUnattributed;
            }
        }
        std::map<std::pair<int64_t, RootKey>, std::pair<size_t, size_t>> where;
        for (const auto& [step, tot] : stepTotals) {
            // A root explaining less than kMinRootShare of the step's delay is part of the normal spread too.
            auto& byKey = roots[step]; // a step with delays but no root still gets its row
            for (auto it = byKey.begin(); it != byKey.end();) {
                if (static_cast<double>(it->second.induced)
                    < BlameAnalysis::kMinRootShare * static_cast<double>(tot.first)) {
                    unattributed[step] += it->second.induced;
                    it = byKey.erase(it);
                } else {
                    ++it;
                }
            }
        }
        for (auto& [step, byKey] : roots) {
            BlameStep bs;
            bs.step = step;
            bs.delayNs = stepTotals[step].first;
            bs.delayedInstances = stepTotals[step].second;
            // What the roots share is their sum; the rest is the normal spread. (The shares are rounded per instance:
            // the unattributed parts summed may miss the delay by a few ns either way, which printed "-0.000 ms
            // induced by roots", or 1 ns induced in a step without a root.)
            int64_t byRoots = 0;
            for (const auto& [key, acc] : byKey)
                byRoots += acc.induced;
            bs.inducedWaitNs = std::min(byRoots, bs.delayNs);
            bs.unattributedNs = bs.delayNs - bs.inducedWaitNs;
            for (auto& [key, acc] : byKey) {
                BlameRoot root;
                if (key.kind == 1)
                    root.link = std::make_pair(key.a, key.b);
                else
                    root.rank = key.a;
                root.cause = std::max_element(acc.causes.begin(), acc.causes.end(), [](const auto& x, const auto& y) {
                    return x.second < y.second;
                })->first;
                root.inducedWaitNs = acc.induced;
                root.instances = acc.instances;
                root.share = bs.inducedWaitNs > 0
                    ? static_cast<double>(acc.induced) / static_cast<double>(bs.inducedWaitNs)
                    : 0.0;
                root.chain = chainOf(acc.costliestInst);
                evidence(root, step);
                bs.roots.push_back(std::move(root));
            }
            std::stable_sort(bs.roots.begin(), bs.roots.end(),
                [](const BlameRoot& x, const BlameRoot& y) { return x.inducedWaitNs > y.inducedWaitNs; });
            for (size_t r = 0; r < bs.roots.size(); ++r) {
                const auto& br = bs.roots[r];
                const RootKey key
                    = br.link ? RootKey { 1, br.link->first, br.link->second } : RootKey { 0, *br.rank, 0 };
                where[{ step, key }] = { out.steps.size(), r };
            }
            out.steps.push_back(std::move(bs));
        }
        for (size_t i = 0; i < insts.size(); ++i) {
            auto it = where.find({ insts[i].step, topKey[i] });
            if (out.delayNs[i] == 0 || it == where.end())
                continue;
            const auto [si, ri] = it->second;
            out.rootOf[i] = { static_cast<int>(si), static_cast<int>(ri) };
        }
        out.set = std::move(m_set);
        return out;
    }

private:
    void indexSlots()
    {
        const auto& insts = m_set.instances;
        // Every member's slot, by rank then start: one array (a map of vectors per rank held a third more).
        m_memberBase.resize(insts.size() + 1, 0);
        for (size_t i = 0; i < insts.size(); ++i)
            m_memberBase[i + 1] = m_memberBase[i] + static_cast<uint32_t>(insts[i].members.size());
        m_slots.reserve(m_memberBase.back());
        for (size_t i = 0; i < insts.size(); ++i) {
            for (size_t m = 0; m < insts[i].members.size(); ++m)
                m_slots.push_back({ static_cast<uint32_t>(i), static_cast<uint32_t>(m), insts[i].members[m].startNs,
                    Slot::kNoGap, -1 });
        }
        std::stable_sort(m_slots.begin(), m_slots.end(), [&](const Slot& a, const Slot& b) {
            const int64_t ra = rankOf(a), rb = rankOf(b);
            return ra != rb ? ra < rb : a.startNs < b.startNs;
        });
        m_slotOf.assign(m_memberBase.back(), 0);
        std::map<std::tuple<int64_t, size_t, std::string, bool>, int> roleIds;
        int64_t step = 0;
        size_t ordinal = 0;
        for (size_t k = 0; k < m_slots.size(); ++k) {
            Slot& s = m_slots[k];
            const auto& inst = insts[s.inst];
            const auto& mem = inst.members[s.member];
            const bool sameRank = k > 0 && rankOf(m_slots[k - 1]) == mem.rank;
            if (!sameRank || inst.step != step) {
                step = inst.step;
                ordinal = 0;
            }
            // The first op of a step has no previous sync point inside it: the step boundary (dataloader,
            // Preparing) is no work a peer did too.
            if (sameRank && insts[m_slots[k - 1].inst].step == inst.step) {
                const auto& prev = insts[m_slots[k - 1].inst].members[m_slots[k - 1].member];
                s.gap = mem.startNs - prev.endNs();
            }
            auto [it, inserted] = roleIds.emplace(
                std::make_tuple(inst.step, ordinal++, mem.opType, inst.p2p), static_cast<int>(m_roles.size()));
            if (inserted)
                m_roles.emplace_back();
            s.role = it->second;
            Role& role = m_roles[static_cast<size_t>(s.role)];
            role.minWait = role.waitCount++ == 0 ? mem.waitNs : std::min(role.minWait, mem.waitNs);
            role.ranks.push_back(mem.rank);
            if (s.gap != Slot::kNoGap)
                role.gaps.push_back(s.gap);
            m_slotOf[m_memberBase[s.inst] + s.member] = static_cast<uint32_t>(k);
        }
        for (auto& role : m_roles) {
            role.hasGap = role.gaps.size() >= 3;
            if (role.hasGap)
                role.medianGap = median(role.gaps);
        }
    }

    int64_t rankOf(const Slot& s) const { return m_set.instances[s.inst].members[s.member].rank; }

    // Index into m_slots of an instance's member.
    size_t slotIndex(size_t inst, size_t member) const { return m_slotOf[m_memberBase[inst] + member]; }

    const Slot& slot(size_t inst, size_t member) const { return m_slots[slotIndex(inst, member)]; }

    // A member's wait above the least wait of its role (several ranks), else above the instance's least wait.
    int64_t excessWait(size_t inst, size_t member) const
    {
        const auto& in = m_set.instances[inst];
        const Role& role = m_roles[static_cast<size_t>(slot(inst, member).role)];
        int64_t base = role.minWait;
        if (role.waitCount < 3) {
            base = in.members.front().waitNs;
            for (const auto& m : in.members)
                base = std::min(base, m.waitNs);
        }
        return std::max<int64_t>(0, in.members[member].waitNs - base);
    }

    int64_t delayOf(size_t inst, int64_t& maxExcess) const
    {
        const auto& in = m_set.instances[inst];
        int64_t sum = 0;
        maxExcess = 0;
        for (size_t m = 0; m < in.members.size(); ++m) {
            const int64_t e = excessWait(inst, m);
            sum += e;
            if (m != in.lastArriver)
                maxExcess = std::max(maxExcess, e);
        }
        return sum;
    }

    // How much longer the member worked since its previous op than the ranks of its role (or the instance's other
    // members when the role has too few ranks); nullopt without a previous op.
    // Significant only above BlameAnalysis::kOwnTolerance of that time and kMinDelayNs: a rank a few per cent slower
    // than its peers is the normal spread, not a cause.
    std::optional<int64_t> ownExcess(size_t inst, size_t member) const
    {
        const Slot& s = slot(inst, member);
        if (!s.gapNs())
            return std::nullopt;
        const Role& role = m_roles[static_cast<size_t>(s.role)];
        auto significant = [&](int64_t base) -> std::optional<int64_t> {
            const int64_t e = s.gap - base;
            if (e < BlameAnalysis::kMinDelayNs
                || static_cast<double>(e)
                    < BlameAnalysis::kOwnTolerance * static_cast<double>(std::max<int64_t>(base, 0)))
                return std::nullopt;
            return e;
        };
        // The other members of a collective did the same work since their previous op (they left the one before
        // together); a pair's two sides did not, so it compares with the ranks of the same role.
        std::vector<int64_t> others;
        const auto& in = m_set.instances[inst];
        for (size_t m = 0; m < in.members.size(); ++m) {
            if (m != member && slot(inst, m).gapNs())
                others.push_back(slot(inst, m).gap);
        }
        if (in.p2p || others.size() < 2) {
            if (role.hasGap)
                return significant(role.medianGap);
            if (others.empty())
                return std::nullopt;
        }
        return significant(median(std::move(others)));
    }

    // What the member's transit takes elsewhere: the median transit per MB of the step's ops of the same type, times
    // its size (the median transit of the type when sizes are unknown).
    int64_t expectedTransit(size_t inst, size_t member)
    {
        const auto& in = m_set.instances[inst];
        const auto& mem = in.members[member];
        if (!in.p2p && in.members.size() >= 3) {
            // The members of one collective move the same size: its own other members are the peers.
            std::vector<int64_t> others;
            for (size_t m = 0; m < in.members.size(); ++m) {
                if (m != member)
                    others.push_back(in.members[m].transitNs);
            }
            return median(std::move(others));
        }
        const auto key = std::make_pair(in.step, mem.opType);
        auto it = m_rates.find(key);
        if (it == m_rates.end()) {
            std::vector<int64_t> perMb, plain;
            for (const auto& other : m_set.instances) {
                if (other.step != in.step)
                    continue;
                for (const auto& om : other.members) {
                    if (om.opType != mem.opType)
                        continue;
                    plain.push_back(om.transitNs);
                    if (om.sizeMb > 0)
                        perMb.push_back(static_cast<int64_t>(static_cast<double>(om.transitNs) / om.sizeMb));
                }
            }
            it = m_rates.emplace(key, std::make_pair(median(std::move(perMb)), median(std::move(plain)))).first;
        }
        return mem.sizeMb > 0 && it->second.first > 0
            ? static_cast<int64_t>(static_cast<double>(it->second.first) * mem.sizeMb)
            : it->second.second;
    }

    struct SlowTransfer {
        RootKey key;
        int64_t transitNs = 0, expectedNs = 0;
        size_t countAs = 0; // the (instance, member) its excess is counted once as
    };

    // A transfer at the op that took ≥ kLinkFactor × what it takes elsewhere, and the link (or rank) it names.
    // A send / receive: its own transit against the step's rate of the type, the pair's link. A collective ends
    // together once its slowest link is done, so it delays whoever left it, whichever member that was: its slowest
    // member's transit against the others' median, and the link between the two members whose transit is that
    // excessive (both ends of a slow link show it; HCCL's and the generator's transit is the member's slowest link's),
    // or the rank when only one shows it.
    std::optional<SlowTransfer> slowTransfer(size_t inst, size_t member)
    {
        const auto& in = m_set.instances[inst];
        if (in.p2p || in.members.size() < 3) {
            const auto& pm = in.members[member];
            const int64_t expected = expectedTransit(inst, member);
            if (expected <= 0
                || static_cast<double>(pm.transitNs) < BlameAnalysis::kLinkFactor * static_cast<double>(expected))
                return std::nullopt;
            RootKey key { 0, pm.rank, 0 };
            if (in.p2p && in.members.size() == 2) {
                const int64_t a = in.members[0].rank, b = in.members[1].rank;
                key = { 1, std::min(a, b), std::max(a, b) };
            }
            return SlowTransfer { key, pm.transitNs, expected, member };
        }
        auto [cached, fresh] = m_collectiveSlow.try_emplace(inst);
        if (fresh) {
            std::vector<size_t> order(in.members.size());
            for (size_t m = 0; m < order.size(); ++m)
                order[m] = m;
            std::stable_sort(order.begin(), order.end(),
                [&](size_t a, size_t b) { return in.members[a].transitNs > in.members[b].transitNs; });
            std::vector<int64_t> others;
            for (size_t k = 1; k < order.size(); ++k)
                others.push_back(in.members[order[k]].transitNs);
            const int64_t expected = median(std::move(others));
            const auto excessive = [&](size_t m) {
                return static_cast<double>(in.members[m].transitNs)
                    >= BlameAnalysis::kLinkFactor * static_cast<double>(expected);
            };
            if (expected > 0 && excessive(order[0])) {
                const auto& slowest = in.members[order[0]];
                SlowTransfer s { { 0, slowest.rank, 0 }, slowest.transitNs, expected, in.members.size() };
                if (excessive(order[1])) {
                    const int64_t a = slowest.rank, b = in.members[order[1]].rank;
                    s.key = { 1, std::min(a, b), std::max(a, b) };
                }
                cached->second = s;
            }
        }
        return cached->second;
    }

    // True the first time: whether this excess is not yet in m_lateness.
    bool firstCount(size_t inst, size_t member)
    {
        if (m_lateCounted.empty())
            m_lateCounted.assign(m_memberBase.back() + m_set.instances.size(), false);
        const size_t at
            = member < m_set.instances[inst].members.size() ? m_memberBase[inst] + member : m_memberBase.back() + inst;
        if (m_lateCounted[at])
            return false;
        m_lateCounted[at] = true;
        return true;
    }

    // The reasons the instance's last arriver L was late, weighted by size: L's own excess work before this op and
    // before each earlier op of the step, slow transfers of those ops, and the waits above its role's in earlier ops
    // someone else was last to (charged on as those ops' own distributions). Nothing found: L, unknown.
    void distribute(size_t i)
    {
        const auto& in = m_set.instances[i];
        const size_t lm = in.lastArriver;
        const int64_t rank = in.members[lm].rank;
        const size_t k = slotIndex(i, lm);
        std::vector<std::pair<double, Reason>> reasons;
        std::vector<Part> parts;
        double best = 0;
        auto add = [&](double w, Reason why, const std::vector<Part>& from) {
            for (const auto& p : from)
                parts.push_back({ p.key, p.cause, p.weight * w });
            if (w > best) {
                best = w;
                m_reason[i] = why;
            }
        };
        auto own = [&](size_t inst, size_t member) {
            const auto e = ownExcess(inst, member);
            if (e && *e > 0) {
                const BlameCause cause = classify(rank, in.step, inst, member);
                auto& mx = m_ownMax[{ rank, in.step }];
                mx = std::max(mx, *e);
                if (firstCount(inst, member))
                    m_lateness[{ { 0, rank, 0 }, in.step }] += *e;
                add(static_cast<double>(*e), { Reason::Own, inst, rank }, { { { 0, rank, 0 }, cause, 1.0 } });
            }
        };
        own(i, lm);
        // Back through L's earlier ops of the step while L was the last to arrive at them (so its lateness there
        // carried on); the first op where L waited for someone else absorbed everything before it, and its own
        // distribution explains the rest.
        for (size_t j = k; j-- > 0;) {
            const Slot& ps = m_slots[j];
            const auto& pin = m_set.instances[ps.inst];
            if (rankOf(ps) != rank || pin.step != in.step)
                break;
            if (const auto slow = slowTransfer(ps.inst, ps.member)) {
                auto& ev = m_linkEvidence[{ in.step, slow->key }];
                if (slow->transitNs - slow->expectedNs > ev.first - ev.second)
                    ev = { slow->transitNs, slow->expectedNs };
                if (firstCount(ps.inst, slow->countAs))
                    m_lateness[{ slow->key, in.step }] += slow->transitNs - slow->expectedNs;
                add(static_cast<double>(slow->transitNs - slow->expectedNs), { Reason::Link, ps.inst, rank },
                    { { slow->key, BlameCause::Link, 1.0 } });
            }
            if (pin.members[pin.lastArriver].rank != rank) {
                const int64_t w = excessWait(ps.inst, ps.member);
                if (w > 0) {
                    if (m_done[ps.inst])
                        add(static_cast<double>(w), { Reason::Inherit, ps.inst, rank }, m_dist[ps.inst]);
                    else // not ordered before this one (clock error): nothing to follow
                        add(static_cast<double>(w), { Reason::None, i, rank },
                            { { kUnattributed, BlameCause::Unknown, 1.0 } });
                }
                break;
            }
            own(ps.inst, ps.member);
        }
        if (parts.empty()) {
            parts.push_back({ kUnattributed, BlameCause::Unknown, 1.0 });
            m_reason[i] = { Reason::None, i, rank };
        } else if (m_reason[i].kind != Reason::Inherit) {
            // L's own work and slow transfers explain at most what they add up to: the rest of how late L came (the
            // largest excess wait of the others) is the normal spread, so a reason of a few microseconds does not
            // take a delay of milliseconds (nor, inherited, every delay after it). A delay mostly inherited keeps
            // the earlier instance's distribution, which already holds its own remainder.
            double found = 0;
            for (const auto& p : parts)
                found += p.weight;
            int64_t lateness = 0;
            delayOf(i, lateness);
            if (static_cast<double>(lateness) > found)
                parts.push_back({ kUnattributed, BlameCause::Unknown, static_cast<double>(lateness) - found });
        }
        // Merge, keep the largest, normalise.
        std::sort(parts.begin(), parts.end(),
            [](const Part& a, const Part& b) { return std::tie(a.key, a.cause) < std::tie(b.key, b.cause); });
        std::vector<Part> merged;
        for (const auto& p : parts) {
            if (!merged.empty() && merged.back().key == p.key && merged.back().cause == p.cause)
                merged.back().weight += p.weight;
            else
                merged.push_back(p);
        }
        std::stable_sort(
            merged.begin(), merged.end(), [](const Part& a, const Part& b) { return a.weight > b.weight; });
        if (merged.size() > kMaxParts)
            merged.resize(kMaxParts);
        double total = 0;
        for (const auto& p : merged)
            total += p.weight;
        for (auto& p : merged)
            p.weight /= total;
        m_dist[i] = std::move(merged);
        m_done[i] = true;
    }

    // The most a root late by d (Σ of its own excess work and excess transit found in the step) can have delayed
    // the instance: each member waited at most d of its excess wait for it.
    int64_t boundOf(size_t inst, const RootKey& key, int64_t step) const
    {
        auto it = m_lateness.find({ key, step });
        if (it == m_lateness.end())
            return 0;
        const auto& in = m_set.instances[inst];
        int64_t bound = 0;
        for (size_t m = 0; m < in.members.size(); ++m)
            bound += std::min(excessWait(inst, m), it->second);
        return bound;
    }

    // The largest reasons from an instance back to where they began.
    std::vector<BlameHop> chainOf(size_t i) const
    {
        std::vector<BlameHop> hops;
        std::vector<bool> seen(m_set.instances.size(), false);
        for (int depth = 0; depth < 512 && !seen[i]; ++depth) {
            seen[i] = true;
            const auto& in = m_set.instances[i];
            const Reason& why = m_reason[i];
            hops.push_back({ i, in.members[in.lastArriver].rank, "late" });
            if (why.kind == Reason::Inherit) {
                hops.push_back({ why.inst, why.rank, "waited" });
                i = why.inst;
                continue;
            }
            if ((why.kind == Reason::Own || why.kind == Reason::Link) && why.inst != i)
                hops.push_back({ why.inst, why.rank, "late" });
            break;
        }
        return hops;
    }

    // Compute when the rank's step computing time exceeds its role peers' median more than its free (idle) time does,
    // host when the free time does; unknown without step_trace rows or when neither exceeds. Once per rank and step,
    // against the peers of the first op it was found late on its own account.
    BlameCause classify(int64_t rank, int64_t step, size_t inst, size_t member)
    {
        auto [it, inserted] = m_causes.try_emplace({ rank, step });
        if (!inserted)
            return it->second.first;
        PeerFigures& fig = it->second.second;
        const Role& role = m_roles[static_cast<size_t>(slot(inst, member).role)];
        std::vector<int64_t> comp, free;
        for (int64_t peer : role.ranks) {
            auto st = m_stepTrace.find({ peer, step });
            if (peer == rank || st == m_stepTrace.end())
                continue;
            if (st->second.first)
                comp.push_back(*st->second.first);
            if (st->second.second)
                free.push_back(*st->second.second);
        }
        auto mine = m_stepTrace.find({ rank, step });
        it->second.first = BlameCause::Unknown;
        if (mine == m_stepTrace.end() || comp.empty())
            return BlameCause::Unknown;
        fig = { mine->second.first, median(comp), mine->second.second,
            free.empty() ? std::nullopt : std::optional(median(free)) };
        const int64_t compEx = mine->second.first.value_or(0) - *fig.peerComputing;
        const int64_t freeEx = fig.peerFree ? mine->second.second.value_or(0) - *fig.peerFree : 0;
        if (compEx > 0 || freeEx > 0)
            it->second.first = compEx >= freeEx ? BlameCause::Compute : BlameCause::Host;
        return it->second.first;
    }

    void evidence(BlameRoot& root, int64_t step) const
    {
        if (root.link || root.cause == BlameCause::Link) {
            const RootKey key
                = root.link ? RootKey { 1, root.link->first, root.link->second } : RootKey { 0, *root.rank, 0 };
            if (auto it = m_linkEvidence.find({ step, key }); it != m_linkEvidence.end()) {
                root.transitNs = it->second.first;
                root.expectedTransitNs = it->second.second;
            }
        }
        if (!root.rank)
            return;
        if (auto it = m_ownMax.find({ *root.rank, step }); it != m_ownMax.end())
            root.ownExcessNs = it->second;
        if (auto it = m_causes.find({ *root.rank, step }); it != m_causes.end()) {
            const PeerFigures& f = it->second.second;
            root.computingNs = f.computing;
            root.peerComputingNs = f.peerComputing;
            root.freeNs = f.free;
            root.peerFreeNs = f.peerFree;
        }
    }

    struct PeerFigures {
        std::optional<int64_t> computing, peerComputing, free, peerFree;
    };

    CollectiveSet m_set;
    std::map<std::pair<int64_t, int64_t>, std::pair<std::optional<int64_t>, std::optional<int64_t>>> m_stepTrace;
    std::vector<Slot> m_slots; // every member's slot, by rank, then start
    std::vector<uint32_t> m_memberBase; // per instance: the index of its first member in m_slotOf
    std::vector<uint32_t> m_slotOf; // [m_memberBase[inst] + member] -> index into m_slots
    std::vector<Role> m_roles;
    std::map<std::pair<int64_t, std::string_view>, std::pair<int64_t, int64_t>> m_rates; // (step, type) -> (ns/MB, ns)
    std::vector<std::vector<Part>> m_dist; // per instance: its delay's roots, weights summing to 1
    std::vector<Reason> m_reason; // per instance: the largest reason
    std::vector<bool> m_done;
    std::map<std::pair<int64_t, int64_t>, std::pair<BlameCause, PeerFigures>> m_causes; // (rank, step)
    std::map<std::pair<int64_t, int64_t>, int64_t> m_ownMax; // (rank, step) -> largest own excess
    // (root, step) -> Σ own excess work or excess transit found for it, each (instance, member) once
    std::map<std::pair<RootKey, int64_t>, int64_t> m_lateness;
    // Whether an (instance, member)'s own excess or excess transit, or (member = the instance's size) a collective's
    // excess transit, is counted in m_lateness already: per member, then per instance.
    std::vector<bool> m_lateCounted;
    std::map<std::pair<int64_t, RootKey>, std::pair<int64_t, int64_t>> m_linkEvidence; // -> (transit, expected)
    // Per collective: its slow transfer, once computed (the outer optional).
    std::unordered_map<size_t, std::optional<SlowTransfer>> m_collectiveSlow;
};

} // namespace

BlameResult BlameAnalysis::run(model::Database& db) { return run(db, CollectiveInstances::build(db)); }

BlameResult BlameAnalysis::run(model::Database& db, CollectiveSet set) { return Blamer(db, std::move(set)).run(); }

std::shared_ptr<const BlameResult> BlameAnalysis::forDatabase(model::Database& db)
{
    return db.cached<BlameResult>(
        [](model::Database& d) { return std::make_shared<const BlameResult>(BlameAnalysis::run(d)); });
}

} // namespace npuscope::query
