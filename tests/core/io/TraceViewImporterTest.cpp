// SPDX-License-Identifier: Apache-2.0
#include "npuscope/load/SourceDetails.h"
#include "npuscope/io/torch_npu/TraceViewImporter.h"
#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/model/Database.h"
#include "npuscope/model/ModelWriter.h"
#include "npuscope/query/TimelineQuery.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
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
using npuscope::query::TimelineQuery;
namespace load = npuscope::load;

const std::string kData = NPUSCOPE_TEST_DATA;
const std::string kLevel1 = kData + "/torch_npu_2rank_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json";
const std::string kLevel0 = kData + "/torch_npu_2rank_level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json";

struct Loaded {
    std::unique_ptr<Database> db;
    bool ok = false;

    int64_t count(const std::string& sql) const { return db->scalarInt(sql).value_or(-1); }
    std::string text(const std::string& sql) const
    {
        auto st = db->prepare(sql);
        return st.step() && !st.isNull(0) ? st.text(0) : std::string("<null>");
    }
    // Args JSON of the slice selected by sql (its first column is slice.id), however it is stored.
    std::string args(const std::string& sql) const
    {
        return load::SourceDetails::sliceArgs(*db, count(sql)).json.value_or("<null>");
    }
};

Loaded openModel(const std::string& path, int64_t rank = 0)
{
    Loaded l;
    l.db = Database::createModel();
    ModelWriter writer(*l.db);
    writer.begin();
    ImportContext ctx(writer, rank, path);
    l.ok = TraceViewImporter::run(ctx);
    writer.commit();
    return l;
}

