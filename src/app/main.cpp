// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/advice/AdviceDock.h"
#include "npuscope/gui/app/Appearance.h"
#include "npuscope/gui/app/MainWindow.h"
#include "npuscope/gui/collectives/CollectivesDock.h"
#include "npuscope/gui/collectives/CollectivesTableModel.h"
#include "npuscope/gui/common/SettingsWriter.h"
#include "npuscope/gui/common/StallWatchdog.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/operators/OperatorDock.h"
#include "npuscope/gui/timeline/TimelineDock.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/RankQuery.h"

#include <algorithm>
#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QEventLoop>
#include <QFile>
#include <QImage>
#include <QPixmap>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTableView>
#include <QTextStream>
#include <QTimer>

#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

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

// The window's command line: the options, declared once, and what they read.
struct Arguments {
    QCommandLineParser parser;
    const QCommandLineOption screenshotOption { QStringLiteral("screenshot"),
        QStringLiteral("Load PATH, render the window to FILE.png and exit."), QStringLiteral("FILE.png") };
    const QCommandLineOption viewOption { QStringLiteral("view"),
        QStringLiteral(
            "Dock to show in the screenshot: steps | overview | issues | matrix | commduration | links | "
            "groups | timeoverview | timeline | operators | memory | memorydetail | flops | strategy | "
            "marey | advice | collectives | blame | compare | statistics | flopsscope | all, or welcome (the "
            "first-run page, no PATH). "
            "advice "
            "loads the timelines of a job of up to 8 ranks first, for the timeline rules. Several views "
            "separated by commas load PATH once and write one image each: FILE must then hold {view}, "
            "which each image's view name replaces."),
        QStringLiteral("NAME"), QStringLiteral("steps") };
    const QCommandLineOption sizeOption { QStringLiteral("size"), QStringLiteral("Window size, default 1600x1000."),
        QStringLiteral("WxH"), QStringLiteral("1600x1000") };
    const QCommandLineOption stepOption { QStringLiteral("step"),
        QStringLiteral("Step to select before the screenshot (the timeline zooms to it)."), QStringLiteral("N") };
    const QCommandLineOption rankOption { QStringLiteral("rank"),
        QStringLiteral("Rank to select before the screenshot; 'all' shows every rank in the Operators view."),
        QStringLiteral("R") };
    const QCommandLineOption compareOption { QStringLiteral("compare"),
        QStringLiteral("Comparison rank of the Operators view in the screenshot."), QStringLiteral("R2") };
    const QCommandLineOption collectiveOption { QStringLiteral("collective"),
        QStringLiteral("Instance of the Collectives view to select before the screenshot (0 = the costliest); the "
                       "timeline marks it."),
        QStringLiteral("K") };
    const QCommandLineOption baselineOption { QStringLiteral("baseline"),
        QStringLiteral("Compare mode: load BASE (anything npuscope opens) as the baseline the opened PATH is compared "
                       "with (the Compare view)."),
        QStringLiteral("BASE") };
    const QCommandLineOption langOption { QStringLiteral("lang"),
        QStringLiteral(
            "Language of this run: en or zh_CN (default: Settings, else the locale, e.g. LANG=zh_CN.UTF-8)."),
        QStringLiteral("LANG") };
    const QCommandLineOption themeOption { QStringLiteral("theme"),
        QStringLiteral("Theme of this run: system, light or dark (default: Settings)."), QStringLiteral("THEME") };

