// SPDX-License-Identifier: Apache-2.0
// summary --json / comm --json are written piece by piece (JsonStreamWriter): on every tests/data sample the stream
// is exactly nlohmann's dump(2) of the document it holds (same bytes), and it carries the links CommQuery reads.
// Equality with the previous in-memory builder is checked by the snapshot (scripts/snapshot.sh) against main.
#include "TestSupport.h"

#include "npuscope/query/CommQuery.h"
#include "npuscope/query/CommReport.h"
#include "npuscope/query/JsonStreamWriter.h"
#include "npuscope/query/SummaryReport.h"

#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

namespace fs = std::filesystem;
using namespace npuscope;
using ojson = nlohmann::ordered_json;

TEST(StreamedReport, WriterPrintsAsDump)
{
    // Empty and nested containers, escapes, non-ASCII text, doubles nlohmann prints in its own way.
    const ojson doc = ojson::parse(R"({"a": [], "b": {}, "c": [1, -2, 0.1, 1e-07, 3.0, 1.5e+300, null, true],
        "d": {"e": "tab\t \"q\" \\ é —", "f": [{"g": []}, [[]]]}, "h": "\u0001"})");
    std::ostringstream out;
    query::JsonStreamWriter w(out);
    w.beginObject();
    w.key("a");
    w.beginArray();
    w.endArray();
    w.key("b");
    w.beginObject();
    w.endObject();
    w.key("c");
    w.beginArray();
    w.value(int64_t { 1 });
    w.value(-2);
    w.value(0.1);
    w.value(1e-07);
    w.value(3.0);
    w.value(1.5e+300);
    w.null();
    w.value(true);
    w.endArray();
    w.key("d");
    w.beginObject();
    w.member("e", std::string("tab\t \"q\" \\ é —"));
    w.member("f", doc["d"]["f"]);
    w.endObject();
    w.member("h", std::optional<std::string>("\x01"));
    w.endObject();
    w.finish();
    EXPECT_EQ(out.str(), doc.dump(2));
}

// Objects written with pre-rendered keys (the links) print as with key(name): first and later members, a key that
// needs escaping, objects at two depths; a key out of order or out of place is refused, not printed.
TEST(StreamedReport, ObjectKeysPrintAsKey)
{
    const ojson doc = ojson::parse(R"({"rows": [{"a": 1, "é\"k": null, "c": []}, {"a": 2, "é\"k": "x", "c": [{}]}],
        "deep": [[{"a": 3, "é\"k": 0.5, "c": {}}]]})");
    std::ostringstream out;
    query::JsonStreamWriter w(out);
    w.beginObject();
    w.key("rows");
    w.beginArray();
    const auto keys = w.objectKeys({ "a", "é\"k", "c" });
    EXPECT_EQ(keys.size(), 3u);
    for (int i = 0; i < 2; ++i) {
        w.beginObject();
        w.member(keys, 0, i + 1);
        if (i == 0)
            w.member(keys, 1, std::optional<double>());
        else
            w.member(keys, 1, "x");
        w.key(keys, 2);
        w.beginArray();
        if (i == 1) {
            w.beginObject();
            w.endObject();
        }
        w.endArray();
        w.endObject();
    }
    EXPECT_THROW(w.key(keys, 0), std::logic_error); // an array element, not an object member
    w.endArray();
    w.key("deep");
    w.beginArray();
    w.beginArray();
    const auto deep = w.objectKeys({ "a", "é\"k", "c" });
    w.beginObject();
    EXPECT_THROW(w.key(keys, 0), std::logic_error); // made for another depth
    EXPECT_THROW(w.key(deep, 1), std::logic_error); // out of order
    w.member(deep, 0, 3);
    w.member(deep, 1, 0.5);
    w.key(deep, 2);
    w.beginObject();
    w.endObject();
    w.endObject();
    w.endArray();
    w.endArray();
    w.endObject();
    w.finish();
    EXPECT_EQ(out.str(), doc.dump(2));
}

