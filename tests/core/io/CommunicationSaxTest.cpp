// SPDX-License-Identifier: Apache-2.0
// The streaming communication.json importer against the DOM importer it replaced (kept here, and
// only here, as the reference): same comm_op / comm_bandwidth / comm_packet rows, ids and issues.
#include "TestSupport.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/testgen/ClusterGenerator.h"
#include "npuscope/io/parse/CommOpInfoWriter.h"
#include "npuscope/io/torch_npu/CommunicationImporter.h"
#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/io/parse/JsonFile.h"
#include "npuscope/model/ModelWriter.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace npuscope;
using namespace npuscope::io;
namespace fs = std::filesystem;

namespace {

// --- the DOM importer as it was (reference only) ---

std::optional<int64_t> refMsField(const nlohmann::json& o, const char* key)
{
    if (auto v = jsonNumber(o, key))
        return doubleToNs(*v, 1.0e6);
    return std::nullopt;
}

void refWriteOp(ImportContext& ctx, int64_t rank, std::optional<int64_t> step, const std::string& kind,
    const std::string& key, const nlohmann::json& info)
{
    auto& w = ctx.writer();
    model::CommOpRow row;
    row.rankId = rank;
    row.step = step;
    row.kind = kind;
    row.opKey = key;
    row.isTotal = key == "Total Op Info";
    const OpKey parsed = parseOpKey(key);
    row.opName = parsed.name;
    row.opType = parsed.type;
    row.groupHash = parsed.groupHash;
    const auto timeIt = info.find("Communication Time Info");
    if (timeIt != info.end() && timeIt->is_object()) {
        const auto& t = *timeIt;
        if (auto start = jsonNumber(t, "Start Timestamp(us)")) {
            row.startNs = usToNs(t["Start Timestamp(us)"].dump());
            if (!row.startNs)
                row.startNs = doubleToNs(*start, 1.0e3);
        }
        row.elapseNs = refMsField(t, "Elapse Time(ms)");
        row.transitNs = refMsField(t, "Transit Time(ms)");
        row.waitNs = refMsField(t, "Wait Time(ms)");
        row.syncNs = refMsField(t, "Synchronization Time(ms)");
        row.idleNs = refMsField(t, "Idle Time(ms)");
        if (!row.idleNs)
            row.idleNs = refMsField(t, "Idel Time(ms)");
        row.waitRatio = jsonNumber(t, "Wait Time Ratio");
        row.syncRatio = jsonNumber(t, "Synchronization Time Ratio");
    } else {
        ctx.warning(
            std::nullopt, "op \"" + key + "\" of rank " + std::to_string(rank) + " has no \"Communication Time Info\"");
    }
    const auto bwIt = info.find("Communication Bandwidth Info");
    const bool hasBandwidth = bwIt != info.end() && bwIt->is_object();
    // A transport whose four figures are 0 and that has no packets has no row: the op names it (since import 18).
    const auto allZero = [](const nlohmann::json& t) {
        for (const char* field : { "Transit Size(MB)", "Transit Time(ms)", "Bandwidth(GB/s)", "Large Packet Ratio" }) {
            const auto v = jsonNumber(t, field);
            if (!v || *v != 0.0)
                return false;
        }
        const auto dist = t.find("Size Distribution");
        return dist == t.end() || !dist->is_object() || dist->empty();
    };
    const auto folded = [&](auto tIt) {
        return tIt->is_object() && allZero(*tIt) && !tIt.key().empty() && tIt.key().find(',') == std::string::npos;
    };
    if (hasBandwidth) {
        for (auto tIt = bwIt->begin(); tIt != bwIt->end(); ++tIt) {
            if (folded(tIt))
                row.zeroTransports = (row.zeroTransports ? *row.zeroTransports + "," : std::string()) + tIt.key();
        }
    }
    const int64_t opId = w.addCommOp(row);
    if (!hasBandwidth)
        return;
    for (auto tIt = bwIt->begin(); tIt != bwIt->end(); ++tIt) {
        if (!tIt->is_object() || folded(tIt))
            continue;
        model::CommBandwidthRow bw;
        bw.commOpId = opId;
        bw.transport = tIt.key();
        bw.sizeMb = jsonNumber(*tIt, "Transit Size(MB)");
        bw.transitNs = refMsField(*tIt, "Transit Time(ms)");
        bw.bandwidthGbps = jsonNumber(*tIt, "Bandwidth(GB/s)");
        bw.largePacketRatio = jsonNumber(*tIt, "Large Packet Ratio");
        const int64_t bwId = w.addCommBandwidth(bw);
        const auto distIt = tIt->find("Size Distribution");
        if (distIt == tIt->end() || !distIt->is_object())
            continue;
        for (auto dIt = distIt->begin(); dIt != distIt->end(); ++dIt) {
            const auto size = parseDouble(dIt.key());
            if (!size || !dIt->is_array() || dIt->size() < 2 || !(*dIt)[0].is_number() || !(*dIt)[1].is_number()) {
                ctx.warning(std::nullopt, "op \"" + key + "\" " + tIt.key() + ": bad Size Distribution entry");
                continue;
            }
            model::CommPacketRow p;
            p.commBandwidthId = bwId;
            p.packageMb = *size;
            p.count = (*dIt)[0].get<int64_t>();
            p.totalNs = doubleToNs((*dIt)[1].get<double>(), 1.0e6);
            w.addCommPacket(p);
        }
    }
}

bool referenceImport(ImportContext& ctx)
{
    nlohmann::json root;
    if (!readJsonFile(ctx, root))
        return false;
    int ops = 0;
    for (auto stepIt = root.begin(); stepIt != root.end(); ++stepIt) {
        if (ctx.cancelled())
            break;
        const auto step = stepFromKey(stepIt.key());
        if (!stepIt->is_object()) {
            ctx.warning(std::nullopt, "\"" + stepIt.key() + "\" is not an object; skipped");
            continue;
        }
        for (auto kindIt = stepIt->begin(); kindIt != stepIt->end(); ++kindIt) {
            if (!kindIt->is_object()) {
                ctx.warning(std::nullopt, "\"" + stepIt.key() + "." + kindIt.key() + "\" is not an object; skipped");
                continue;
            }
            for (auto opIt = kindIt->begin(); opIt != kindIt->end(); ++opIt) {
                if (!opIt->is_object()) {
                    ctx.warning(std::nullopt, "op \"" + opIt.key() + "\" is not an object; skipped");
                    continue;
                }
                refWriteOp(ctx, ctx.rankId(), step, kindIt.key(), opIt.key(), opIt.value());
                ++ops;
            }
        }
    }
    if (ops == 0)
        ctx.info(std::nullopt, "no communication ops in this file");
    ctx.finish();
    return true;
}

// --- comparison ---

struct Imported {
    bool ok = false;
    std::string rows; // every column of every row of the tables the importer writes, in id order
    std::vector<std::optional<int64_t>> startNs; // comm_op.start_ns in id order
};

std::string dumpRows(model::Database& db, const std::string& sql)
{
    auto st = db.prepare(sql);
    std::string out;
    while (st.step()) {
        for (int c = 0; c < st.columnCount(); ++c)
            out += (st.isNull(c) ? std::string("NULL") : st.text(c)) + "|";
        out += "\n";
    }
    return out;
}

Imported importWith(bool (*run)(ImportContext&), const std::string& path, int64_t rank)
{
    auto db = model::Database::createModel();
    model::ModelWriter writer(*db);
    writer.begin();
    Imported out;
    {
        ImportContext ctx(writer, rank, path);
        out.ok = run(ctx);
        ctx.finish();
    }
    writer.commit();
    auto start = db->prepare("SELECT start_ns FROM comm_op ORDER BY id");
    while (start.step())
        out.startNs.push_back(start.optInt(0));
    for (const char* sql :
        { "SELECT id, rank_id, step, kind, op_key, op_name, op_type, group_hash, is_total, elapse_ns, "
          "transit_ns, wait_ns, sync_ns, idle_ns, wait_ratio, sync_ratio, zero_transports FROM comm_op ORDER BY id",
            "SELECT * FROM comm_bandwidth ORDER BY id", "SELECT *, rowid FROM comm_packet ORDER BY rowid",
            "SELECT id, severity, rank_id, file, line, message FROM parse_issue ORDER BY id" })
        out.rows += std::string(sql) + "\n" + dumpRows(*db, sql);
    return out;
}

void expectSame(const std::string& path, int64_t rank = 3)
{
    const auto sax = importWith(&CommunicationImporter::run, path, rank);
    const auto dom = importWith(&referenceImport, path, rank);
    EXPECT_EQ(sax.ok, dom.ok) << path;
    EXPECT_EQ(sax.rows, dom.rows) << path;
    // Start timestamps: the streaming importer reads the digits as written, the DOM one re-printed
    // the double (Grisu2, not always the closest digits: 1695115378818416.8 came back as .7). They
    // may differ below the double's resolution at epoch µs (0.25 µs), never more.
    ASSERT_EQ(sax.startNs.size(), dom.startNs.size()) << path;
    for (size_t i = 0; i < sax.startNs.size(); ++i) {
        ASSERT_EQ(sax.startNs[i].has_value(), dom.startNs[i].has_value()) << path << " op " << i;
        if (sax.startNs[i]) {
            EXPECT_LT(std::abs(*sax.startNs[i] - *dom.startNs[i]), 250) << path << " op " << i;
        }
    }
}

std::string writeFile(const fs::path& dir, const std::string& name, const std::string& text)
{
    const fs::path p = dir / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
}

} // namespace

