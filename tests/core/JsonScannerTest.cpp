// SPDX-License-Identifier: Apache-2.0
// JsonScanner (the streaming reader behind TraceViewImporter): it must accept and reject exactly
// what nlohmann::json does, report the same error byte and line, and the importer built on it must
// give the same model the nlohmann SAX importer gave.
#include "npuscope/io/parse/JsonScanner.h"
#include "npuscope/testgen/ClusterGenerator.h"
#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/io/torch_npu/TraceViewImporter.h"
#include "npuscope/model/Database.h"
#include "npuscope/model/ModelWriter.h"

#include "TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace {

namespace fs = std::filesystem;
using npuscope::io::ImportContext;
using npuscope::io::JsonScanner;
using npuscope::io::TraceViewImporter;
using npuscope::model::Database;
using npuscope::model::ModelWriter;
using npuscope::test::ScratchDir;

const std::string kData = NPUSCOPE_TEST_DATA;

struct Imported {
    std::unique_ptr<Database> db;
    bool ok = false;
};

Imported import(const std::string& path)
{
    Imported r;
    r.db = Database::createModel();
    ModelWriter writer(*r.db);
    writer.begin();
    ImportContext ctx(writer, 3, path);
    r.ok = TraceViewImporter::run(ctx);
    writer.commit();
    return r;
}

// Every row of every table the importer writes, in rowid order, values quoted by SQLite (so
// types and full precision count). The source_file path is left out (it is the file's path).
std::string dumpModel(Database& db)
{
    std::string out;
    for (const char* table : { "string", "process", "thread", "slice", "counter", "flow", "parse_issue" }) {
        std::vector<std::string> columns;
        auto info = db.prepare(std::string("PRAGMA table_info(") + table + ")");
        while (info.step())
            if (info.text(1) != "file") // parse_issue.file: the path of the (temporary) input
                columns.push_back(info.text(1));
        std::string sql = "SELECT ''";
        for (const auto& c : columns)
            sql += "||'|'||quote(\"" + c + "\")";
        sql += std::string(" FROM ") + table + " ORDER BY rowid";
        auto st = db.prepare(sql);
        out += std::string("# ") + table + "\n";
        while (st.step())
            out += st.text(0) + "\n";
    }
    auto st = db.prepare("SELECT rank_id, size_bytes FROM source_file ORDER BY id");
    while (st.step())
        out += "# source_file " + st.text(0) + " " + st.text(1) + "\n";
    return out;
}

uint64_t fnv1a(const std::string& s)
{
    uint64_t h = 1469598103934665603ull;
    for (const char c : s) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    return h;
}

std::string write(const fs::path& dir, const std::string& name, const std::string& content)
{
    const auto p = dir / name;
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
}

// nlohmann's verdict on text: nullopt when valid, else (byte offset, "line L, column C").
struct NlohmannError {
    uint64_t offset = 0;
    std::string lineColumn;
};
std::optional<NlohmannError> nlohmannParse(const std::string& text)
{
    struct Sax : nlohmann::json_sax<nlohmann::json> {
        std::optional<NlohmannError> error;
        bool null() override { return true; }
        bool boolean(bool) override { return true; }
        bool number_integer(number_integer_t) override { return true; }
        bool number_unsigned(number_unsigned_t) override { return true; }
        bool number_float(number_float_t, const string_t&) override { return true; }
        bool string(string_t&) override { return true; }
        bool binary(binary_t&) override { return true; }
        bool start_object(std::size_t) override { return true; }
        bool key(string_t&) override { return true; }
        bool end_object() override { return true; }
        bool start_array(std::size_t) override { return true; }
        bool end_array() override { return true; }
        bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override
        {
            NlohmannError err;
            err.offset = position > 0 ? position - 1 : 0;
            const std::string what = e.what();
            const auto at = what.find("line ");
            if (at != std::string::npos)
                err.lineColumn = what.substr(at, what.find(':', at) - at);
            error = err;
            return false;
        }
    } sax;
    nlohmann::json::sax_parse(text, &sax);
    return sax.error;
}

// The importer's syntax error for text: nullopt when it reported none.
std::optional<std::string> importError(const fs::path& dir, const std::string& text)
{
    const auto path = write(dir, "doc.json", text);
    auto r = import(path);
    auto st = r.db->prepare("SELECT message FROM parse_issue WHERE severity='error' AND message LIKE 'syntax error%'");
    if (st.step())
        return st.text(0);
    return std::nullopt;
}

} // namespace

