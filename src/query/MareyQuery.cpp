// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/MareyQuery.h"
#include "npuscope/model/ReadRow.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

namespace npuscope::query {

namespace {

bool contains(const std::string& text, const char* word)
{
    auto it = std::search(text.begin(), text.end(), word, word + std::char_traits<char>::length(word),
        [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
    return it != text.end();
}

// Send / receive from a communication op's name or type (hcom_send__…, hcom_receive_, Send, Receive, recv).
MareyOpKind commKind(const std::string& name, const std::string& type)
{
    for (const auto* s : { &name, &type }) {
        if (contains(*s, "send"))
            return MareyOpKind::Send;
        if (contains(*s, "receive") || contains(*s, "recv"))
            return MareyOpKind::Receive;
    }
    return MareyOpKind::Communication;
}

// A MindSpore device task's collective type: the name's part before "-op" ("AllReduce-op534", "Receive-op1893"). The
// stream synchronisation tasks (StreamSend, StreamRecv) are no communication.
bool isMindSporeCollective(const std::string& name)
{
    static const std::set<std::string> kTypes { "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Send",
        "Receive", "AllToAll", "AllToAllv", "AlltoAll", "AlltoAllV", "NeighborExchange", "NeighborExchangeV2",
        "CollectivePermute", "Reduce", "Barrier", "BatchISendIRecv" };
    // CANN's timelines name a task by the op's full scope name (Default/.../AllReduce-op534).
    const auto slash = name.rfind('/');
    const std::string last = slash == std::string::npos ? name : name.substr(slash + 1);
    const auto cut = last.find("-op");
    const std::string type = last.substr(0, cut);
    return kTypes.count(type) > 0 || type.rfind("Hcom", 0) == 0;
}

// The "Task Type" of a CANN device task from its args JSON text ({"Task Type":"AI_CORE",...}); empty when absent.
std::string taskType(const std::string& args)
{
    static const std::string kKey = "\"Task Type\":";
    auto at = args.find(kKey);
    if (at == std::string::npos)
        return {};
    at = args.find('"', at + kKey.size());
    if (at == std::string::npos)
        return {};
    const auto end = args.find('"', at + 1);
    return end == std::string::npos ? std::string() : args.substr(at + 1, end - at - 1);
}

// Where a fallback task comes from (MareyQuery::step's device-task reading).
enum class TaskSource { MindSporeDevice, AscendHardware, Hccl };

std::string stringValue(model::Database& db, int64_t id)
{
    auto st = db.prepare("SELECT value FROM string WHERE id = ?");
    st.bind(1, id);
    return st.step() ? st.text(0) : std::string();
}

// Interns names of the step's operators into MareyStep::names.
class Names {
public:
    explicit Names(MareyStep& step)
        : m_step(step)
    {
    }
    uint32_t byText(const std::string& text)
    {
        auto [it, fresh] = m_byText.try_emplace(text, static_cast<uint32_t>(m_step.names.size()));
        if (fresh)
            m_step.names.push_back(text);
        return it->second;
    }
    uint32_t byId(model::Database& db, int64_t id)
    {
        auto it = m_byId.find(id);
        if (it != m_byId.end())
            return it->second;
        const uint32_t local = byText(stringValue(db, id));
        m_byId.emplace(id, local);
        return local;
    }

private:
    MareyStep& m_step;
    std::unordered_map<std::string, uint32_t> m_byText;
    std::unordered_map<int64_t, uint32_t> m_byId;
};

// A rank's per-op FLOPs (opFlops: name, flops of its op_flops rows in line order) by the last part of the op's scope
// name (Default/.../MatMul-op9 -> MatMul-op9, as the timeline names the task); the first line wins.
std::unordered_map<std::string, double> flopsByLastScopePart(model::Statement& opFlops, int64_t rank)
{
    std::unordered_map<std::string, double> flopsOf;
    opFlops.reset();
    opFlops.bind(1, rank);
    while (opFlops.step()) {
        const std::string full = opFlops.text(0);
        const auto slash = full.rfind('/');
        flopsOf.emplace(slash == std::string::npos ? full : full.substr(slash + 1), opFlops.real(1));
    }
    return flopsOf;
}

// The peers of the step's point-to-point ops (sends and receives): the communication matrix names the op of each p2p
// link.
std::vector<MareyQuery::OpPeer> p2pPeers(model::Database& db, const MareyStep& out, std::optional<int64_t> stepId)
{
    std::map<std::pair<int64_t, std::string>, int64_t> peerOf;
    auto links = db.prepare("SELECT DISTINCT rank_id, op_name, src, dst FROM comm_link WHERE kind = 'p2p' AND op_name "
                            "IS NOT NULL AND src IS NOT NULL AND dst IS NOT NULL AND src <> dst AND (?1 IS NULL OR "
                            "step = ?1)");
    links.bind(1, stepId);
    while (links.step()) {
        const int64_t rank = links.int64(0), src = links.int64(2), dst = links.int64(3);
        if (rank == src)
            peerOf[{ rank, links.text(1) }] = dst;
        else if (rank == dst)
            peerOf[{ rank, links.text(1) }] = src;
    }
    std::vector<MareyQuery::OpPeer> peers;
    if (peerOf.empty())
        return peers;
    for (int d = 0; d < static_cast<int>(out.devices.size()); ++d) {
        const auto& dev = out.devices[d];
        for (int i = 0; i < static_cast<int>(dev.ops.size()); ++i) {
            const auto& op = dev.ops[i];
            if (op.kind != MareyOpKind::Send && op.kind != MareyOpKind::Receive)
                continue;
            auto it = peerOf.find({ dev.rank, out.names[op.name] });
            if (it != peerOf.end())
                peers.push_back({ d, i, it->second });
        }
    }
    return peers;
}

} // namespace

std::vector<int64_t> MareyQuery::steps(model::Database& db)
{
    // step_trace too: before any kernel of a cluster is loaded (step_kernel), its steps come from the summary.
    return model::readInts(db,
        "SELECT step FROM kernel WHERE step IS NOT NULL UNION SELECT step FROM step_kernel WHERE step IS NOT NULL "
        "UNION SELECT step FROM step_trace WHERE step IS NOT NULL ORDER BY step");
}

std::vector<int64_t> MareyQuery::ranksNeedingTimelines(model::Database& db, const std::vector<int64_t>& ranks)
{
    std::vector<int64_t> out;
    auto st = db.prepare("SELECT EXISTS (SELECT 1 FROM rank_file WHERE rank_id = ?1 AND kind = 'ms_timeline_display' "
                         "AND status = 'skipped') AND NOT EXISTS (SELECT 1 FROM rank_file WHERE rank_id = ?1 AND kind "
                         "IN ('kernel_details', 'op_summary'))");
    for (const int64_t rank : ranks) {
        st.reset();
        st.bind(1, rank);
        if (st.step() && st.int64(0) != 0)
            out.push_back(rank);
    }
    return out;
}

MareyStep MareyQuery::step(model::Database& db, const ParallelLayout& layout, std::optional<int64_t> stepId)
{
    MareyStep out;
    out.step = stepId;
    Names names(out);
    // Per local name: whether a kernel of that name is communication by its name (hcom_…), and its kind when it is.
    std::unordered_map<uint32_t, MareyOpKind> commKinds;
    auto commKindOf = [&](uint32_t name, std::optional<int64_t> typeId) {
        auto it = commKinds.find(name);
        if (it == commKinds.end())
            it = commKinds.emplace(name, commKind(out.names[name], typeId ? stringValue(db, *typeId) : std::string()))
                     .first;
        return it->second;
    };
    std::vector<int8_t>
        hcomName; // per local name: 1 when it starts with "hcom" (HCCL kernels of builds without a core)

    // The step's kernels of one rank, from the kernel table when the rank's kernels are imported, else from the
    // step-scoped step_kernel rows (load::Loader::loadStepKernels), in the same order (start, then file order);
    // comm_op rows stand in for communication when the kernels have none.
    auto kernels = db.prepare(
        "SELECT name_id, type_id, accelerator_core IN ('HCCL', 'COMMUNICATION'), ts, dur, 0 AS src, rowid AS seq, "
        "flops FROM kernel WHERE rank_id = ?1 AND (?2 IS NULL OR step = ?2) UNION ALL SELECT name_id, type_id, "
        "accelerator_core IN ('HCCL', 'COMMUNICATION'), ts, dur, 1, rowid, flops FROM step_kernel WHERE rank_id = ?1 "
        "AND (?2 IS NULL OR step = ?2) AND NOT EXISTS (SELECT 1 FROM kernel WHERE rank_id = ?1) ORDER BY ts, src, seq");
    // Device tasks of ranks without kernel rows, within the step's span (all of them for every step):
    // - MindSpore's timelines (ascend_timeline_display, MindSporeTimelineImporter): the "Device" process's tasks; the
    //   span is ProfilerStep#N of the "Step Trace" process;
    // - CANN PROF task timelines (msprof_*.json, CannProfImporter): the "Ascend Hardware" process's operator tasks
    //   and the op-level slices of the "HCCL" process (not its "Plane" task rows); the span is "Iteration N" of the
    //   "Step Trace(Model ID:…)" thread (of every model the device ran: the first start to the last end).
    auto stepSpan = db.prepare(
        "SELECT MIN(t.ts), MAX(t.ts + t.dur) FROM slice t JOIN process q ON q.rank_id = t.rank_id AND q.pid = t.pid "
        "LEFT JOIN thread h ON h.rank_id = t.rank_id AND h.pid = t.pid AND h.tid = t.tid JOIN string n ON n.id = "
        "t.name_id WHERE t.rank_id = ?1 AND ((q.name = 'Step Trace' AND n.value = 'ProfilerStep#' || ?2) OR (q.name = "
        "'Ascend Hardware' AND h.name LIKE 'Step Trace%' AND n.value = 'Iteration ' || ?2))");
    auto deviceTasks = db.prepare(
        "SELECT s.name_id, s.ts, s.dur, CASE p.name WHEN 'Device' THEN 0 WHEN 'Ascend Hardware' THEN 1 ELSE 2 END, "
        "s.args FROM slice s JOIN process p ON p.rank_id = s.rank_id AND p.pid = s.pid LEFT JOIN thread h ON h.rank_id "
        "= s.rank_id AND h.pid = s.pid AND h.tid = s.tid WHERE s.rank_id = ?1 AND (p.name = 'Device' OR (p.name = "
        "'Ascend Hardware' AND (h.name IS NULL OR h.name NOT LIKE 'Step Trace%')) OR (p.name = 'HCCL' AND s.depth = 0 "
        "AND (h.name IS NULL OR h.name NOT LIKE 'Plane%'))) AND s.ts >= ?2 AND s.ts < ?3 ORDER BY s.ts, s.id");
    // MindSpore's per-op FLOPs (flops_{rank}.txt, op_flops): one execution's FLOPs by the op's full scope name
    // (Default/.../MatMul-op9), where the timeline names the task by its last part (MatMul-op9).
    auto opFlops = db.prepare("SELECT name, flops FROM op_flops WHERE rank_id = ?1 AND flops > 0 ORDER BY line");
    auto commOps = db.prepare("SELECT op_name, op_type, start_ns, COALESCE(elapse_ns, 0) FROM comm_op WHERE "
                              "rank_id = ?1 AND is_total = 0 AND start_ns IS NOT NULL AND (?2 IS NULL OR step = ?2)");
    for (const auto& stage : layout.stages) {
        if (stage.loadedRanks.empty())
            continue;
        MareyStage s;
        s.index = stage.index;
        s.firstDevice = static_cast<int>(out.devices.size());
        s.deviceCount = static_cast<int>(stage.loadedRanks.size());
        for (const int64_t rank : stage.loadedRanks) {
            MareyDevice dev;
            dev.rank = rank;
            dev.stage = static_cast<int>(out.stages.size());
            bool hasComm = false;
            kernels.reset();
            kernels.bind(1, rank).bind(2, stepId);
            while (kernels.step()) {
                MareyOp op;
                op.name = names.byId(db, kernels.int64(0));
                while (hcomName.size() < out.names.size()) {
                    const auto& text = out.names[hcomName.size()];
                    hcomName.push_back(text.size() >= 4 && contains(text.substr(0, 4), "hcom") ? 1 : 0);
                }
                if (kernels.optInt(2).value_or(0) != 0 || hcomName[op.name]) {
                    hasComm = true;
                    op.kind = commKindOf(op.name, kernels.optInt(1));
                }
                op.start = kernels.int64(3);
                op.end = op.start + std::max<int64_t>(0, kernels.int64(4));
                op.flops = std::max(0.0, kernels.optReal(7).value_or(0.0));
                dev.ops.push_back(op);
            }
            if (dev.ops.empty()) {
                // No kernel rows: a MindSpore timeline's device tasks, when imported.
                int64_t from = std::numeric_limits<int64_t>::min(), to = std::numeric_limits<int64_t>::max();
                if (stepId) {
                    stepSpan.reset();
                    stepSpan.bind(1, rank).bind(2, *stepId);
                    if (stepSpan.step() && stepSpan.optInt(0) && stepSpan.optInt(1)) {
                        from = stepSpan.int64(0);
                        to = stepSpan.int64(1);
                    } else {
                        to = from; // no span of that step: no task
                    }
                }
                const auto flopsOf = flopsByLastScopePart(opFlops, rank);
                deviceTasks.reset();
                deviceTasks.bind(1, rank).bind(2, from).bind(3, to);
                while (deviceTasks.step()) {
                    const auto source = static_cast<TaskSource>(deviceTasks.int64(3));
                    MareyOp op;
                    op.name = names.byId(db, deviceTasks.int64(0));
                    if (source == TaskSource::AscendHardware) {
                        // An operator's task carries the operator's name; the runtime's own tasks (notify and event
                        // records and waits, HCCL's reduce and copy steps) carry their task type as their name, and
                        // the step markers none: both are no operator.
                        const std::string type = taskType(deviceTasks.optText(4).value_or(std::string()));
                        if (type.empty() || type == out.names[op.name])
                            continue;
                    }
                    if (source == TaskSource::Hccl) {
                        hasComm = true;
                        op.kind = commKind(out.names[op.name], std::string());
                    } else if (isMindSporeCollective(out.names[op.name])) {
                        hasComm = true;
                        op.kind = commKind(out.names[op.name], std::string());
                    }
                    if (!flopsOf.empty()) {
                        const std::string& name = out.names[op.name];
                        const auto slash = name.rfind('/');
                        const auto it = flopsOf.find(slash == std::string::npos ? name : name.substr(slash + 1));
                        if (it != flopsOf.end())
                            op.flops = it->second;
                    }
                    op.start = deviceTasks.int64(1);
                    op.end = op.start + std::max<int64_t>(0, deviceTasks.int64(2));
                    dev.ops.push_back(op);
                }
            }
            if (!hasComm) {
                commOps.reset();
                commOps.bind(1, rank).bind(2, stepId);
                while (commOps.step()) {
                    MareyOp op;
                    const std::string name = commOps.text(0);
                    op.name = names.byText(name);
                    op.kind = commKind(name, commOps.optText(1).value_or(std::string()));
                    op.start = commOps.int64(2);
                    op.end = op.start + std::max<int64_t>(0, commOps.int64(3));
                    dev.ops.push_back(op);
                }
            }
            out.devices.push_back(std::move(dev));
        }
        out.stages.push_back(s);
    }
    match(out);
    pairSendReceive(out, layout, p2pPeers(db, out, stepId));
    return out;
}

std::vector<core::CurvePoint> MareyQuery::memoryUsageLine(
    model::Database& db, const MareyStep& step, const MareyDevice& device)
{
    std::vector<core::CurvePoint> out;
    if (!device.hasOps())
        return out;
    auto st = db.prepare("SELECT name, memory_gib FROM ms_memory_node WHERE rank_id = ?1 AND graph_id IS (SELECT "
                         "graph_id FROM ms_memory_node WHERE rank_id = ?1 GROUP BY graph_id ORDER BY COUNT(*) DESC, "
                         "graph_id LIMIT 1) ORDER BY node_index");
    st.bind(1, device.rank);
    std::unordered_map<std::string, double> memoryOf; // node name -> GiB; the first node of a name wins
    std::vector<std::string> order;
    while (st.step()) {
        if (memoryOf.emplace(st.text(0), st.real(1)).second)
            order.push_back(st.text(0));
    }
    if (memoryOf.empty())
        return out;
    std::unordered_map<std::string, int64_t> startOf; // by the op name's last scope part, the first start
    for (const auto& op : device.ops) {
        const std::string& name = step.names[op.name];
        const auto slash = name.rfind('/');
        startOf.emplace(slash == std::string::npos ? name : name.substr(slash + 1), op.start);
    }
    for (const auto& name : order) {
        if (const auto it = startOf.find(name); it != startOf.end())
            out.push_back({ it->second, memoryOf[name] * 1024.0 });
    }
    std::stable_sort(
        out.begin(), out.end(), [](const core::CurvePoint& a, const core::CurvePoint& b) { return a.t < b.t; });
    return out;
}

void MareyQuery::match(MareyStep& step)
{
    step.opCount = 0;
    step.unmatchedOps = 0;
    std::vector<uint32_t> seen(step.names.size(), 0);
    for (auto& dev : step.devices) {
        std::sort(dev.ops.begin(), dev.ops.end(),
            [](const MareyOp& a, const MareyOp& b) { return a.start != b.start ? a.start < b.start : a.end < b.end; });
        std::fill(seen.begin(), seen.end(), 0);
        dev.stepStart = dev.ops.empty() ? 0 : dev.ops.front().start;
        dev.stepEnd = 0;
        for (auto& op : dev.ops) {
            op.occurrence = seen[op.name]++;
            op.next = -1;
            op.matched = false;
            dev.stepEnd = std::max(dev.stepEnd, op.end);
        }
        step.opCount += static_cast<int64_t>(dev.ops.size());
    }
    // Each device's (name, occurrence) keys sorted, so consecutive devices join by a merge.
    auto keysOf = [](const MareyDevice& dev) {
        std::vector<std::pair<uint64_t, int32_t>> keys;
        keys.reserve(dev.ops.size());
        for (size_t i = 0; i < dev.ops.size(); ++i)
            keys.emplace_back((uint64_t(dev.ops[i].name) << 32) | dev.ops[i].occurrence, static_cast<int32_t>(i));
        std::sort(keys.begin(), keys.end());
        return keys;
    };
    for (auto& stage : step.stages) {
        std::vector<std::pair<uint64_t, int32_t>> prev, cur;
        for (int d = stage.firstDevice; d < stage.firstDevice + stage.deviceCount; ++d) {
            cur = keysOf(step.devices[d]);
            if (d > stage.firstDevice) {
                auto& a = step.devices[d - 1];
                auto& b = step.devices[d];
                size_t i = 0, j = 0;
                while (i < prev.size() && j < cur.size()) {
                    if (prev[i].first < cur[j].first) {
                        ++i;
                    } else if (cur[j].first < prev[i].first) {
                        ++j;
                    } else {
                        a.ops[prev[i].second].next = cur[j].second;
                        a.ops[prev[i].second].matched = true;
                        b.ops[cur[j].second].matched = true;
                        ++i;
                        ++j;
                    }
                }
            }
            prev.swap(cur);
        }
        stage.unmatchedOps = 0;
        if (stage.deviceCount > 1) {
            for (int d = stage.firstDevice; d < stage.firstDevice + stage.deviceCount; ++d) {
                for (const auto& op : step.devices[d].ops)
                    stage.unmatchedOps += op.matched ? 0 : 1;
            }
        }
        step.unmatchedOps += stage.unmatchedOps;
    }
}

void MareyQuery::pairSendReceive(MareyStep& step, const ParallelLayout& layout, const std::vector<OpPeer>& opPeers)
{
    step.p2p.clear();
    const int n = static_cast<int>(step.devices.size());
    std::unordered_map<int64_t, int> deviceOfRank;
    for (int d = 0; d < n; ++d)
        deviceOfRank.emplace(step.devices[d].rank, d);
    // Known peer per (device, op) as a device index; −2 = the peer rank is not shown, −1 = unknown.
    std::map<std::pair<int, int>, int> known;
    for (const auto& p : opPeers) {
        auto it = deviceOfRank.find(p.peerRank);
        known[{ p.device, p.op }] = it == deviceOfRank.end() ? -2 : it->second;
    }
    auto peerOf = [&](int d, int i) {
        auto it = known.find({ d, i });
        return it == known.end() ? -1 : it->second;
    };
    // Devices with the same dp/cp/tp coordinate on the neighbouring stages: the peers when the data names none.
    std::vector<std::vector<int>> neighbours(step.devices.size());
    for (int d = 0; d < n; ++d) {
        const auto* c = layout.find(step.devices[d].rank);
        if (!c)
            continue;
        for (const int pp : { c->pp - 1, c->pp + 1 }) {
            const auto rank = layout.rankAt(pp, c->dp, c->cp, c->tp);
            if (!rank)
                continue;
            auto it = deviceOfRank.find(*rank);
            if (it != deviceOfRank.end())
                neighbours[d].push_back(it->second);
        }
    }
    auto isNeighbour
        = [&](int a, int b) { return std::find(neighbours[a].begin(), neighbours[a].end(), b) != neighbours[a].end(); };
    // Each device's receives in start order, and how many at the front are joined already.
    std::vector<std::vector<int>> receives(step.devices.size());
    std::vector<std::vector<char>> used(step.devices.size());
    std::vector<size_t> firstFree(step.devices.size(), 0);
    std::vector<std::pair<int, int>> sends;
    for (int d = 0; d < n; ++d) {
        const auto& ops = step.devices[d].ops;
        for (int i = 0; i < static_cast<int>(ops.size()); ++i) {
            if (ops[i].kind == MareyOpKind::Receive)
                receives[d].push_back(i);
            else if (ops[i].kind == MareyOpKind::Send)
                sends.emplace_back(d, i);
        }
        used[d].assign(receives[d].size(), 0);
    }
    std::vector<char> allNamed(step.devices.size(), 1);
    for (int d = 0; d < n; ++d) {
        for (const int j : receives[d])
            allNamed[d] = allNamed[d] && peerOf(d, j) >= 0;
    }
    for (const auto& [d, i] : sends)
        allNamed[d] = allNamed[d] && peerOf(d, i) >= 0;
    // Earlier sends choose first, so the k-th send of a pair of devices meets the k-th receive.
    std::sort(sends.begin(), sends.end(), [&](const auto& a, const auto& b) {
        return step.devices[a.first].ops[a.second].start < step.devices[b.first].ops[b.second].start;
    });
    int64_t unpaired = 0;
    for (const auto& [d, i] : sends) {
        const auto& send = step.devices[d].ops[i];
        const int named = peerOf(d, i);
        // Every p2p op of both devices named: the k-th send of d to p meets the k-th receive of p from d, whatever the
        // clocks say. (A matrix that names only its top / middle / bottom ops does not order the rest.)
        if (named >= 0 && allNamed[d] && allNamed[named]) {
            size_t k = firstFree[named];
            while (k < receives[named].size() && (used[named][k] || peerOf(named, receives[named][k]) != d))
                ++k;
            if (k < receives[named].size()) {
                used[named][k] = 1;
                step.p2p.push_back({ d, i, named, receives[named][k] });
                continue;
            }
        }
        std::vector<int> candidates;
        if (named >= 0)
            candidates.push_back(named);
        else if (named == -1)
            candidates = neighbours[d];
        // The receive a send feeds cannot end before the send starts: the first such free receive on each candidate
        // device (per pair of devices the k-th send meets the k-th receive), and of the candidates the one whose end
        // is nearest the send's end (both complete when the data has arrived).
        int bestDevice = -1;
        size_t bestSlot = 0;
        int64_t bestGap = 0;
        for (const int p : candidates) {
            const auto& ops = step.devices[p].ops;
            while (firstFree[p] < receives[p].size() && used[p][firstFree[p]])
                ++firstFree[p];
            for (size_t k = firstFree[p]; k < receives[p].size(); ++k) {
                const int j = receives[p][k];
                if (used[p][k] || ops[j].end < send.start)
                    continue;
                const int from = peerOf(p, j);
                if (!(from == d || (from == -1 && (named == p || isNeighbour(p, d)))))
                    continue;
                const int64_t gap = std::abs(ops[j].end - send.end);
                if (bestDevice < 0 || gap < bestGap) {
                    bestDevice = p;
                    bestSlot = k;
                    bestGap = gap;
                }
                break;
            }
        }
        if (bestDevice < 0) {
            ++unpaired;
            continue;
        }
        used[bestDevice][bestSlot] = 1;
        step.p2p.push_back({ d, i, bestDevice, receives[bestDevice][bestSlot] });
    }
    std::sort(step.p2p.begin(), step.p2p.end(), [](const MareyP2p& a, const MareyP2p& b) {
        return a.sendDevice != b.sendDevice ? a.sendDevice < b.sendDevice : a.sendOp < b.sendOp;
    });
    step.unpairedSends = unpaired;
}

} // namespace npuscope::query
