// SPDX-License-Identifier: Apache-2.0
#include "npuscope/core/CsvReader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

using npuscope::CsvHeader;
using npuscope::CsvReader;

namespace {

using Row = std::vector<std::string>;

class CsvReaderTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        m_root = std::filesystem::path(::testing::TempDir()) / ("npuscope_csvreader_" + std::to_string(::getpid()));
        m_dir = m_root / info->name();
        std::filesystem::remove_all(m_dir);
        std::filesystem::create_directories(m_dir);
    }
    void TearDown() override
    {
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
        std::filesystem::remove(m_root, ec); // only when empty
    }

    std::string write(const std::string& content, const std::string& name = "test.csv")
    {
        const auto path = m_dir / name;
        std::ofstream out(path, std::ios::binary);
        out << content;
        return path.string();
    }

    // Reads every record of content, with the line each starts on.
    std::vector<Row> readAll(const std::string& content, std::vector<int64_t>* lines = nullptr)
    {
        CsvReader reader;
        std::string error;
        EXPECT_TRUE(reader.open(write(content), error)) << error;
        std::vector<Row> rows;
        Row row;
        while (reader.next(row)) {
            rows.push_back(row);
            if (lines)
                lines->push_back(reader.recordLine());
        }
        m_truncated = reader.endedInsideQuotes();
        m_binary = reader.looksBinary();
        return rows;
    }

    std::filesystem::path m_root; // per process, so runs as different users or in parallel do not collide
    std::filesystem::path m_dir;
    bool m_truncated = false;
    bool m_binary = false;
};

} // namespace

TEST_F(CsvReaderTest, PlainRecords)
{
    const auto rows = readAll("a,b,c\n1,2,3\n");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0], (Row { "a", "b", "c" }));
    EXPECT_EQ(rows[1], (Row { "1", "2", "3" }));
    EXPECT_FALSE(m_truncated);
    EXPECT_FALSE(m_binary);
}

TEST_F(CsvReaderTest, EmptyFieldsAreKept)
{
    const auto rows = readAll("a,,c,\n,,,\n");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0], (Row { "a", "", "c", "" }));
    EXPECT_EQ(rows[1], (Row { "", "", "", "" }));
}

TEST_F(CsvReaderTest, QuotedFieldsWithEscapedQuotes)
{
    const auto rows = readAll("name,shape\nConv,\"\"\"32,3,224,224\"\"\"\nx,\"say \"\"hi\"\", ok\"\n");
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[1], (Row { "Conv", "\"32,3,224,224\"" }));
    EXPECT_EQ(rows[2], (Row { "x", "say \"hi\", ok" }));
}

TEST_F(CsvReaderTest, EmbeddedNewlinesKeepLineNumbers)
{
    std::vector<int64_t> lines;
    const auto rows = readAll("Name,Call Stack\nop1,\"a.py:1;\nb.py:2;\nc.py:3\"\nop2,x\n", &lines);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[1], (Row { "op1", "a.py:1;\nb.py:2;\nc.py:3" }));
    EXPECT_EQ(rows[2], (Row { "op2", "x" }));
    EXPECT_EQ(lines, (std::vector<int64_t> { 1, 2, 5 }));
}

TEST_F(CsvReaderTest, CrlfLineEnds)
{
    std::vector<int64_t> lines;
    const auto rows = readAll("a,b\r\n1,\"x\"\r\n2,\r\n\"q\r\nr\",3\r\n", &lines);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[0], (Row { "a", "b" }));
    EXPECT_EQ(rows[1], (Row { "1", "x" }));
    EXPECT_EQ(rows[2], (Row { "2", "" }));
    EXPECT_EQ(rows[3][1], "3");
    EXPECT_EQ(lines, (std::vector<int64_t> { 1, 2, 3, 4 }));
}

TEST_F(CsvReaderTest, MissingFinalNewline)
{
    auto rows = readAll("a,b\n1,2");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1], (Row { "1", "2" }));
    rows = readAll("a,b\r\n1,\"2\"");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1], (Row { "1", "2" }));
    EXPECT_FALSE(m_truncated);
}

TEST_F(CsvReaderTest, Utf8BomIsSkipped)
{
    const auto rows = readAll("\xEF\xBB\xBFStep,Computing\n1,2\n");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0][0], "Step");
    CsvHeader header(rows[0]);
    EXPECT_EQ(header.find({ "Step" }), 0);
}

TEST_F(CsvReaderTest, BlankLinesAreSkipped)
{
    std::vector<int64_t> lines;
    const auto rows = readAll("\na,b\n\n\r\n1,2\n\n", &lines);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1], (Row { "1", "2" }));
    EXPECT_EQ(lines, (std::vector<int64_t> { 2, 5 }));
}

TEST_F(CsvReaderTest, EmptyFile)
{
    EXPECT_TRUE(readAll("").empty());
    EXPECT_TRUE(readAll("\n\n").empty());
}

