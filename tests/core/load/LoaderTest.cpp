// SPDX-License-Identifier: Apache-2.0
#include "TestSupport.h"

#include "npuscope/core/GroupHash.h"
#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/CommQuery.h"
#include "npuscope/query/RankQuery.h"
#include "npuscope/query/StepQuery.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::dataDir;
using npuscope::test::ScratchDir;
using npuscope::test::count;
using npuscope::test::openModel;

namespace {

nlohmann::json readJson(const fs::path& p)
{
    std::ifstream in(p);
    return nlohmann::json::parse(in);
}


// Every file under dir with its size and modification time, to prove loading never writes.
std::map<std::string, std::pair<uintmax_t, fs::file_time_type>> snapshot(const fs::path& dir)
{
    std::map<std::string, std::pair<uintmax_t, fs::file_time_type>> out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        if (e.is_regular_file())
            out[e.path().string()] = { e.file_size(), e.last_write_time() };
    }
    return out;
}

} // namespace

TEST(GroupHash, MatchesMsprofAnalyzeDoubleHash)
{
    EXPECT_EQ(groupDoubleHash("group_name_19"), 3985310405473756128ull);
    EXPECT_EQ(groupDoubleHash("group_name_0"), 5862276093215481612ull);
    EXPECT_EQ(groupDoubleHashText("90.91.105.46%enp189s0f0_60000_0_1736410538306028"), "17148521525495523210");
}

TEST(Loader, Level1CommunicationMatchesFiles)
{
    const auto base = dataDir() / "torch_npu_2rank_level1";
    auto db = openModel({ base.string() });
    ASSERT_TRUE(db);
    for (int rank = 0; rank < 2; ++rank) {
        const auto out = base / ("rank" + std::to_string(rank) + "_ascend_pt") / "ASCEND_PROFILER_OUTPUT";
        const auto comm = readJson(out / "communication.json");
        int64_t ops = 0;
        int64_t bandwidthRows = 0, zeroTransports = 0;
        for (const auto& [step, kinds] : comm.items()) {
            for (const auto& [kind, opsObj] : kinds.items()) {
                ops += static_cast<int64_t>(opsObj.size());
                for (const auto& [op, info] : opsObj.items()) {
                    for (const auto& [transport, t] : info["Communication Bandwidth Info"].items()) {
                        // Every figure 0 and no packets: named in comm_op.zero_transports instead of a row.
                        const bool zero = t["Transit Size(MB)"] == 0 && t["Transit Time(ms)"] == 0
                            && t["Bandwidth(GB/s)"] == 0 && t["Large Packet Ratio"] == 0
                            && t["Size Distribution"].empty();
                        ++(zero ? zeroTransports : bandwidthRows);
                    }
                }
            }
        }
        EXPECT_GT(zeroTransports, 0);
        const std::string where = " WHERE rank_id = " + std::to_string(rank);
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_op" + where), ops);
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_bandwidth b JOIN comm_op o ON o.id = b.comm_op_id" + where),
            bandwidthRows);
        // Each name once per op: the commas plus one per op that has any.
        EXPECT_EQ(count(*db,
                      "SELECT COALESCE(SUM(LENGTH(zero_transports) - LENGTH(REPLACE(zero_transports, ',', '')) + 1), "
                      "0) FROM comm_op"
                          + where),
            zeroTransports);

        const auto matrix = readJson(out / "communication_matrix.json");
        int64_t links = 0;
        for (const auto& [step, kinds] : matrix.items()) {
            for (const auto& [kind, opsObj] : kinds.items()) {
                for (const auto& [op, l] : opsObj.items())
                    links += static_cast<int64_t>(l.size());
            }
        }
        EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_link" + where), links);
    }
    // Spot values: rank 0's first allReduce.
    auto ops = query::CommQuery::ops(*db, { 50, std::string("17522688603477080586"), 0, false });
    ASSERT_FALSE(ops.empty());
    EXPECT_EQ(ops[0].opKey, "hcom_allReduce__586_0_1@17522688603477080586");
    EXPECT_EQ(ops[0].startNs, 1736408883732241500);
    EXPECT_EQ(ops[0].elapseNs, 79089520);
    EXPECT_EQ(ops[0].opType, "allReduce");
    EXPECT_DOUBLE_EQ(*ops[0].waitRatio, 0.9594);
    // The group: both loaded ranks confirm local == global, so links carry global ranks.
    const auto groups = query::CommQuery::groups(*db);
    ASSERT_EQ(groups.size(), 1u);
    EXPECT_EQ(groups[0].ranks.size(), 8u);
    EXPECT_EQ(groups[0].ranksSource, "self_link_identity");
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_link WHERE src IS NULL OR dst IS NULL"), 0);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM comm_link WHERE rank_id = 1 AND local_src = 1 AND src = 1"),
        count(*db, "SELECT COUNT(*) FROM comm_link WHERE rank_id = 1"));
}

