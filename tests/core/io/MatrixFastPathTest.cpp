// SPDX-License-Identifier: Apache-2.0
// communication_matrix.json: the one-pass simdjson reader gives the rows of the SAX reader it sits in front of. A
// UTF-8 BOM sends a file to the SAX reader (simdjson leaves the BOM to the caller), so each file is imported as it is
// and with a BOM in front, and the two models compared row for row.
#include "TestSupport.h"

#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/io/torch_npu/CommunicationImporter.h"
#include "npuscope/model/ModelWriter.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace npuscope;
namespace fs = std::filesystem;

namespace {

std::string links(const std::string& path, bool lean)
{
    auto db = model::Database::createModel();
    model::ModelWriter writer(*db);
    writer.begin();
    bool ok = false;
    {
        io::ImportContext ctx(writer, 5, path);
        ok = lean ? io::CommunicationMatrixImporter::runLean(ctx) : io::CommunicationMatrixImporter::run(ctx);
        ctx.finish();
    }
    writer.commit();
    return (ok ? "ok\n" : "failed\n")
        + test::dump(*db, "SELECT * FROM comm_link ORDER BY link_op, link_seq")
        // The file name differs between the two copies, and a syntax error's byte and column by the BOM's 3 bytes.
        + test::dump(*db,
            "SELECT severity, rank_id, CASE WHEN message LIKE 'invalid JSON%' THEN 'invalid JSON' "
            "ELSE message END FROM parse_issue ORDER BY id");
}

// The file's rows both ways, in full and lean mode.
void expectSameRows(const fs::path& file, const fs::path& scratch)
{
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const fs::path bom = scratch / "bom.json";
    std::ofstream(bom, std::ios::binary) << "\xef\xbb\xbf" << text.str();
    for (const bool lean : { false, true })
        EXPECT_EQ(links(file.string(), lean), links(bom.string(), lean)) << file << (lean ? " lean" : "");
}

} // namespace

TEST(MatrixFastPath, RealAndGeneratedMatricesGiveTheSaxRows)
{
    test::ScratchDir dir;
    int files = 0;
    for (const char* sample : { "torch_npu_2rank_level1", "torch_npu_2rank_level2", "torch_npu_2023_2rank" }) {
        for (const auto& e : fs::recursive_directory_iterator(test::dataDir() / sample)) {
            if (e.path().filename() == "communication_matrix.json") {
                expectSameRows(e.path(), dir.path());
                ++files;
            }
        }
    }
    EXPECT_EQ(files, 6);

    testgen::GeneratorOptions g;
    g.outDir = (dir.path() / "c").string();
    g.ranks = 16;
    g.steps = 2;
    g.traceMb = 0;
    g.tp = 8;
    g.allToAllGroups = true;
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(g, error)) << error;
    for (const auto& e : fs::recursive_directory_iterator(g.outDir)) {
        if (e.path().filename() == "communication_matrix.json" && files++ < 10)
            expectSameRows(e.path(), dir.path());
    }
}

TEST(MatrixFastPath, OddValuesGiveTheSaxRows)
{
    test::ScratchDir dir;
    // Numbers as strings, integers, exponents, null and boolean fields, unknown fields, escaped keys, empty objects,
    // real-op keys, "Total Op Info", a key without a hash; then shapes the fast path leaves to the SAX reader.
    const char* inputs[] = {
        R"J({"step1": {"collective": {"allreduce-top1@123": {"0-1": {"Transport Type": "HCCS",
            "Transit Size(MB)": "1.5", "Transit Time(ms)": 2, "Bandwidth(GB/s)": 1e-3,
            "Op Name": "hcom_allReduce__1_0_1", "x": null, "y": true},
            "1_0": {"Transit Size(MB)": null, "Bandwidth(GB/s)": -0.0, "op_name": "a\u00e9"}},
            "allreduce-total@123": {}, "Total Op Info": {"0-0": {"Transport Type": "LOCAL"}}},
            "p2p": {"hcom_send__1_0@9": {"3-4": {"Transit Time(ms)": 12345678901234567890}}}},
            "\u0073tep2": {}, "odd": {"p2p": {"noslot": {"0-0": {"Bandwidth(GB/s)": "N/A"}}}}})J",
        R"J({"step1": {"collective": {"allreduce-top1@1": {"0-x": {"Bandwidth(GB/s)": 1}}}}})J",
        R"J({"step1": {"collective": {"allreduce-top1@1": {"0-1": {"Bandwidth(GB/s)": [1]}}}}})J",
        R"J({"step1": {"collective": {"allreduce-top1@1": {"0-1": {"Bandwidth(GB/s)": 1e400}}}}})J",
        R"J({"step1": {"collective": {"allreduce-top1@1": {"0-1": {"Bandwidth(GB/s)": 1}}}}, "step2": [1]})J",
        R"J({"step1": {"collective": {"allreduce-top1@1": {"0-1": {"Bandwidth(GB/s)": 1}}}}} trailing)J",
        R"J({"step1": {"collective": {"allreduce-top1@1": {"0-1": {"Bandwidth(GB/s)": 1})J",
        R"J([1, 2])J",
    };
    int n = 0;
    for (const char* text : inputs) {
        const fs::path file = dir.path() / ("m" + std::to_string(n++) + ".json");
        std::ofstream(file, std::ios::binary) << text;
        expectSameRows(file, dir.path());
    }
}
