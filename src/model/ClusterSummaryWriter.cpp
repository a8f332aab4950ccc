// SPDX-License-Identifier: Apache-2.0
#include "npuscope/model/ClusterSummaryWriter.h"

#include "npuscope/model/TableInsert.h"

#include <algorithm>

namespace npuscope::model {

namespace {

// cluster_stage_step: the step, stage and its ranks, the step_trace_time.csv columns (Computing .. Preparing of
// kStepColumns), the source line.
constexpr TableInsert<4 + kStepTraceFileColumnCount>::Columns kStageColumns = [] {
    TableInsert<4 + kStepTraceFileColumnCount>::Columns c { "step", "stage_index", "ranks" };
    for (int i = 0; i < kStepTraceFileColumnCount; ++i)
        c[3 + static_cast<std::size_t>(i)] = kStepColumns[static_cast<std::size_t>(i)].sql;
    c[3 + kStepTraceFileColumnCount] = "source_line";
    return c;
}();

} // namespace

struct ClusterSummaryWriter::Statements {
    explicit Statements(Database& db)
        : stage(db, "cluster_stage_step", kStageColumns)
        , group(db, "cluster_comm_group", { "kind", "group_hash", "raw_name", "name", "ranks", "source" })
    {
    }
    TableInsert<4 + kStepTraceFileColumnCount> stage;
    TableInsert<6> group;
};

ClusterSummaryWriter::ClusterSummaryWriter(ModelWriter& writer)
    : m_st(std::make_unique<Statements>(writer.database()))
{
}

ClusterSummaryWriter::~ClusterSummaryWriter() = default;

void ClusterSummaryWriter::addStage(const ClusterStageRow& r)
{
    auto& insert = m_st->stage;
    const std::string ranks = rankText(r.ranks); // bound without a copy: alive until run()
    int at = 0;
    insert.bindAt(++at, r.step);
    insert.bindAt(++at, r.stageIndex);
    insert.bindAt(++at, ranks);
    for (int i = 0; i < kStepTraceFileColumnCount; ++i)
        insert.bindAt(++at, r.*kStepColumns[static_cast<std::size_t>(i)].field);
    insert.bindAt(++at, r.sourceLine);
    insert.run();
}

void ClusterSummaryWriter::addCommGroup(const ClusterCommGroupRow& r)
{
    m_st->group.insert(r.kind, r.groupHash, r.rawName, r.name, rankText(r.ranks), r.source);
}

std::string ClusterSummaryWriter::rankText(const std::vector<int64_t>& ranks)
{
    std::string out;
    for (int64_t r : ranks)
        out += (out.empty() ? "" : ",") + std::to_string(r);
    return out;
}

std::vector<int64_t> ClusterSummaryWriter::parseRanks(const std::string& text)
{
    std::vector<int64_t> out;
    int64_t value = 0;
    bool inNumber = false;
    for (char c : text + ",") {
        if (c >= '0' && c <= '9') {
            value = value * 10 + (c - '0');
            inNumber = true;
        } else if (inNumber) {
            out.push_back(value);
            value = 0;
            inNumber = false;
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace npuscope::model
