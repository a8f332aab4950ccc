// SPDX-License-Identifier: Apache-2.0
#include "TestSupport.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/io/torch_npu/KernelDetailsImporter.h"
#include "npuscope/load/SourceDetails.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/query/TimelineQuery.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <string>

namespace fs = std::filesystem;
using namespace npuscope;
using npuscope::query::TimelineQuery;
using npuscope::test::dataDir;
using npuscope::test::ScratchDir;

namespace {

std::string readAll(const std::string& path)
{
    std::string out(static_cast<size_t>(fs::file_size(path)), '\0');
    std::ifstream(path, std::ios::binary).read(out.data(), static_cast<std::streamsize>(out.size()));
    return out;
}

// Every slice's args, read through the query, are the bytes of its own rank's trace_view.json.
void expectArgsResolve(model::Database& db)
{
    std::map<int64_t, std::string> traceOf;
    auto files = db.prepare("SELECT rank_id, path FROM rank_file WHERE kind = 'trace_view'");
    while (files.step())
        traceOf[files.int64(0)] = files.text(1);
    ASSERT_EQ(traceOf.size(), 2u);
    // One source file per trace_view.json (slice args) and one per kernel_details.csv (kernel PMU columns).
    EXPECT_EQ(db.scalarInt("SELECT count(*) FROM source_file").value_or(0), 4);
    EXPECT_EQ(db.scalarInt("SELECT count(*) FROM source_file f JOIN rank_file r ON r.rank_id = f.rank_id AND "
                           "r.kind = 'kernel_details' AND r.path = f.path")
                  .value_or(0),
        2);
    // Kernel PMU columns by reference resolve into their own rank's kernel_details.csv, also after a merge.
    EXPECT_EQ(db.scalarInt("SELECT count(*) FROM kernel k JOIN source_file f ON f.id = k.pmu_file_id "
                           "WHERE f.rank_id <> k.rank_id OR f.path NOT LIKE '%kernel_details.csv'")
                  .value_or(-1),
        0);
    for (int64_t rank : { 0, 1 }) {
        const auto rowid = db.scalarInt("SELECT MIN(rowid) FROM kernel WHERE rank_id = " + std::to_string(rank)
            + " AND accelerator_core = 'AI_VECTOR_CORE'");
        ASSERT_TRUE(rowid);
        std::string error;
        const auto pmu = load::SourceDetails::kernelPmu(db, *rowid, &error);
        ASSERT_TRUE(pmu) << error;
        EXPECT_TRUE(pmu->contains("aiv_time(us)"));
    }
    EXPECT_EQ(db.scalarInt("SELECT count(*) FROM source_file f JOIN rank_file r ON r.rank_id = f.rank_id AND "
                           "r.kind = 'trace_view' AND r.path = f.path")
                  .value_or(0),
        2);
    std::map<int64_t, std::string> bytes;
    for (const auto& [rank, path] : traceOf)
        bytes[rank] = readAll(path);
    int64_t checked = 0;
    auto st = db.prepare("SELECT s.id, s.rank_id, s.args_offset, s.args_len, f.rank_id FROM slice s "
                         "JOIN source_file f ON f.id = s.args_file_id");
    while (st.step()) {
        ASSERT_EQ(st.int64(1), st.int64(4)) << "slice points into another rank's file";
        const auto args = load::SourceDetails::sliceArgs(db, st.int64(0));
        ASSERT_TRUE(args.json) << args.error;
        EXPECT_EQ(
            *args.json, bytes[st.int64(1)].substr(static_cast<size_t>(st.int64(2)), static_cast<size_t>(st.int64(3))));
        EXPECT_TRUE(nlohmann::json::parse(*args.json).is_object());
        ++checked;
    }
    EXPECT_GT(checked, 1000);
    EXPECT_EQ(db.scalarInt("SELECT count(*) FROM slice WHERE args_offset IS NOT NULL").value_or(-1), checked);
}

} // namespace

TEST(SliceArgs, MergedRanksAndCacheEntriesPointIntoTheirOwnFiles)
{
    ScratchDir cacheDir;
    load::ParseCache cache({ cacheDir.path().string(), 1ull << 30 });
    load::LoadOptions options;
    options.loadTimelines = true;
    options.cache = &cache;
    const auto plan = io::Detector::detect({ (dataDir() / "torch_npu_2rank_level1").string() });
    auto first = load::Loader::load(plan, options);
    ASSERT_TRUE(first);
    expectArgsResolve(*first);
    load::LoadReport report;
    options.report = &report;
    auto second = load::Loader::load(plan, options);
    ASSERT_TRUE(second);
    EXPECT_TRUE(report.parsedFiles.empty());
    expectArgsResolve(*second);
}

TEST(SliceArgs, TextArgsOfSourcesWithoutAFile)
{
    // msprof JSON is read into a DOM and keeps its args as text: the same query returns them.
    load::LoadOptions options;
    options.loadTimelines = true;
    const auto plan = io::Detector::detect({ (dataDir() / "cann_prof_2023").string() });
    auto db = load::Loader::load(plan, options);
    ASSERT_TRUE(db);
    const auto id = db->scalarInt("SELECT id FROM slice WHERE args IS NOT NULL LIMIT 1");
    ASSERT_TRUE(id);
    const auto args = load::SourceDetails::sliceArgs(*db, *id);
    ASSERT_TRUE(args.json);
    EXPECT_TRUE(args.error.empty());
    auto st = db->prepare("SELECT args FROM slice WHERE id = ?1");
    st.bind(1, *id);
    ASSERT_TRUE(st.step());
    EXPECT_EQ(*args.json, st.text(0));
}
