// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/CommAnalysisQuery.h"

#include "npuscope/query/CommLinkIndex.h"
#include "npuscope/query/CommOpIndex.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/query/StepQuery.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <tuple>
#include <type_traits>
#include <unordered_map>

namespace npuscope::query {

namespace {

enum class LinkMode { Totals, Slot, Op, Bottom1 };

// Which comm_link rows a view needs. Totals: the "total" slot of every op type (or of opType), plus
// the real-op keys of 2023 builds; Slot: one slot of opType; Op: the links naming opName; Bottom1:
// the bottom1 slot links that name an op.
struct LinkQuery {
    LinkMode mode = LinkMode::Totals;
    std::optional<int64_t> step {};
    std::optional<std::string> group {}, opType {}, slot {}, opName {}, transport {};
    std::optional<int64_t> rank {}, src {}, dst {};
    // Totals: the "Total Op Info" rows instead of the per-type totals (only when the selection has no other).
    bool totalOpInfo = false;
};

// The rows of the index a LinkQuery selects, in index order: fn(row, id of the row's op type); a fn returning bool
// stops the walk by returning false.
template <typename Fn> void forEachIndexRow(const CommLinkIndex& index, const LinkQuery& q, Fn fn)
{
    auto idOf = [&](const std::optional<std::string>& s) { return s ? index.id(*s) : -2; };
    const int32_t group = idOf(q.group), opType = idOf(q.opType), slot = idOf(q.slot), opName = idOf(q.opName),
                  transport = idOf(q.transport);
    const int32_t totalSlot = index.id("total"), bottom1 = index.id("bottom1"), totalOp = index.id("Total Op Info");
    if ((q.group && group < 0) || (q.opType && opType < 0) || (q.slot && slot < 0) || (q.opName && opName < 0)
        || (q.transport && transport < 0))
        return;
    const auto [begin, end] = index.rows(q.step);
    for (const auto* r = begin; r != end; ++r) {
        const bool rankMiss
            = q.rank && (r->local ? r->reportedBy != *q.rank : (r->src != *q.rank && r->dst != *q.rank));
        if ((q.group && r->group != group) || (q.transport && r->transport != transport) || rankMiss
            || (q.src && r->src != *q.src) || (q.dst && r->dst != *q.dst))
            continue;
        const bool realOp = r->slot < 0;
        const int32_t typeId = realOp ? r->matrixOp : (r->opType >= 0 ? r->opType : r->matrixOp);
        switch (q.mode) {
        case LinkMode::Totals:
            if (q.totalOpInfo
                    ? r->matrixOp != totalOp
                    : (r->matrixOp == totalOp || !(r->slot == totalSlot || realOp)) || (q.opType && typeId != opType))
                continue;
            break;
        case LinkMode::Slot:
            if ((q.opType && r->opType != opType) || (q.slot && r->slot != slot))
                continue;
            break;
        case LinkMode::Op:
            if (!(r->opName == opName || (realOp && r->matrixOp == opName)))
                continue;
            break;
        case LinkMode::Bottom1:
            // id() is -1 for a string no row holds, as for NULL: without "bottom1" rows nothing matches.
            if (bottom1 < 0 || r->slot != bottom1 || r->opName < 0)
                continue;
            break;
        }
        if constexpr (std::is_same_v<decltype(fn(*r, typeId)), bool>) {
            if (!fn(*r, typeId))
                return;
        } else {
            fn(*r, typeId);
        }
    }
}

// "Total" over every op type: the per-type total slots; the file's "Total Op Info" rows only when the
// selection has nothing else (docs/metrics.md).
bool wantsTotalOpInfo(const LinkQuery& q) { return q.mode == LinkMode::Totals && !q.opType && !q.totalOpInfo; }

LinkQuery resolveTotals(const CommLinkIndex& index, LinkQuery q)
{
    if (!wantsTotalOpInfo(q))
        return q;
    bool any = false;
    forEachIndexRow(index, q, [&](const CommLinkIndex::Row&, int32_t) { return !(any = true); });
    q.totalOpInfo = !any;
    return q;
}

// Which local-rank links a matrix can show: local ranks of one group only, and only when no off-diagonal link
// has global ranks (the axes would mean different things; global self-links are then left out). Of several such
// groups the one with the most off-diagonal volume is shown. Returns the group shown with local ranks and the
// local groups left out.
struct LocalPolicy {
    std::optional<std::string> localGroup;
    std::vector<std::string> hidden;
};

// localVolume: Σ off-diagonal size per local group (every local group present, volume 0 allowed).
LocalPolicy localPolicy(bool hasGlobal, const std::map<std::string, double>& localVolume)
{
    LocalPolicy p;
    if (localVolume.empty())
        return p;
    if (!hasGlobal) {
        auto best = localVolume.begin();
        for (auto it = localVolume.begin(); it != localVolume.end(); ++it) {
            if (it->second > best->second)
                best = it;
        }
        p.localGroup = best->first;
    }
    for (const auto& [g, volume] : localVolume) {
        if (!p.localGroup || g != *p.localGroup)
            p.hidden.push_back(g);
    }
    return p;
}

// Whether a link stays in the matrix under the policy.
bool keepLink(const LocalPolicy& p, bool local, const std::string& group)
{
    return p.localGroup ? local && group == *p.localGroup : !local;
}

// What dedup compares of a link: the run key (step, group, src, dst), who wrote it and its op type;
// group and type are ids that are equal exactly when the strings are.
struct DedupKey {
    int64_t step = INT64_MIN; // INT64_MIN: no step
    int32_t group = 0; // ordinal of first appearance among the links
    int64_t src = 0, dst = 0;
    int64_t reportedBy = 0;
    int32_t type = 0;
};

// dedupOrder's key of an index row: the group as its ordinal of first appearance among the rows keyed (NULL and ""
// alike), the type as given (an id: equal exactly when the strings are).
class DedupKeyMaker {
public:
    explicit DedupKeyMaker(const CommLinkIndex& index)
        : m_empty(index.id(""))
        , m_ordinal(index.stringCount() + 1, -1) // by id + 1 (0: NULL and no "")
    {
    }
    // NULL (-1) read as "": the id of "" when a row holds it, else -1.
    int32_t orEmpty(int32_t id) const { return id >= 0 ? id : m_empty; }
    DedupKey operator()(const CommLinkIndex::Row& r, int32_t type)
    {
        int32_t& group = m_ordinal[static_cast<size_t>(orEmpty(r.group) + 1)];
        if (group < 0)
            group = m_groups++;
        DedupKey k;
        k.step = r.hasStep ? r.step : INT64_MIN;
        k.group = group;
        k.src = r.src;
        k.dst = r.dst;
        k.reportedBy = r.reportedBy;
        k.type = type;
        return k;
    }

private:
    int32_t m_empty;
    std::vector<int32_t> m_ordinal;
    int32_t m_groups = 0;
};

// One link per (step, group, op type, src, dst). A link written by both ends (p2p: "send" by the
// sender, "receive" by the receiver) keeps only the sender's copy, so a transfer is not counted
// twice in a total. Returns the indexes of the kept links in output order: by run key, and within a
// run in the order std::sort leaves them (the sums of a cell depend on it).
std::vector<size_t> dedupOrder(const std::vector<DedupKey>& keys)
{
    auto key = [&](size_t i) {
        const DedupKey& k = keys[i];
        return std::make_tuple(k.step, k.group, k.src, k.dst);
    };
    std::vector<size_t> order(keys.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
    std::vector<size_t> out;
    out.reserve(keys.size());
    std::vector<int32_t> seen;
    for (size_t begin = 0; begin < order.size();) {
        size_t end = begin + 1;
        while (end < order.size() && key(order[end]) == key(order[begin]))
            ++end;
        bool senderWrote = false;
        for (size_t k = begin; k < end; ++k)
            senderWrote = senderWrote || keys[order[k]].reportedBy == keys[order[k]].src;
        seen.clear();
        for (size_t k = begin; k < end; ++k) {
            const DedupKey& l = keys[order[k]];
            if (senderWrote && l.reportedBy != l.src)
                continue;
            if (std::find(seen.begin(), seen.end(), l.type) != seen.end())
                continue;
            seen.push_back(l.type);
            out.push_back(order[k]);
        }
        begin = end;
    }
    return out;
}

LinkQuery matrixQuery(const CommSelection& sel, const MatrixOp& op)
{
    LinkQuery q;
    q.step = sel.step;
    q.group = sel.groupHash;
    if (sel.opName) {
        q.mode = LinkMode::Op;
        q.opName = sel.opName;
    } else if (op.opType) {
        q.opType = op.opType;
        if (op.slot != "total") {
            q.mode = LinkMode::Slot;
            q.slot = op.slot;
        }
    }
    return q;
}

LinkQuery linkTableQuery(const LinkFilter& f)
{
    return {
        .step = f.step, .group = f.groupHash, .transport = f.transport, .rank = f.rank, .src = f.src, .dst = f.dst
    };
}

} // namespace

std::optional<double> bandwidthGbpsOf(double sizeMb, int64_t timeNs)
{
    // MB / ms = 10^6 B / 10^-3 s = GB/s.
    if (timeNs <= 0)
        return std::nullopt;
    return sizeMb / (static_cast<double>(timeNs) / 1.0e6);
}

std::optional<double> MatrixCell::bandwidthGbps() const { return bandwidthGbpsOf(sizeMb, timeNs); }

size_t CommMatrix::offDiagonalCells() const
{
    return static_cast<size_t>(std::count_if(
        cells.begin(), cells.end(), [](const MatrixCell& c) { return c.src != c.dst && c.transport != "LOCAL"; }));
}

namespace {

MatrixOpChoices typeChoices(const std::map<std::string, std::set<std::string>>& types)
{
    MatrixOpChoices out;
    static const std::vector<std::string> kOrder = { "top1", "middle", "bottom1", "bottom2", "bottom3", "total" };
    for (const auto& [type, slots] : types) {
        out.opTypes.push_back(type);
        std::vector<std::string> ordered;
        for (const auto& s : kOrder) {
            if (slots.count(s))
                ordered.push_back(s);
        }
        for (const auto& s : slots) {
            if (std::find(kOrder.begin(), kOrder.end(), s) == kOrder.end())
                ordered.push_back(s);
        }
        out.typeSlots.push_back(std::move(ordered));
    }
    return out;
}

// (op type, slot) pairs of the link index for one step / group, as matrixOps lists them.
std::map<std::string, std::set<std::string>> indexTypes(const CommLinkIndex& index, const CommSelection& sel)
{
    // Distinct (type, slot) id pairs first: a step of a 1,024-rank cluster has ~10^5 rows.
    std::set<std::pair<int32_t, int32_t>> pairs;
    const int32_t group = sel.groupHash ? index.id(*sel.groupHash) : -2;
    const int32_t totalOp = index.id("Total Op Info");
    if (!sel.groupHash || group >= 0) {
        const auto [begin, end] = index.rows(sel.step);
        std::optional<std::pair<int32_t, int32_t>> last; // neighbouring rows mostly repeat a pair
        for (const auto* r = begin; r != end; ++r) {
            if ((sel.groupHash && r->group != group) || r->matrixOp == totalOp)
                continue;
            const std::pair<int32_t, int32_t> pair { r->opType >= 0 ? r->opType : r->matrixOp, r->slot };
            if (pair != last) {
                pairs.insert(pair);
                last = pair;
            }
        }
    }
    std::map<std::string, std::set<std::string>> types;
    for (const auto& [type, slot] : pairs)
        types[index.text(type)].insert(slot >= 0 ? index.text(slot) : std::string("total"));
    return types;
}

} // namespace

MatrixOpChoices CommAnalysisQuery::matrixOps(
    const CommLinkIndex& links, const CommOpIndex& ops, const CommSelection& sel)
{
    MatrixOpChoices out = typeChoices(indexTypes(links, sel));
    out.opNames = opNames(ops, sel);
    return out;
}

namespace {

void finishMatrix(CommMatrix& m, const std::vector<Group>& groups, const CommSelection& sel, const std::string& orderBy,
    const LocalPolicy& policy);

// A link of the index that a matrix sums, with the ids its cell compares (NULL read as "").
struct IndexLink {
    const CommLinkIndex::Row* row = nullptr;
    int32_t transport = -1, opName = -1;
};

// The matrix of the deduplicated links (dedupOrder) computed on ids: no string is copied per link; each cell sums its
// kept links in dedupOrder's order.
CommMatrix indexMatrix(
    const CommLinkIndex& index, const LinkQuery& q, const CommSelection& sel, const std::string& orderBy)
{
    DedupKeyMaker keyOf(index);
    const int32_t empty = keyOf.orEmpty(-1);
    auto orEmpty = [&keyOf](int32_t id) { return keyOf.orEmpty(id); };
    std::vector<IndexLink> links;
    std::vector<DedupKey> keys;
    forEachIndexRow(index, q, [&](const CommLinkIndex::Row& r, int32_t typeId) {
        const bool realOp = r.slot < 0;
        const int32_t opName = r.opName >= 0 ? r.opName : (realOp ? r.matrixOp : empty);
        keys.push_back(keyOf(r, q.mode == LinkMode::Op ? opName : orEmpty(typeId)));
        links.push_back({ &r, orEmpty(r.transport), q.mode == LinkMode::Totals ? -1 : opName });
    });
    bool hasGlobal = false;
    std::map<std::string, double> localVolume;
    const int32_t localTransport = index.id("LOCAL");
    auto groupText = [&](const CommLinkIndex::Row& r) { return r.group >= 0 ? index.text(r.group) : std::string(); };
    for (const auto& l : links) {
        // A NULL transport (-1) is not LOCAL, also when no row is LOCAL (id -1).
        const bool offDiagonal = l.row->src != l.row->dst && (localTransport < 0 || l.row->transport != localTransport);
        if (l.row->local)
            localVolume[groupText(*l.row)] += offDiagonal ? l.row->sizeMb : 0.0;
        else
            hasGlobal = hasGlobal || offDiagonal;
    }
    const LocalPolicy policy = localPolicy(hasGlobal, localVolume);
    if (!localVolume.empty()) {
        size_t kept = 0;
        for (size_t i = 0; i < links.size(); ++i) {
            if (keepLink(policy, links[i].row->local, links[i].row->local ? groupText(*links[i].row) : std::string())) {
                links[kept] = links[i];
                keys[kept++] = keys[i];
            }
        }
        links.resize(kept);
        keys.resize(kept);
    }
    struct Cell {
        IndexLink first;
        bool mixed = false, severalOps = false;
        double sizeMb = 0;
        int64_t timeNs = 0;
        int links = 0;
    };
    std::vector<Cell> cells;
    std::unordered_map<uint64_t, uint32_t> cellAt;
    for (size_t i : dedupOrder(keys)) {
        const IndexLink& l = links[i];
        const uint64_t key
            = (static_cast<uint64_t>(static_cast<uint32_t>(l.row->src)) << 32) | static_cast<uint32_t>(l.row->dst);
        const auto [it, inserted] = cellAt.emplace(key, static_cast<uint32_t>(cells.size()));
        if (inserted)
            cells.push_back({ l });
        Cell& c = cells[it->second];
        c.mixed = c.mixed || c.first.transport != l.transport;
        c.severalOps = c.severalOps || c.first.opName != l.opName;
        c.sizeMb += l.row->sizeMb;
        c.timeNs += l.row->timeNs;
        ++c.links;
    }
    std::sort(cells.begin(), cells.end(), [](const Cell& a, const Cell& b) {
        return std::make_pair(a.first.row->src, a.first.row->dst) < std::make_pair(b.first.row->src, b.first.row->dst);
    });
    auto text = [&](int32_t id) { return id >= 0 ? index.text(id) : std::string(); };
    CommMatrix m;
    m.cells.reserve(cells.size());
    for (const Cell& c : cells) {
        MatrixCell cell;
        cell.src = c.first.row->src;
        cell.dst = c.first.row->dst;
        cell.transport = c.mixed ? std::string("mixed") : text(c.first.transport);
        if (q.mode != LinkMode::Totals)
            cell.opName = c.severalOps ? std::string("several ops") : text(c.first.opName);
        cell.sizeMb = c.sizeMb;
        cell.timeNs = c.timeNs;
        cell.links = c.links;
        m.cells.push_back(std::move(cell));
    }
    finishMatrix(m, index.groups(), sel, orderBy, policy);
    return m;
}

// The slowest cell and the axis of a matrix whose cells are summed.
void finishMatrix(CommMatrix& m, const std::vector<Group>& groups, const CommSelection& sel, const std::string& orderBy,
    const LocalPolicy& policy)
{
    m.localGroup = policy.localGroup;
    m.hiddenLocalGroups = policy.hidden;
    for (size_t i = 0; i < m.cells.size(); ++i) {
        const auto& c = m.cells[i];
        const auto bw = c.bandwidthGbps();
        if (c.transport == "LOCAL" || c.src == c.dst || !bw)
            continue;
        if (!m.slowestCell || *bw < *m.cells[*m.slowestCell].bandwidthGbps())
            m.slowestCell = i;
    }

    if (m.localGroup) {
        // Local ranks of one group: the axis is those ranks in order; the groups' global members do not apply.
        std::set<int64_t> present;
        for (const auto& c : m.cells) {
            present.insert(c.src);
            present.insert(c.dst);
        }
        m.ranks.assign(present.begin(), present.end());
        return;
    }
    // Axis: the selected group's members in local-rank order, else every rank that has a cell,
    // ordered so that the groups of one name (tp, dp, ...) are contiguous blocks.
    if (sel.groupHash) {
        for (const auto& g : groups) {
            if (g.hash == *sel.groupHash) {
                m.ranks = g.ranks;
                m.blocks.push_back({ 0, g.ranks.size(), g.name.value_or(g.hash), g.hash });
                m.orderedBy = g.name.value_or(g.hash);
            }
        }
    }
    std::set<int64_t> present;
    for (const auto& c : m.cells) {
        present.insert(c.src);
        present.insert(c.dst);
    }
    if (!m.ranks.empty()) {
        for (int64_t r : present) {
            if (std::find(m.ranks.begin(), m.ranks.end(), r) == m.ranks.end())
                m.ranks.push_back(r);
        }
        return;
    }

    std::string name = orderBy;
    if (name == "auto") {
        // The name whose groups hold the most non-LOCAL volume of this matrix.
        std::map<std::string, std::unordered_map<int64_t, size_t>> groupOf;
        for (size_t gi = 0; gi < groups.size(); ++gi) {
            if (groups[gi].name && groups[gi].ranks.size() > 1 && groups[gi].ranks.size() < present.size()) {
                for (int64_t r : groups[gi].ranks)
                    groupOf[*groups[gi].name].emplace(r, gi);
            }
        }
        double best = 0;
        name.clear();
        for (const auto& [n, map] : groupOf) {
            double volume = 0;
            for (const auto& c : m.cells) {
                if (c.src == c.dst)
                    continue;
                auto a = map.find(c.src);
                auto d = map.find(c.dst);
                if (a != map.end() && d != map.end() && a->second == d->second)
                    volume += c.sizeMb;
            }
            if (volume > best) {
                best = volume;
                name = n;
            }
        }
    }
    m.orderedBy = name;
    std::set<int64_t> placed;
    if (!name.empty()) {
        std::vector<const Group*> chosen;
        for (const auto& g : groups) {
            if (g.name && *g.name == name && !g.ranks.empty())
                chosen.push_back(&g);
        }
        std::sort(chosen.begin(), chosen.end(), [](const Group* a, const Group* c) {
            return *std::min_element(a->ranks.begin(), a->ranks.end())
                < *std::min_element(c->ranks.begin(), c->ranks.end());
        });
        for (const Group* g : chosen) {
            const size_t begin = m.ranks.size();
            for (int64_t r : g->ranks) {
                if (present.count(r) && placed.insert(r).second)
                    m.ranks.push_back(r);
            }
            if (m.ranks.size() > begin)
                m.blocks.push_back({ begin, m.ranks.size(), name, g->hash });
        }
    }
    for (int64_t r : present) {
        if (placed.insert(r).second)
            m.ranks.push_back(r);
    }
}

} // namespace

CommMatrix CommAnalysisQuery::matrix(
    const CommLinkIndex& index, const CommSelection& sel, const MatrixOp& op, const std::string& orderBy)
{
    const LinkQuery q = resolveTotals(index, matrixQuery(sel, op));
    CommMatrix m = indexMatrix(index, q, sel, orderBy);
    m.totalOpInfo = q.totalOpInfo;
    return m;
}

namespace {

// linkTable's key: (step when a step is selected, group, op type, src, dst), compared on ids (equal exactly when
// the strings are, NULL read as "").
struct LinkKey {
    int64_t step = INT64_MIN; // INT64_MIN: no step, or summed over steps
    int32_t group = -1, type = -1;
    int64_t src = 0, dst = 0;
    bool operator==(const LinkKey&) const = default;
};

struct LinkKeyHash {
    size_t operator()(const LinkKey& k) const
    {
        uint64_t h = static_cast<uint64_t>(k.step) * 0x9E3779B97F4A7C15ull;
        for (const int64_t v : { static_cast<int64_t>(k.group), static_cast<int64_t>(k.type), k.src, k.dst })
            h = (h ^ static_cast<uint64_t>(v)) * 0x100000001B3ull;
        return static_cast<size_t>(h ^ (h >> 29));
    }
};

// The link table summed on ids: the deduplicated links of the query by key, with the slowest bottom1 op of each key.
// Strings are copied once per output row (15,872 of them for 282,624 links of a 1,024-rank cluster), not per link.
std::vector<LinkRow> indexLinkTable(const CommLinkIndex& index, const LinkQuery& totals, const LinkFilter& filter)
{
    const int32_t empty = index.id("");
    auto orEmpty = [empty](int32_t id) { return id >= 0 ? id : empty; };
    auto text = [&](int32_t id) { return id >= 0 ? index.text(id) : std::string(); };
    auto keyOf = [&](const CommLinkIndex::Row& r, int32_t typeId) {
        LinkKey k;
        k.step = filter.step && r.hasStep ? r.step : INT64_MIN;
        k.group = orEmpty(r.group);
        k.type = orEmpty(typeId);
        k.src = r.src;
        k.dst = r.dst;
        return k;
    };

    // One link per (step, group, op type, src, dst), the sender's copy of a link both ends wrote (dedupOrder).
    std::vector<const CommLinkIndex::Row*> links;
    std::vector<int32_t> types;
    std::vector<DedupKey> keys;
    DedupKeyMaker dedupKeyOf(index);
    forEachIndexRow(index, totals, [&](const CommLinkIndex::Row& r, int32_t typeId) {
        keys.push_back(dedupKeyOf(r, orEmpty(typeId)));
        links.push_back(&r);
        types.push_back(typeId);
    });

    struct Sum {
        LinkKey key;
        const CommLinkIndex::Row* first = nullptr; // the link that set the row's fields
        int32_t type = -1;
        int32_t transport = -1; // -1 with mixed false: "" (NULL)
        bool mixed = false;
        double sizeMb = 0;
        int64_t timeNs = 0;
        bool hasSlowest = false;
        double slowestGbps = 0;
        int32_t slowestOp = -1;
    };
    std::vector<Sum> sums;
    std::unordered_map<LinkKey, uint32_t, LinkKeyHash> at;
    for (size_t i : dedupOrder(keys)) {
        const CommLinkIndex::Row& r = *links[i];
        const LinkKey key = keyOf(r, types[i]);
        const auto [it, inserted] = at.emplace(key, static_cast<uint32_t>(sums.size()));
        if (inserted)
            sums.push_back({ key });
        Sum& s = sums[it->second];
        const int32_t transport = orEmpty(r.transport);
        // The row takes a link's fields while its transport reads "" (the first link, or one with a NULL transport).
        if (!s.mixed && (s.first == nullptr || s.transport == empty)) {
            s.first = &r;
            s.type = types[i];
            s.transport = transport;
        } else if (s.mixed || s.transport != transport) {
            s.mixed = true;
        }
        s.sizeMb += r.sizeMb;
        s.timeNs += r.timeNs;
    }
    // The op the profiler ranked slowest for each link (bottom1 slot), when the file names it.
    LinkQuery bottom1 = totals;
    bottom1.mode = LinkMode::Bottom1;
    forEachIndexRow(index, bottom1, [&](const CommLinkIndex::Row& r, int32_t typeId) {
        const auto it = at.find(keyOf(r, typeId));
        if (it == at.end())
            return;
        Sum& s = sums[it->second];
        if (!s.hasSlowest || r.bandwidthGbps < s.slowestGbps) {
            s.hasSlowest = true;
            s.slowestGbps = r.bandwidthGbps;
            s.slowestOp = r.opName >= 0 ? r.opName : (r.slot < 0 ? r.matrixOp : empty);
        }
    });

    // Key order as the strings compare (the order of the std::map it replaces), then by bandwidth, ties kept.
    std::vector<uint32_t> order(sums.size());
    for (uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    auto textOf = [&](int32_t id) -> std::string_view {
        return id >= 0 ? std::string_view(index.text(id)) : std::string_view();
    };
    std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
        const LinkKey& a = sums[x].key;
        const LinkKey& b = sums[y].key;
        if (a.step != b.step)
            return a.step < b.step; // INT64_MIN (nullopt) first, as std::optional orders
        if (a.group != b.group)
            return textOf(a.group) < textOf(b.group);
        if (a.type != b.type)
            return textOf(a.type) < textOf(b.type);
        return std::tie(a.src, a.dst) < std::tie(b.src, b.dst);
    });
    std::vector<LinkRow> out;
    out.reserve(sums.size());
    for (uint32_t i : order) {
        const Sum& s = sums[i];
        const CommLinkIndex::Row& r = *s.first;
        LinkRow row;
        row.step = filter.step && r.hasStep ? std::optional<int64_t>(r.step) : std::nullopt;
        if (std::string group = text(r.group); !group.empty())
            row.groupHash = std::move(group);
        row.opType = text(s.type);
        row.src = r.src;
        row.dst = r.dst;
        row.transport = s.mixed ? std::string("mixed") : text(s.transport);
        row.localRanks = r.local;
        row.sizeMb = s.sizeMb;
        row.timeNs = s.timeNs;
        row.bandwidthGbps = bandwidthGbpsOf(s.sizeMb, s.timeNs);
        if (s.hasSlowest)
            row.slowestOp = text(s.slowestOp);
        out.push_back(std::move(row));
    }
    std::stable_sort(out.begin(), out.end(), [](const LinkRow& x, const LinkRow& y) {
        if (x.bandwidthGbps.has_value() != y.bandwidthGbps.has_value())
            return x.bandwidthGbps.has_value();
        return x.bandwidthGbps && *x.bandwidthGbps < *y.bandwidthGbps;
    });
    return out;
}

} // namespace

std::vector<LinkRow> CommAnalysisQuery::linkTable(const CommLinkIndex& index, const LinkFilter& filter)
{
    return indexLinkTable(index, resolveTotals(index, linkTableQuery(filter)), filter);
}

CommMatrix CommAnalysisQuery::matrix(
    model::Database& db, const CommSelection& sel, const MatrixOp& op, const std::string& orderBy)
{
    return matrix(*CommLinkIndex::forDatabase(db), sel, op, orderBy);
}

MatrixOpChoices CommAnalysisQuery::matrixOps(model::Database& db, const CommSelection& sel)
{
    return matrixOps(*CommLinkIndex::forDatabase(db), *CommOpIndex::forDatabase(db), sel);
}

std::vector<LinkRow> CommAnalysisQuery::linkTable(model::Database& db, const LinkFilter& filter)
{
    return linkTable(*CommLinkIndex::forDatabase(db), filter);
}

} // namespace npuscope::query