class TempDir {
public:
    TempDir()
    {
        m_path = fs::temp_directory_path()
            / ("npuscope_tv_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_path);
        fs::create_directories(m_path);
    }
    ~TempDir()
    {
        std::error_code ec;
        fs::remove_all(m_path, ec);
    }
    std::string write(const std::string& name, const std::string& content) const
    {
        const auto p = m_path / name;
        std::ofstream(p, std::ios::binary) << content;
        return p.string();
    }

private:
    fs::path m_path;
};

// ---------------------------------------------------------------------------------------------
// Golden: real torch_npu Level1 rank 0. Expected numbers computed independently with python3
// (json.load with Decimal) from the same file.

TEST(TraceViewImporter, Level1Counts)
{
    const auto l = openModel(kLevel1);
    ASSERT_TRUE(l.ok);
    EXPECT_EQ(l.count("SELECT count(*) FROM parse_issue"), 0);
    EXPECT_EQ(l.count("SELECT count(*) FROM slice"), 4384);
    EXPECT_EQ(l.count("SELECT count(*) FROM process"), 12);
    EXPECT_EQ(l.count("SELECT count(*) FROM process WHERE name IS NOT NULL"), 12);
    EXPECT_EQ(l.count("SELECT count(*) FROM thread"), 24);
    EXPECT_EQ(l.count("SELECT count(*) FROM thread WHERE name IS NOT NULL"), 24);
    EXPECT_EQ(l.count("SELECT count(*) FROM counter"), 7183);
    EXPECT_EQ(l.count("SELECT count(DISTINCT series) FROM counter"), 10);
    EXPECT_EQ(l.count("SELECT count(*) FROM flow"), 611);
    EXPECT_EQ(l.count("SELECT count(*) FROM flow WHERE cat='async_task_queue'"), 159);
    EXPECT_EQ(l.count("SELECT count(*) FROM flow WHERE cat='fwdbwd'"), 27);
    EXPECT_EQ(l.count("SELECT count(*) FROM flow WHERE cat='HostToDevice'"), 215);
    EXPECT_EQ(l.count("SELECT count(*) FROM flow WHERE cat='async_npu'"), 210);
    // Every s has its f(s) in this file, and every end lies inside a slice of its thread.
    EXPECT_EQ(l.count("SELECT count(*) FROM flow WHERE src_ts IS NULL OR dst_ts IS NULL"), 0);
    EXPECT_EQ(l.count("SELECT count(*) FROM flow WHERE src_slice_id IS NULL"), 0);
    EXPECT_EQ(l.count("SELECT count(*) FROM flow WHERE dst_slice_id IS NULL"), 0);
    // 1:N: HostToDevice has 210 ids and 215 f events.
    EXPECT_EQ(l.count("SELECT count(DISTINCT flow_id) FROM flow WHERE cat='HostToDevice'"), 210);
}

TEST(TraceViewImporter, Level1ProcessesAndThreads)
{
    const auto l = openModel(kLevel1);
    auto sortOf
        = [&](const std::string& name) { return l.count("SELECT sort_index FROM process WHERE name='" + name + "'"); };
    EXPECT_EQ(sortOf("Python"), 0);
    EXPECT_EQ(sortOf("CANN"), 7);
    EXPECT_EQ(sortOf("Ascend Hardware"), 13);
    EXPECT_EQ(sortOf("AI Core Freq"), 14);
    EXPECT_EQ(sortOf("HCCL"), 15);
    EXPECT_EQ(sortOf("NPU MEM"), 19);
    EXPECT_EQ(sortOf("Overlap Analysis"), 23);
    EXPECT_EQ(l.count("SELECT pid FROM process WHERE name='Ascend Hardware'"), 3170820512);
    EXPECT_EQ(l.text("SELECT label FROM process WHERE name='Ascend Hardware'"), "NPU");
    EXPECT_EQ(l.text("SELECT label FROM process WHERE name='Python'"), "CPU");
    EXPECT_EQ(l.text("SELECT name FROM thread WHERE pid=3170820832 AND tid=2"), "Communication(Not Overlapped)");
    EXPECT_EQ(l.count("SELECT count(*) FROM thread WHERE sort_index IS NOT NULL"), 20); // 20 thread_sort_index events
}

TEST(TraceViewImporter, Level1TimesAreExact)
{
    const auto l = openModel(kLevel1);
    // "ts": "1736408883688177.930", "dur": 145.57 -> exact ns, no double rounding.
    EXPECT_EQ(l.count("SELECT count(*) FROM slice WHERE ts=1736408883688177930"), 1);
    EXPECT_EQ(l.count("SELECT dur FROM slice WHERE ts=1736408883688177930"), 145570);
    EXPECT_EQ(l.text("SELECT s.value FROM slice JOIN string s ON s.id=slice.name_id WHERE ts=1736408883688177930"),
        "aten::empty");
    EXPECT_EQ(
        l.text("SELECT s.value FROM slice JOIN string s ON s.id=slice.cat_id WHERE ts=1736408883688177930"), "cpu_op");
    // The args object survives as JSON with its escapes and numbers.
    const auto args = nlohmann::json::parse(l.args("SELECT id FROM slice WHERE ts=1736408883688177930"));
    EXPECT_EQ(args.at("Sequence number").get<int>(), -1);
    EXPECT_EQ(args.at("Input Dims").get<std::string>(), ";\r\n;\r\n;\r\n;\r\n;\r\n");
    // Overlap Analysis slices have no args -> NULL.
    EXPECT_EQ(l.count("SELECT count(*) FROM slice WHERE pid=3170820832 AND (args IS NOT NULL OR args_offset IS NOT "
                      "NULL)"),
        0);
    // Counter: {"name": "AI Core Freq", "ts": "1736408883573887.920", "args": {"MHz": 1800}}.
    EXPECT_EQ(
        l.count("SELECT CAST(value AS INTEGER) FROM counter WHERE ts=1736408883573887920 AND series='MHz'"), 1800);
}

TEST(TraceViewImporter, Level1FlowsBindToEnclosingSlices)
{
    const auto l = openModel(kLevel1);
    // Each bound end lies inside its slice, on the same thread.
    const char* enclosingDst = "SELECT count(*) FROM flow f JOIN slice s ON s.id=f.dst_slice_id "
                               "WHERE s.pid=f.dst_pid AND s.tid=f.dst_tid AND s.ts<=f.dst_ts "
                               "AND (f.dst_ts<s.ts+s.dur OR (s.dur=0 AND f.dst_ts=s.ts))";
    const char* enclosingSrc = "SELECT count(*) FROM flow f JOIN slice s ON s.id=f.src_slice_id "
                               "WHERE s.pid=f.src_pid AND s.tid=f.src_tid AND s.ts<=f.src_ts "
                               "AND (f.src_ts<s.ts+s.dur OR (s.dur=0 AND f.src_ts=s.ts))";
    EXPECT_EQ(l.count(enclosingDst), 611);
    EXPECT_EQ(l.count(enclosingSrc), 611);
    // ... and it is the deepest such slice: no deeper slice on that thread also encloses the point.
    EXPECT_EQ(l.count("SELECT count(*) FROM flow f JOIN slice s ON s.id=f.src_slice_id JOIN slice d "
                      "ON d.pid=s.pid AND d.tid=s.tid AND d.depth>s.depth AND d.ts<=f.src_ts "
                      "AND f.src_ts<d.ts+d.dur"),
        0);
    // Flow ids beyond 64 bits are kept as exact text (187 f events have such ids).
    EXPECT_GE(l.count("SELECT count(*) FROM flow WHERE flow_id='40004068119343529983'"), 1);
    EXPECT_EQ(l.count("SELECT count(*) FROM flow WHERE length(flow_id)=20 AND flow_id>'18446744073709551615'"), 187);
    EXPECT_EQ(l.text("SELECT name FROM flow WHERE cat='HostToDevice' AND flow_id='936'"), "HostToDevice936");
    // HostToDevice936 starts on a CANN thread inside AscendCL@aclrtMemcpyAsync.
    EXPECT_EQ(l.text("SELECT s.value FROM flow f JOIN slice ON slice.id=f.src_slice_id "
                     "JOIN string s ON s.id=slice.name_id WHERE f.flow_id='936'"),
        "AscendCL@aclrtMemcpyAsync");
}

TEST(TraceViewImporter, Level1NestingDepth)
{
    const auto l = openModel(kLevel1);
    // Max depth per process, from a python stack walk over (ts asc, dur desc).
    EXPECT_EQ(l.count("SELECT max(depth) FROM slice WHERE pid=3096504"), 37);
    EXPECT_EQ(l.count("SELECT max(depth) FROM slice WHERE pid=3170820512"), 14);
    EXPECT_EQ(l.count("SELECT max(depth) FROM slice WHERE pid=3170820320"), 2);
    EXPECT_EQ(l.count("SELECT max(depth) FROM slice WHERE pid=3170820832"), 0);
    // A child starts inside its parent: every depth>0 slice has a depth-1 slice enclosing its start.
    EXPECT_EQ(l.count("SELECT count(*) FROM slice c WHERE c.depth>0 AND NOT EXISTS (SELECT 1 FROM slice p WHERE "
                      "p.pid=c.pid AND p.tid=c.tid AND p.depth=c.depth-1 AND p.ts<=c.ts AND c.ts<p.ts+p.dur)"),
        0);
}

TEST(TraceViewImporter, Level0Golden)
{
    const auto l = openModel(kLevel0, 3);
    ASSERT_TRUE(l.ok);
    EXPECT_EQ(l.count("SELECT count(*) FROM parse_issue"), 0);
    EXPECT_EQ(l.count("SELECT count(*) FROM slice WHERE rank_id=3"), 3379);
    EXPECT_EQ(l.count("SELECT count(*) FROM process"), 12);
    EXPECT_EQ(l.count("SELECT count(*) FROM process WHERE name IS NOT NULL"), 11);
    // The CANN process has a sort index but no process_name in Level0.
    EXPECT_EQ(l.count("SELECT count(*) FROM process WHERE pid=3089232096 AND name IS NULL AND sort_index=7"), 1);
    EXPECT_EQ(l.count("SELECT count(*) FROM thread"), 16);
    EXPECT_EQ(l.count("SELECT count(*) FROM counter"), 5952);
    EXPECT_EQ(l.count("SELECT count(*) FROM flow"), 611);
    EXPECT_EQ(l.count("SELECT count(*) FROM flow WHERE cat='HostToDevice'"), 215);
    EXPECT_EQ(l.count("SELECT count(*) FROM flow WHERE cat='async_npu'"), 210);
    EXPECT_EQ(l.count("SELECT count(*) FROM flow WHERE cat='async_task_queue'"), 159);
    EXPECT_EQ(l.count("SELECT count(*) FROM flow WHERE cat='fwdbwd'"), 27);
    // Level0 has no CANN slices: HostToDevice starts bind to nothing, their ends do.
    EXPECT_EQ(l.count("SELECT count(*) FROM flow WHERE cat='HostToDevice' AND src_slice_id IS NULL"), 215);
    EXPECT_EQ(l.count("SELECT count(*) FROM flow WHERE dst_slice_id IS NULL"), 0);
    EXPECT_EQ(l.count("SELECT max(depth) FROM slice WHERE pid=3016828"), 37);
    EXPECT_EQ(l.count("SELECT max(depth) FROM slice WHERE pid=3089232288"), 17);
}

// ---------------------------------------------------------------------------------------------
// Synthetic inputs.

TEST(TraceViewImporter, WrapperNumbersAndNesting)
{
    TempDir dir;
    const auto path = dir.write("t.json", R"({"displayTimeUnit":"ns","traceEvents":[
        {"ph":"X","name":"outer","pid":1,"tid":2,"ts":100,"dur":"10.5","args":{"a":[1,{"b":null}],"s":"q\"\\\n"}},
        {"ph":"X","name":"inner","pid":1,"tid":2,"ts":101.0005,"dur":2},
        {"ph":"X","name":"same","pid":1,"tid":2,"ts":100,"dur":1},
        {"ph":"X","name":"zero","pid":1,"tid":2,"ts":"105","dur":0},
        {"ph":"X","name":"after","pid":1,"tid":2,"ts":"111","dur":1},
        {"ph":"X","name":"str tid","pid":1,"tid":"worker","ts":"1","dur":1},
        {"ph":"s","cat":"c","id":40004068119343529983,"name":"big","pid":1,"tid":2,"ts":"100.5"},
        {"ph":"f","cat":"c","id":40004068119343529983,"bp":"e","pid":1,"tid":2,"ts":"105"},
        {"ph":"f","cat":"c","id":40004068119343529983,"bp":"e","pid":1,"tid":2,"ts":"101.2"},
        {"ph":"s","cat":"c","id":"7","pid":1,"tid":2,"ts":"200"},
        {"ph":"f","cat":"c","id":8,"pid":1,"tid":2,"ts":"111.5"},
        {"ph":"C","name":"mem","pid":1,"ts":"3","args":{"KB":1.25,"label":"x","n":7}},
        {"ph":"B","name":"b","pid":1,"tid":2,"ts":"1"},{"ph":"E","pid":1,"tid":2,"ts":"2"},{"ph":"B","pid":1,"ts":"3"}
    ],"metadata":{"traceEvents":[1]}})");
    const auto l = openModel(path);
    EXPECT_TRUE(l.ok);
    auto depthOf = [&](const std::string& name) {
        return l.count("SELECT depth FROM slice JOIN string s ON s.id=name_id WHERE s.value='" + name + "'");
    };
    EXPECT_EQ(depthOf("outer"), 0);
    EXPECT_EQ(depthOf("same"), 1);
    EXPECT_EQ(depthOf("inner"), 1);
    EXPECT_EQ(depthOf("zero"), 1);
    EXPECT_EQ(depthOf("after"), 0);
    EXPECT_EQ(l.count("SELECT ts FROM slice JOIN string s ON s.id=name_id WHERE s.value='inner'"), 101001); // rounded
    EXPECT_EQ(l.count("SELECT dur FROM slice JOIN string s ON s.id=name_id WHERE s.value='outer'"), 10500);
    const auto args = nlohmann::json::parse(
        l.args("SELECT slice.id FROM slice JOIN string s ON s.id=name_id WHERE s.value='outer'"));
    EXPECT_EQ(args, nlohmann::json::parse(R"({"a":[1,{"b":null}],"s":"q\"\\\n"})"));
    // Non-numeric tid: hashed id, original text kept as the thread name.
    EXPECT_EQ(l.count("SELECT count(*) FROM thread WHERE name='worker' AND tid>4611686018427387903"), 1);
    EXPECT_EQ(l.count("SELECT count(*) FROM thread"), 2);
    EXPECT_EQ(l.count("SELECT count(*) FROM process WHERE pid=1 AND name IS NULL"), 1);

    // 1:N flow with a >64-bit numeric id, both ends bound to the deepest enclosing slice.
    EXPECT_EQ(l.count("SELECT count(*) FROM flow WHERE flow_id='40004068119343529983'"), 2);
    EXPECT_EQ(l.count("SELECT count(*) FROM flow WHERE flow_id='40004068119343529983' AND name='big'"), 2);
    auto boundName = [&](const std::string& where, const char* col) {
        return l.text(std::string("SELECT s.value FROM flow f JOIN slice ON slice.id=f.") + col
            + " JOIN string s ON s.id=slice.name_id WHERE " + where);
    };
    EXPECT_EQ(boundName("dst_ts=105000", "dst_slice_id"), "zero");
    EXPECT_EQ(boundName("dst_ts=101200", "dst_slice_id"), "inner");
    EXPECT_EQ(boundName("dst_ts=105000", "src_slice_id"), "same");
    // Unpaired start and unpaired end each get a row with the other side NULL.
    EXPECT_EQ(l.count("SELECT count(*) FROM flow WHERE flow_id='7' AND dst_ts IS NULL AND src_slice_id IS NULL"), 1);
    EXPECT_EQ(l.count("SELECT count(*) FROM flow WHERE flow_id='8' AND src_ts IS NULL"), 1);
    EXPECT_EQ(boundName("flow_id='8'", "dst_slice_id"), "after");

    // Counters: numeric args only.
    EXPECT_EQ(l.count("SELECT count(*) FROM counter"), 2);
    EXPECT_EQ(l.count("SELECT count(*) FROM counter WHERE series='KB' AND value=1.25 AND ts=3000"), 1);
    // Unhandled phases: one info issue per kind.
    EXPECT_EQ(l.count("SELECT count(*) FROM parse_issue WHERE severity='info'"), 2);
    EXPECT_EQ(l.count("SELECT count(*) FROM parse_issue WHERE message LIKE '2 events with ph \"B\"%'"), 1);
    EXPECT_EQ(l.count("SELECT count(*) FROM parse_issue WHERE severity!='info'"), 0);
}

