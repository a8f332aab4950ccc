// SPDX-License-Identifier: Apache-2.0
// Block-parallel trace_view.json parsing: the model is the one a single pass gives, row for row,
// and a syntax error inside a block names the file's byte offset and line.
#include "TestSupport.h"
#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/io/torch_npu/TraceViewImporter.h"
#include "npuscope/model/Database.h"
#include "npuscope/model/ModelWriter.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using npuscope::io::ImportContext;
using npuscope::io::TraceViewImporter;
using npuscope::model::Database;
using npuscope::model::ModelWriter;

struct Imported {
    std::unique_ptr<Database> db;
    bool ok = false;
};

Imported import(const std::string& path, std::size_t blockBytes, std::size_t threads)
{
    Imported r;
    r.db = Database::createModel();
    ModelWriter writer(*r.db);
    writer.begin();
    ImportContext ctx(writer, 0, path);
    TraceViewImporter::Options options;
    options.blockBytes = blockBytes;
    options.threads = threads;
    r.ok = TraceViewImporter::run(ctx, options);
    writer.commit();
    return r;
}

// Every row of the tables the importer fills, in rowid order, as text.
std::vector<std::string> rows(Database& db)
{
    std::vector<std::string> out;
    for (const char* table : { "process", "thread", "slice", "counter", "flow", "string", "parse_issue" }) {
        auto st = db.prepare(std::string("SELECT * FROM ") + table + " ORDER BY rowid");
        while (st.step()) {
            std::string row = table;
            for (int c = 0; c < st.columnCount(); ++c)
                row += "|" + (st.isNull(c) ? std::string("<null>") : st.text(c));
            out.push_back(std::move(row));
        }
    }
    return out;
}

void expectSameModel(const std::string& path, std::size_t minSlices)
{
    SCOPED_TRACE(path);
    const auto one = import(path, std::size_t(1) << 40, 1);
    ASSERT_TRUE(one.ok);
    EXPECT_GE(one.db->scalarInt("SELECT count(*) FROM slice").value_or(0), static_cast<int64_t>(minSlices));
    const auto want = rows(*one.db);
    EXPECT_GT(want.size(), 2u);
    // Small blocks: many cuts, some of them inside args or strings (guessed wrong and retried).
    for (std::size_t blockBytes : { std::size_t(4096), std::size_t(65536) }) {
        const auto blocks = import(path, blockBytes, 2);
        ASSERT_TRUE(blocks.ok);
        const auto got = rows(*blocks.db);
        ASSERT_EQ(got.size(), want.size()) << "block size " << blockBytes;
        for (std::size_t i = 0; i < got.size(); ++i)
            ASSERT_EQ(got[i], want[i]) << "block size " << blockBytes << ", row " << i;
    }
}

} // namespace

TEST(TraceViewBlocks, EverySampleGivesTheOneThreadModel)
{
    int files = 0;
    for (const auto& e : fs::recursive_directory_iterator(npuscope::test::dataDir())) {
        const auto name = e.path().filename().string();
        // torch_npu trace views, MindSpore timelines, CANN msprof timelines: every Chrome trace sample.
        const bool trace = name.find("trace_view") != std::string::npos || name.starts_with("msprof_")
            || name.find("timeline_display") != std::string::npos;
        if (trace && name.ends_with(".json")) {
            expectSameModel(e.path().string(), 0);
            ++files;
        }
    }
    EXPECT_GE(files, 12);
}

TEST(TraceViewBlocks, GeneratedTraceGivesTheOneThreadModel)
{
    npuscope::test::ScratchDir dir;
    npuscope::testgen::GeneratorOptions g;
    g.outDir = (dir.path() / "gen").string();
    g.ranks = 1;
    g.steps = 2;
    g.traceMb = 3;
    g.seed = 7;
    std::string error;
    ASSERT_TRUE(npuscope::testgen::ClusterGenerator::generate(g, error)) << error;
    std::string trace;
    for (const auto& e : fs::recursive_directory_iterator(g.outDir))
        if (e.path().filename() == "trace_view.json")
            trace = e.path().string();
    ASSERT_FALSE(trace.empty());
    expectSameModel(trace, 5000);
}

TEST(TraceViewBlocks, SyntaxErrorInsideABlockNamesOffsetAndLine)
{
    npuscope::test::ScratchDir dir;
    std::string text = "[\n";
    uint64_t badOffset = 0;
    int badLine = 0;
    int line = 2;
    for (int i = 0; i < 2000; ++i) {
        if (i)
            text += ",\n";
        std::string event = R"({"ph":"X","name":"op)" + std::to_string(i) + R"(","pid":1,"tid":1,"ts":")"
            + std::to_string(i * 10) + R"(","dur":5,"args":{"k":)" + std::to_string(i) + "}}";
        if (i == 1234) {
            // "dur":5x -- nlohmann names the byte after the number's last digit.
            const auto at = event.find("\"dur\":5") + 7;
            event.insert(at, "x");
            badOffset = text.size() + at;
            badLine = line;
        }
        text += event;
        ++line;
    }
    text += "\n]\n";
    const auto path = (dir.path() / "trace_view.json").string();
    std::ofstream(path, std::ios::binary) << text;
    const uint64_t column = badOffset - text.rfind('\n', badOffset - 1);
    for (std::size_t blockBytes : { std::size_t(4096), std::size_t(1) << 40 }) {
        SCOPED_TRACE(blockBytes);
        const auto r = import(path, blockBytes, 2);
        EXPECT_FALSE(r.ok);
        auto st = r.db->prepare("SELECT message FROM parse_issue WHERE severity='error'");
        ASSERT_TRUE(st.step());
        const std::string message = st.text(0);
        EXPECT_EQ(message.rfind("syntax error at byte " + std::to_string(badOffset) + ": parse error at line "
                          + std::to_string(badLine) + ", column " + std::to_string(column) + ": ",
                      0),
            0u)
            << message;
        // The 1234 events before the bad one are imported.
        EXPECT_EQ(r.db->scalarInt("SELECT count(*) FROM slice"), 1234);
        EXPECT_EQ(r.db->scalarInt("SELECT max(ts) FROM slice"), 12330000);
    }
}
