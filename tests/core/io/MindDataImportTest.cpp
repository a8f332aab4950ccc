// SPDX-License-Identifier: Apache-2.0
// The MindSpore data pipeline files (minddata_pipeline_raw, pipeline_profiling, minddata_cpu_utilization,
// device_queue_profiling) of the real MindInsight fixtures in tests/data/mindspore_pipeline: the model's rows against
// the files read here independently (a quote-aware CSV split, nlohmann for the JSON, a whitespace split for the queue
// file); and bad input, which becomes parse issues naming the file and line while the rest still loads.
#include "TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace npuscope;
using namespace npuscope::test;

namespace {

const fs::path kSample = dataDir() / "mindspore_pipeline";

// One CSV record split at commas outside double quotes (the output_queue_size lists are quoted), CR dropped.
std::vector<std::string> splitCsv(const std::string& line)
{
    std::vector<std::string> out(1);
    bool quoted = false;
    for (const char c : line) {
        if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted)
            out.emplace_back();
        else if (c != '\r')
            out.back() += c;
    }
    return out;
}

// The CSV's records as column name -> cell.
std::vector<std::map<std::string, std::string>> readCsv(const fs::path& file)
{
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    const auto header = splitCsv(line);
    std::vector<std::map<std::string, std::string>> out;
    while (std::getline(in, line)) {
        const auto cells = splitCsv(line);
        std::map<std::string, std::string> record;
        for (size_t i = 0; i < header.size() && i < cells.size(); ++i)
            record[header[i]] = cells[i];
        out.push_back(std::move(record));
    }
    return out;
}

nlohmann::json readJson(const fs::path& file)
{
    std::ifstream in(file);
    return nlohmann::json::parse(in);
}

double mean(const nlohmann::json& series)
{
    double sum = 0;
    for (const auto& v : series)
        sum += v.get<double>();
    return sum / static_cast<double>(series.size());
}

std::string cellOrNull(const std::string& cell) { return cell.empty() ? "NULL" : cell; }

} // namespace

TEST(MindDataImport, PipelineRawRowsAreTheCsvRecords)
{
    auto db = openFolder(kSample);
    ASSERT_TRUE(db);
    for (const auto& [dir, rank] : { std::pair { "run2", 1 }, std::pair { "profiler", 0 } }) {
        SCOPED_TRACE(dir);
        const auto records = readCsv(kSample / dir / ("minddata_pipeline_raw_" + std::to_string(rank) + ".csv"));
        ASSERT_EQ(records.size(), 4u);
        for (const auto& rec : records) {
            SCOPED_TRACE(rec.at("op_id"));
            const std::string where = " FROM pipeline_op WHERE source = 'minddata_pipeline_raw' AND rank_id = "
                + std::to_string(rank) + " AND op_id = " + rec.at("op_id");
            const auto row = rows(*db, "SELECT op_type, num_workers, parent_id, queue_capacity, queue_samples" + where);
            ASSERT_EQ(row.size(), 1u);
            const auto sizes = rec.at("output_queue_size");
            const std::string samples = sizes.empty() ? "NULL" : std::to_string(nlohmann::json::parse(sizes).size());
            EXPECT_EQ(row[0],
                rec.at("op_type") + "|" + rec.at("num_workers") + "|" + cellOrNull(rec.at("parent_id")) + "|"
                    + cellOrNull(rec.at("output_queue_length")) + "|" + samples);
            const auto usage = rec.at("output_queue_usage_rate");
            if (usage.empty())
                EXPECT_EQ(count(*db, "SELECT queue_usage_rate IS NULL" + where), 1);
            else
                EXPECT_DOUBLE_EQ(real(*db, "SELECT queue_usage_rate" + where), std::stod(usage));
        }
    }
}