TEST_F(CsvReaderTest, TruncatedInsideQuotes)
{
    const auto rows = readAll("a,b\n1,\"unterminated,value\n2,3\n");
    EXPECT_TRUE(m_truncated);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1][0], "1");
}

TEST_F(CsvReaderTest, BinaryDetection)
{
    std::string garbage = "PK";
    for (int i = 0; i < 512; ++i)
        garbage.push_back(static_cast<char>((i * 37 + 11) % 256));
    readAll(garbage);
    EXPECT_TRUE(m_binary);
    readAll(std::string("a,b\n1,\0\n", 8));
    EXPECT_TRUE(m_binary);
    readAll("a\tb,c\n1,\xE4\xB8\xAD\n"); // TAB and UTF-8 are text
    EXPECT_FALSE(m_binary);
}

TEST_F(CsvReaderTest, RecordsAcrossChunkBoundaries)
{
    // The reader works in 1 MiB chunks: put "" escapes, quotes and CRLF pairs across the first boundary.
    constexpr size_t kChunk = 1 << 20;
    std::string content = "a,b\r\n";
    int rows = 0;
    while (content.size() < 3 * kChunk) {
        content += std::to_string(rows) + ",\"x\"\"y\r\nz\"\r\n";
        ++rows;
    }
    CsvReader reader;
    std::string error;
    ASSERT_TRUE(reader.open(write(content), error));
    Row row;
    ASSERT_TRUE(reader.next(row));
    int seen = 0;
    while (reader.next(row)) {
        ASSERT_EQ(row.size(), 2u) << "record " << seen;
        EXPECT_EQ(row[0], std::to_string(seen));
        EXPECT_EQ(row[1], "x\"y\r\nz");
        EXPECT_EQ(reader.recordLine(), 2 + 2 * seen);
        ++seen;
    }
    EXPECT_EQ(seen, rows);
    EXPECT_FALSE(reader.endedInsideQuotes());
}

// recordOffset()/recordEnd() give each record's exact bytes in the file (BOM, blank lines, CRLF, quoted newlines and
// chunk boundaries included); openText() parses such a range back to the same fields.
TEST_F(CsvReaderTest, RecordByteRangesReadBackToTheSameFields)
{
    constexpr size_t kChunk = 1 << 20;
    std::string content = "\xEF\xBB\xBFname,value\r\n\r\n";
    int rows = 0;
    while (content.size() < 2 * kChunk + 4096) {
        content += "op" + std::to_string(rows) + ",\"multi\nline \"\"q\"\"\"\r\n";
        if (rows % 1000 == 0)
            content += "\n"; // a blank line
        ++rows;
    }
    content += "last,no newline";
    CsvReader reader;
    std::string error;
    ASSERT_TRUE(reader.open(write(content), error));
    Row header, row, back;
    ASSERT_TRUE(reader.next(header));
    EXPECT_EQ(reader.recordOffset(), 3u); // after the BOM
    int seen = 0;
    while (reader.next(row)) {
        ASSERT_LT(reader.recordOffset(), reader.recordEnd());
        ASSERT_LE(reader.recordEnd(), content.size());
        CsvReader again;
        again.openText(content.substr(reader.recordOffset(), reader.recordEnd() - reader.recordOffset()));
        ASSERT_TRUE(again.next(back)) << "record " << seen;
        ASSERT_EQ(back, row) << "record " << seen;
        EXPECT_FALSE(again.next(back)); // exactly one record in the range
        ++seen;
    }
    EXPECT_EQ(seen, rows + 1);
    EXPECT_EQ(reader.recordEnd(), content.size());
}

TEST_F(CsvReaderTest, OpenFailureGivesReason)
{
    CsvReader reader;
    std::string error;
    EXPECT_FALSE(reader.open((m_dir / "does_not_exist.csv").string(), error));
    EXPECT_FALSE(error.empty());
}

TEST_F(CsvReaderTest, BinaryDetectedWhenOpened)
{
    // A text-like first line, then control bytes further into the first chunk: known before any next().
    std::string content = "\x89PNG\r\n";
    content += std::string(2000, 'x') + "\x1a\n";
    CsvReader reader;
    std::string error;
    ASSERT_TRUE(reader.open(write(content), error)) << error;
    EXPECT_TRUE(reader.looksBinary());

    // Other control bytes than NUL count too; TAB, CR and LF do not.
    for (char c : { '\x01', '\x08', '\x0b', '\x0c', '\x1b', '\x1f' }) {
        CsvReader other;
        ASSERT_TRUE(other.open(write(std::string("a,b\n1,") + c + "\n", "ctl.csv"), error)) << error;
        EXPECT_TRUE(other.looksBinary()) << static_cast<int>(c);
    }
    CsvReader text;
    ASSERT_TRUE(text.open(write("a\tb\r\n1,2\n" + std::string(100000, 'y') + "\n", "text.csv"), error)) << error;
    EXPECT_FALSE(text.looksBinary());
    CsvReader empty;
    ASSERT_TRUE(empty.open(write("", "empty.csv"), error)) << error;
    EXPECT_FALSE(empty.looksBinary());
    std::vector<std::string> row;
    EXPECT_FALSE(empty.next(row));
}

