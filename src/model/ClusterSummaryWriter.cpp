// SPDX-License-Identifier: Apache-2.0
#include "npuscope/model/ClusterSummaryWriter.h"

#include <algorithm>

namespace npuscope::model {

struct ClusterSummaryWriter::Statements {
    explicit Statements(Database& db)
        : stage(db.prepare("INSERT INTO cluster_stage_step(step, stage_index, ranks, computing_ns, "
                           "communication_not_overlapped_ns, overlapped_ns, communication_ns, free_ns, stage_ns, "
                           "bubble_ns, communication_not_overlapped_exclude_receive_ns, preparing_ns, source_line) "
                           "VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)"))
        , group(db.prepare("INSERT INTO cluster_comm_group(kind, group_hash, raw_name, name, ranks, source) "
                           "VALUES (?1,?2,?3,?4,?5,?6)"))
    {
    }
    Statement stage, group;
};

ClusterSummaryWriter::ClusterSummaryWriter(ModelWriter& writer)
    : m_st(std::make_unique<Statements>(writer.database()))
{
}

ClusterSummaryWriter::~ClusterSummaryWriter() = default;

void ClusterSummaryWriter::addStage(const ClusterStageRow& r)
{
    m_st->stage.bind(1, r.step)
        .bind(2, r.stageIndex)
        .bind(3, rankText(r.ranks))
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
        .run();
}

void ClusterSummaryWriter::addCommGroup(const ClusterCommGroupRow& r)
{
    m_st->group.bind(1, r.kind)
        .bind(2, r.groupHash)
        .bind(3, r.rawName)
        .bind(4, r.name)
        .bind(5, rankText(r.ranks))
        .bind(6, r.source)
        .run();
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
