// SPDX-License-Identifier: Apache-2.0
// io::readJsonFile (simdjson DOM converted to nlohmann for small files) must give the value nlohmann::json::parse
// gives for the same text, number kinds included, and nlohmann's diagnostics for what either refuses.
#include "TestSupport.h"

#include "npuscope/io/parse/ImportContext.h"
#include "npuscope/io/parse/JsonFile.h"
#include "npuscope/model/ModelWriter.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace npuscope;
namespace fs = std::filesystem;

namespace {

// The kind of every value, recursively, so an unsigned 5 and a signed 5 differ (== treats them as equal).
std::string kinds(const nlohmann::json& v)
{
    std::string out = v.type_name();
    if (v.is_number_unsigned())
        out = "unsigned";
    else if (v.is_number_integer())
        out = "integer";
    if (v.is_structured()) {
        out += "[";
        for (const auto& item : v)
            out += kinds(item) + ",";
        out += "]";
    }
    return out;
}

struct Read {
    bool ok = false;
    nlohmann::json value;
    std::string issues;
};

Read readText(const std::string& text)
{
    const fs::path path = fs::temp_directory_path() / ("npuscope-jsonfile-" + std::to_string(::getpid()) + ".json");
    {
        std::ofstream out(path, std::ios::binary);
        out << text;
    }
    auto db = model::Database::createModel();
    model::ModelWriter writer(*db);
    writer.begin();
    Read r;
    {
        io::ImportContext ctx(writer, 0, path.string());
        r.ok = io::readJsonFile(ctx, r.value);
        ctx.finish();
    }
    writer.commit();
    auto st = db->prepare("SELECT severity, COALESCE(line, -1), message FROM parse_issue ORDER BY id");
    while (st.step())
        r.issues += st.text(0) + " " + std::to_string(st.int64(1)) + " " + st.text(2) + "\n";
    fs::remove(path);
    return r;
}

// What the nlohmann-only reader did: the value, or the error message with its byte and line.
void expectAsNlohmann(const std::string& text)
{
    SCOPED_TRACE(text.substr(0, 200));
    nlohmann::json expected;
    bool parsed = true;
    try {
        expected = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error&) {
        parsed = false;
    } catch (const nlohmann::json::out_of_range&) {
        // A number beyond a double: nlohmann throws out_of_range, which the loader reports as "import failed: ...".
        EXPECT_THROW(readText(text), nlohmann::json::out_of_range);
        return;
    }
    const Read r = readText(text);
    if (!parsed) {
        EXPECT_FALSE(r.ok);
        EXPECT_NE(r.issues.find("invalid JSON at byte"), std::string::npos) << r.issues;
        return;
    }
    EXPECT_EQ(r.ok, expected.is_object()) << r.issues;
    if (!expected.is_object()) {
        EXPECT_NE(r.issues.find("expected a JSON object at the top level"), std::string::npos) << r.issues;
        return;
    }
    EXPECT_EQ(r.value, expected);
    EXPECT_EQ(kinds(r.value), kinds(expected));
    EXPECT_EQ(r.value.dump(), expected.dump());
}

} // namespace

TEST(JsonFile, OddValuesAsNlohmann)
{
    for (const std::string text : {
             R"({"a": 1, "b": -1, "c": 0, "d": -0, "e": 1.5, "f": -2.5e-3, "g": 1E2, "h": 18446744073709551615})",
             R"({"d": [-0, 1], "date": "2025-01-09 -0 x", "z": -0.0, "e": -0e1})",
             R"({"big": 18446744073709551616, "bigger": 123456789012345678901234567890, "neg": -9223372036854775808})",
             R"({"tiny": 4.9e-324, "pi": 3.14159265358979323846264338327950288, "epoch": 1736429386002043.8})",
             R"({"dup": 1, "dup": "second", "nested": {"dup": [1], "dup": [2, 3]}})",
             R"({"s": "caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t", "zh": "通信", "empty": "", "nul": "a\u0000b"})",
             R"({"t": true, "f": false, "n": null, "arr": [[], {}, [null, [true]]], "obj": {}})",
             "\xef\xbb\xbf{\"bom\": 1}",
             "  \n\t{\"ws\": [ 1 , 2 ]}  \n",
             R"([1, 2, 3])",
             R"("text")",
             R"(null)",
             R"({"a": 1,})",
             R"({"a": 01})",
             R"({"a": 1e400})",
             R"({"a": NaN})",
             "{\"a\": \"\x01\"}",
             "{\"a\": \"\xff\xfe\"}",
             R"({"a": 1} trailing)",
             R"({"a": [1, 2})",
             "{\"a\":\n  {\"b\": tru}}",
         })
        expectAsNlohmann(text);
}

TEST(JsonFile, EverySmallJsonOfTheSamplesAsNlohmann)
{
    int files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(test::dataDir())) {
        if (!entry.is_regular_file() || entry.path().extension() != ".json" || entry.file_size() > (4u << 20))
            continue;
        std::ifstream in(entry.path(), std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (text.find_first_not_of(" \t\r\n") == std::string::npos)
            continue; // an empty file: readTextFile's own message
        SCOPED_TRACE(entry.path().string());
        expectAsNlohmann(text);
        ++files;
    }
    EXPECT_GT(files, 50);
}
