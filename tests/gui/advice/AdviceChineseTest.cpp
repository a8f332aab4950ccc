// SPDX-License-Identifier: Apache-2.0
// The Advice dock in zh_CN on a generated cluster with planted anomalies: every finding's message, threshold and
// suggestion is shown in Chinese with the rule's figures (each template of the rules has a translation), and the
// English stays what the CLI prints.
#include "AdviceTestSupport.h"
#include "GuiTestSupport.h"

#include "npuscope/gui/advice/AdviceDock.h"
#include "npuscope/gui/advice/AdviceTableModel.h"
#include "npuscope/gui/app/Appearance.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QTableView>
#include <QTextBrowser>

#include <algorithm>

using namespace npuscope;
using query::advice::FindingText;

namespace {

bool hasChinese(const QString& text)
{
    return std::any_of(
        text.begin(), text.end(), [](QChar c) { return c.unicode() >= 0x4e00 && c.unicode() <= 0x9fff; });
}

// Templates of a text without a translation in the installed language.
void untranslated(const FindingText& t, QStringList& out)
{
    if (!t.context.empty()
        && QCoreApplication::translate(t.context.c_str(), t.source.c_str()) == QString::fromStdString(t.source))
        out << QString::fromStdString(t.source);
    for (const auto& a : t.args)
        untranslated(a, out);
}

struct RestoreEnglish {
    ~RestoreEnglish() { gui::Appearance::installTranslation(QStringLiteral("en")); }
};

} // namespace

TEST(AdviceChinese, EveryFindingIsShownInChinese)
{
    test::ScratchDir dir;
    const std::string folder = test::generate(dir, test::plantedAnomalies());
    RestoreEnglish restore;
    ASSERT_TRUE(gui::Appearance::installTranslation(QStringLiteral("zh_CN")));
    auto window = test::newWindow();
    window->show();
    gui::AdviceDock* dock = window->adviceDock();
    dock->show();
    dock->raise();
    ASSERT_TRUE(test::openAndWait(*window, { QString::fromStdString(folder) }));
    // The open lays the window out anew (on a 1400 px window Advice is a tab after Cluster steps): bring it forward.
    window->showView(dock);
    ASSERT_TRUE(test::waitFor([&] { return !dock->isBusy() && dock->model()->rowCount() > 0; }));

    const auto* model = dock->model();
    ASSERT_GE(model->rowCount(), 4);
    for (int row = 0; row < model->rowCount(); ++row) {
        const auto& f = model->rows()[static_cast<size_t>(row)];
        const QString message = model->index(row, gui::AdviceTableModel::Message).data().toString();
        EXPECT_TRUE(hasChinese(message)) << f.id << ": " << message.toStdString();
        EXPECT_NE(message.toStdString(), f.message) << f.id;
        // The rule's figures are in the translation as in the English.
        for (const auto& arg : f.messageForm.args) {
            if (arg.context.empty() && arg.args.empty()) {
                EXPECT_TRUE(message.contains(QString::fromStdString(arg.source))) << f.id << ": " << arg.source;
            }
        }
        const QString threshold = model->index(row, gui::AdviceTableModel::Threshold).data(Qt::ToolTipRole).toString();
        EXPECT_TRUE(hasChinese(threshold)) << f.id << ": " << threshold.toStdString();
        QStringList missing;
        for (const FindingText* form : { &f.messageForm, &f.suggestionForm, &f.thresholdForm })
            untranslated(*form, missing);
        EXPECT_TRUE(missing.isEmpty()) << f.id << ": " << missing.join(QStringLiteral(" | ")).toStdString();
        // Lists inside a Chinese sentence use Chinese punctuation: no ASCII list of ranks ("0, 3"), no ASCII
        // semicolon between clauses.
        EXPECT_FALSE(message.contains(QRegularExpression(QStringLiteral("[0-9], [0-9]"))))
            << f.id << ": " << message.toStdString();
        EXPECT_FALSE(message.contains(QStringLiteral("; "))) << f.id << ": " << message.toStdString();
        const QString where = model->index(row, gui::AdviceTableModel::Where).data().toString();
        EXPECT_FALSE(where.contains(QStringLiteral(", "))) << f.id << ": " << where.toStdString();

        dock->tableView()->setCurrentIndex(model->index(row, gui::AdviceTableModel::Rule));
        const QString detail = dock->detailView()->toPlainText();
        EXPECT_TRUE(detail.contains(gui::AdviceTableModel::translated(f.suggestionForm, f.suggestion)))
            << f.id << ": " << detail.toStdString();
        EXPECT_FALSE(detail.contains(QString::fromStdString(f.suggestion))) << f.id;
    }

    // In English the dock shows what the CLI prints.
    ASSERT_TRUE(gui::Appearance::installTranslation(QStringLiteral("en")));
    for (int row = 0; row < model->rowCount(); ++row) {
        const auto& f = model->rows()[static_cast<size_t>(row)];
        EXPECT_EQ(model->index(row, gui::AdviceTableModel::Message).data().toString().toStdString(), f.message);
        EXPECT_EQ(gui::AdviceTableModel::translated(f.suggestionForm, f.suggestion).toStdString(), f.suggestion);
    }
}