TEST(Loader, StepIdentitiesHoldForEveryImportedStep)
{
    for (const char* sample : { "torch_npu_2rank_level0", "torch_npu_2rank_level1", "torch_npu_2rank_level2",
             "torch_npu_2023_2rank" }) {
        auto db = openModel({ (dataDir() / sample).string() });
        ASSERT_TRUE(db);
        const auto rows = query::StepQuery::breakdown(*db);
        ASSERT_EQ(rows.size(), 2u) << sample;
        for (const auto& r : rows) {
            using C = query::StepColumn;
            const int64_t comm = *r.value(C::Communication);
            const int64_t parts = *r.value(C::CommunicationNotOverlapped) + *r.value(C::Overlapped);
            EXPECT_LE(std::llabs(comm - parts), 2) << sample << " rank " << r.rank;
            const int64_t lhs = *r.value(C::Computing) + *r.value(C::CommunicationNotOverlapped) + *r.value(C::Free);
            const int64_t rhs = *r.value(C::Stage) + *r.value(C::Bubble);
            // Stage is written rounded to 0.5-1 µs (136581.0 next to 8873.756000000001), so this
            // identity holds to 1 µs, not to the ns.
            EXPECT_LE(std::llabs(lhs - rhs), 1000) << sample << " rank " << r.rank;
        }
    }
}

