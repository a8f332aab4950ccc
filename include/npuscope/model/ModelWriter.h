// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"
#include "npuscope/model/RankFileTable.h"
#include "npuscope/model/Rows.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace npuscope::model {

// The only way importers reach the model: owns the prepared insert statements, interns repeated
// strings into the `string` table and batches everything in one transaction (begin()/commit()).
// One writer per Database; used by one thread at a time (the loader's writer thread).
class ModelWriter {
public:
    explicit ModelWriter(Database& db);
    ~ModelWriter();
    ModelWriter(const ModelWriter&) = delete;
    ModelWriter& operator=(const ModelWriter&) = delete;

    void begin();
    void commit();

    // Returns the id of value in the `string` table, inserting it on first use.
    int64_t intern(std::string_view value);

    void addRank(const RankRow& r);
    void addRankFile(const RankFileRow& r);
    // The row of (rank, kind, path): one file can be planned under two kinds (a db's summary and timeline).
    void setRankFileStatus(int64_t rankId, std::string_view kind, std::string_view path, RankFileStatus status);
    void addRankInfo(int64_t rankId, std::string_view key, std::string_view value);
    // A parallel_group_info entry, parsed by the importer (ParallelGroupTable::fromJson).
    void addParallelGroup(const ParallelGroupRow& r);
    void updateRankDevice(int64_t rankId, int64_t deviceId);
    void updateRank(const RankRow& r); // overwrites the optional columns that are set in r

    void addStepTrace(const StepTraceRow& r);
    void addStepTraceOp(const StepTraceOpRow& r);
    void addKernel(const KernelRow& r);
    void addOpStatistic(const OpStatisticRow& r);
    void addApiStatistic(const ApiStatisticRow& r);
    int64_t addCommOp(const CommOpRow& r);
    // n rows (a file's ops) in as few statements as possible; ids[i] gets row i's id.
    void addCommOps(const CommOpRow* rows, std::size_t n, int64_t* ids);
    int64_t addCommBandwidth(const CommBandwidthRow& r);
    // n rows (an op's transports, or a file's) in as few statements as possible; ids[i] gets row i's id.
    void addCommBandwidths(const CommBandwidthRow* rows, std::size_t n, int64_t* ids);
    void addCommPacket(const CommPacketRow& r);
    void addCommPackets(const CommPacketRow* rows, std::size_t n);
    void addCommLink(const CommLinkRow& r);
    void addMemoryRecord(const MemoryRecordRow& r);
    void addOperatorMemory(const OperatorMemoryRow& r);
    void addMemoryPeak(const MemoryPeakRow& r);
    void addKernelTotal(const KernelTotalRow& r);
    void addStepKernel(const StepKernelRow& r);
    void addKernelSum(const KernelSumRow& r);
    void addNpuModuleMem(const NpuModuleMemRow& r);
    void addOpFlops(const OpFlopsRow& r);
    void addFlopsScopeLink(const FlopsScopeLinkRow& r);
    void addPipelineOp(const PipelineOpRow& r);
    void addStrategyNode(const StrategyNodeRow& r);
    void addStrategyEdge(const StrategyEdgeRow& r);
    void addPipelineCpu(const PipelineCpuRow& r);
    void addPipelineQueue(const PipelineQueueRow& r);
    void addMsMemoryNode(const MsMemoryNodeRow& r);
    void upsertProcess(const ProcessRow& r);
    void upsertThread(const ThreadRow& r);
    int64_t addSlice(const SliceRow& r);
    // Bulk forms for large imports: rows go in multi-row INSERT statements, about half the cost per
    // row of one statement each. ids[i] receives the id of rows[i].
    void addSlices(const SliceRow* rows, std::size_t n, int64_t* ids);
    void addFlows(const FlowRow* rows, std::size_t n);
    // A file that slices point into (args by reference); returns its source_file.id.
    int64_t addSourceFile(int64_t rankId, std::string_view path, int64_t sizeBytes, int64_t mtimeNs);
    void addCounter(const CounterRow& r);
    void addFlow(const FlowRow& r);
    void addIssue(const ParseIssueRow& r);

    Database& database() { return m_db; }

private:
    struct Statements;
    Database& m_db;
    std::unique_ptr<Statements> m_st;
    RankFileTable m_rankFiles;
    std::unordered_map<std::string, int64_t> m_strings;
    // addCommLink: the op (comm_link_op row) of the previous link, reused while links of one op key follow each other.
    struct LinkOp {
        int64_t rankId = 0;
        OptInt step;
        std::string kind, matrixOp;
        OptText opType, slot, groupHash;
        bool operator==(const LinkOp&) const = default;
    };
    std::optional<LinkOp> m_linkOp;
    int64_t m_linkOpId = 0; // comm_link_op.id of m_linkOp
    // The next comm_link_op.id (0: read from the table when the next op starts). Ops are numbered here, so an op's row
    // can wait until its links are written and go in with its row range in one multi-row INSERT: an UPDATE per op
    // for the range cost as much as the op's INSERT. Read again in every transaction (nothing else writes the table
    // inside one).
    int64_t m_nextLinkOpId = 0;
    struct PendingLinkOp {
        int64_t id = 0;
        LinkOp op;
        int64_t first = 0, last = 0; // comm_link_row ids of its first and last written link (0: none yet)
    };
    std::vector<PendingLinkOp> m_pendingLinkOps; // not in comm_link_op yet; the current op (m_linkOpId) is last
    // Links wait here until a multi-row INSERT of kLinkBatch rows (or commit) writes them: one statement per link
    // cost more than its row (a 1,024-way all-to-all cluster has 12 million links).
    struct PendingLink {
        int64_t opId = 0;
        OptInt localSrc, localDst, src, dst;
        OptText transport;
        OptReal sizeMb;
        OptInt timeNs;
        OptReal bandwidthGbps;
        OptInt opNameId;
    };
    std::vector<PendingLink> m_pendingLinks;
    // The current op once a commit wrote its row before its last link (a transaction ending inside an op): links
    // written later extend m_writtenLast, which an UPDATE stores when the op ends.
    bool m_linkOpWritten = false;
    int64_t m_writtenFirst = 0;
    int64_t m_writtenLast = 0;
    bool m_writtenStored = true; // the range as it is is in the op's row
    std::unordered_map<std::string, int64_t> m_linkNames; // comm_link_name ids of this writer's op names
    // Writes the pending links, then the rows of the ops they complete (every pending op but the current one).
    void flushLinks();
    // Writes the rows of the pending ops, the current one too when withCurrent.
    void writeLinkOps(bool withCurrent);
    // flushLinks, then the current op's row (or its extended range) too: at commit.
    void flushLinkOp();
    void storeWrittenRange();
    bool m_inTransaction = false;
};

} // namespace npuscope::model