TEST(MindDataImport, PipelineProfilingKeepsEveryOperatorAndInvertsChildren)
{
    auto db = openFolder(kSample);
    ASSERT_TRUE(db);
    const auto doc = readJson(kSample / "run2" / "pipeline_profiling_1.json");
    std::map<int64_t, int64_t> parentOf;
    for (const auto& op : doc["op_info"]) {
        if (op.contains("children") && op["children"].is_array())
            for (const auto& c : op["children"])
                parentOf[c.get<int64_t>()] = op["op_id"].get<int64_t>();
    }
    ASSERT_EQ(count(*db, "SELECT COUNT(*) FROM pipeline_op WHERE rank_id = 1 AND source = 'pipeline_profiling'"),
        static_cast<int64_t>(doc["op_info"].size()));
    for (const auto& op : doc["op_info"]) {
        const auto id = op["op_id"].get<int64_t>();
        SCOPED_TRACE(id);
        const std::string where
            = " FROM pipeline_op WHERE rank_id = 1 AND source = 'pipeline_profiling' AND op_id = " + std::to_string(id);
        EXPECT_EQ(text(*db, "SELECT op_type" + where), op["op_type"].get<std::string>());
        EXPECT_EQ(count(*db, "SELECT num_workers" + where), op["num_workers"].get<int64_t>());
        EXPECT_EQ(count(*db, "SELECT COALESCE(parent_id, -1)" + where), parentOf.count(id) ? parentOf[id] : -1);
        if (op["metrics"].is_null()) {
            EXPECT_EQ(count(*db, "SELECT queue_samples IS NULL AND queue_capacity IS NULL" + where), 1);
            continue;
        }
        const auto& queue = op["metrics"]["output_queue"];
        EXPECT_EQ(count(*db, "SELECT queue_capacity" + where), queue["length"].get<int64_t>());
        EXPECT_DOUBLE_EQ(real(*db, "SELECT queue_avg_size" + where), mean(queue["size"]));
    }
    // The old folder's pipeline_profiling_1.json has no step trace of device 1 beside it: not a rank of its own.
    EXPECT_EQ(count(*db, "SELECT COUNT(DISTINCT rank_id) FROM pipeline_op"), 2);
}

TEST(MindDataImport, CpuUtilizationSeriesAreSummarised)
{
    auto db = openFolder(kSample);
    ASSERT_TRUE(db);
    const auto doc = readJson(kSample / "run2" / "minddata_cpu_utilization_1.json");
    for (const auto& [scope, key] :
        { std::pair { "device", "device_info" }, std::pair { "process", "process_info" } }) {
        for (auto it = doc[key].begin(); it != doc[key].end(); ++it) {
            SCOPED_TRACE(it.key());
            const std::string where = std::string(" FROM pipeline_cpu WHERE rank_id = 1 AND scope = '") + scope
                + "' AND metric = '" + it.key() + "'";
            EXPECT_DOUBLE_EQ(real(*db, "SELECT avg_value" + where), mean(it.value()));
            EXPECT_EQ(count(*db, "SELECT samples" + where), static_cast<int64_t>(it.value().size()));
        }
    }
    const auto& op = doc["op_info"][0];
    EXPECT_DOUBLE_EQ(real(*db,
                         "SELECT avg_value FROM pipeline_cpu WHERE rank_id = 1 AND scope = 'op' AND op_id = "
                             + std::to_string(op["op_id"].get<int64_t>()) + " AND metric = 'user_utilization'"),
        mean(op["metrics"]["user_utilization"]));
    EXPECT_EQ(text(*db, "SELECT value FROM rank_info WHERE rank_id = 1 AND key = 'minddata_cpu.cpu_processor_num'"),
        doc["cpu_processor_num"].dump());
}

TEST(MindDataImport, DeviceQueueSamplesAreTheQueueLines)
{
    auto db = openFolder(kSample);
    ASSERT_TRUE(db);
    std::ifstream in(kSample / "run2" / "device_queue_profiling_1.txt");
    std::vector<std::string> expected;
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string type, capacity, step, size, time;
        if (words >> type >> capacity >> step >> size >> time && type == "1")
            expected.push_back(step + "|" + size + "|" + capacity + "|" + time);
    }
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(
        rows(*db, "SELECT step, size, capacity, sample_time FROM pipeline_queue WHERE rank_id = 1 ORDER BY rowid"),
        expected);
}

