// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/operators/OperatorDock.h"
#include "npuscope/gui/timeline/TimelineDock.h"
#include "npuscope/gui/common/Workspace.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QEventLoop>
#include <QImage>
#include <QPixmap>
#include <QRegularExpression>
#include <QTimer>

#include <cstdio>
#include <cstring>

namespace {

bool wantsScreenshot(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--screenshot") == 0 || std::strncmp(argv[i], "--screenshot=", 13) == 0)
            return true;
    }
    return false;
}

bool hasPlatformArgument(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "-platform") == 0 || std::strcmp(argv[i], "--platform") == 0)
            return true;
    }
    return false;
}

int fail(int code, const QString& message)
{
    std::fprintf(stderr, "npuscope: %s\n", qPrintable(message));
    return code;
}

} // namespace

int main(int argc, char** argv)
{
    // A screenshot needs no display: fall back to the offscreen platform when none is available.
    const bool screenshot = wantsScreenshot(argc, argv);
    if (screenshot && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && !hasPlatformArgument(argc, argv)
        && qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("npuscope"));
    QApplication::setOrganizationName(QStringLiteral("npuscope"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Viewer for Ascend NPU training profiles."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("PATH"),
        QStringLiteral("Profiling folder(s): a rank folder, ASCEND_PROFILER_OUTPUT, or a cluster."),
        QStringLiteral("[PATH...]"));
    const QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
        QStringLiteral("Load PATH, render the window to FILE.png and exit."), QStringLiteral("FILE.png"));
    const QCommandLineOption viewOption(QStringLiteral("view"),
        QStringLiteral("Dock to show in the screenshot: steps | overview | issues | matrix | commduration | links | "
                       "groups | timeoverview | timeline | operators | memory | memorydetail | flops | strategy | "
                       "marey | advice | collectives | blame | compare | all, or welcome (the first-run page, no PATH)."),
        QStringLiteral("NAME"),
        QStringLiteral("steps"));
    const QCommandLineOption sizeOption(QStringLiteral("size"), QStringLiteral("Window size, default 1600x1000."),
        QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    parser.addOption(screenshotOption);
    const QCommandLineOption stepOption(QStringLiteral("step"),
        QStringLiteral("Step to select before the screenshot (the timeline zooms to it)."), QStringLiteral("N"));
    parser.addOption(stepOption);
    const QCommandLineOption rankOption(QStringLiteral("rank"),
        QStringLiteral("Rank to select before the screenshot; 'all' shows every rank in the Operators view."),
        QStringLiteral("R"));
    parser.addOption(rankOption);
    const QCommandLineOption compareOption(QStringLiteral("compare"),
        QStringLiteral("Comparison rank of the Operators view in the screenshot."), QStringLiteral("R2"));
    parser.addOption(compareOption);
    const QCommandLineOption baselineOption(QStringLiteral("baseline"),
        QStringLiteral("Compare mode: load BASE (anything npuscope opens) as the baseline the opened PATH is compared "
                       "with (the Compare view)."),
        QStringLiteral("BASE"));
    parser.addOption(baselineOption);
    parser.addOption(viewOption);
    parser.addOption(sizeOption);
    parser.process(app);

    const QStringList paths = parser.positionalArguments();
    const QRegularExpressionMatch size
        = QRegularExpression(QStringLiteral("^(\\d+)[xX](\\d+)$")).match(parser.value(sizeOption));
    if (!size.hasMatch() || size.captured(1).toInt() < 200 || size.captured(2).toInt() < 150)
        return fail(
            2, QStringLiteral("invalid --size '%1' (expected WxH, e.g. 1600x1000)").arg(parser.value(sizeOption)));
    const QSize windowSize(size.captured(1).toInt(), size.captured(2).toInt());

    if (!screenshot) {
        npuscope::gui::MainWindow window;
        if (parser.isSet(sizeOption))
            window.resize(windowSize);
        window.show();
        const QString baseline = parser.value(baselineOption);
        if (!paths.isEmpty())
            QTimer::singleShot(0, &window, [&window, paths, baseline] {
                window.open(paths);
                if (!baseline.isEmpty())
                    window.openBaseline({ baseline });
            });
        return app.exec();
    }

    const QString output = parser.value(screenshotOption);
    const bool welcome = parser.value(viewOption).compare(QStringLiteral("welcome"), Qt::CaseInsensitive) == 0;
    if (paths.isEmpty() && !welcome)
        return fail(2, QStringLiteral("--screenshot needs a PATH to load (or --view welcome)"));

    npuscope::gui::MainWindow::Options options;
    options.persistSettings = false;
    options.interactive = false;
    npuscope::gui::MainWindow window(options);
    // "all" keeps the default layout with every dock.
    const bool allDocks = parser.value(viewOption).compare(QStringLiteral("all"), Qt::CaseInsensitive) == 0;
    QDockWidget* dock = allDocks ? nullptr : window.dockByName(parser.value(viewOption));
    if (welcome) {
        // The first-run page: nothing is loaded.
        window.resize(windowSize);
        window.show();
        QCoreApplication::processEvents();
        const QImage image = window.grab().toImage();
        if (image.isNull() || !image.save(output, "PNG"))
            return fail(3, QStringLiteral("cannot write '%1'").arg(output));
        std::fprintf(stdout, "%s: view welcome, %dx%d\n", qPrintable(output), image.width(), image.height());
        return 0;
    }
    if (!dock && !allDocks)
        return fail(2,
            QStringLiteral("unknown view '%1' (expected one of: %2)")
                .arg(parser.value(viewOption), npuscope::gui::MainWindow::dockShortNames().join(QStringLiteral(", "))));
    window.resize(windowSize);

    bool ok = false;
    QString message;
    QEventLoop loop;
    QObject::connect(&window, &npuscope::gui::MainWindow::loadFinished, &loop, [&](bool success, const QString& text) {
        ok = success;
        message = text;
        loop.quit();
    });
    window.open(paths);
    if (window.isLoading())
        loop.exec();
    if (!ok)
        return fail(1, message.isEmpty() ? QStringLiteral("nothing loaded") : message);

    if (parser.isSet(baselineOption))
        window.openBaseline({ parser.value(baselineOption) });
    if (dock)
        window.focusDock(dock);
    if (parser.isSet(stepOption)) {
        bool isNumber = false;
        const qlonglong step = parser.value(stepOption).toLongLong(&isNumber);
        if (!isNumber)
            return fail(2, QStringLiteral("--step needs a step number, not '%1'").arg(parser.value(stepOption)));
        window.workspace()->setStep(step);
    }
    if (parser.isSet(rankOption)) {
        bool isNumber = false;
        const qlonglong rank = parser.value(rankOption).toLongLong(&isNumber);
        if (parser.value(rankOption) == QStringLiteral("all"))
            window.operatorDock()->showAllRanks();
        else if (isNumber)
            window.workspace()->setSelectedRank(rank);
        else
            return fail(
                2, QStringLiteral("--rank needs a rank number or 'all', not '%1'").arg(parser.value(rankOption)));
    }
    if (parser.isSet(compareOption)) {
        bool isNumber = false;
        const qlonglong rank = parser.value(compareOption).toLongLong(&isNumber);
        if (!isNumber)
            return fail(2, QStringLiteral("--compare needs a rank number, not '%1'").arg(parser.value(compareOption)));
        window.operatorDock()->setCompareRank(rank);
    }
    // The timeline shows the ranks of the screenshot: load (in the background) and expand them all.
    if (dock == window.timelineDock())
        window.timelineDock()->expandAllRanks();
    window.show();
    if (!window.waitUntilIdle())
        return fail(1, QStringLiteral("timed out waiting for the views"));
    QCoreApplication::processEvents();

    const QImage image = window.grab().toImage();
    if (image.isNull() || !image.save(output, "PNG"))
        return fail(3, QStringLiteral("cannot write '%1'").arg(output));
    std::fprintf(stdout, "%s: %s, view %s, %dx%d\n", qPrintable(output), qPrintable(message),
        qPrintable(dock ? dock->objectName() : QStringLiteral("all")), image.width(), image.height());
    return 0;
}
