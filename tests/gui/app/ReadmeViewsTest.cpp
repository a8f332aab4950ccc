// SPDX-License-Identifier: Apache-2.0
// The README's --view list names every view the window has (MainWindow::dockShortNames), so a new dock cannot be
// left out of it.
#include "npuscope/gui/app/MainWindow.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

TEST(ReadmeViews, ScreenshotItemNamesEveryView)
{
    const auto readmePath = std::filesystem::path(NPUSCOPE_TEST_DATA).parent_path().parent_path() / "README.md";
    std::ifstream in(readmePath);
    std::ostringstream text;
    text << in.rdbuf();
    const std::string readme = text.str();
    const auto start = readme.find("- **Screenshots**");
    ASSERT_NE(start, std::string::npos);
    const std::string item = readme.substr(start, readme.find("\n- ", start + 1) - start);
    const auto names = npuscope::gui::MainWindow::dockShortNames();
    ASSERT_GE(names.size(), 18);
    for (const QString& name : names) {
        const std::regex word("[ ,]" + name.toStdString() + "[ ,]");
        EXPECT_TRUE(std::regex_search(item, word)) << "README's Screenshots item does not name the view "
                                                   << name.toStdString();
    }
}
