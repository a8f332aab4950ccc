// SPDX-License-Identifier: Apache-2.0
// Errors reach the user: a failed background query is reported (QueryRunner -> Workspace -> Parse issues), and a
// rank whose timeline cannot be loaded says so instead of showing an empty timeline.
#include "GuiTestSupport.h"

#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/common/QueryRunner.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/issues/IssueTableModel.h"
#include "npuscope/gui/issues/ParseIssuesDock.h"
#include "npuscope/gui/timeline/TimelineDock.h"
#include "npuscope/gui/timeline/TimelineView.h"

#include <QFile>
#include <QLabel>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <stdexcept>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

// The Parse issues rows whose message contains text.
int issueRowsWith(const ParseIssuesDock& dock, const QString& text)
{
    int n = 0;
    for (const auto& issue : dock.model()->issues()) {
        if (QString::fromStdString(issue.message).contains(text) && issue.severity == "error")
            ++n;
    }
    return n;
}

} // namespace

TEST(ViewErrors, QueryRunnerReportsAThrownQueryToParseIssues)
{
    MainWindow window(test::testOptions());
    ASSERT_TRUE(test::openAndWait(window, { test::kTwoRanks }));
    Workspace* workspace = window.workspace();
    ParseIssuesDock* issues = window.issuesDock();
    const size_t before = issues->model()->issues().size();

    QueryRunner runner(workspace, QStringLiteral("Test view"));
    QString failed;
    bool delivered = false;
    QObject::connect(&runner, &QueryRunner::failed, [&](const QString& message) { failed = message; });
    ASSERT_TRUE(runner.run(
        [](model::Database&) -> int { throw std::runtime_error("the query broke"); }, [&](int) { delivered = true; }));
    ASSERT_TRUE(test::waitFor([&] { return !runner.isBusy(); }));
    EXPECT_FALSE(delivered);
    EXPECT_EQ(failed, QStringLiteral("the query broke"));
    ASSERT_EQ(workspace->viewErrors().size(), 1u);
    EXPECT_EQ(workspace->viewErrors()[0].message, "Test view: the query broke");
    EXPECT_EQ(workspace->viewErrors()[0].severity, "error");

    // Shown in the Parse issues dock after the model's own issues, as an error row.
    ASSERT_EQ(issues->model()->issues().size(), before + 1);
    EXPECT_EQ(issueRowsWith(*issues, QStringLiteral("Test view: the query broke")), 1);
    const QModelIndex message = issues->model()->index(static_cast<int>(before), IssueTableModel::Message);
    EXPECT_EQ(message.data().toString(), QStringLiteral("Test view: the query broke"));
    EXPECT_EQ(issues->model()->index(static_cast<int>(before), IssueTableModel::Severity).data().toString(),
        QStringLiteral("error"));

    // Something that is not a std::exception still says that it failed; a repeated failure is listed once.
    ASSERT_TRUE(runner.run([](model::Database&) -> int { throw 42; }, [](int) {}));
    ASSERT_TRUE(test::waitFor([&] { return !runner.isBusy(); }));
    EXPECT_EQ(failed, QStringLiteral("unknown error"));
    ASSERT_TRUE(runner.run([](model::Database&) -> int { throw 42; }, [](int) {}));
    ASSERT_TRUE(test::waitFor([&] { return !runner.isBusy(); }));
    EXPECT_EQ(issueRowsWith(*issues, QStringLiteral("Test view: unknown error")), 1);
    EXPECT_EQ(issues->model()->issues().size(), before + 2);

    // A query over in-memory data runs on the Workspace's own pool and reports the same way.
    ASSERT_TRUE(runner.runInMemory(
        [](const std::shared_ptr<model::Database>&) -> int { throw std::logic_error("index broke"); }, [](int) {}));
    ASSERT_TRUE(test::waitFor([&] { return !runner.isBusy(); }));
    EXPECT_EQ(issueRowsWith(*issues, QStringLiteral("Test view: index broke")), 1);

    // A new model starts without the old view errors.
    ASSERT_TRUE(test::openAndWait(window, { test::kTwoRanks }));
    EXPECT_TRUE(workspace->viewErrors().empty());
    EXPECT_EQ(issueRowsWith(*issues, QStringLiteral("Test view")), 0);
}

TEST(ViewErrors, BrokenTraceViewShowsAnErrorNotAnEmptyTimeline)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString rankDir = dir.path() + QStringLiteral("/rank0_ascend_pt");
    ASSERT_TRUE(test::copyTree(test::kTwoRanks + QStringLiteral("/rank0_ascend_pt"), rankDir));
    // Cut the trace in the middle of an event: not valid JSON any more.
    const QString tracePath = rankDir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json");
    QFile trace(tracePath);
    ASSERT_TRUE(trace.open(QIODevice::ReadOnly));
    const QByteArray head = trace.read(20000);
    trace.close();
    ASSERT_TRUE(trace.open(QIODevice::WriteOnly | QIODevice::Truncate));
    trace.write(QByteArray("[{\"ph\": \"X\", \"name\": ") + head.mid(5000, 3000));
    trace.close();

    MainWindow window(test::testOptions());
    window.resize(1600, 1000);
    ASSERT_TRUE(test::openAndWait(window, { rankDir }));
    TimelineDock* dock = window.timelineDock();
    window.focusDock(dock);
    window.show();
    ASSERT_TRUE(window.waitUntilIdle());
    auto& renderer = dock->view()->renderer();
    ASSERT_EQ(renderer.ranks().size(), 1u);
    dock->expandAllRanks();
    ASSERT_TRUE(window.waitUntilIdle());

    const auto& entry = renderer.ranks()[0];
    EXPECT_FALSE(entry.loading);
    // The rank row says why there is no timeline, the dock's error line too, and Parse issues lists the error.
    EXPECT_FALSE(entry.error.isEmpty());
    EXPECT_TRUE(dock->errorLabel()->isVisible());
    EXPECT_TRUE(dock->errorLabel()->text().contains(QStringLiteral("rank 0")));
    EXPECT_TRUE(dock->errorLabel()->text().contains(entry.error));
    EXPECT_TRUE(entry.error.contains(QStringLiteral("syntax error")));
    // Parse issues, hidden behind another tab while the rank loaded, re-reads the model's issues when shown.
    ParseIssuesDock* issues = window.issuesDock();
    window.focusDock(issues);
    ASSERT_TRUE(window.waitUntilIdle());
    EXPECT_GE(issueRowsWith(*issues, QStringLiteral("syntax error")), 1);
}