TEST(JsonScanner, AcceptsAndRejectsLikeNlohmann)
{
    ScratchDir dir;
    const std::vector<std::string> docs = {
        // valid
        "[]",
        "{}",
        " [ ] ",
        "\n[\n]\n",
        "{\"traceEvents\":[]}",
        "\xef\xbb\xbf[]",
        "3.5",
        "\"s\"",
        "null",
        "-0",
        "[1e-400]",
        "[123456789012345678901234567890]",
        "[-9223372036854775809]",
        "[18446744073709551616]",
        R"(["\u00e9\ud83d\ude00\/\b\f\n\r\t\"\\"])",
        "[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\x7f\"]",
        R"([{"ph":"X","args":{"a":[[[[{}]]]],"b":"\\\"","c":-0.0e+5,"d":1E2,"e":true,"f":null}}])",
        R"([{"args":{"a":1},"ph":"X"},{"ph":"C","args":{"v":[1]}}])",
        // invalid
        "[",
        "[{",
        "[{\"ph\"",
        "[{\"ph\":",
        "[{\"ph\":\"X\"",
        "[{\"ph\":\"X\",}]",
        "[1,]",
        "[1 2]",
        "[01]",
        "[-]",
        "[-a]",
        "[1.]",
        "[1.x]",
        "[1e]",
        "[1e+]",
        "[.5]",
        "[+1]",
        "[tru]",
        "[trux]",
        "[nul]",
        "[nulL]",
        "[falsey]",
        "[\"a\x01\"]",
        R"(["\q"])",
        R"(["\u12G4"])",
        R"(["\uD800"])",
        R"(["\uD800\u0041"])",
        R"(["\uD800x"])",
        R"(["\uDC00"])",
        "[\"\xff\"]",
        "[\"\xc3\"]",
        "[\"\xc3(\"]",
        "[\"\xe0\x80\x80\"]",
        "[\"\xed\xa0\x80\"]",
        "[\"\xf4\x90\x80\x80\"]",
        "[\"\xc0\xaf\"]",
        "[1e400]",
        "[-1e400]",
        "[1" + std::string(400, '0') + "]",
        "[{\"a\":1e999}]",
        R"([{"ph":"X","args":{"a":1e999}}])",
        R"([{"ph":"X","args":{"a":[1,}}])",
        "[{\"ph\":\"X\",\"args\":{\"a\":\"\xff\"}}]",
        R"([{"ph":"X","args":{"a" 1}}])",
        R"([{"ph":"X","args":{1:2}}])",
        R"([{"ph":"X","args":{"k":"v")",
        "[] x",
        "[][]",
        "[] 1",
        "\xef\xbb",
        "\xef\xbbx[]",
        "{\"traceEvents\":[}",
        "{\"a\" 1}",
        "{1:2}",
        "{\"a\":1,}",
        "{\"a\":1 \"b\":2}",
        "  ",
        "]",
        "x",
        "\"abc",
        "[\"abc\\",
        "[\"a\\u12",
        "[\n{\"ph\":\"X\"\n,\n]",
        "[\n\n  {\"ph\":\"X\",\"args\":{\"a\":[1,\n2,,]}}]",
        "[1,\n\"x\n\"]",
        "[nan]",
        "[Infinity]",
        "[0x10]",
        "[1.5e]",
        "[\"\t\"]",
        "[/*c*/1]",
        "[1]\n// c",
        "{\"traceEvents\":[{\"ph\":\"M\"}, 1 2]}",
    };
    for (const auto& text : docs) {
        SCOPED_TRACE("document: " + text);
        const auto expected = nlohmannParse(text);
        const auto got = importError(dir.path(), text);
        ASSERT_EQ(expected.has_value(), got.has_value()) << (got ? *got : std::string("accepted"));
        if (!expected)
            continue;
        EXPECT_NE(got->find("syntax error at byte " + std::to_string(expected->offset) + ":"), std::string::npos)
            << *got;
        EXPECT_NE(got->find(expected->lineColumn), std::string::npos) << *got << " vs " << expected->lineColumn;
    }
}

