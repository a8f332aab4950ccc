// SPDX-License-Identifier: Apache-2.0
// io::saxParse must send exactly the events (and return what) nlohmann::json::sax_parse does.
#include "TestSupport.h"

#include "npuscope/testgen/ClusterGenerator.h"
#include "npuscope/io/parse/FastJsonSax.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace npuscope;
namespace fs = std::filesystem;

namespace {

using Json = nlohmann::json;

// Records every event as text; stops (returns false) after stopAfter events when set.
class Recorder : public nlohmann::json_sax<Json> {
public:
    explicit Recorder(int stopAfter = -1)
        : m_stopAfter(stopAfter)
    {
    }
    std::string log;

    bool null() override { return add("null"); }
    bool boolean(bool v) override { return add(v ? "true" : "false"); }
    bool number_integer(number_integer_t v) override { return add("int " + std::to_string(v)); }
    bool number_unsigned(number_unsigned_t v) override { return add("uint " + std::to_string(v)); }
    bool number_float(number_float_t v, const string_t& s) override
    {
        std::ostringstream out;
        out.precision(17);
        out << "float " << v << " '" << s << "'";
        return add(out.str());
    }
    bool string(string_t& v) override { return add("string '" + v + "'"); }
    bool binary(binary_t&) override { return add("binary"); }
    bool start_object(std::size_t n) override { return add("{ " + std::to_string(n)); }
    bool key(string_t& k) override { return add("key '" + k + "'"); }
    bool end_object() override { return add("}"); }
    bool start_array(std::size_t n) override { return add("[ " + std::to_string(n)); }
    bool end_array() override { return add("]"); }
    bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception& e) override
    {
        log += "error " + std::to_string(position) + " '" + token + "' " + e.what() + "\n";
        return false;
    }

private:
    bool add(const std::string& event)
    {
        log += event + "\n";
        return m_stopAfter < 0 || ++m_events < m_stopAfter;
    }
    int m_stopAfter = -1;
    int m_events = 0;
};

void expectSameEvents(const std::string& text, int stopAfter = -1)
{
    Recorder fast(stopAfter);
    Recorder reference(stopAfter);
    const bool fastOk = io::saxParse(text, &fast);
    const bool referenceOk = Json::sax_parse(text, &reference);
    EXPECT_EQ(fastOk, referenceOk) << text.substr(0, 200);
    EXPECT_EQ(fast.log, reference.log) << text.substr(0, 200);
}

std::string readFile(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST(FastJsonSax, SmallInputsGiveNlohmannsEvents)
{
    const char* cases[] = {
        "{}",
        "[]",
        " \t\r\n{ } \n",
        "0",
        "-0",
        "12",
        "-12",
        "123456789012345678",
        "-123456789012345678",
        "1234567890123456789",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775809",
        "1.5",
        "-0.0",
        "1e5",
        "1E+5",
        "2.5e-3",
        "1736408883732241.5",
        "1e400",
        "1e-400",
        "01",
        "1.",
        ".5",
        "-",
        "+1",
        "1.5x",
        "true",
        "false",
        "null",
        "nul",
        "tru",
        R"("plain")",
        R"("esc\"aped\n")",
        R"("\u00e9\ud83d\ude00")",
        "\"caf\xc3\xa9\"",
        "\"bad \xff\"",
        "\"tab\tinside\"",
        "\xef\xbb\xbf{\"bom\": 1}",
        R"({"a": 1, "b": [1, 2.5, "x", true, null, {}, []], "c": {"d": {"e": -3}}})",
        R"({"a": 1,})",
        R"({"a" 1})",
        R"({"a": 1 "b": 2})",
        R"([1, 2,])",
        R"([1 2])",
        R"({"a": 1}})",
        R"({"a": 1} x)",
        R"({"a": [1, {"b": 2]})",
        R"({1: 2})",
        R"({"a": 1, "a": 2})",
        "",
        "   ",
        "{",
        "[",
        R"({"step1": {"p2p": {"op@1": {"Communication Time Info": {)",
    };
    for (const char* text : cases)
        expectSameEvents(text);
}

TEST(FastJsonSax, HandlerStopEndsTheParseAsNlohmannDoes)
{
    const std::string text = R"({"a": [1, 2, {"b": "c"}], "d": 4.5, "e": {}})";
    for (int stop = 1; stop <= 14; ++stop)
        expectSameEvents(text, stop);
}

TEST(FastJsonSax, DeepNestingNeedsNoRecursion)
{
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    expectSameEvents(deep);
    expectSameEvents(std::string(100000, '[') + std::string(99999, ']'));
}

TEST(FastJsonSax, ProfilerFilesGiveNlohmannsEvents)
{
    int files = 0;
    for (const char* sample : { "torch_npu_2rank_level1", "torch_npu_2rank_level2", "torch_npu_2023_2rank" }) {
        for (const auto& e : fs::recursive_directory_iterator(test::dataDir() / sample)) {
            const auto name = e.path().filename().string();
            if (name == "communication.json" || name == "communication_matrix.json"
                || name == "profiler_metadata.json") {
                expectSameEvents(readFile(e.path()));
                ++files;
            }
        }
    }
    EXPECT_GE(files, 12);
    test::ScratchDir dir;
    testgen::GeneratorOptions g;
    g.outDir = (dir.path() / "c").string();
    g.ranks = 8;
    g.traceMb = 0;
    g.tp = 4;
    g.seed = 3;
    std::string error;
    ASSERT_TRUE(testgen::ClusterGenerator::generate(g, error)) << error;
    for (const auto& e : fs::recursive_directory_iterator(g.outDir)) {
        if (e.path().extension() == ".json" && e.path().filename() != "trace_view.json")
            expectSameEvents(readFile(e.path()));
    }
}