TEST_F(CsvReaderTest, BinaryAfterFirstChunkIsSeenByNext)
{
    constexpr size_t kChunk = 1 << 20;
    std::string content = "a,b\n";
    int rows = 0;
    while (content.size() < 2 * kChunk) {
        content += "1,2\n";
        ++rows;
    }
    content += std::string("3,\0\n", 4);
    CsvReader reader;
    std::string error;
    ASSERT_TRUE(reader.open(write(content), error)) << error;
    EXPECT_FALSE(reader.looksBinary());
    Row row;
    int seen = 0;
    while (reader.next(row) && !reader.looksBinary())
        ++seen;
    EXPECT_TRUE(reader.looksBinary());
    EXPECT_EQ(seen, rows + 1); // header and every text row
}

TEST_F(CsvReaderTest, RecordSizeIsCapped)
{
    // An unclosed quote swallows the rest of the file into one record: next() stops at the limit.
    CsvReader reader;
    std::string error;
    ASSERT_TRUE(reader.open(write("a,b\n1,2\n3,\"never closed\n" + std::string(5000, 'z') + "\n4,5\n"), error));
    reader.setMaxRecordBytes(1000);
    Row row;
    ASSERT_TRUE(reader.next(row));
    ASSERT_TRUE(reader.next(row));
    EXPECT_EQ(row, (Row { "1", "2" }));
    EXPECT_FALSE(reader.recordTooLarge());
    EXPECT_FALSE(reader.next(row));
    EXPECT_TRUE(row.empty());
    EXPECT_TRUE(reader.recordTooLarge());
    EXPECT_EQ(reader.recordLine(), 3);
    EXPECT_FALSE(reader.next(row)); // stays stopped
    EXPECT_TRUE(reader.recordTooLarge());

    // A record of exactly the limit is accepted.
    CsvReader exact;
    ASSERT_TRUE(exact.open(write(std::string(9, 'q') + "\n", "exact.csv"), error));
    exact.setMaxRecordBytes(10);
    ASSERT_TRUE(exact.next(row));
    EXPECT_EQ(row, (Row { std::string(9, 'q') }));
    EXPECT_FALSE(exact.recordTooLarge());
}

TEST_F(CsvReaderTest, DefaultRecordCapIs64MiB)
{
    EXPECT_EQ(CsvReader::kMaxRecordBytes, size_t(64) << 20);
    const auto path = (m_dir / "huge.csv").string();
    {
        std::ofstream out(path, std::ios::binary);
        out << "a,b\n1,\"";
        const std::string block(1 << 20, 'x');
        for (int i = 0; i < 65; ++i)
            out << block;
    }
    CsvReader reader;
    std::string error;
    ASSERT_TRUE(reader.open(path, error)) << error;
    Row row;
    ASSERT_TRUE(reader.next(row));
    EXPECT_FALSE(reader.next(row));
    EXPECT_TRUE(reader.recordTooLarge());
    EXPECT_FALSE(reader.endedInsideQuotes());
    EXPECT_EQ(reader.recordLine(), 2);
}

TEST_F(CsvReaderTest, OpeningDirectoryFails)
{
    CsvReader reader;
    std::string error;
    EXPECT_FALSE(reader.open(m_dir.string(), error));
    EXPECT_NE(error.find("is a directory"), std::string::npos) << error;
    Row row;
    EXPECT_FALSE(reader.next(row));
}

TEST(CsvHeader, StripsUtf8BomFromFirstName)
{
    const std::string bom = "\xEF\xBB\xBF";
    CsvHeader header({ bom + "Step", "Computing", bom + "Other" });
    EXPECT_EQ(header.find({ "Step" }), 0);
    EXPECT_EQ(header.names()[0], "Step");
    EXPECT_EQ(header.find({ "Computing" }), 1);
    EXPECT_EQ(header.names()[2], bom + "Other"); // only the first name can carry the file's BOM
    CsvHeader spaced({ " " + bom + " Step " });
    EXPECT_EQ(spaced.find({ "Step" }), 0);
}

TEST(CsvHeader, FindsTrimmedNames)
{
    CsvHeader header({ "Step Id", " Start Time(us)\t", "Name" });
    EXPECT_EQ(header.size(), 3u);
    EXPECT_EQ(header.find({ "Start Time(us)" }), 1);
    EXPECT_EQ(header.find({ "Missing", "Name" }), 2);
    EXPECT_EQ(header.find({ "Missing" }), -1);
    EXPECT_TRUE(header.has("Step Id"));
    EXPECT_FALSE(header.has("Step"));
}

TEST(CsvHeader, FieldIsEmptyOutOfRange)
{
    const std::vector<std::string> row { "a", "b" };
    EXPECT_EQ(npuscope::field(row, 1), "b");
    EXPECT_EQ(npuscope::field(row, 2), "");
    EXPECT_EQ(npuscope::field(row, -1), "");
}