TEST(TraceViewImporter, TruncatedKeepsEarlierEvents)
{
    TempDir dir;
    const std::string text = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":"1.000","dur":1},)"
                             R"({"ph":"M","name":"process_name","pid":1,"args":{"name":"P"}},)"
                             R"({"ph":"X","name":"b","pid":1,"tid":1,"ts":"3.000","dur":1},{"ph":"X","na)";
    const auto path = dir.write("trunc.json", text);
    const auto l = openModel(path);
    EXPECT_FALSE(l.ok);
    EXPECT_EQ(l.count("SELECT count(*) FROM slice"), 2);
    EXPECT_EQ(l.text("SELECT name FROM process WHERE pid=1"), "P");
    EXPECT_EQ(l.count("SELECT count(*) FROM parse_issue WHERE severity='error' AND file='" + path
                  + "' AND message LIKE 'syntax error at byte " + std::to_string(text.size()) + ":%'"),
        1);
}

TEST(TraceViewImporter, TruncatedRealFile)
{
    TempDir dir;
    std::ifstream in(kLevel1, std::ios::binary);
    std::string text(1000000, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    const auto path = dir.write("trace_view.json", text);
    const auto l = openModel(path);
    EXPECT_FALSE(l.ok);
    EXPECT_GT(l.count("SELECT count(*) FROM slice"), 100);
    EXPECT_LT(l.count("SELECT count(*) FROM slice"), 4384);
    EXPECT_EQ(l.count("SELECT count(*) FROM parse_issue WHERE severity='error' AND file='" + path
                  + "' AND message LIKE 'syntax error at byte %'"),
        1);
}

TEST(TraceViewImporter, EmptyFile)
{
    TempDir dir;
    const auto path = dir.write("empty.json", "");
    const auto l = openModel(path);
    EXPECT_FALSE(l.ok);
    EXPECT_EQ(l.count("SELECT count(*) FROM parse_issue WHERE severity='error' AND file='" + path
                  + "' AND message='file is empty'"),
        1);
}

TEST(TraceViewImporter, BinaryGarbage)
{
    TempDir dir;
    std::string garbage;
    for (int i = 0; i < 4096; ++i)
        garbage += static_cast<char>((i * 131 + 7) % 256);
    const auto path = dir.write("garbage.json", garbage);
    const auto l = openModel(path);
    EXPECT_FALSE(l.ok);
    EXPECT_EQ(l.count("SELECT count(*) FROM slice"), 0);
    EXPECT_EQ(l.count("SELECT count(*) FROM parse_issue WHERE severity='error' AND file='" + path
                  + "' AND message LIKE 'syntax error at byte %'"),
        1);
    // Invalid UTF-8 inside an otherwise valid document is a syntax error too, not a crash.
    const auto path2 = dir.write("utf8.json", std::string("[{\"ph\":\"X\",\"name\":\"\xff\xfe\"}]"));
    const auto l2 = openModel(path2);
    EXPECT_FALSE(l2.ok);
    EXPECT_EQ(l2.count("SELECT count(*) FROM parse_issue WHERE severity='error' AND file='" + path2 + "'"), 1);
}

TEST(TraceViewImporter, WrongTypes)
{
    TempDir dir;
    const auto path = dir.write("types.json", R"({"traceEvents":[
        {"ph":"X","name":"ts object","pid":1,"tid":1,"ts":{"v":1},"dur":1},
        {"ph":"X","name":"bad dur","pid":1,"tid":1,"ts":"1.5","dur":"x"},
        {"ph":"X","name":"neg dur","pid":1,"tid":1,"ts":"1.5","dur":-1},
        {"ph":"X","name":"pid array","pid":[1],"tid":1,"ts":"1.5","dur":1},
        {"ph":"C","name":"c","pid":1,"ts":true,"args":{"v":1}},
        {"ph":"f","cat":"x","pid":1,"tid":1,"ts":"2"},
        {"ph":"M","name":"process_name","pid":1,"args":"not an object"},
        {"ph":7,"name":"numeric ph"},
        42, "text", null,
        {"ph":"X","name":{"n":1},"cat":5,"pid":"1","tid":1,"ts":"2","dur":1,"args":[1,2]}
    ]})");
    const auto l = openModel(path);
    EXPECT_TRUE(l.ok);
    EXPECT_EQ(l.count("SELECT count(*) FROM slice"), 1);
    EXPECT_EQ(l.count("SELECT count(*) FROM slice WHERE pid=1 AND args IS NULL AND args_offset IS NULL AND cat_id IS "
                      "NULL"),
        1);
    EXPECT_EQ(l.count("SELECT count(*) FROM counter"), 0);
    EXPECT_EQ(l.count("SELECT count(*) FROM flow"), 0);
    EXPECT_EQ(l.count("SELECT count(*) FROM parse_issue WHERE severity='warning' AND file='" + path
                  + "' AND message LIKE 'event at byte %'"),
        6);
    EXPECT_EQ(l.count("SELECT count(*) FROM parse_issue WHERE message LIKE '3 entries of the event array%'"), 1);
    EXPECT_EQ(l.count("SELECT count(*) FROM parse_issue WHERE severity='info' AND file='" + path + "'"), 1);

    // Valid JSON that is not a trace.
    const auto path2 = dir.write("object.json", R"({"traceEvents":5,"other":[{"ph":"X"}]})");
    const auto l2 = openModel(path2);
    EXPECT_FALSE(l2.ok);
    EXPECT_EQ(l2.count("SELECT count(*) FROM slice"), 0);
    EXPECT_EQ(l2.count("SELECT count(*) FROM parse_issue WHERE severity='error' AND file='" + path2
                  + "' AND message LIKE 'no trace events%'"),
        1);
    const auto path3 = dir.write("scalar.json", "3.5");
    const auto l3 = openModel(path3);
    EXPECT_FALSE(l3.ok);
    EXPECT_EQ(l3.count("SELECT count(*) FROM parse_issue WHERE severity='error'"), 1);
}

