// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the GUI tests share on top of TestSupport.h: sample paths as QString, a main window set up for tests,
// loading through MainWindow::open, waiting for the event loop, and looking at rendered images. Header-only; only
// the GUI test target includes it (it needs Qt and the gui layer), so the core tests build without Qt.

#include "TestSupport.h"

#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/common/SettingsWriter.h"
#include "npuscope/gui/issues/IssueFilterModel.h"
#include "npuscope/gui/issues/IssueTableModel.h"
#include "npuscope/gui/issues/ParseIssuesDock.h"
#include "npuscope/gui/steps/ClusterStepsDock.h"
#include "npuscope/gui/steps/StepStatsModel.h"
#include "npuscope/gui/steps/StepTableModel.h"
#include "npuscope/testgen/ClusterGenerator.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QSize>
#include <QSortFilterProxyModel>
#include <QSettings>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <functional>
#include <initializer_list>
#include <memory>
#include <set>
#include <vector>

namespace npuscope::test {

// A sample under tests/data, e.g. dataPath("torch_npu_2rank_level1").
inline QString dataPath(const char* relative)
{
    return QStringLiteral(NPUSCOPE_TEST_DATA "/") + QString::fromLatin1(relative);
}

// Two torch_npu Level1 ranks, step 50: the sample most GUI tests look at.
inline const QString kTwoRanks = dataPath("torch_npu_2rank_level1");

// Settings of a test written to a scratch folder, not to the user's configuration; cleared when it dies.
class ScratchSettings {
public:
    // Queued writes (SettingsWriter) go to the file they were meant for before the path changes, and are in the file
    // before it is cleared.
    ScratchSettings()
    {
        gui::SettingsWriter::flush();
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.path());
    }
    ~ScratchSettings()
    {
        gui::SettingsWriter::flush();
        QSettings().clear();
    }

private:
    QTemporaryDir m_dir;
};

// No settings written, no dialogs.
inline gui::MainWindow::Options testOptions()
{
    gui::MainWindow::Options options;
    options.persistSettings = false;
    options.interactive = false;
    return options;
}

// A test window of the given size, nothing loaded.
inline std::unique_ptr<gui::MainWindow> newWindow(QSize size = QSize(1400, 900))
{
    auto window = std::make_unique<gui::MainWindow>(testOptions());
    window->resize(size);
    return window;
}

// Loads through MainWindow::open, the path the app and its --screenshot mode use; true when the load finished and
// succeeded. message: the load's closing message.
inline bool openAndWait(
    gui::MainWindow& window, const QStringList& paths, QString* message = nullptr, int timeoutMs = 300000)
{
    bool ok = false;
    bool done = false;
    // The slot refers to this frame's locals, so it must not outlive the call (a later load of the same window would
    // write through dangling references; at -O1 that crashed ClusterAnalysisViews.StageTableShowsTheStageRows).
    const QMetaObject::Connection connection = QObject::connect(&window, &gui::MainWindow::loadFinished, &window,
        [&](bool success, const QString& text) {
            ok = success;
            done = true;
            if (message)
                *message = text;
        });
    window.open(paths);
    const bool idle = window.waitUntilIdle(timeoutMs);
    QObject::disconnect(connection);
    return idle && done && ok;
}

// Generates the small cluster o describes into outDir (o.outDir is set to it) and opens it in window through
// openAndWait: what a test of a view on a generated cluster starts from. Fails with the generator's error or the
// load's closing message.
inline ::testing::AssertionResult generateAndOpen(
    gui::MainWindow& window, testgen::GeneratorOptions& o, const QString& outDir)
{
    o.outDir = outDir.toStdString();
    std::string error;
    if (!testgen::ClusterGenerator::generate(o, error))
        return ::testing::AssertionFailure() << "generate: " << error;
    QString message;
    if (!openAndWait(window, { outDir }, &message))
        return ::testing::AssertionFailure() << "open: " << message.toStdString();
    return ::testing::AssertionSuccess();
}

// Brings dock to the front of the shown window and waits until the window is idle (its query answered).
template <typename Dock> Dock* showDock(gui::MainWindow& window, Dock* dock, int timeoutMs = 60000)
{
    window.focusDock(dock);
    window.show();
    EXPECT_TRUE(window.waitUntilIdle(timeoutMs));
    return dock;
}

// Runs the event loop until condition holds or ms pass; returns the condition.
inline bool waitFor(const std::function<bool()>& condition, int ms = 30000)
{
    QElapsedTimer timer;
    timer.start();
    while (!condition() && timer.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return condition();
}

// Set NPUSCOPE_TEST_ARTIFACTS to a folder to keep the rendered images for a look.
inline void keepImage(const QImage& image, const QString& name)
{
    const QString dir = qEnvironmentVariable("NPUSCOPE_TEST_ARTIFACTS");
    if (!dir.isEmpty())
        image.save(dir + QLatin1Char('/') + name);
}

// Distinct colours of the pixels on a grid of the given step: a blank or one-colour image has very few.
inline int distinctColours(const QImage& image, int step = 2)
{
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += step) {
        for (int x = 0; x < image.width(); x += step)
            colours.insert(image.pixel(x, y));
    }
    return static_cast<int>(colours.size());
}

// Copies the folder from, with everything below it, to to.
inline bool copyTree(const QString& from, const QString& to)
{
    QDir().mkpath(to);
    const QDir dir(from);
    for (const QString& name : dir.entryList(QDir::Files)) {
        if (!QFile::copy(dir.filePath(name), to + QLatin1Char('/') + name))
            return false;
    }
    for (const QString& name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (!copyTree(dir.filePath(name), to + QLatin1Char('/') + name))
            return false;
    }
    return true;
}

// Checks models with QAbstractItemModelTester (a broken model fails the test at once) for as long as it lives.
class ModelTesters {
public:
    void watch(std::initializer_list<QAbstractItemModel*> models)
    {
        for (QAbstractItemModel* model : models)
            m_testers.push_back(std::make_unique<QAbstractItemModelTester>(
                model, QAbstractItemModelTester::FailureReportingMode::Fatal));
    }

private:
    std::vector<std::unique_ptr<QAbstractItemModelTester>> m_testers;
};

// A 1400 x 900 window with kTwoRanks loaded. The steps and Parse issues models are watched from before the load, so
// their resets are checked too.
class TwoRanksWindow : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_window = newWindow();
        m_testers.watch(
            { m_window->stepsDock()->model(), m_window->stepsDock()->statsModel(), m_window->stepsDock()->proxyModel(),
                m_window->issuesDock()->model(), m_window->issuesDock()->filterModel() });
        ASSERT_TRUE(openAndWait(*m_window, { kTwoRanks }));
    }

    std::unique_ptr<gui::MainWindow> m_window;
    ModelTesters m_testers;
};

} // namespace npuscope::test
