// SPDX-License-Identifier: Apache-2.0
#include "npuscope/model/ModelWriter.h"

#include <string>

namespace npuscope::model {

namespace {

// Rows per multi-row INSERT of addSlices/addFlows: 12 columns x 32 rows stays far below SQLite's
// bound-parameter limit, and larger batches gain nothing measurable.
constexpr std::size_t kBatchRows = 32;

std::string batchInsert(const char* head, int columns)
{
    std::string sql = head;
    for (std::size_t r = 0; r < kBatchRows; ++r) {
        sql += r ? ",(" : " VALUES (";
        for (int c = 0; c < columns; ++c)
            sql += c ? ",?" : "?";
        sql += ')';
    }
    return sql;
}

} // namespace

const char* severityName(Severity s)
{
    switch (s) {
    case Severity::Info:
        return "info";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        return "error";
    }
    return "warning";
}

struct ModelWriter::Statements {
    explicit Statements(Database& db)
        : string(db.prepare("INSERT INTO string(id, value) VALUES (?1, ?2)"))
        , rank(db.prepare("INSERT OR REPLACE INTO rank(rank_id, device_id, path, rank_source, host, framework, "
                          "profiler_level, export_type, version, cann_version, collection_end_ns, world_size) "
                          "VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)"))
        , rankUpdate(db.prepare("UPDATE rank SET device_id=COALESCE(?2,device_id), host=COALESCE(?3,host), "
                                "framework=COALESCE(?4,framework), profiler_level=COALESCE(?5,profiler_level), "
                                "export_type=COALESCE(?6,export_type), version=COALESCE(?7,version), "
                                "cann_version=COALESCE(?8,cann_version), "
                                "collection_end_ns=COALESCE(?9,collection_end_ns), "
                                "world_size=COALESCE(?10,world_size) WHERE rank_id=?1"))
        , rankFile(db.prepare("INSERT INTO rank_file(rank_id, kind, path, size_bytes, status) VALUES (?1,?2,?3,?4,?5)"))
        , rankFileStatus(db.prepare("UPDATE rank_file SET status=?3 WHERE rank_id=?1 AND path=?2 AND kind=?4"))
        , rankInfo(db.prepare("INSERT INTO rank_info(rank_id, key, value) VALUES (?1,?2,?3)"))
        , stepTrace(
              db.prepare("INSERT INTO step_trace VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17)"))
        , kernel(db.prepare("INSERT INTO kernel VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,"
                            "?18,?19,?20,?21,?22,?23,?24)"))
        , opStatistic(db.prepare("INSERT INTO op_statistic VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)"))
        , apiStatistic(db.prepare("INSERT INTO api_statistic VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)"))
        , commOp(db.prepare("INSERT INTO comm_op(rank_id, step, kind, op_key, op_name, op_type, group_hash, is_total, "
                            "start_ns, elapse_ns, transit_ns, wait_ns, sync_ns, idle_ns, wait_ratio, sync_ratio) "
                            "VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)"))
        , commBandwidth(db.prepare("INSERT INTO comm_bandwidth(comm_op_id, transport, size_mb, transit_ns, "
                                   "bandwidth_gbps, large_packet_ratio) VALUES (?1,?2,?3,?4,?5,?6)"))
        , commPacket(db.prepare("INSERT INTO comm_packet VALUES (?1,?2,?3,?4)"))
        , commLink(db.prepare("INSERT INTO comm_link VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)"))
        , memoryRecord(db.prepare("INSERT INTO memory_record VALUES (?1,?2,?3,?4,?5,?6,?7,?8)"))
        , operatorMemory(db.prepare("INSERT INTO operator_memory VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,"
                                    "?14,?15,?16)"))
        , npuModuleMem(db.prepare("INSERT INTO npu_module_mem VALUES (?1,?2,?3,?4,?5,?6)"))
        , process(db.prepare("INSERT INTO process(rank_id, pid, name, label, sort_index) VALUES (?1,?2,?3,?4,?5) "
                             "ON CONFLICT(rank_id, pid) DO UPDATE SET name=COALESCE(excluded.name, name), "
                             "label=COALESCE(excluded.label, label), "
                             "sort_index=COALESCE(excluded.sort_index, sort_index)"))
        , thread(db.prepare("INSERT INTO thread(rank_id, pid, tid, name, sort_index) VALUES (?1,?2,?3,?4,?5) "
                            "ON CONFLICT(rank_id, pid, tid) DO UPDATE SET name=COALESCE(excluded.name, name), "
                            "sort_index=COALESCE(excluded.sort_index, sort_index)"))
        , slice(db.prepare("INSERT INTO slice(rank_id, pid, tid, ts, dur, depth, name_id, cat_id, args, "
                           "args_file_id, args_offset, args_len) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)"))
        , sourceFile(db.prepare("INSERT INTO source_file(rank_id, path, size_bytes, mtime_ns) VALUES (?1,?2,?3,?4)"))
        , counter(db.prepare("INSERT INTO counter VALUES (?1,?2,?3,?4,?5,?6)"))
        , flow(db.prepare("INSERT INTO flow VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)"))
        , issue(db.prepare("INSERT INTO parse_issue(severity, rank_id, file, line, message) VALUES (?1,?2,?3,?4,?5)"))
        , sliceBatch(db.prepare(batchInsert("INSERT INTO slice(rank_id, pid, tid, ts, dur, depth, name_id, cat_id, "
                                            "args, args_file_id, args_offset, args_len)",
              12)))
        , flowBatch(db.prepare(batchInsert("INSERT INTO flow", 12)))
        , stepTraceOp(db.prepare("INSERT INTO step_trace_op(rank_id, step, column_name, stream_id, op_type, "
                                 "start_syscnt_ns, end_syscnt_ns, dur) VALUES (?1,?2,?3,?4,?5,?6,?7,?8)"))
    {
    }
    Statement string, rank, rankUpdate, rankFile, rankFileStatus, rankInfo, stepTrace, kernel, opStatistic,
        apiStatistic, commOp, commBandwidth, commPacket, commLink, memoryRecord, operatorMemory, npuModuleMem, process,
        thread, slice, sourceFile, counter, flow, issue, sliceBatch, flowBatch, stepTraceOp;
};

ModelWriter::ModelWriter(Database& db)
    : m_db(db)
    , m_st(std::make_unique<Statements>(db))
{
    // Continue numbering after strings a previous writer on this database interned.
    auto st = db.prepare("SELECT id, value FROM string");
    while (st.step())
        m_strings.emplace(st.text(1), st.int64(0));
}

ModelWriter::~ModelWriter()
{
    if (m_inTransaction) {
        try {
            m_db.exec("COMMIT");
        } catch (const DbError&) {
            // Destructors must not throw; the data of an unfinished load is discarded.
        }
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
    m_st->string.bind(1, id).bind(2, value).run();
    m_strings.emplace(std::move(key), id);
    return id;
}

void ModelWriter::addRank(const RankRow& r)
{
    m_st->rank.bind(1, r.rankId)
        .bind(2, r.deviceId)
        .bind(3, r.path)
        .bind(4, r.rankSource)
        .bind(5, r.host)
        .bind(6, r.framework)
        .bind(7, r.profilerLevel)
        .bind(8, r.exportType)
        .bind(9, r.version)
        .bind(10, r.cannVersion)
        .bind(11, r.collectionEndNs)
        .bind(12, r.worldSize)
        .run();
}

void ModelWriter::updateRank(const RankRow& r)
{
    m_st->rankUpdate.bind(1, r.rankId)
        .bind(2, r.deviceId)
        .bind(3, r.host)
        .bind(4, r.framework)
        .bind(5, r.profilerLevel)
        .bind(6, r.exportType)
        .bind(7, r.version)
        .bind(8, r.cannVersion)
        .bind(9, r.collectionEndNs)
        .bind(10, r.worldSize)
        .run();
}

void ModelWriter::updateRankDevice(int64_t rankId, int64_t deviceId)
{
    RankRow r;
    r.rankId = rankId;
    r.deviceId = deviceId;
    updateRank(r);
}

void ModelWriter::addRankFile(
    int64_t rankId, std::string_view kind, std::string_view path, OptInt sizeBytes, std::string_view status)
{
    m_st->rankFile.bind(1, rankId).bind(2, kind).bind(3, path).bind(4, sizeBytes).bind(5, status).run();
}

void ModelWriter::setRankFileStatus(
    int64_t rankId, std::string_view kind, std::string_view path, std::string_view status)
{
    m_st->rankFileStatus.bind(1, rankId).bind(2, path).bind(3, status).bind(4, kind).run();
}

void ModelWriter::addRankInfo(int64_t rankId, std::string_view key, std::string_view value)
{
    m_st->rankInfo.bind(1, rankId).bind(2, key).bind(3, value).run();
}

void ModelWriter::addStepTrace(const StepTraceRow& r)
{
    m_st->stepTrace.bind(1, r.rankId)
        .bind(2, r.deviceId)
        .bind(3, r.step)
        .bind(4, r.computing)
        .bind(5, r.communicationNotOverlapped)
        .bind(6, r.overlapped)
        .bind(7, r.communication)
        .bind(8, r.free)
        .bind(9, r.stage)
        .bind(10, r.bubble)
        .bind(11, r.communicationNotOverlappedExcludeReceive)
        .bind(12, r.preparing)
        .bind(13, r.sourceLine)
        .bind(14, r.total)
        .bind(15, r.iterationInterval)
        .bind(16, r.fpBp)
        .bind(17, r.tail)
        .run();
}

void ModelWriter::addKernel(const KernelRow& r)
{
    auto& s = m_st->kernel;
    s.bind(1, r.rankId).bind(2, r.deviceId).bind(3, r.step).bind(4, r.modelId).bind(5, r.taskId).bind(6, r.streamId);
    s.bind(7, intern(r.name));
    if (r.type)
        s.bind(8, intern(*r.type));
    s.bind(9, r.opState).bind(10, r.acceleratorCore).bind(11, r.ts).bind(12, r.dur).bind(13, r.waitNs);
    s.bind(14, r.blockDim).bind(15, r.mixBlockDim).bind(16, r.inputShapes).bind(17, r.inputDataTypes);
    s.bind(18, r.outputShapes).bind(19, r.outputDataTypes).bind(20, r.pmuJson).bind(21, r.sourceLine);
    s.bind(22, r.pmuFileId).bind(23, r.pmuOffset).bind(24, r.pmuLen);
    s.run();
}

void ModelWriter::addOpStatistic(const OpStatisticRow& r)
{
    m_st->opStatistic.bind(1, r.rankId)
        .bind(2, r.deviceId)
        .bind(3, r.opType)
        .bind(4, r.coreType)
        .bind(5, r.count)
        .bind(6, r.totalNs)
        .bind(7, r.minNs)
        .bind(8, r.avgNs)
        .bind(9, r.maxNs)
        .bind(10, r.ratioPct)
        .run();
}

void ModelWriter::addApiStatistic(const ApiStatisticRow& r)
{
    m_st->apiStatistic.bind(1, r.rankId)
        .bind(2, r.deviceId)
        .bind(3, r.level)
        .bind(4, r.apiName)
        .bind(5, r.totalNs)
        .bind(6, r.count)
        .bind(7, r.avgNs)
        .bind(8, r.minNs)
        .bind(9, r.maxNs)
        .bind(10, r.variance)
        .run();
}

int64_t ModelWriter::addCommOp(const CommOpRow& r)
{
    auto& s = m_st->commOp;
    s.bind(1, r.rankId).bind(2, r.step).bind(3, r.kind).bind(4, r.opKey).bind(5, r.opName).bind(6, r.opType);
    s.bind(7, r.groupHash).bind(8, static_cast<int64_t>(r.isTotal)).bind(9, r.startNs).bind(10, r.elapseNs);
    s.bind(11, r.transitNs).bind(12, r.waitNs).bind(13, r.syncNs).bind(14, r.idleNs).bind(15, r.waitRatio);
    s.bind(16, r.syncRatio);
    s.run();
    return m_db.lastInsertRowId();
}

int64_t ModelWriter::addCommBandwidth(const CommBandwidthRow& r)
{
    m_st->commBandwidth.bind(1, r.commOpId)
        .bind(2, r.transport)
        .bind(3, r.sizeMb)
        .bind(4, r.transitNs)
        .bind(5, r.bandwidthGbps)
        .bind(6, r.largePacketRatio)
        .run();
    return m_db.lastInsertRowId();
}

void ModelWriter::addCommPacket(const CommPacketRow& r)
{
    m_st->commPacket.bind(1, r.commBandwidthId).bind(2, r.packageMb).bind(3, r.count).bind(4, r.totalNs).run();
}

void ModelWriter::addCommLink(const CommLinkRow& r)
{
    auto& s = m_st->commLink;
    s.bind(1, r.rankId).bind(2, r.step).bind(3, r.kind).bind(4, r.matrixOp).bind(5, r.opType).bind(6, r.slot);
    s.bind(7, r.groupHash).bind(8, r.localSrc).bind(9, r.localDst).bind(10, r.src).bind(11, r.dst);
    s.bind(12, r.transport).bind(13, r.sizeMb).bind(14, r.timeNs).bind(15, r.bandwidthGbps).bind(16, r.opName);
    s.run();
}

void ModelWriter::addMemoryRecord(const MemoryRecordRow& r)
{
    m_st->memoryRecord.bind(1, r.rankId)
        .bind(2, r.component)
        .bind(3, r.ts)
        .bind(4, r.allocatedMb)
        .bind(5, r.reservedMb)
        .bind(6, r.activeMb)
        .bind(7, r.streamPtr)
        .bind(8, r.device)
        .run();
}

void ModelWriter::addOperatorMemory(const OperatorMemoryRow& r)
{
    auto& s = m_st->operatorMemory;
    s.bind(1, r.rankId).bind(2, r.name).bind(3, r.sizeKb).bind(4, r.allocTs).bind(5, r.releaseTs);
    s.bind(6, r.activeReleaseTs).bind(7, r.dur).bind(8, r.activeDur).bind(9, r.allocAllocatedMb);
    s.bind(10, r.allocReservedMb).bind(11, r.allocActiveMb).bind(12, r.releaseAllocatedMb);
    s.bind(13, r.releaseReservedMb).bind(14, r.releaseActiveMb).bind(15, r.streamPtr).bind(16, r.device);
    s.run();
}

void ModelWriter::addNpuModuleMem(const NpuModuleMemRow& r)
{
    m_st->npuModuleMem.bind(1, r.rankId)
        .bind(2, r.deviceId)
        .bind(3, r.component)
        .bind(4, r.ts)
        .bind(5, r.reservedMb)
        .bind(6, r.device)
        .run();
}

void ModelWriter::upsertProcess(const ProcessRow& r)
{
    m_st->process.bind(1, r.rankId).bind(2, r.pid).bind(3, r.name).bind(4, r.label).bind(5, r.sortIndex).run();
}

void ModelWriter::upsertThread(const ThreadRow& r)
{
    m_st->thread.bind(1, r.rankId).bind(2, r.pid).bind(3, r.tid).bind(4, r.name).bind(5, r.sortIndex).run();
}

int64_t ModelWriter::addSlice(const SliceRow& r)
{
    m_st->slice.bind(1, r.rankId)
        .bind(2, r.pid)
        .bind(3, r.tid)
        .bind(4, r.ts)
        .bind(5, r.dur)
        .bind(6, r.depth)
        .bind(7, r.nameId)
        .bind(8, r.catId)
        .bind(9, r.args)
        .bind(10, r.argsFileId)
        .bind(11, r.argsOffset)
        .bind(12, r.argsLen)
        .run();
    return m_db.lastInsertRowId();
}

void ModelWriter::addSlices(const SliceRow* rows, std::size_t n, int64_t* ids)
{
    std::size_t i = 0;
    for (; i + kBatchRows <= n; i += kBatchRows) {
        auto& s = m_st->sliceBatch;
        int k = 0;
        for (std::size_t j = i; j < i + kBatchRows; ++j, k += 12) {
            const SliceRow& r = rows[j];
            s.bind(k + 1, r.rankId).bind(k + 2, r.pid).bind(k + 3, r.tid).bind(k + 4, r.ts).bind(k + 5, r.dur);
            s.bind(k + 6, r.depth).bind(k + 7, r.nameId).bind(k + 8, r.catId).bind(k + 9, r.args);
            s.bind(k + 10, r.argsFileId).bind(k + 11, r.argsOffset).bind(k + 12, r.argsLen);
        }
        s.run();
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
        auto& s = m_st->flowBatch;
        int k = 0;
        for (std::size_t j = i; j < i + kBatchRows; ++j, k += 12) {
            const FlowRow& r = rows[j];
            s.bind(k + 1, r.rankId).bind(k + 2, r.cat).bind(k + 3, r.name).bind(k + 4, r.flowId);
            s.bind(k + 5, r.srcPid).bind(k + 6, r.srcTid).bind(k + 7, r.srcTs).bind(k + 8, r.dstPid);
            s.bind(k + 9, r.dstTid).bind(k + 10, r.dstTs).bind(k + 11, r.srcSliceId).bind(k + 12, r.dstSliceId);
        }
        s.run();
    }
    for (; i < n; ++i)
        addFlow(rows[i]);
}

int64_t ModelWriter::addSourceFile(int64_t rankId, std::string_view path, int64_t sizeBytes, int64_t mtimeNs)
{
    m_st->sourceFile.bind(1, rankId).bind(2, path).bind(3, sizeBytes).bind(4, mtimeNs).run();
    return m_db.lastInsertRowId();
}

void ModelWriter::addCounter(const CounterRow& r)
{
    m_st->counter.bind(1, r.rankId).bind(2, r.pid).bind(3, r.nameId).bind(4, r.series).bind(5, r.ts).bind(6, r.value);
    m_st->counter.run();
}

void ModelWriter::addFlow(const FlowRow& r)
{
    auto& s = m_st->flow;
    s.bind(1, r.rankId).bind(2, r.cat).bind(3, r.name).bind(4, r.flowId).bind(5, r.srcPid).bind(6, r.srcTid);
    s.bind(7, r.srcTs).bind(8, r.dstPid).bind(9, r.dstTid).bind(10, r.dstTs).bind(11, r.srcSliceId);
    s.bind(12, r.dstSliceId);
    s.run();
}

void ModelWriter::addStepTraceOp(const StepTraceOpRow& r)
{
    m_st->stepTraceOp.bind(1, r.rankId)
        .bind(2, r.step)
        .bind(3, r.columnName)
        .bind(4, r.streamId)
        .bind(5, r.opType)
        .bind(6, r.startSyscntNs)
        .bind(7, r.endSyscntNs)
        .bind(8, r.dur)
        .run();
}

void ModelWriter::addIssue(const ParseIssueRow& r)
{
    m_st->issue.bind(1, severityName(r.severity))
        .bind(2, r.rankId)
        .bind(3, r.file)
        .bind(4, r.line)
        .bind(5, r.message)
        .run();
}

} // namespace npuscope::model