TEST(JsonScanner, DecodesStringsAndNumbers)
{
    const std::string text = R"(["a\u00e9\ud83d\ude00\n", "plain", -12, 18446744073709551616, 1.5e3, "\u0000x"])";
    JsonScanner sc(text.data(), text.size(), 100);
    ASSERT_EQ(sc.peek(), '[');
    sc.advance();
    std::string s;
    ASSERT_TRUE(sc.readString(s));
    EXPECT_EQ(s, "a\xc3\xa9\xf0\x9f\x98\x80\n");
    ASSERT_EQ(sc.peek(), ',');
    sc.advance();
    ASSERT_EQ(sc.peek(), '"');
    ASSERT_TRUE(sc.readString(s));
    EXPECT_EQ(s, "plain");
    bool integral = false;
    for (const auto& [want, wantIntegral] : std::vector<std::pair<std::string, bool>> {
             { "-12", true }, { "18446744073709551616", true }, { "1.5e3", false } }) {
        ASSERT_EQ(sc.peek(), ',');
        sc.advance();
        sc.peek();
        ASSERT_TRUE(sc.readNumber(s, integral));
        EXPECT_EQ(s, want);
        EXPECT_EQ(integral, wantIntegral);
    }
    ASSERT_EQ(sc.peek(), ',');
    sc.advance();
    sc.peek();
    const uint64_t before = sc.offset();
    ASSERT_TRUE(sc.skipValue());
    EXPECT_EQ(sc.offset() - before, 9u);
    EXPECT_EQ(std::string(text.data() + (before - 100), 9), R"("\u0000x")");
    ASSERT_EQ(sc.peek(), ']');
    sc.advance();
    EXPECT_TRUE(sc.expectEnd());
}

TEST(JsonScanner, SkipsAcrossChunkBoundaries)
{
    // Every value kind straddling every position of a tiny chunk.
    ScratchDir dir;
    const std::string text = "\xef\xbb\xbf [ {\"k\\u00e9y\" : [ -1.25e+10 , \"s\\\"\\\\x\xc3\xa9\xf0\x9f\x98\x80\" , "
                             "true , false , null , "
                             "{ } , [ ] , 0 , 123456789012345678901234567890 ] } , \"\\ud83d\\ude00\" ] ";
    const auto path = write(dir.path(), "chunks.json", text);
    for (std::size_t chunk : { 1, 2, 3, 5, 7, 16, 17 }) {
        SCOPED_TRACE(chunk);
        std::FILE* f = std::fopen(path.c_str(), "rb");
        ASSERT_TRUE(f);
        JsonScanner sc(f, chunk);
        EXPECT_TRUE(sc.skipBom());
        EXPECT_TRUE(sc.skipValue());
        EXPECT_TRUE(sc.expectEnd());
        EXPECT_EQ(sc.totalRead(), text.size());
        std::fclose(f);
        // Truncated anywhere: an error at the end of the input (or earlier, where nlohmann has it).
        for (std::size_t cut = 4; cut + 1 < text.size(); cut += 3) {
            const auto truncated = write(dir.path(), "cut.json", text.substr(0, cut));
            std::FILE* g = std::fopen(truncated.c_str(), "rb");
            JsonScanner tc(g, chunk);
            EXPECT_FALSE(tc.skipBom() && tc.skipValue() && tc.expectEnd());
            const auto expected = nlohmannParse(text.substr(0, cut));
            ASSERT_TRUE(expected.has_value());
            EXPECT_EQ(tc.errorOffset(), expected->offset) << "cut " << cut << ": " << tc.errorMessage();
            std::fclose(g);
        }
    }
}