TEST(Loader, MetadataNamesGroupsAndMapsLocalRanksToGlobal)
{
    // Two real ranks re-keyed to a pp group [0, 8] described by profiler_metadata.json: rank 1's
    // folder plays global rank 8, so its local "1-0" link must become 8 -> 0.
    ScratchDir dir;
    const auto src = dataDir() / "torch_npu_2rank_level1";
    const std::string hash = groupDoubleHashText("group_name_19");
    for (int i = 0; i < 2; ++i) {
        const int global = i == 0 ? 0 : 8;
        const auto from = src / ("rank" + std::to_string(i) + "_ascend_pt");
        const auto to = dir.path() / ("rank" + std::to_string(global) + "_ascend_pt");
        fs::create_directories(to / "ASCEND_PROFILER_OUTPUT");
        fs::copy_file(from / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv",
            to / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv");
        std::ofstream(to / ("profiler_info_" + std::to_string(global) + ".json")) << "{\"rank_id\": " << global << "}";
        nlohmann::json meta;
        meta["distributed_args"] = { { "world_size", 16 }, { "rank", global } };
        meta["parallel_group_info"]["group_name_19"]
            = { { "group_name", "pp" }, { "group_rank", i }, { "global_ranks", { 8, 0 } } };
        std::ofstream(to / "profiler_metadata.json") << meta.dump();
        nlohmann::json matrix;
        const std::string self = std::to_string(i) + "-" + std::to_string(i);
        const std::string other = std::to_string(i) + "-" + std::to_string(1 - i);
        matrix["step1"]["p2p"]["send-total@" + hash] = {
            { self, { { "Transport Type", "LOCAL" }, { "Transit Size(MB)", 1.0 }, { "Transit Time(ms)", 0.01 },
                        { "Bandwidth(GB/s)", 100.0 } } },
            { other, { { "Transport Type", "RDMA" }, { "Transit Size(MB)", 8.0 }, { "Transit Time(ms)", 1.0 },
                         { "Bandwidth(GB/s)", 8.0 } } },
        };
        matrix["step1"]["collective"] = nlohmann::json::object();
        std::ofstream(to / "ASCEND_PROFILER_OUTPUT" / "communication_matrix.json") << matrix.dump();
    }
    auto db = openModel({ dir.path().string() });
    ASSERT_TRUE(db);
    const auto groups = query::CommQuery::groups(*db);
    ASSERT_EQ(groups.size(), 1u);
    EXPECT_EQ(groups[0].name, "pp");
    EXPECT_EQ(groups[0].ranksSource, "metadata");
    EXPECT_EQ(groups[0].ranks, (std::vector<int64_t> { 0, 8 }));
    std::set<std::pair<int64_t, int64_t>> pairs;
    for (const auto& l : query::CommQuery::links(*db)) {
        ASSERT_TRUE(l.src && l.dst);
        pairs.insert({ *l.src, *l.dst });
    }
    EXPECT_EQ(pairs, (std::set<std::pair<int64_t, int64_t>> { { 0, 0 }, { 0, 8 }, { 8, 8 }, { 8, 0 } }));
    EXPECT_EQ(count(*db, "SELECT world_size FROM rank WHERE rank_id = 8"), 16);
}

TEST(Loader, InputFoldersAreNeverWritten)
{
    const auto base = dataDir() / "torch_npu_2rank_level0";
    const auto before = snapshot(base);
    auto db = openModel({ base.string() }, true);
    ASSERT_TRUE(db);
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM slice"), 0);
    EXPECT_EQ(snapshot(base), before);
}

TEST(Loader, BadFilesLeaveTheOthersLoaded)
{
    ScratchDir dir;
    const auto src = dataDir() / "torch_npu_2rank_level1" / "rank0_ascend_pt";
    const auto rankDir = dir.path() / "rank0_ascend_pt";
    fs::copy(src, rankDir, fs::copy_options::recursive);
    const auto out = rankDir / "ASCEND_PROFILER_OUTPUT";
    fs::permissions(out, fs::perms::owner_all);
    for (const auto& e : fs::directory_iterator(out))
        fs::permissions(e.path(), fs::perms::owner_read | fs::perms::owner_write);
    std::ofstream(out / "communication.json", std::ios::trunc) << "{\"step50\": {\"collective\": {\"hcom_x";
    std::ofstream(out / "communication_matrix.json", std::ios::trunc) << "";
    std::ofstream(out / "trace_view.json", std::ios::trunc | std::ios::binary) << std::string("\x00\x01\xff\xfe", 4);
    auto db = openModel({ dir.path().string() }, true);
    ASSERT_TRUE(db);
    EXPECT_EQ(count(*db, "SELECT COUNT(*) FROM step_trace"), 1);
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM kernel"), 0);
    for (const char* file : { "communication.json", "communication_matrix.json", "trace_view.json" }) {
        auto st = db->prepare("SELECT COUNT(*) FROM parse_issue WHERE severity = 'error' AND file LIKE ?1");
        st.bind(1, std::string("%/") + file);
        ASSERT_TRUE(st.step());
        EXPECT_GE(st.int64(0), 1) << file;
    }
    auto st = db->prepare("SELECT line, message FROM parse_issue WHERE file LIKE '%/communication.json'");
    ASSERT_TRUE(st.step());
    EXPECT_EQ(st.int64(0), 1);
    EXPECT_NE(st.text(1).find("invalid JSON at byte"), std::string::npos);
    const auto ranks = query::RankQuery::ranks(*db);
    ASSERT_EQ(ranks.size(), 1u);
    int failed = 0;
    for (const auto& f : ranks[0].files)
        failed += f.status == "failed";
    EXPECT_EQ(failed, 3);
}
