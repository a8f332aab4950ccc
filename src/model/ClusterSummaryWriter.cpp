// SPDX-License-Identifier: Apache-2.0
#include "npuscope/model/ClusterSummaryWriter.h"

#include "npuscope/model/TableInsert.h"

#include <algorithm>

namespace npuscope::model {

struct ClusterSummaryWriter::Statements {
    explicit Statements(Database& db)
        : stage(db, "cluster_stage_step",
            { "step", "stage_index", "ranks", "computing_ns", "communication_not_overlapped_ns", "overlapped_ns",
                "communication_ns", "free_ns", "stage_ns", "bubble_ns",
                "communication_not_overlapped_exclude_receive_ns", "preparing_ns", "source_line" })
        , group(db, "cluster_comm_group", { "kind", "group_hash", "raw_name", "name", "ranks", "source" })
    {
    }
    TableInsert<13> stage;
    TableInsert<6> group;
};

ClusterSummaryWriter::ClusterSummaryWriter(ModelWriter& writer)
    : m_st(std::make_unique<Statements>(writer.database()))
{
}

ClusterSummaryWriter::~ClusterSummaryWriter() = default;

void ClusterSummaryWriter::addStage(const ClusterStageRow& r)
{
    m_st->stage.insert(r.step, r.stageIndex, rankText(r.ranks), r.computing, r.communicationNotOverlapped, r.overlapped,
        r.communication, r.free, r.stage, r.bubble, r.communicationNotOverlappedExcludeReceive, r.preparing,
        r.sourceLine);
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