TEST(MindDataImport, BadInputIsReportedWithFileAndLineAndTheRestLoads)
{
    ScratchDir dir;
    fs::copy_file(
        kSample / "run2" / "step_trace_raw_1_detail_time.csv", dir.path() / "step_trace_raw_1_detail_time.csv");
    // Line 2: a queue size list that is not one; line 3: a non-numeric worker count; line 4 ends inside quotes.
    writeFile(dir.path() / "minddata_pipeline_raw_1.csv",
        "op_id,op_type,num_workers,output_queue_size,output_queue_average_size,output_queue_length,"
        "output_queue_usage_rate,sample_interval,parent_id,children_id\n"
        "0,BatchOp,4,\"[1, x]\",1.0,64,0.5,10,,[1]\n"
        "1,MapOp,many,\"[0, 0]\",0.0,128,0.0,10,0,\n"
        "2,MapOp,8,\"[0, 0\n");
    writeFile(dir.path() / "pipeline_profiling_1.json", "{\"op_info\": [{\"op_id\": 0,\n\"op_type\": \"BatchOp\"");
    writeFile(dir.path() / "minddata_cpu_utilization_1.json",
        R"({"device_info": {"user_utilization": [1, "a"]}, "process_info": {"user_utilization": [2, 4]}, "op_info": 3})");
    writeFile(dir.path() / "device_queue_profiling_1.txt", "1 64 1 0 10\n1 64 x 2 20\n1 64\n7 1 1 1 1\n1 64 3 5 30\n");
    auto db = openFolder(dir.path());
    ASSERT_TRUE(db);
    const auto issue = [&](const std::string& file, int line, const std::string& words) {
        return count(*db,
            "SELECT COUNT(*) FROM parse_issue WHERE file LIKE '%" + file + "' AND "
                + (line > 0 ? "line = " + std::to_string(line) : std::string("1")) + " AND message LIKE '%" + words
                + "%'");
    };
    EXPECT_EQ(issue("minddata_pipeline_raw_1.csv", 2, "output_queue_size"), 1);
    EXPECT_EQ(issue("minddata_pipeline_raw_1.csv", 3, "num_workers"), 1);
    EXPECT_GE(issue("minddata_pipeline_raw_1.csv", 0, "quote"), 1);
    EXPECT_EQ(issue("pipeline_profiling_1.json", 2, "invalid JSON"), 1);
    EXPECT_EQ(issue("minddata_cpu_utilization_1.json", 0, "user_utilization is not a list of numbers"), 1);
    EXPECT_EQ(issue("minddata_cpu_utilization_1.json", 0, "op_info is not an array"), 1);
    EXPECT_EQ(issue("device_queue_profiling_1.txt", 2, "not an integer"), 1);
    EXPECT_EQ(issue("device_queue_profiling_1.txt", 3, "2 fields"), 1);
    EXPECT_EQ(issue("device_queue_profiling_1.txt", 4, "record type"), 1);
    // What could be read is there: both good CSV rows (the bad cells NULL), the good series and queue lines, the steps.
    EXPECT_EQ(rows(*db,
                  "SELECT op_id, COALESCE(num_workers, 'NULL'), COALESCE(queue_samples, 'NULL') FROM pipeline_op "
                  "ORDER BY op_id"),
        (std::vector<std::string> { "0|4|NULL", "1|NULL|2" }));
    EXPECT_DOUBLE_EQ(real(*db, "SELECT avg_value FROM pipeline_cpu WHERE scope = 'process'"), 3.0);
    EXPECT_EQ(
        rows(*db, "SELECT step, size FROM pipeline_queue ORDER BY rowid"), (std::vector<std::string> { "1|0", "3|5" }));
    EXPECT_GT(count(*db, "SELECT COUNT(*) FROM step_trace WHERE rank_id = 1"), 0);
}