// The model the importer writes, row for row (ids, string ids, values), is the one the nlohmann SAX
// importer wrote.
TEST(JsonScanner, ImporterModelMatchesTheNlohmannImporter)
{
    ScratchDir dir;
    // Shapes the samples lack: wrapper object, args before ph, a duplicate ph after skipped args,
    // escapes and non-ASCII names, numbers in every form, non-object entries, unknown phases.
    const std::string synthetic = "\xef\xbb\xbf"
                                  R"({"meta":{"traceEvents":[{"ph":"X"}]},"traceEvents":[
        {"args":{"v":1.5,"w":-2,"s":"x","o":{"n":1}},"ph":"C","name":"c\u00e9","pid":1,"ts":"3.0005"},
        {"ph":"X","args":{"a":1},"ph":"C","name":"dup","pid":1,"ts":4},
        {"ph":"X","name":"\u65e5\u672c\ud83d\ude00","pid":"1","tid":2,"ts":1.5e1,"dur":"2","cat":"c\"q","args":{"x":[1,{"y":"\\"}]}},
        {"ph":"X","name":42,"pid":1,"tid":"worker","ts":"100","dur":0.0015,"args":[]},
        {"ph":"X","name":"n","pid":-3,"tid":18446744073709551615,"ts":-5,"dur":1E1},
        {"ph":"s","cat":"c","id":40004068119343529983,"name":"c40004068119343529983","pid":1,"tid":2,"ts":"15.5"},
        {"ph":"f","cat":"c","id":40004068119343529983,"bp":"e","pid":1,"tid":2,"ts":"16"},
        {"ph":"t","cat":"c","id":-7,"pid":1,"tid":2,"ts":"16.5"},
        {"ph":"M","name":"process_name","pid":1,"args":{"name":"P\u00e9"}},
        {"ph":"M","name":"thread_sort_index","pid":1,"tid":2,"args":{"sort_index":-4}},
        {"ph":"B"}, 7, [1], null, {}
    ],"traceEvents":[{"ph":"X","name":"second","pid":1,"tid":1,"ts":1,"dur":1}]})";
    const auto synthPath = write(dir.path(), "synthetic.json", synthetic);

    npuscope::testgen::GeneratorOptions g;
    g.outDir = (dir.path() / "gen").string();
    g.ranks = 1;
    g.traceMb = 3;
    std::string error;
    ASSERT_TRUE(npuscope::testgen::ClusterGenerator::generate(g, error)) << error;
    std::string generated;
    for (const auto& e : fs::recursive_directory_iterator(g.outDir))
        if (e.path().filename() == "trace_view.json")
            generated = e.path().string();
    ASSERT_FALSE(generated.empty());

    // Digests of dumpModel() as the nlohmann SAX importer wrote these models (recorded by running
    // both importers side by side before the SAX one was removed; the dumps were identical).
    const std::vector<std::pair<std::string, uint64_t>> golden = {
        { kData + "/torch_npu_2rank_level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
            0xdf5b7fb04dd1e92cull },
        { kData + "/torch_npu_2rank_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
            0xa3e023e7ab31e9e3ull },
        { kData + "/torch_npu_2rank_level2/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
            0x6444408f8e86fa4dull },
        { synthPath, 0x6eb63007a0c8f8fcull },
    };
    for (const auto& [path, digest] : golden) {
        SCOPED_TRACE(path);
        auto model = import(path);
        EXPECT_TRUE(model.ok);
        EXPECT_EQ(fnv1a(dumpModel(*model.db)), digest);
    }

    // A generated trace (its bytes depend on the generator, so no digest): every X event, counter
    // and flow point of an independent DOM parse is in the model with the exact values.
    auto model = import(generated);
    ASSERT_TRUE(model.ok);
    std::string bytes(static_cast<std::size_t>(fs::file_size(generated)), '\0');
    std::ifstream(generated, std::ios::binary).read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    const auto doc = nlohmann::json::parse(bytes);
    std::vector<std::string> want, got;
    std::size_t counters = 0, flowPoints = 0;
    for (const auto& e : doc) {
        const auto ph = e.value("ph", "");
        if (ph == "X") {
            const std::string ts = e.at("ts").get<std::string>();
            const auto dot = ts.find('.');
            const std::string tsNs = ts.substr(0, dot) + (ts.substr(dot + 1) + "000").substr(0, 3);
            std::string args;
            if (e.contains("args"))
                args = e.at("args").dump();
            want.push_back(std::to_string(e.at("pid").get<int64_t>()) + " " + std::to_string(e.at("tid").get<int64_t>())
                + " " + std::to_string(std::stoll(tsNs)) + " " + e.at("name").get<std::string>() + " "
                + e.value("cat", "") + " " + args);
        } else if (ph == "C") {
            counters += e.at("args").size();
        } else if (ph == "s" || ph == "f") {
            ++flowPoints;
        }
    }
    auto st = model.db->prepare("SELECT s.pid, s.tid, s.ts, n.value, coalesce(c.value, ''), s.args_offset, s.args_len "
                                "FROM slice s JOIN string n ON n.id = s.name_id LEFT JOIN string c ON c.id = s.cat_id");
    while (st.step()) {
        std::string args;
        if (!st.isNull(5))
            args = nlohmann::json::parse(
                bytes.substr(static_cast<std::size_t>(st.int64(5)), static_cast<std::size_t>(st.int64(6))))
                       .dump();
        got.push_back(
            st.text(0) + " " + st.text(1) + " " + st.text(2) + " " + st.text(3) + " " + st.text(4) + " " + args);
    }
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got.size(), want.size());
    EXPECT_TRUE(got == want);
    EXPECT_EQ(model.db->scalarInt("SELECT count(*) FROM counter").value_or(-1), static_cast<int64_t>(counters));
    EXPECT_EQ(model.db->scalarInt("SELECT count(*) FROM flow WHERE src_ts IS NOT NULL").value_or(-1)
            + model.db->scalarInt("SELECT count(*) FROM flow WHERE dst_ts IS NOT NULL").value_or(-1),
        static_cast<int64_t>(flowPoints));
}
