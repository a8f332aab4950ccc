// SPDX-License-Identifier: Apache-2.0
#include "GuiTestSupport.h"

#include "npuscope/gui/common/SettingsWriter.h"

#include <QSettings>
#include <QThread>

#include <gtest/gtest.h>

using namespace npuscope;
using namespace npuscope::gui;

// A queued value is what value() answers at once, is in the settings file after flush(), and a later write of the
// same key wins over an earlier one (one writer thread, in order).
TEST(SettingsWriter, QueuedValuesAreSeenAtOnceAndWrittenInOrder)
{
    test::ScratchSettings scratch;
    SettingsWriter::setValue(QStringLiteral("probe/a"), 1);
    SettingsWriter::setValue(QStringLiteral("probe/a"), 2);
    SettingsWriter::setValue(QStringLiteral("probe/b"), QStringLiteral("x"));
    EXPECT_EQ(SettingsWriter::value(QStringLiteral("probe/a")).toInt(), 2);
    EXPECT_EQ(SettingsWriter::value(QStringLiteral("probe/b")).toString(), QStringLiteral("x"));
    EXPECT_EQ(SettingsWriter::value(QStringLiteral("probe/none"), 7).toInt(), 7);

    SettingsWriter::flush();
    EXPECT_EQ(QSettings().value(QStringLiteral("probe/a")).toInt(), 2);
    EXPECT_EQ(QSettings().value(QStringLiteral("probe/b")).toString(), QStringLiteral("x"));
    // Another QSettings object reading the file from scratch (not the process's shared cache) finds them too.
    QSettings file(QSettings().fileName(), QSettings::NativeFormat);
    EXPECT_EQ(file.value(QStringLiteral("probe/a")).toInt(), 2);

    SettingsWriter::remove(QStringLiteral("probe/a"));
    EXPECT_EQ(SettingsWriter::value(QStringLiteral("probe/a"), -1).toInt(), -1);
    SettingsWriter::flush();
    EXPECT_FALSE(QSettings().contains(QStringLiteral("probe/a")));
}

// Closing the window saves its geometry and layout without the GUI thread writing the file: after flush() they are
// there for the next window.
TEST(SettingsWriter, TheWindowsLayoutIsSavedOnClose)
{
    test::ScratchSettings scratch;
    {
        gui::MainWindow::Options options;
        options.persistSettings = true;
        options.interactive = false;
        gui::MainWindow window(options);
        window.close();
    }
    SettingsWriter::flush();
    QSettings settings;
    EXPECT_FALSE(settings.value(QStringLiteral("window/geometry")).toByteArray().isEmpty());
    EXPECT_FALSE(settings.value(QStringLiteral("window/state")).toByteArray().isEmpty());
}