// Numbers are formatted without a json value each: the digits must still be dump()'s, special values included.
TEST(StreamedReport, NumbersPrintAsDump)
{
    const double doubles[]
        = { 0.0, -0.0, 1.0, -1.5, 0.1, 1.0 / 3.0, 123456789.123, 1e21, 1e-5, 5e-324, std::numeric_limits<double>::max(),
              std::numeric_limits<double>::lowest(), std::numeric_limits<double>::infinity(),
              -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN() };
    for (double v : doubles) {
        std::ostringstream out;
        query::JsonStreamWriter w(out);
        w.value(v);
        w.finish();
        EXPECT_EQ(out.str(), ojson(v).dump()) << v;
    }
    for (int64_t v :
        { int64_t { 0 }, int64_t { -7 }, std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min() }) {
        std::ostringstream out;
        query::JsonStreamWriter w(out);
        w.value(v);
        w.finish();
        EXPECT_EQ(out.str(), ojson(v).dump()) << v;
    }
}

TEST(StreamedReport, SummaryAndCommAreDumpOfTheirDocumentOnEverySample)
{
    size_t samples = 0;
    size_t linksSeen = 0;
    for (const auto& entry : fs::directory_iterator(test::dataDir())) {
        if (!entry.is_directory())
            continue;
        SCOPED_TRACE(entry.path().filename().string());
        const auto db = test::openFolder(entry.path());
        ASSERT_TRUE(db);
        std::ostringstream summary;
        query::SummaryReport::write(summary, *db);
        const auto doc = ojson::parse(summary.str());
        EXPECT_EQ(summary.str(), doc.dump(2));
        EXPECT_EQ(doc["schema"], "npuscope.summary/1");
        // The streamed links are CommQuery's, in its order.
        const auto links = query::CommQuery::links(*db);
        ASSERT_EQ(doc["links"].size(), links.size());
        for (size_t i = 0; i < links.size(); ++i) {
            const auto& j = doc["links"][i];
            EXPECT_EQ(j["op"], links[i].matrixOp);
            EXPECT_EQ(j["reported_by"], links[i].reportedBy);
            EXPECT_EQ(j["src"].is_null(), !links[i].src);
            if (links[i].sizeMb) {
                EXPECT_EQ(j["size_mb"].get<double>(), *links[i].sizeMb);
            }
        }
        linksSeen += links.size();
        std::ostringstream comm;
        query::CommReport::write(comm, *db, {});
        EXPECT_EQ(comm.str(), ojson::parse(comm.str()).dump(2));
        EXPECT_EQ(query::CommReport::json(*db, {}).dump(2), comm.str());
        ++samples;
    }
    EXPECT_GE(samples, 20u);
    EXPECT_GT(linksSeen, 0u);
}

TEST(StreamedReport, SpotValuesOfTwoRankLevel1)
{
    const auto db = test::openFolder(test::dataDir() / "torch_npu_2rank_level1");
    ASSERT_TRUE(db);
    const auto doc = query::SummaryReport::json(*db);
    ASSERT_EQ(doc["ranks"].size(), 2u);
    EXPECT_EQ(doc["ranks"][0]["rank"], 0);
    // Every comm_link row (summary --json keeps the "total" slots and Total Op Info rows).
    EXPECT_EQ(static_cast<int64_t>(doc["links"].size()), test::count(*db, "SELECT COUNT(*) FROM comm_link"));
    EXPECT_EQ(doc["links"].size(), 96u);
    const auto& first = doc["links"][0];
    EXPECT_EQ(first["ranks"], "global");
    EXPECT_EQ(first["kind"],
        test::text(*db,
            "SELECT kind FROM comm_link ORDER BY step, group_hash, matrix_op, src, dst, rank_id "
            "LIMIT 1"));
    EXPECT_EQ(first["size_mb"].get<double>(),
        test::real(
            *db, "SELECT size_mb FROM comm_link ORDER BY step, group_hash, matrix_op, src, dst, rank_id LIMIT 1"));
}
