// SPDX-License-Identifier: Apache-2.0
// The Parse issues dock in zh_CN: the problems of a damaged file are shown in Chinese with their figures (rendered
// from parse_issue.message_template), rows without a template show the stored English message, and in English the
// dock shows what the CLI prints.
#include "GuiTestSupport.h"

#include "npuscope/core/TrText.h"
#include "npuscope/gui/app/Appearance.h"
#include "npuscope/gui/issues/IssueTableModel.h"
#include "npuscope/gui/issues/ParseIssuesDock.h"

#include <QAbstractItemModelTester>

#include <algorithm>
#include <fstream>

namespace fs = std::filesystem;
using namespace npuscope;

namespace {

bool hasChinese(const QString& text)
{
    return std::any_of(
        text.begin(), text.end(), [](QChar c) { return c.unicode() >= 0x4e00 && c.unicode() <= 0x9fff; });
}

struct RestoreEnglish {
    ~RestoreEnglish() { gui::Appearance::installTranslation(QStringLiteral("en")); }
};

// Rank 1's step_trace_time.csv of the two-rank sample with a short row and a last record cut inside a quoted field.
fs::path brokenCopy(const fs::path& dir)
{
    const fs::path run = dir / "run";
    fs::copy(test::dataDir() / "torch_npu_2rank_level1", run, fs::copy_options::recursive);
    std::ofstream(run / "rank1_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv", std::ios::app)
        << "1,2,3\n9,\"unterminated\n";
    return run;
}

QStringList messages(const gui::IssueTableModel& model)
{
    QStringList out;
    for (int row = 0; row < model.rowCount(); ++row)
        out << model.index(row, gui::IssueTableModel::Message).data().toString();
    return out;
}

} // namespace

TEST(ParseIssueChinese, DamagedFileProblemsAreShownInChinese)
{
    test::ScratchDir dir;
    const fs::path run = brokenCopy(dir.path());
    RestoreEnglish restore;
    ASSERT_TRUE(gui::Appearance::installTranslation(QStringLiteral("zh_CN")));
    auto window = test::newWindow();
    window->show();
    ASSERT_TRUE(test::openAndWait(*window, { QString::fromStdString(run.string()) }));
    window->showIssues();
    ASSERT_TRUE(window->waitUntilIdle());
    gui::IssueTableModel* model = window->issuesDock()->model();
    ASSERT_TRUE(test::waitFor([&] { return model->rowCount() >= 2; }));
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);

    const QStringList shown = messages(*model);
    // "row has 3 fields, header has N" and "file ends inside a quoted field (truncated?), last record skipped".
    const auto shortRow = std::find_if(
        shown.begin(), shown.end(), [](const QString& m) { return m.contains(QStringLiteral("该行有 3 个字段")); });
    ASSERT_NE(shortRow, shown.end()) << shown.join(QStringLiteral(" | ")).toStdString();
    EXPECT_TRUE(std::any_of(shown.begin(), shown.end(), [](const QString& m) {
        return m.contains(QStringLiteral("带引号的字段内结束"));
    })) << shown.join(QStringLiteral(" | ")).toStdString();
    for (const QString& m : shown) {
        EXPECT_TRUE(hasChinese(m)) << m.toStdString();
        EXPECT_FALSE(m.contains(QStringLiteral("row has"))) << m.toStdString();
    }

    // A row without a template (an older cache entry) or with one that does not parse shows its English message.
    query::ParseIssue plain;
    plain.severity = "warning";
    plain.message = "row has 3 fields, header has 9";
    query::ParseIssue damaged = plain;
    damaged.messageTemplate = "{not json";
    query::ParseIssue templated = plain;
    templated.messageTemplate
        = TrText("ParseIssue", "row has %1 fields, header has %2", { std::string("3"), std::string("9") }).toJson();
    gui::IssueTableModel own;
    own.setIssues({ plain, damaged, templated });
    EXPECT_EQ(messages(own),
        QStringList({ QStringLiteral("row has 3 fields, header has 9"),
            QStringLiteral("row has 3 fields, header has 9"), QStringLiteral("该行有 3 个字段，表头有 9 个") }));
    // The Severity column in Chinese too; its sort value stays the model's word.
    query::ParseIssue error = plain;
    error.severity = "error";
    query::ParseIssue info = plain;
    info.severity = "info";
    own.setIssues({ error, plain, info });
    QStringList severities;
    for (int r = 0; r < own.rowCount(); ++r)
        severities << own.index(r, gui::IssueTableModel::Severity).data(Qt::DisplayRole).toString();
    EXPECT_EQ(severities, QStringList({ QStringLiteral("错误"), QStringLiteral("警告"), QStringLiteral("提示") }));
    EXPECT_EQ(own.index(0, gui::IssueTableModel::Severity).data(gui::IssueTableModel::RawValueRole).toString(),
        QStringLiteral("error"));
    own.setIssues({ plain, damaged, templated });

    // In English the same template reads as the CLI prints it.
    ASSERT_TRUE(gui::Appearance::installTranslation(QStringLiteral("en")));
    own.setIssues({ templated });
    EXPECT_EQ(messages(own), QStringList({ QStringLiteral("row has 3 fields, header has 9") }));
}