TEST(CommunicationSax, RealSamplesGiveTheDomRows)
{
    int files = 0;
    for (const char* sample : { "torch_npu_2rank_level1", "torch_npu_2rank_level2", "torch_npu_2023_2rank" }) {
        for (const auto& e : fs::recursive_directory_iterator(test::dataDir() / sample)) {
            if (e.path().filename() != "communication.json")
                continue;
            expectSame(e.path().string());
            ++files;
        }
    }
    EXPECT_EQ(files, 6);
}

TEST(CommunicationSax, GeneratedClusterGivesTheDomRows)
{
    test::ScratchDir dir;
    testgen::GeneratorOptions g;
    g.outDir = (dir.path() / "c").string();
    g.ranks = 16;
    g.steps = 3;
    g.traceMb = 0;
    g.tp = 4;
    g.pp = 2;
    g.seed = 7;
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(g, error)) << error;
    int files = 0;
    for (const auto& e : fs::recursive_directory_iterator(g.outDir)) {
        if (e.path().filename() == "communication.json") {
            expectSame(e.path().string());
            ++files;
        }
    }
    EXPECT_EQ(files, 16);
}

TEST(CommunicationSax, OddInputsGiveTheDomRowsAndIssues)
{
    test::ScratchDir dir;
    const std::string op = R"J({"Communication Time Info": {"Start Timestamp(us)": 1736408883732241.5,
        "Elapse Time(ms)": 1.25, "Transit Time(ms)": "0.5", "Wait Time(ms)": 0, "Synchronization Time(ms)": null,
        "Idel Time(ms)": 0.125, "Wait Time Ratio": 0.1, "Synchronization Time Ratio": true},
        "Communication Bandwidth Info": {"RDMA": {"Transit Size(MB)": 2, "Transit Time(ms)": 0.25,
        "Bandwidth(GB/s)": 8.0, "Large Packet Ratio": 0.0, "Size Distribution": {"0.5": [3, 0.25], "x": [1, 1],
        "1.0": [2], "2.0": {"a": 1}, "4.0": ["1", 2], "8.0": [2.7, 3, 4]}}, "HCCS": 5, "SDMA": {"Size Distribution": 3},
        "PCIE": {"Transit Size(MB)": [1], "Transit Size(MB)": 4}}})J";
    const std::vector<std::pair<std::string, std::string>> cases {
        { "syntax.json", R"J({"step1": {"p2p": {"op@1": {"Communication Time Info": {)J" },
        { "array.json", R"J([{"step1": {}}])J" },
        { "scalar.json", "42" },
        { "empty.json", "  \n" },
        { "noops.json", R"J({"step1": {"p2p": {}, "collective": {}}})J" },
        { "odd.json",
            R"J({"step2": 5, "step1": {"p2p": [1, {"a": 2}], "collective": {"hcom_allReduce__1_0_1@99": )J" + op
                + R"J(, "hcom_broadcast__2_0_1@98": 7, "hcom_send__3_0_1": {"Communication Time Info": 1},
                "Total Op Info": {"Communication Time Info": {"Elapse Time(ms)": 2}, "Communication Bandwidth Info": [] }}},
                "stepX": {"collective": {"hcom_allGather__4_0_1@7": {"Communication Time Info": {"Start Timestamp(us)": 1695115378711707,
                "Elapse Time(ms)": 1}}}}})J" },
        // Objects down to the ops: the one-pass reader takes it, with the odd values inside the op.
        { "oddop.json", R"J({"step1": {"collective": {"hcom_allReduce__1_0_1@99": )J" + op + R"J(}}})J" },
        { "duplicates.json", R"J({"step1": {"collective": {"a@1": {"Communication Time Info": {"Elapse Time(ms)": 1},
                "Communication Time Info": {"Wait Time(ms)": 2}}, "a@1": {"Communication Time Info": {"Elapse Time(ms)": 3}}},
                "collective": {"b@2": {"Communication Time Info": {"Start Timestamp(us)": "1736408883732241.5"}}}},
                "step1": {"p2p": {"c@3": {"Communication Bandwidth Info": {"RDMA": {"Transit Size(MB)": 1}},
                "Communication Bandwidth Info": {"HCCS": {"Transit Size(MB)": 2}}, "Communication Time Info": {}}}}})J" },
    };
    for (const auto& [name, text] : cases)
        expectSame(writeFile(dir.path(), name, text));
    expectSame((dir.path() / "missing.json").string());
}

TEST(CommunicationSax, StartTimestampKeepsTheDigitsAsWritten)
{
    // More digits than a double holds: the text decides, not the double's shortest form.
    test::ScratchDir dir;
    const auto path = writeFile(dir.path(), "c.json",
        R"J({"step1": {"collective": {"a@1": {"Communication Time Info": {"Start Timestamp(us)": 1736408883732241.123}}}}})J");
    auto db = model::Database::createModel();
    model::ModelWriter writer(*db);
    writer.begin();
    ImportContext ctx(writer, 0, path);
    ASSERT_TRUE(CommunicationImporter::run(ctx));
    writer.commit();
    EXPECT_EQ(db->scalarInt("SELECT start_ns FROM comm_op"), 1736408883732241123);
}