TEST(TraceViewImporter, MissingFileAndCancel)
{
    const auto l = openModel("/nonexistent/npuscope/trace_view.json");
    EXPECT_FALSE(l.ok);
    EXPECT_EQ(l.count("SELECT count(*) FROM parse_issue WHERE severity='error' AND "
                      "file='/nonexistent/npuscope/trace_view.json' AND message LIKE 'cannot open%'"),
        1);

    auto db = Database::createModel();
    ModelWriter writer(*db);
    std::atomic<bool> cancel { true };
    ImportContext ctx(writer, 0, kLevel1, &cancel);
    uint64_t progress = 0;
    ctx.onBytes = [&](uint64_t bytes) { progress = bytes; };
    EXPECT_FALSE(TraceViewImporter::run(ctx));
    EXPECT_GT(progress, 0u);
    EXPECT_EQ(db->scalarInt("SELECT count(*) FROM slice"), 0);
}

TEST(TraceViewImporter, ProgressAndFloorParse)
{
    auto db = Database::createModel();
    ModelWriter writer(*db);
    ImportContext ctx(writer, 0, kLevel1);
    uint64_t progress = 0;
    ctx.onBytes = [&](uint64_t bytes) { progress = bytes; };
    writer.begin();
    EXPECT_TRUE(TraceViewImporter::run(ctx));
    writer.commit();
    EXPECT_EQ(progress, fs::file_size(kLevel1));
    EXPECT_EQ(TraceViewImporter::parseOnly(kLevel1).value_or(0), fs::file_size(kLevel1));
    EXPECT_FALSE(TraceViewImporter::parseOnly("/nonexistent/x.json").has_value());
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Args by reference: the byte range recorded for every slice is exactly its args object.

namespace {

// The args of every X event with an object args, as canonical JSON text, sorted.
std::vector<std::string> expectedArgs(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    const auto doc = nlohmann::json::parse(in);
    const auto& events = doc.is_array() ? doc : doc.at("traceEvents");
    std::vector<std::string> out;
    for (const auto& e : events) {
        if (e.is_object() && e.value("ph", "") == "X" && e.contains("args") && e.at("args").is_object())
            out.push_back(e.at("args").dump());
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST(TraceViewImporter, ArgsRangesMatchTheFileExactly)
{
    for (const char* rel : { "/torch_npu_2rank_level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
             "/torch_npu_2rank_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
             "/torch_npu_2rank_level2/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json" }) {
        const std::string path = kData + rel;
        SCOPED_TRACE(path);
        const auto l = openModel(path);
        ASSERT_TRUE(l.ok);
        // Stored by reference only: no copies of args text in the model.
        EXPECT_EQ(l.count("SELECT count(*) FROM slice WHERE args IS NOT NULL"), 0);
        EXPECT_EQ(l.count("SELECT count(*) FROM source_file"), 1);
        EXPECT_EQ(l.count("SELECT size_bytes FROM source_file"), static_cast<int64_t>(fs::file_size(path)));

        std::string bytes(static_cast<size_t>(fs::file_size(path)), '\0');
        std::ifstream(path, std::ios::binary).read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        std::vector<std::string> got;
        auto st = l.db->prepare("SELECT id, args_offset, args_len FROM slice WHERE args_offset IS NOT NULL");
        while (st.step()) {
            const auto offset = static_cast<size_t>(st.int64(1));
            const auto len = static_cast<size_t>(st.int64(2));
            ASSERT_LE(offset + len, bytes.size());
            const std::string raw = bytes.substr(offset, len);
            ASSERT_EQ(raw.front(), '{');
            ASSERT_EQ(raw.back(), '}');
            const auto parsed = nlohmann::json::parse(raw);
            ASSERT_TRUE(parsed.is_object());
            // The query reads the same bytes back.
            EXPECT_EQ(load::SourceDetails::sliceArgs(*l.db, st.int64(0)).json.value_or(""), raw);
            got.push_back(parsed.dump());
        }
        std::sort(got.begin(), got.end());
        const auto want = expectedArgs(path);
        EXPECT_FALSE(want.empty());
        EXPECT_EQ(got, want);
    }
}

TEST(TraceViewImporter, ArgsRangesAcrossChunkBoundaries)
{
    // Args objects end in every kind of value (the file is 8 MiB: once the scanner's chunk boundaries).
    TempDir dir;
    std::string text = "[";
    std::vector<std::string> want;
    const char* tails[]
        = { "1", "-2.5e3", "\"s\\\"}\"", "null", "true", "[1,{}]", "{\"x\":{}}", "12345678901234567890" };
    for (int i = 0; text.size() < (std::size_t(4) << 20) * 2 + 4096; ++i) {
        const std::string args = "{ \"i\" : " + std::to_string(i) + ",\n \"pad\":\"" + std::string(i % 97, 'p')
            + "\", \"t\": " + tails[i % 8] + " }";
        want.push_back(nlohmann::json::parse(args).dump());
        text += (i ? ",\n" : "") + std::string(R"({"ph":"X","name":"n","pid":1,"tid":1,"ts":")") + std::to_string(i)
            + R"(","dur":1,"args":)" + args + "}";
    }
    text += "]";
    const auto path = dir.write("big.json", text);
    const auto l = openModel(path);
    ASSERT_TRUE(l.ok);
    std::vector<std::string> got;
    auto st = l.db->prepare("SELECT args_offset, args_len FROM slice ORDER BY ts");
    while (st.step())
        got.push_back(
            nlohmann::json::parse(text.substr(static_cast<size_t>(st.int64(0)), static_cast<size_t>(st.int64(1))))
                .dump());
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, want);
}

TEST(TraceViewImporter, ArgsOfAChangedOrMissingFileAreUnavailable)
{
    TempDir dir;
    const std::string events = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":"1","dur":1,"args":{"k":"v1"}},
        {"ph":"X","name":"b","pid":1,"tid":1,"ts":"5","dur":1}])";
    const auto path = dir.write("t.json", events);
    const auto l = openModel(path);
    ASSERT_TRUE(l.ok);
    const int64_t a = l.count("SELECT slice.id FROM slice JOIN string s ON s.id=name_id WHERE s.value='a'");
    const int64_t b = l.count("SELECT slice.id FROM slice JOIN string s ON s.id=name_id WHERE s.value='b'");
    EXPECT_EQ(load::SourceDetails::sliceArgs(*l.db, a).json.value_or(""), R"({"k":"v1"})");
    EXPECT_TRUE(load::SourceDetails::sliceArgs(*l.db, a).error.empty());
    // No args: neither text nor an error.
    EXPECT_FALSE(load::SourceDetails::sliceArgs(*l.db, b).json);
    EXPECT_TRUE(load::SourceDetails::sliceArgs(*l.db, b).error.empty());

    // Same size, different content and mtime: refused, not misread.
    std::string changed = events;
    changed.replace(changed.find("v1"), 2, "v2");
    dir.write("t.json", changed);
    fs::last_write_time(path, fs::last_write_time(path) + std::chrono::seconds(5));
    auto r = load::SourceDetails::sliceArgs(*l.db, a);
    EXPECT_FALSE(r.json);
    EXPECT_EQ(r.error, "args unavailable: file changed or missing");
    const auto details = load::SourceDetails::slice(*l.db, a);
    ASSERT_TRUE(details);
    EXPECT_EQ(details->argsJson, "");
    EXPECT_EQ(details->argsError, "args unavailable: file changed or missing");

    fs::remove(path);
    r = load::SourceDetails::sliceArgs(*l.db, a);
    EXPECT_FALSE(r.json);
    EXPECT_EQ(r.error, "args unavailable: file changed or missing");
}
