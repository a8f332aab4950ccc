// SPDX-License-Identifier: Apache-2.0
#include "npuscope/model/ModelWriter.h"

#include "npuscope/core/EnumNames.h"
#include "npuscope/model/ParallelGroupTable.h"
#include "npuscope/model/TableInsert.h"

#include <algorithm>
#include <array>
#include <memory>
#include <string>

namespace npuscope::model {

namespace {

// Rows per multi-row INSERT of addSlices/addFlows: 12 columns x 32 rows stays far below SQLite's
// bound-parameter limit, and larger batches gain nothing measurable.
constexpr std::size_t kBatchRows = 32;

// Links per multi-row INSERT of addCommLink: 10 columns x 64 rows.
constexpr std::size_t kLinkBatch = 64;

// Link ops per multi-row INSERT: 10 columns x 32 rows (an op has 1 to 1,024 links, most a few).
constexpr std::size_t kLinkOpBatch = 32;

constexpr TableInsert<10>::Columns kLinkOpColumns { "id", "rank_id", "step", "kind", "matrix_op", "op_type", "slot",
    "group_hash", "first_row", "last_row" };

constexpr TableInsert<10>::Columns kLinkColumns { "op_id", "local_src", "local_dst", "src", "dst", "transport",
    "size_mb", "time_ns", "bandwidth_gbps", "op_name_id" };

// Rows per multi-row INSERT of addCommOps / addCommBandwidths / addCommPackets (a file's ops come together).
constexpr std::size_t kCommBatch = 16;

constexpr TableInsert<17>::Columns kCommOpColumns { "rank_id", "step", "kind", "op_key", "op_name", "op_type",
    "group_hash", "is_total", "start_ns", "elapse_ns", "transit_ns", "wait_ns", "sync_ns", "idle_ns", "wait_ratio",
    "sync_ratio", "zero_transports" };

// step_trace: the rank, device and step, the step columns in kStepColumns order, the source line.
constexpr TableInsert<4 + kStepColumnCount>::Columns kStepTraceColumns = [] {
    TableInsert<4 + kStepColumnCount>::Columns c { "rank_id", "device_id", "step" };
    for (std::size_t i = 0; i < kStepColumns.size(); ++i)
        c[3 + i] = kStepColumns[i].sql;
    c[3 + kStepColumns.size()] = "source_line";
    return c;
}();

constexpr TableInsert<4>::Columns kPacketColumns { "comm_bandwidth_id", "package_mb", "count", "total_ns" };

constexpr TableInsert<6>::Columns kBandwidthColumns { "comm_op_id", "transport", "size_mb", "transit_ns",
    "bandwidth_gbps", "large_packet_ratio" };

constexpr TableInsert<12>::Columns kSliceColumns { "rank_id", "pid", "tid", "ts", "dur", "depth", "name_id", "cat_id",
    "args", "args_file_id", "args_offset", "args_len" };
constexpr TableInsert<12>::Columns kFlowColumns { "rank_id", "cat", "name", "flow_id", "src_pid", "src_tid", "src_ts",
    "dst_pid", "dst_tid", "dst_ts", "src_slice_id", "dst_slice_id" };

constexpr EnumName<Severity> kSeverityNames[] { { Severity::Info, "info" }, { Severity::Warning, "warning" },
    { Severity::Error, "error" } };

} // namespace

const char* severityName(Severity s) { return nameOf(kSeverityNames, s, "warning"); }

// Multi-row INSERTs of 1 to B rows into one table, each prepared when first used.
template <std::size_t N, std::size_t B> class BatchInsert {
public:
    BatchInsert(Database& db, const char* table, const typename TableInsert<N>::Columns& columns)
        : m_db(db)
        , m_table(table)
        , m_columns(columns)
    {
        // The one-row INSERT now: a wrong column is an error when the writer is made (and the schema test sees it).
        m_inserts[0] = std::make_unique<TableInsert<N>>(m_db, m_table, m_columns);
    }

    // Inserts rows[0..n) in statements of up to B rows, bind(insert, j, row) binding row j of a statement; ids (when
    // not null) get the rows' ids.
    template <typename Row, typename Bind> void insert(const Row* rows, std::size_t n, int64_t* ids, Bind bind)
    {
        for (std::size_t done = 0; done < n;) {
            const std::size_t k = std::min(B, n - done);
            auto& insert = m_inserts[k - 1];
            if (!insert)
                insert = std::make_unique<TableInsert<N>>(m_db, m_table, m_columns, "", "INSERT INTO", k);
            for (std::size_t j = 0; j < k; ++j)
                bind(*insert, j, rows[done + j]);
            insert->run();
            if (ids) {
                // One statement appends its rows in order, each with the next rowid.
                const int64_t last = m_db.lastInsertRowId();
                for (std::size_t j = 0; j < k; ++j)
                    ids[done + j] = last - static_cast<int64_t>(k - 1 - j);
            }
            done += k;
        }
    }

private:
    Database& m_db;
    const char* m_table;
    typename TableInsert<N>::Columns m_columns;
    std::array<std::unique_ptr<TableInsert<N>>, B> m_inserts; // [k - 1]: the INSERT of k rows
};

struct ModelWriter::Statements {
    explicit Statements(Database& db)
        : string(db, "string", { "id", "value" })
        , rank(db, "rank",
              { "rank_id", "device_id", "path", "rank_source", "host", "framework", "profiler_level", "export_type",
                  "version", "cann_version", "collection_end_ns", "world_size" },
              {}, "INSERT OR REPLACE INTO")
        , rankUpdate(db.prepare("UPDATE rank SET device_id=COALESCE(?2,device_id), host=COALESCE(?3,host), "
                                "framework=COALESCE(?4,framework), profiler_level=COALESCE(?5,profiler_level), "
                                "export_type=COALESCE(?6,export_type), version=COALESCE(?7,version), "
                                "cann_version=COALESCE(?8,cann_version), "
                                "collection_end_ns=COALESCE(?9,collection_end_ns), "
                                "world_size=COALESCE(?10,world_size) WHERE rank_id=?1"))
        , rankInfo(db, "rank_info", { "rank_id", "key", "value" })
        , parallelGroup(db)
        , stepTrace(db, "step_trace", kStepTraceColumns)
        , kernel(db, "kernel",
              { "rank_id", "device_id", "step", "model_id", "task_id", "stream_id", "name_id", "type_id", "op_state",
                  "accelerator_core", "ts", "dur", "wait_ns", "block_dim", "mix_block_dim", "input_shapes",
                  "input_data_types", "output_shapes", "output_data_types", "pmu_json", "flops", "source_line",
                  "pmu_file_id", "pmu_offset", "pmu_len" })
        , opStatistic(db, "op_statistic",
              { "rank_id", "device_id", "op_type", "core_type", "count", "total_ns", "min_ns", "avg_ns", "max_ns",
                  "ratio_pct" })
        , apiStatistic(db, "api_statistic",
              { "rank_id", "device_id", "level", "api_name", "total_ns", "count", "avg_ns", "min_ns", "max_ns",
                  "variance" })
        , commOps(db, "comm_op", kCommOpColumns)
        , commBandwidths(db, "comm_bandwidth", kBandwidthColumns)
        , commPackets(db, "comm_packet", kPacketColumns)
        , commLinkOp(db, "comm_link_op", kLinkOpColumns)
        , commLinkOpBatch(db, "comm_link_op", kLinkOpColumns, {}, "INSERT INTO", kLinkOpBatch)
        , commLinkOpRows(db.prepare("UPDATE comm_link_op SET first_row = ?1, last_row = ?2 WHERE id = ?3"))
        , commLinkName(db, "comm_link_name", { "value" })
        , commLinkRow(db, "comm_link_row", kLinkColumns)
        , commLinkRowBatch(db, "comm_link_row", kLinkColumns, {}, "INSERT INTO", kLinkBatch)
        , memoryRecord(db, "memory_record",
              { "rank_id", "component", "ts", "allocated_mb", "reserved_mb", "active_mb", "stream_ptr", "device" })
        , operatorMemory(db, "operator_memory",
              { "rank_id", "name", "size_kb", "alloc_ts", "release_ts", "active_release_ts", "dur", "active_dur",
                  "alloc_allocated_mb", "alloc_reserved_mb", "alloc_active_mb", "release_allocated_mb",
                  "release_reserved_mb", "release_active_mb", "stream_ptr", "device" })
        , memoryPeak(db, "memory_peak",
              { "rank_id", "component", "peak_reserved_mb", "reserved_ts", "peak_allocated_mb", "allocated_ts",
                  "samples", "device" })
        , kernelTotal(db, "kernel_total", { "rank_id", "step", "kernels", "flops_kernels", "flops", "flops_dur_ns" })
        , stepKernel(
              db, "step_kernel", { "rank_id", "step", "name_id", "type_id", "accelerator_core", "ts", "dur", "flops" })
        , kernelSum(
              db, "kernel_sum", { "rank_id", "step", "name_id", "type_id", "accelerator_core", "kernels", "dur_ns" })
        , npuModuleMem(db, "npu_module_mem", { "rank_id", "device_id", "component", "ts", "reserved_mb", "device" })
        , opFlops(db, "op_flops",
              { "rank_id", "name", "line", "flops", "flops_per_s", "utilization_pct", "cube_flops", "cube_flops_per_s",
                  "cube_utilization_pct", "vec_flops", "vec_flops_per_s", "vec_utilization_pct" })
        , flopsScopeLink(db, "flops_scope_link", { "rank_id", "source", "target", "flops" })
        , pipelineOp(db, "pipeline_op",
              { "rank_id", "source", "op_id", "op_type", "num_workers", "parent_id", "queue_capacity", "queue_samples",
                  "queue_empty_samples", "queue_avg_size", "queue_usage_rate", "sample_interval" })
        , strategyNode(db, "strategy_node",
              { "rank_id", "stage", "node_index", "node_key", "name", "op_type", "scope", "instance_name", "special",
                  "strategy", "group_name", "group_ranks", "sr_tag", "peer_rank", "output_shape", "output_type", "inputs",
                  "attributes" })
        , strategyEdge(db, "strategy_edge", { "rank_id", "src_index", "dst_index", "control" })
        , pipelineCpu(
              db, "pipeline_cpu", { "rank_id", "scope", "op_id", "metric", "samples", "avg_value", "max_value" })
        , pipelineQueue(db, "pipeline_queue", { "rank_id", "step", "size", "capacity", "sample_time" })
        , msMemoryNode(db, "ms_memory_node", { "rank_id", "graph_id", "node_index", "node_id", "name", "memory_gib" })
        , process(db, "process", { "rank_id", "pid", "name", "label", "sort_index" },
              " ON CONFLICT(rank_id, pid) DO UPDATE SET name=COALESCE(excluded.name, name), "
              "label=COALESCE(excluded.label, label), sort_index=COALESCE(excluded.sort_index, sort_index)")
        , thread(db, "thread", { "rank_id", "pid", "tid", "name", "sort_index" },
              " ON CONFLICT(rank_id, pid, tid) DO UPDATE SET name=COALESCE(excluded.name, name), "
              "sort_index=COALESCE(excluded.sort_index, sort_index)")
        , slice(db, "slice", kSliceColumns)
        , sliceBatch(db, "slice", kSliceColumns, {}, "INSERT INTO", kBatchRows)
        , sourceFile(db, "source_file", { "rank_id", "path", "size_bytes", "mtime_ns" })
        , counter(db, "counter", { "rank_id", "pid", "name_id", "series", "ts", "value" })
        , flow(db, "flow", kFlowColumns)
        , flowBatch(db, "flow", kFlowColumns, {}, "INSERT INTO", kBatchRows)
        , issue(db, "parse_issue", { "severity", "rank_id", "file", "line", "message", "message_template" })
        , stepTraceOp(db, "step_trace_op",
              { "rank_id", "step", "column_name", "stream_id", "op_type", "start_syscnt_ns", "end_syscnt_ns", "dur" })
    {
    }
    TableInsert<2> string;
    TableInsert<12> rank;
    Statement rankUpdate;
    TableInsert<3> rankInfo;
    ParallelGroupTable parallelGroup;
    TableInsert<4 + kStepColumnCount> stepTrace;
    TableInsert<25> kernel;
    TableInsert<10> opStatistic, apiStatistic;
    BatchInsert<17, kCommBatch> commOps;
    BatchInsert<6, kCommBatch> commBandwidths;
    BatchInsert<4, kCommBatch> commPackets;
    TableInsert<10> commLinkOp, commLinkOpBatch;
    Statement commLinkOpRows;
    TableInsert<1> commLinkName;
    TableInsert<10> commLinkRow, commLinkRowBatch;
    TableInsert<8> memoryRecord;
    TableInsert<16> operatorMemory;
    TableInsert<8> memoryPeak;
    TableInsert<6> kernelTotal;
    TableInsert<8> stepKernel;
    TableInsert<7> kernelSum;
    TableInsert<6> npuModuleMem;
    TableInsert<12> opFlops;
    TableInsert<4> flopsScopeLink;
    TableInsert<12> pipelineOp;
    TableInsert<18> strategyNode;
    TableInsert<4> strategyEdge;
    TableInsert<7> pipelineCpu;
    TableInsert<5> pipelineQueue;
    TableInsert<6> msMemoryNode;
    TableInsert<5> process, thread;
    TableInsert<12> slice, sliceBatch;
    TableInsert<4> sourceFile;
    TableInsert<6> counter;
    TableInsert<12> flow, flowBatch;
    TableInsert<6> issue;
    TableInsert<8> stepTraceOp;
};

ModelWriter::ModelWriter(Database& db)
    : m_db(db)
    , m_st(std::make_unique<Statements>(db))
    , m_rankFiles(db)
{
    // Continue numbering after strings a previous writer on this database interned.
    auto st = db.prepare("SELECT id, value FROM string");
    while (st.step())
        m_strings.emplace(st.text(1), st.int64(0));
}

ModelWriter::~ModelWriter()
{
    try {
        flushLinkOp();
        if (m_inTransaction)
            m_db.exec("COMMIT");
    } catch (const DbError&) {
        // Destructors must not throw; the data of an unfinished load is discarded.
    }
}

void ModelWriter::begin()
{
    if (!m_inTransaction) {
        m_db.exec("BEGIN");
        m_inTransaction = true;
    }
}

void ModelWriter::commit()
{
    flushLinkOp();
    if (m_inTransaction) {
        m_db.exec("COMMIT");
        m_inTransaction = false;
    }
}

int64_t ModelWriter::intern(std::string_view value)
{
    std::string key(value);
    if (auto it = m_strings.find(key); it != m_strings.end())
        return it->second;
    const auto id = static_cast<int64_t>(m_strings.size()) + 1;
    m_st->string.insert(id, value);
    m_strings.emplace(std::move(key), id);
    return id;
}

void ModelWriter::addRank(const RankRow& r)
{
    m_st->rank.insert(r.rankId, r.deviceId, r.path, r.rankSource, r.host, r.framework, r.profilerLevel, r.exportType,
        r.version, r.cannVersion, r.collectionEndNs, r.worldSize);
}

void ModelWriter::updateRank(const RankRow& r)
{
    auto& s = m_st->rankUpdate;
    s.bind(1, r.rankId).bind(2, r.deviceId).bind(3, r.host).bind(4, r.framework).bind(5, r.profilerLevel);
    s.bind(6, r.exportType).bind(7, r.version).bind(8, r.cannVersion).bind(9, r.collectionEndNs);
    s.bind(10, r.worldSize).run();
}

void ModelWriter::updateRankDevice(int64_t rankId, int64_t deviceId)
{
    RankRow r;
    r.rankId = rankId;
    r.deviceId = deviceId;
    updateRank(r);
}

void ModelWriter::addRankFile(const RankFileRow& r) { m_rankFiles.add(r); }

void ModelWriter::setRankFileStatus(int64_t rankId, std::string_view kind, std::string_view path, RankFileStatus status)
{
    m_rankFiles.setStatus(rankId, kind, path, status);
}

void ModelWriter::addRankInfo(int64_t rankId, std::string_view key, std::string_view value)
{
    m_st->rankInfo.insert(rankId, key, value);
}

void ModelWriter::addParallelGroup(const ParallelGroupRow& r) { m_st->parallelGroup.add(r); }

void ModelWriter::addStepTrace(const StepTraceRow& r)
{
    auto& insert = m_st->stepTrace;
    int at = 0;
    insert.bindAt(++at, r.rankId);
    insert.bindAt(++at, r.deviceId);
    insert.bindAt(++at, r.step);
    for (const auto& c : kStepColumns)
        insert.bindAt(++at, r.*c.field);
    insert.bindAt(++at, r.sourceLine);
    insert.run();
}

void ModelWriter::addKernel(const KernelRow& r)
{
    // Name before type: string ids follow first appearance, and the timeline's colours follow the name ids.
    const int64_t nameId = intern(r.name);
    const OptInt typeId = r.type ? OptInt(intern(*r.type)) : std::nullopt;
    m_st->kernel.insert(r.rankId, r.deviceId, r.step, r.modelId, r.taskId, r.streamId, nameId, typeId, r.opState,
        r.acceleratorCore, r.ts, r.dur, r.waitNs, r.blockDim, r.mixBlockDim, r.inputShapes, r.inputDataTypes,
        r.outputShapes, r.outputDataTypes, r.pmuJson, r.flops, r.sourceLine, r.pmuFileId, r.pmuOffset, r.pmuLen);
}

void ModelWriter::addOpStatistic(const OpStatisticRow& r)
{
    m_st->opStatistic.insert(
        r.rankId, r.deviceId, r.opType, r.coreType, r.count, r.totalNs, r.minNs, r.avgNs, r.maxNs, r.ratioPct);
}

void ModelWriter::addApiStatistic(const ApiStatisticRow& r)
{
    m_st->apiStatistic.insert(
        r.rankId, r.deviceId, r.level, r.apiName, r.totalNs, r.count, r.avgNs, r.minNs, r.maxNs, r.variance);
}

namespace {

// One row through the bulk form of its table (addMany(rows, n, ids)); the row's id.
template <class Row>
int64_t addOne(ModelWriter& writer, void (ModelWriter::*addMany)(const Row*, std::size_t, int64_t*), const Row& r)
{
    int64_t id = 0;
    (writer.*addMany)(&r, 1, &id);
    return id;
}

} // namespace

int64_t ModelWriter::addCommOp(const CommOpRow& r) { return addOne(*this, &ModelWriter::addCommOps, r); }

void ModelWriter::addCommOps(const CommOpRow* rows, std::size_t n, int64_t* ids)
{
    m_st->commOps.insert(rows, n, ids, [](auto& insert, std::size_t j, const CommOpRow& r) {
        insert.bindRow(j, r.rankId, r.step, r.kind, r.opKey, r.opName, r.opType, r.groupHash,
            static_cast<int64_t>(r.isTotal), r.startNs, r.elapseNs, r.transitNs, r.waitNs, r.syncNs, r.idleNs,
            r.waitRatio, r.syncRatio, r.zeroTransports);
    });
}

int64_t ModelWriter::addCommBandwidth(const CommBandwidthRow& r)
{
    return addOne(*this, &ModelWriter::addCommBandwidths, r);
}

void ModelWriter::addCommBandwidths(const CommBandwidthRow* rows, std::size_t n, int64_t* ids)
{
    m_st->commBandwidths.insert(rows, n, ids, [](auto& insert, std::size_t j, const CommBandwidthRow& r) {
        insert.bindRow(j, r.commOpId, r.transport, r.sizeMb, r.transitNs, r.bandwidthGbps, r.largePacketRatio);
    });
}

void ModelWriter::addCommPacket(const CommPacketRow& r) { addCommPackets(&r, 1); }

void ModelWriter::addCommPackets(const CommPacketRow* rows, std::size_t n)
{
    m_st->commPackets.insert(rows, n, nullptr, [](auto& insert, std::size_t j, const CommPacketRow& r) {
        insert.bindRow(j, r.commBandwidthId, r.packageMb, r.count, r.totalNs);
    });
}

void ModelWriter::addCommLink(const CommLinkRow& r)
{
    // Links arrive grouped by op key (a matrix file lists them under it): one comm_link_op row per run of equal op
    // fields, the link itself a narrow comm_link_row (docs/schema.md).
    const bool sameOp = m_linkOp && m_linkOp->rankId == r.rankId && m_linkOp->step == r.step
        && m_linkOp->matrixOp == r.matrixOp && m_linkOp->groupHash == r.groupHash && m_linkOp->kind == r.kind
        && m_linkOp->slot == r.slot && m_linkOp->opType == r.opType;
    if (!sameOp) {
        if (m_linkOpWritten) {
            // The op a commit wrote ends: its links after the commit extend its stored range.
            flushLinks();
            storeWrittenRange();
            m_linkOpWritten = false;
        }
        if (m_nextLinkOpId == 0)
            m_nextLinkOpId = m_db.scalarInt("SELECT COALESCE(MAX(id), 0) + 1 FROM comm_link_op").value_or(1);
        m_linkOpId = m_nextLinkOpId++;
        m_linkOp = LinkOp { r.rankId, r.step, r.kind, r.matrixOp, r.opType, r.slot, r.groupHash };
        m_pendingLinkOps.push_back({ m_linkOpId, *m_linkOp, 0, 0 });
    }
    OptInt opName;
    if (r.opName) {
        auto it = m_linkNames.find(*r.opName);
        if (it == m_linkNames.end()) {
            m_st->commLinkName.insert(*r.opName);
            it = m_linkNames.emplace(*r.opName, m_db.lastInsertRowId()).first;
        }
        opName = it->second;
    }
    m_pendingLinks.push_back(
        { m_linkOpId, r.localSrc, r.localDst, r.src, r.dst, r.transport, r.sizeMb, r.timeNs, r.bandwidthGbps, opName });
    if (m_pendingLinks.size() == kLinkBatch)
        flushLinks();
}

void ModelWriter::flushLinks()
{
    if (m_pendingLinks.empty())
        return;
    auto bind = [](auto& insert, std::size_t row, const PendingLink& l) {
        insert.bindRow(row, l.opId, l.localSrc, l.localDst, l.src, l.dst, l.transport, l.sizeMb, l.timeNs,
            l.bandwidthGbps, l.opNameId);
    };
    const std::size_t n = m_pendingLinks.size();
    if (n == kLinkBatch) {
        for (std::size_t j = 0; j < n; ++j)
            bind(m_st->commLinkRowBatch, j, m_pendingLinks[j]);
        m_st->commLinkRowBatch.run();
    } else {
        for (const auto& l : m_pendingLinks) {
            bind(m_st->commLinkRow, 0, l);
            m_st->commLinkRow.run();
        }
    }
    // One statement (or consecutive ones) appends its rows in order, each with the next rowid. The links follow the
    // pending ops' order (ids ascending), each op's links one run.
    const int64_t last = m_db.lastInsertRowId();
    std::size_t k = 0;
    for (std::size_t j = 0; j < n; ++j) {
        const int64_t id = last - static_cast<int64_t>(n - 1 - j);
        const int64_t op = m_pendingLinks[j].opId;
        if (m_linkOpWritten && op == m_linkOpId) {
            m_writtenLast = id;
            m_writtenStored = false;
            continue;
        }
        while (k < m_pendingLinkOps.size() && m_pendingLinkOps[k].id != op)
            ++k;
        if (k == m_pendingLinkOps.size())
            throw DbError("comm_link_row: link of an op that is not pending"); // a writer bug
        auto& pending = m_pendingLinkOps[k];
        if (pending.first == 0)
            pending.first = id;
        pending.last = id;
    }
    m_pendingLinks.clear();
    writeLinkOps(false);
}

void ModelWriter::writeLinkOps(bool withCurrent)
{
    // Every pending op but the current one has all its links written (they come one op after another).
    std::size_t n = m_pendingLinkOps.size();
    if (!withCurrent && n > 0 && m_pendingLinkOps.back().id == m_linkOpId)
        --n;
    auto bind = [](auto& insert, std::size_t row, const PendingLinkOp& p) {
        const OptInt first = p.first ? OptInt(p.first) : std::nullopt;
        const OptInt last = p.last ? OptInt(p.last) : std::nullopt;
        insert.bindRow(row, p.id, p.op.rankId, p.op.step, p.op.kind, p.op.matrixOp, p.op.opType, p.op.slot,
            p.op.groupHash, first, last);
    };
    std::size_t done = 0;
    for (; n - done >= kLinkOpBatch; done += kLinkOpBatch) {
        for (std::size_t j = 0; j < kLinkOpBatch; ++j)
            bind(m_st->commLinkOpBatch, j, m_pendingLinkOps[done + j]);
        m_st->commLinkOpBatch.run();
    }
    // The rest waits for the next batch unless the op rows are due now (commit).
    if (withCurrent) {
        for (; done < n; ++done) {
            bind(m_st->commLinkOp, 0, m_pendingLinkOps[done]);
            m_st->commLinkOp.run();
        }
    }
    m_pendingLinkOps.erase(m_pendingLinkOps.begin(), m_pendingLinkOps.begin() + static_cast<std::ptrdiff_t>(done));
}

void ModelWriter::storeWrittenRange()
{
    // An op whose links another writer's rows interleave (ids not consecutive) still reads right: the view also
    // matches op_id.
    if (!m_linkOpWritten || m_writtenStored)
        return;
    auto& st = m_st->commLinkOpRows;
    st.bind(1, m_writtenFirst).bind(2, m_writtenLast).bind(3, m_linkOpId);
    st.run();
    m_writtenStored = true;
}

void ModelWriter::flushLinkOp()
{
    flushLinks();
    storeWrittenRange();
    if (!m_pendingLinkOps.empty() && m_pendingLinkOps.back().id == m_linkOpId) {
        // The current op goes in now; links of it after this commit extend its range (storeWrittenRange).
        m_linkOpWritten = true;
        m_writtenFirst = m_pendingLinkOps.back().first;
        m_writtenLast = m_pendingLinkOps.back().last;
        m_writtenStored = true;
    }
    writeLinkOps(true);
    m_nextLinkOpId = 0; // another writer may add ops between transactions
}

void ModelWriter::addMemoryRecord(const MemoryRecordRow& r)
{
    m_st->memoryRecord.insert(
        r.rankId, r.component, r.ts, r.allocatedMb, r.reservedMb, r.activeMb, r.streamPtr, r.device);
}

void ModelWriter::addOperatorMemory(const OperatorMemoryRow& r)
{
    m_st->operatorMemory.insert(r.rankId, r.name, r.sizeKb, r.allocTs, r.releaseTs, r.activeReleaseTs, r.dur,
        r.activeDur, r.allocAllocatedMb, r.allocReservedMb, r.allocActiveMb, r.releaseAllocatedMb, r.releaseReservedMb,
        r.releaseActiveMb, r.streamPtr, r.device);
}

void ModelWriter::addMemoryPeak(const MemoryPeakRow& r)
{
    m_st->memoryPeak.insert(
        r.rankId, r.component, r.peakReservedMb, r.reservedTs, r.peakAllocatedMb, r.allocatedTs, r.samples, r.device);
}

void ModelWriter::addKernelTotal(const KernelTotalRow& r)
{
    m_st->kernelTotal.insert(r.rankId, r.step, r.kernels, r.flopsKernels, r.flops, r.flopsDurNs);
}

void ModelWriter::addKernelSum(const KernelSumRow& r)
{
    const int64_t nameId = intern(r.name);
    const OptInt typeId = r.type ? OptInt(intern(*r.type)) : std::nullopt;
    m_st->kernelSum.insert(r.rankId, r.step, nameId, typeId, r.acceleratorCore, r.kernels, r.durNs);
}

void ModelWriter::addStepKernel(const StepKernelRow& r)
{
    const int64_t nameId = intern(r.name);
    const OptInt typeId = r.type ? OptInt(intern(*r.type)) : std::nullopt;
    m_st->stepKernel.insert(r.rankId, r.step, nameId, typeId, r.acceleratorCore, r.ts, r.dur, r.flops);
}

void ModelWriter::addNpuModuleMem(const NpuModuleMemRow& r)
{
    m_st->npuModuleMem.insert(r.rankId, r.deviceId, r.component, r.ts, r.reservedMb, r.device);
}

void ModelWriter::addOpFlops(const OpFlopsRow& r)
{
    m_st->opFlops.insert(r.rankId, r.name, r.line, r.flops, r.flopsPerSecond, r.utilizationPct, r.cubeFlops,
        r.cubeFlopsPerSecond, r.cubeUtilizationPct, r.vecFlops, r.vecFlopsPerSecond, r.vecUtilizationPct);
}

void ModelWriter::addFlopsScopeLink(const FlopsScopeLinkRow& r)
{
    m_st->flopsScopeLink.insert(r.rankId, r.source, r.target, r.flops);
}

void ModelWriter::addPipelineOp(const PipelineOpRow& r)
{
    m_st->pipelineOp.insert(r.rankId, r.source, r.opId, r.opType, r.numWorkers, r.parentId, r.queueCapacity,
        r.queueSamples, r.queueEmptySamples, r.queueAvgSize, r.queueUsageRate, r.sampleInterval);
}

void ModelWriter::addStrategyNode(const StrategyNodeRow& r)
{
    m_st->strategyNode.insert(r.rankId, r.stage, r.nodeIndex, r.nodeKey, r.name, r.opType, r.scope, r.instanceName,
        r.special, r.strategy, r.groupName, r.groupRanks, r.srTag, r.peerRank, r.outputShape, r.outputType, r.inputs,
        r.attributes);
}

void ModelWriter::addStrategyEdge(const StrategyEdgeRow& r)
{
    m_st->strategyEdge.insert(r.rankId, r.srcIndex, r.dstIndex, static_cast<int64_t>(r.control ? 1 : 0));
}

void ModelWriter::addPipelineCpu(const PipelineCpuRow& r)
{
    m_st->pipelineCpu.insert(r.rankId, r.scope, r.opId, r.metric, r.samples, r.avgValue, r.maxValue);
}

void ModelWriter::addMsMemoryNode(const MsMemoryNodeRow& r)
{
    m_st->msMemoryNode.insert(r.rankId, r.graphId, r.nodeIndex, r.nodeId, r.name, r.memoryGib);
}

void ModelWriter::addPipelineQueue(const PipelineQueueRow& r)
{
    m_st->pipelineQueue.insert(r.rankId, r.step, r.size, r.capacity, r.sampleTime);
}

void ModelWriter::upsertProcess(const ProcessRow& r)
{
    m_st->process.insert(r.rankId, r.pid, r.name, r.label, r.sortIndex);
}

void ModelWriter::upsertThread(const ThreadRow& r) { m_st->thread.insert(r.rankId, r.pid, r.tid, r.name, r.sortIndex); }

namespace {

// One slice's values in column order (kSliceColumns), for the one-row and the multi-row insert.
template <typename Insert> void bindSlice(Insert& s, std::size_t row, const SliceRow& r)
{
    s.bindRow(row, r.rankId, r.pid, r.tid, r.ts, r.dur, r.depth, r.nameId, r.catId, r.args, r.argsFileId, r.argsOffset,
        r.argsLen);
}

// One flow's values in column order (kFlowColumns).
template <typename Insert> void bindFlow(Insert& s, std::size_t row, const FlowRow& r)
{
    s.bindRow(row, r.rankId, r.cat, r.name, r.flowId, r.srcPid, r.srcTid, r.srcTs, r.dstPid, r.dstTid, r.dstTs,
        r.srcSliceId, r.dstSliceId);
}

} // namespace

int64_t ModelWriter::addSlice(const SliceRow& r)
{
    bindSlice(m_st->slice, 0, r);
    m_st->slice.run();
    return m_db.lastInsertRowId();
}

void ModelWriter::addSlices(const SliceRow* rows, std::size_t n, int64_t* ids)
{
    std::size_t i = 0;
    for (; i + kBatchRows <= n; i += kBatchRows) {
        for (std::size_t j = 0; j < kBatchRows; ++j)
            bindSlice(m_st->sliceBatch, j, rows[i + j]);
        m_st->sliceBatch.run();
        // One statement appends its rows in order, each with the next rowid.
        const int64_t last = m_db.lastInsertRowId();
        for (std::size_t j = 0; j < kBatchRows; ++j)
            ids[i + j] = last - static_cast<int64_t>(kBatchRows - 1 - j);
    }
    for (; i < n; ++i)
        ids[i] = addSlice(rows[i]);
}

void ModelWriter::addFlows(const FlowRow* rows, std::size_t n)
{
    std::size_t i = 0;
    for (; i + kBatchRows <= n; i += kBatchRows) {
        for (std::size_t j = 0; j < kBatchRows; ++j)
            bindFlow(m_st->flowBatch, j, rows[i + j]);
        m_st->flowBatch.run();
    }
    for (; i < n; ++i)
        addFlow(rows[i]);
}

int64_t ModelWriter::addSourceFile(int64_t rankId, std::string_view path, int64_t sizeBytes, int64_t mtimeNs)
{
    m_st->sourceFile.insert(rankId, path, sizeBytes, mtimeNs);
    return m_db.lastInsertRowId();
}

void ModelWriter::addCounter(const CounterRow& r)
{
    m_st->counter.insert(r.rankId, r.pid, r.nameId, r.series, r.ts, r.value);
}

void ModelWriter::addFlow(const FlowRow& r)
{
    bindFlow(m_st->flow, 0, r);
    m_st->flow.run();
}

void ModelWriter::addStepTraceOp(const StepTraceOpRow& r)
{
    m_st->stepTraceOp.insert(
        r.rankId, r.step, r.columnName, r.streamId, r.opType, r.startSyscntNs, r.endSyscntNs, r.dur);
}

void ModelWriter::addIssue(const ParseIssueRow& r)
{
    m_st->issue.insert(severityName(r.severity), r.rankId, r.file, r.line, r.message.english(),
        r.message.translatable() ? OptText(r.message.toJson()) : std::nullopt);
}

} // namespace npuscope::model