    Arguments()
    {
        parser.setApplicationDescription(QStringLiteral("Viewer for Ascend NPU training profiles."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addPositionalArgument(QStringLiteral("PATH"),
            QStringLiteral("Profiling folder(s): a rank folder, ASCEND_PROFILER_OUTPUT, or a cluster."),
            QStringLiteral("[PATH...]"));
        parser.addOption(screenshotOption);
        parser.addOption(stepOption);
        parser.addOption(rankOption);
        parser.addOption(compareOption);
        parser.addOption(collectiveOption);
        parser.addOption(baselineOption);
        parser.addOption(viewOption);
        parser.addOption(sizeOption);
        parser.addOption(langOption);
        parser.addOption(themeOption);
    }
    bool isSet(const QCommandLineOption& o) const { return parser.isSet(o); }
    QString value(const QCommandLineOption& o) const { return parser.value(o); }
    // The option's value as a whole number; nullopt when it is not one.
    std::optional<qlonglong> number(const QCommandLineOption& o) const
    {
        bool isNumber = false;
        const qlonglong n = value(o).toLongLong(&isNumber);
        return isNumber ? std::optional(n) : std::nullopt;
    }
};

// --lang and --theme over the saved appearance (a screenshot starts from the defaults); 0, or the exit code of a bad
// value.
int applyAppearance(const Arguments& args, bool screenshot)
{
    // A screenshot does not read the user's settings (it shows the defaults unless --lang / --theme say otherwise).
    npuscope::gui::Appearance::Choices appearance
        = screenshot ? npuscope::gui::Appearance::Choices {} : npuscope::gui::Appearance::load();
    if (args.isSet(args.langOption)) {
        const QString lang = args.value(args.langOption);
        if (lang != QLatin1String("en") && lang != QLatin1String("zh_CN") && lang != QLatin1String("system"))
            return fail(2, QStringLiteral("invalid --lang '%1' (expected en, zh_CN or system)").arg(lang));
        appearance.language = lang;
    }
    if (args.isSet(args.themeOption)) {
        const QString theme = args.value(args.themeOption).toLower();
        if (theme == QLatin1String("dark"))
            appearance.theme = npuscope::gui::Appearance::Theme::Dark;
        else if (theme == QLatin1String("light"))
            appearance.theme = npuscope::gui::Appearance::Theme::Light;
        else if (theme == QLatin1String("system"))
            appearance.theme = npuscope::gui::Appearance::Theme::System;
        else
            return fail(2, QStringLiteral("invalid --theme '%1' (expected system, light or dark)").arg(theme));
    }
    const QString language = npuscope::gui::Appearance::resolvedLanguage(appearance.language);
    if (!npuscope::gui::Appearance::installTranslation(language))
        std::fprintf(stderr, "npuscope: no %s translation in this build; the interface stays in English\n",
            qPrintable(language));
    npuscope::gui::Appearance::apply(appearance);

    return 0;
}

// The interactive window: PATH (and --baseline) opened once the event loop runs.
int runWindow(QApplication& app, const Arguments& args, const QStringList& paths, const QSize& windowSize)
{
    // Debug builds and NPUSCOPE_STALL_WATCHDOG=1: every GUI-thread stall over 100 ms is logged with its stack;
    // NPUSCOPE_STALL_REPORT=FILE writes the longest one and the count at exit (scripts/gui-session.sh reads it).
    // NPUSCOPE_STALL_THRESHOLD_MS lowers (or raises) the 100 ms from which a stall is kept with its stack, to find
    // what the shorter ones are made of.
    // It starts with the event loop: building the window before the first frame is start-up, not a stall of
    // something the user did.
    std::unique_ptr<npuscope::gui::StallWatchdog> watchdog;
    if (npuscope::gui::StallWatchdog::enabledByDefault())
        QTimer::singleShot(0, [&watchdog] {
            bool set = false;
            const int threshold = qEnvironmentVariableIntValue("NPUSCOPE_STALL_THRESHOLD_MS", &set);
            watchdog = std::make_unique<npuscope::gui::StallWatchdog>(set && threshold > 0 ? threshold : 100);
        });
    const auto writeStallReport = qScopeGuard([&watchdog] {
        const QString report = qEnvironmentVariable("NPUSCOPE_STALL_REPORT");
        if (!watchdog || report.isEmpty())
            return;
        QFile file(report);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
            std::fprintf(stderr, "npuscope: cannot write %s\n", qPrintable(report));
            return;
        }
        QTextStream out(&file);
        out << "max_stall_ms " << watchdog->maxStallMs() << "\n";
        out << "stalls_over_100ms " << std::count_if(watchdog->stalls().begin(), watchdog->stalls().end(),
            [](const auto& stall) { return stall.ms > 100; }) << "\n";
        for (const auto& stall : watchdog->stalls())
            out << "stall_ms " << stall.ms << "\n" << stall.stack;
    });
    npuscope::gui::MainWindow window;
    if (args.isSet(args.sizeOption))
        window.resize(windowSize);
    window.show();
    const QString baseline = args.value(args.baselineOption);
    if (!paths.isEmpty())
        QTimer::singleShot(0, &window, [&window, paths, baseline] {
            window.open(paths);
            if (!baseline.isEmpty())
                window.openBaseline({ baseline });
        });
    const int status = app.exec();
    // The settings the window saved on close are written on their own thread: wait for them before exiting.
    npuscope::gui::SettingsWriter::flush();
    return status;
}

// Before the screenshot: the step, rank, comparison rank and collective of the command line; 0 or an exit code.
int applySelection(npuscope::gui::MainWindow& window, const Arguments& args, QDockWidget* dock)
{
    if (args.isSet(args.stepOption)) {
        const auto step = args.number(args.stepOption);
        if (!step)
            return fail(2, QStringLiteral("--step needs a step number, not '%1'").arg(args.value(args.stepOption)));
        window.workspace()->setStep(*step);
    }
    if (args.isSet(args.rankOption)) {
        const auto rank = args.number(args.rankOption);
        if (args.value(args.rankOption) == QStringLiteral("all"))
            window.operatorDock()->showAllRanks();
        else if (rank)
            window.workspace()->setSelectedRank(*rank);
        else
            return fail(2, QStringLiteral("--rank needs a rank number or 'all', not '%1'").arg(args.value(args.rankOption)));
    }
    if (args.isSet(args.compareOption)) {
        const auto rank = args.number(args.compareOption);
        if (!rank)
            return fail(2, QStringLiteral("--compare needs a rank number, not '%1'").arg(args.value(args.compareOption)));
        window.operatorDock()->setCompareRank(*rank);
    }
    if (args.isSet(args.collectiveOption)) {
        const auto k = args.number(args.collectiveOption);
        auto* collectives = window.collectivesDock();
        window.focusDock(collectives); // it loads once shown
        window.show();
        if (!window.waitUntilIdle())
            return fail(1, QStringLiteral("timed out waiting for the views"));
        if (!k || *k < 0 || *k >= collectives->model()->rowCount())
            return fail(2,
                QStringLiteral("--collective needs an instance index below %1, not '%2'")
                    .arg(collectives->model()->rowCount())
                    .arg(args.value(args.collectiveOption)));
        collectives->tableView()->setCurrentIndex(collectives->model()->index(static_cast<int>(*k), 0));
        if (dock)
            window.focusDock(dock);
    }
    return 0;
}

// What a view's screenshot needs loaded first. The timeline shows the ranks of the screenshot: load (in the
// background) and expand them all (with a collective selected: its members); of a large cluster (their timelines
// would take minutes) only the selected rank, or the first, is loaded and shown. 0 or an exit code.
int prepareView(npuscope::gui::MainWindow& window, const Arguments& args, QDockWidget* dock)
{
    if (dock == window.timelineDock() && !args.isSet(args.collectiveOption)) {
        constexpr int64_t kExpandAllRanks = 16;
        const auto db = window.workspace()->database();
        std::vector<npuscope::query::RankInfo> ranks;
        {
            auto lock = db->lock();
            ranks = npuscope::query::RankQuery::ranks(*db);
        }
        if (static_cast<int64_t>(ranks.size()) <= kExpandAllRanks)
            window.timelineDock()->expandAllRanks();
        else if (!window.workspace()->selectedRank() && !ranks.empty())
            window.workspace()->setSelectedRank(ranks.front().rank);
    }
    // The advice's timeline rules examine the ranks whose timeline is loaded: of a small job, load them all first
    // (a large one would take minutes; the dock then says which ranks were examined).
    if (dock == window.adviceDock()) {
        constexpr size_t kAdviceTimelineRanks = 8;
        const auto db = window.workspace()->database();
        std::vector<npuscope::query::RankInfo> ranks;
        {
            auto lock = db->lock();
            ranks = npuscope::query::RankQuery::ranks(*db);
        }
        if (ranks.size() <= kAdviceTimelineRanks) {
            if (!window.waitUntilIdle())
                return fail(1, QStringLiteral("timed out waiting for the views"));
            for (const auto& r : ranks)
                npuscope::load::Loader::loadTimeline(*db, r.rank);
            window.adviceDock()->runAgain();
        }
    }
    return 0;
}

// --screenshot: loads PATH, shows each --view in turn and writes its image.
int runScreenshot(const Arguments& args, const QStringList& paths, const QSize& windowSize)
{
    const QString outputPattern = args.value(args.screenshotOption);
    const QStringList views = args.value(args.viewOption).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (views.isEmpty())
        return fail(2, QStringLiteral("--view needs a view name"));
    if (views.size() > 1 && !outputPattern.contains(QStringLiteral("{view}")))
        return fail(2, QStringLiteral("several views need {view} in the --screenshot file name"));
    const auto outputOf = [&outputPattern](const QString& view) {
        return QString(outputPattern).replace(QStringLiteral("{view}"), view);
    };
    const auto isView = [](const QString& view, const char* name) {
        return view.compare(QLatin1String(name), Qt::CaseInsensitive) == 0;
    };
    const bool welcome = views.size() == 1 && isView(views.front(), "welcome");
    if (paths.isEmpty() && !welcome)
        return fail(2, QStringLiteral("--screenshot needs a PATH to load (or --view welcome)"));

    npuscope::gui::MainWindow::Options options;
    options.persistSettings = false;
    options.interactive = false;
    npuscope::gui::MainWindow window(options);
    if (welcome) {
        // The first-run page: nothing is loaded.
        const QString output = outputOf(views.front());
        window.resize(windowSize);
        window.show();
        QCoreApplication::processEvents();
        const QImage image = window.grab().toImage();
        if (image.isNull() || !image.save(output, "PNG"))
            return fail(3, QStringLiteral("cannot write '%1'").arg(output));
        std::fprintf(stdout, "%s: view welcome, %dx%d\n", qPrintable(output), image.width(), image.height());
        return 0;
    }
    // "all" keeps the default layout with every dock.
    std::vector<QDockWidget*> docks;
    for (const QString& view : views) {
        QDockWidget* d = isView(view, "all") ? nullptr : window.dockByName(view);
        if (!d && !isView(view, "all"))
            return fail(2,
                QStringLiteral("unknown view '%1' (expected one of: %2)")
                    .arg(view, npuscope::gui::MainWindow::dockShortNames().join(QStringLiteral(", "))));
        docks.push_back(d);
    }
    QDockWidget* dock = docks.front();
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

    if (args.isSet(args.baselineOption)) {
        window.openBaseline({ args.value(args.baselineOption) });
        // A loaded baseline raises the Compare view: wait for it, so that the requested view is the one shown. A
        // 1,024-rank baseline and its comparison take minutes on a busy two-core machine: up to 15 minutes.
        if (dock && !window.waitUntilIdle(15 * 60 * 1000))
            return fail(1, QStringLiteral("timed out waiting for the baseline"));
    }
    if (dock)
        window.focusDock(dock);
    if (const int code = applySelection(window, args, dock))
        return code;
    const QByteArray defaultState = window.saveState();
    for (size_t v = 0; v < docks.size(); ++v) {
        dock = docks[v];
        if (v > 0) {
            // The next view of a list: the default layout again, then that dock in front.
            window.restoreState(defaultState);
            if (dock)
                window.focusDock(dock);
        }
        if (const int code = prepareView(window, args, dock))
            return code;
        window.show();
        // Against a baseline the views wait for the comparison (minutes for 1,024 ranks on a busy machine).
        if (!window.waitUntilIdle(args.isSet(args.baselineOption) ? 15 * 60 * 1000 : 120000))
            return fail(1, QStringLiteral("timed out waiting for the views"));
        QCoreApplication::processEvents();

        const QString output = outputOf(views[static_cast<qsizetype>(v)]);
        const QImage image = window.grab().toImage();
        if (image.isNull() || !image.save(output, "PNG"))
            return fail(3, QStringLiteral("cannot write '%1'").arg(output));
        std::fprintf(stdout, "%s: %s, view %s, %dx%d\n", qPrintable(output), qPrintable(message),
            qPrintable(dock ? dock->objectName() : QStringLiteral("all")), image.width(), image.height());
    }
    return 0;
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

    Arguments args;
    args.parser.process(app);
    if (const int code = applyAppearance(args, screenshot))
        return code;

    const QStringList paths = args.parser.positionalArguments();
    const QRegularExpressionMatch size
        = QRegularExpression(QStringLiteral("^(\\d+)[xX](\\d+)$")).match(args.value(args.sizeOption));
    if (!size.hasMatch() || size.captured(1).toInt() < 200 || size.captured(2).toInt() < 150)
        return fail(
            2, QStringLiteral("invalid --size '%1' (expected WxH, e.g. 1600x1000)").arg(args.value(args.sizeOption)));
    const QSize windowSize(size.captured(1).toInt(), size.captured(2).toInt());

    return screenshot ? runScreenshot(args, paths, windowSize) : runWindow(app, args, paths, windowSize);
}
