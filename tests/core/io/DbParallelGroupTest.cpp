// SPDX-License-Identifier: Apache-2.0
// A db export's META_DATA parallel_group_info goes to parallel_group rows at import (ProfilerDbImporter), as
// profiler_metadata.json's does, and groups resolve from them. No sample db carries the entry, so it is added to
// a copy of tests/data/torch_npu_2rank_db/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db.
#include "TestSupport.h"

#include "npuscope/core/GroupHash.h"
#include "npuscope/io/db/ProfilerDbImporter.h"
#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/load/PostLoad.h"
#include "npuscope/model/ModelWriter.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::test::dataDir;
using npuscope::test::rows;
using npuscope::test::ScratchDir;
using Rows = std::vector<std::string>;

namespace {

// Four entries: a group with a name, one whose global_ranks is text (kept as a rank_info fact), one without
// global_ranks and one that is not an object (both dropped, as before the typed rows).
constexpr const char* kGroups = R"({"10.0.0.1%enp0_60000_0_1": {"group_name": "tp", "global_ranks": [1, 0]},
    "g_text": {"global_ranks": "0,1"}, "g_none": {"group_name": "dp"}, "g_scalar": 3})";

void addMetaRow(const fs::path& db, const std::string& name, const std::string& value)
{
    sqlite3* h = nullptr;
    ASSERT_EQ(sqlite3_open(db.string().c_str(), &h), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(h, "INSERT INTO META_DATA(name, value) VALUES (?1, ?2)", -1, &st, nullptr), SQLITE_OK);
    sqlite3_bind_text(st, 1, name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, value.c_str(), -1, SQLITE_TRANSIENT);
    EXPECT_EQ(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    sqlite3_close(h);
}

} // namespace

TEST(DbParallelGroup, MetaDataGroupsBecomeRowsAndResolve)
{
    ScratchDir dir;
    const fs::path copy = dir.path() / "ascend_pytorch_profiler_0.db";
    fs::copy_file(dataDir() / "torch_npu_2rank_db" / "level1" / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT"
            / "ascend_pytorch_profiler_0.db",
        copy);
    addMetaRow(copy, "parallel_group_info", kGroups);

    auto db = model::Database::createModel();
    model::ModelWriter writer(*db);
    writer.begin();
    model::RankRow rank;
    rank.rankId = 1;
    writer.addRank(rank);
    io::ImportContext ctx(writer, 1, copy.string());
    ASSERT_TRUE(io::ProfilerDbImporter::run(ctx));
    writer.commit();

    EXPECT_EQ(rows(*db, "SELECT rank_id, raw_name, name, global_ranks FROM parallel_group ORDER BY rowid"),
        Rows { "1|10.0.0.1%enp0_60000_0_1|tp|0,1" });
    EXPECT_EQ(rows(*db, "SELECT key, value FROM rank_info WHERE key LIKE 'parallel_group_info%' ORDER BY key"),
        Rows { "parallel_group_info.g_text|{\"global_ranks\":\"0,1\"}" });

    writer.begin();
    load::PostLoad::resolveGroups(*db, writer);
    writer.commit();
    const std::string hash = groupDoubleHashText("10.0.0.1%enp0_60000_0_1");
    EXPECT_EQ(rows(*db, "SELECT raw_name, name, ranks_source FROM comm_group WHERE group_hash = '" + hash + "'"),
        Rows { "10.0.0.1%enp0_60000_0_1|tp|metadata" });
    EXPECT_EQ(rows(*db,
                  "SELECT local_rank, global_rank FROM comm_group_rank WHERE group_hash = '" + hash
                      + "' ORDER BY local_rank"),
        (Rows { "0|0", "1|1" }));
}
