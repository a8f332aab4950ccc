// SPDX-License-Identifier: Apache-2.0
// MainWindow's opening of inputs: the folder chooser, the recent list (written off the GUI thread), the load on the
// workspace's job pool with its progress dialog and cancel, and what the window shows when the load ends. The
// window's docks, menus and layout are in MainWindow.cpp.
#include "npuscope/core/ThreadPriority.h"
#include "npuscope/gui/app/MainWindow.h"

#include "npuscope/gui/app/Appearance.h"
#include "npuscope/gui/app/SettingsDialog.h"
#include "npuscope/gui/common/TranslatedText.h"

#include "npuscope/gui/advice/AdviceDock.h"
#include "npuscope/gui/app/CommandPalette.h"
#include "npuscope/gui/app/HelpDialogs.h"
#include "npuscope/gui/app/WelcomePage.h"
#include "npuscope/gui/collectives/BlameDock.h"
#include "npuscope/gui/collectives/CollectivesDock.h"
#include "npuscope/gui/comm/CommDurationDock.h"
#include "npuscope/gui/comm/CommMatrixDock.h"
#include "npuscope/gui/comm/GroupsDock.h"
#include "npuscope/gui/comm/LinksDock.h"
#include "npuscope/gui/common/DeferredLoadService.h"
#include "npuscope/gui/common/QueryRunner.h"
#include "npuscope/gui/common/SettingsWriter.h"
#include "npuscope/gui/common/TimeFormat.h"
#include "npuscope/gui/common/WidgetImage.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/compare/BaselineLoader.h"
#include "npuscope/gui/compare/CompareDock.h"
#include "npuscope/gui/flops/FlopsHeatmapDock.h"
#include "npuscope/gui/issues/ParseIssuesDock.h"
#include "npuscope/gui/marey/MareyDock.h"
#include "npuscope/gui/memory/MemoryDetailDock.h"
#include "npuscope/gui/memory/MemoryHeatmap.h"
#include "npuscope/gui/memory/MemoryHeatmapDock.h"
#include "npuscope/gui/operators/OperatorDock.h"
#include "npuscope/gui/statistics/StatisticsDock.h"
#include "npuscope/gui/steps/ClusterStepsDock.h"
#include "npuscope/gui/steps/OverviewDock.h"
#include "npuscope/gui/steps/TimeOverviewDock.h"
#include "npuscope/gui/strategy/ParallelStrategyDock.h"
#include "npuscope/gui/timeline/TimelineDock.h"
#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/MemoryGuard.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/query/IndexPrebuild.h"
#include "npuscope/query/RankQuery.h"
#include "npuscope/query/StepQuery.h"
#include "npuscope/query/advice/HtmlReport.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDeadlineTimer>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QMouseEvent>
#include <QMutexLocker>
#include <QProgressDialog>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QThread>
#include <QTimer>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>

#include <spdlog/spdlog.h>

#include <functional>
#include <map>
#include <mutex>

namespace npuscope::gui {

namespace {

const char* const kRecentKey = "recent";

QString plural(int64_t n, const QString& one, const QString& many)
{
    return n == 1 ? QStringLiteral("1 ") + one : QStringLiteral("%1 ").arg(n) + many;
}

} // namespace

// Progress is written by the loader thread and polled by a GUI timer: no cross-thread signals
// per file, and the state outlives the window if it closes mid-load.
struct MainWindow::LoadState {
    std::mutex mutex;
    load::LoadProgress progress;
    std::atomic<bool> cancel { false };
};

struct MainWindow::LoadOutcome {
    std::shared_ptr<model::Database> database;
    // The communication indexes to build on a copy of database (their reservations are void once it is gone).
    std::shared_ptr<query::IndexPrebuild> prebuild;
    QString prebuildError; // why no prebuild could be prepared (a copy of the model failed), else empty
    bool cancelled = false;
    QString error;
    int64_t ranks = 0;
    int64_t steps = 0;
    int64_t problems = 0;
    bool usedCache = false; // the load read and filled the parse cache (the views' deferred imports do the same)
    // Ranks were found but none of their files gave anything (every file failed, no step): the model is kept so
    // Parse issues lists why, and the user is told in one sentence.
    bool nothingUsable = false;
};

namespace {

// Whether a loaded model has something to show: a step, a file still to be read on demand (a timeline), or a loaded
// file other than a step table (a step table that loaded without a step gave nothing).
bool hasUsableData(const std::vector<query::RankInfo>& ranks, int64_t steps)
{
    if (steps > 0)
        return true;
    for (const auto& rank : ranks) {
        for (const auto& file : rank.files) {
            if (file.status == "skipped")
                return true;
            if (file.status == "loaded" && file.kind != "step_trace_time" && file.kind != "cluster_step_trace_time"
                && file.kind != "step_trace_raw" && file.kind != "cann_step_trace")
                return true;
        }
    }
    return false;
}

} // namespace

void MainWindow::chooseFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open profiling folder"));
    if (!dir.isEmpty())
        open({ dir });
}

QStringList MainWindow::recentEntries() const
{
    if (!m_options.persistSettings)
        return {};
    if (!m_recent) {
        m_recent = QSettings(m_recentWrite->file, QSettings::IniFormat).value(kRecentKey).toStringList();
        // Written by a version that kept it among the other settings.
        if (m_recent->isEmpty())
            m_recent = QSettings().value(kRecentKey).toStringList();
    }
    return *m_recent;
}

QString MainWindow::recentFile()
{
    return QFileInfo(QSettings().fileName()).absolutePath() + QStringLiteral("/recent.ini");
}

void MainWindow::writeRecent(RecentWrite& state, quint64 generation, const QStringList& list)
{
    QMutexLocker lock(&state.mutex);
    if (!state.isLatest(generation))
        return;
    QSettings settings(state.file, QSettings::IniFormat);
    if (list.isEmpty())
        settings.remove(QLatin1String(kRecentKey));
    else
        settings.setValue(QLatin1String(kRecentKey), list);
    settings.sync();
    // Not a problem of the profile (Parse issues): the log says it, the list stays in memory for this session.
    if (settings.status() != QSettings::NoError)
        spdlog::warn("recent files: cannot write the settings file {}", settings.fileName().toStdString());
}

void MainWindow::storeRecent(const QStringList& list)
{
    m_recent = list;
    // QSettings writes its file when destroyed, locking it and fdatasync()ing: 100 ms of the GUI thread at the end
    // of an open in the X11 session (scripts/gui-session.sh). The write goes to the job pool, to the recent list's own
    // file (recentFile()); the newest list wins (an older job that runs later finds a newer generation and writes
    // nothing).
    auto state = m_recentWrite;
    const quint64 generation = state->latest.fetchAndAddOrdered(1) + 1;
    m_workspace->jobPool()->start([state, generation, list] {
        enterBackground();
        writeRecent(*state, generation, list);
    });
}

void MainWindow::addRecent(const QStringList& paths)
{
    if (!m_options.persistSettings || paths.isEmpty())
        return;
    // One entry per open; several folders opened together stay one entry.
    const QString entry = paths.join(QLatin1Char('\n'));
    QStringList list = recentEntries();
    list.removeAll(entry);
    list.prepend(entry);
    while (list.size() > kMaxRecent)
        list.removeLast();
    storeRecent(list);
    m_welcome->setRecent(list);
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList entries = recentEntries();
    for (const QString& entry : entries) {
        const QStringList paths = WelcomePage::entryPaths(entry);
        if (paths.isEmpty())
            continue;
        m_recentMenu->addAction(WelcomePage::entryText(paths), this, [this, paths] { open(paths); });
    }
    if (entries.isEmpty()) {
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
        return;
    }
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("Clear list"), this, [this] {
        storeRecent({});
        m_welcome->setRecent({});
    });
}

void MainWindow::open(const QStringList& paths)
{
    QStringList absolute;
    for (const QString& p : paths) {
        if (!p.trimmed().isEmpty())
            absolute << QFileInfo(p).absoluteFilePath();
    }
    cancelLoading();
    // A baseline belongs to the model it was compared with.
    m_baselineLoader->cancel();
    m_workspace->setBaseline(nullptr);
    if (absolute.isEmpty()) {
        emit loadFinished(false, tr("No path given"));
        return;
    }

    const quint64 id = ++m_loadId;
    m_loading = true;
    auto state = std::make_shared<LoadState>();
    m_loadState = state;
    const bool timelines = m_options.loadTimelines;
    const bool useCache
        = m_options.useParseCache && SettingsWriter::value(QStringLiteral("parseCache/enabled"), true).toBool();
    m_summary->setText(tr("Loading %1\u2026").arg(QDir::toNativeSeparators(absolute.join(QStringLiteral(", ")))));

    std::vector<std::string> inputs;
    for (const QString& p : absolute)
        inputs.push_back(p.toStdString());

    auto* watcher = new QFutureWatcher<LoadOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, id, absolute] {
        const LoadOutcome outcome = watcher->result();
        watcher->deleteLater();
        finishLoad(id, outcome, absolute);
    });
    watcher->setFuture(QtConcurrent::run(m_workspace->jobPool(), [inputs, state, timelines, useCache,
                                                                 workspace = m_workspace]() -> LoadOutcome {
        enterBackground();
        LoadOutcome out;
        try {
            const io::LoadPlan plan = io::Detector::detect(inputs);
            if (plan.ranks.empty()) {
                const QString first = QDir::toNativeSeparators(
                    QString::fromStdString(plan.inputs.empty() ? std::string() : plan.inputs.front()));
                out.error = tr("No Ascend profiling data found in %1.").arg(first);
                // One input that is missing, unreadable, empty or an unknown file says that in its first line (the
                // detector's message), not the same sentence as a folder without profiler output.
                if (plan.inputs.size() == 1) {
                    for (const auto& issue : plan.issues) {
                        const std::string& source = issue.text.source;
                        if (issue.severity == "error" && issue.path == plan.inputs.front()
                            && source.rfind("no profiler output found", 0) != 0)
                            out.error = tr("Cannot open %1: %2.").arg(first, translatedText(issue.text));
                    }
                }
                for (const auto& issue : plan.issues)
                    out.error += QStringLiteral("\n%1: %2")
                                     .arg(QString::fromStdString(issue.path), translatedText(issue.text));
                return out;
            }
            load::LoadOptions options;
            options.loadTimelines = timelines;
            const load::ParseCache cache;
            if (useCache)
                options.cache = &cache;
            out.usedCache = useCache;
            // The copies the indexes are built on (one, or two to build both at once) cost the model's size each for
            // about half a second: only within a quarter of the memory the process may still use (else the views build
            // them on the model as before). Made as soon as the rows are in, and built while the loader still builds
            // the model's own indexes; or, for a model read from the parse cache, once it is loaded.
            bool prebuildTried = false;
            const auto prepareIndexes = [&out, &prebuildTried](model::Database& model) {
                prebuildTried = true;
                try {
                    out.prebuild = query::IndexPrebuild::prepare(model, load::MemoryGuard::available().value_or(0) / 4);
                } catch (const std::exception& e) {
                    // Not the open's failure: the views build the indexes on the model; Parse issues says why.
                    out.prebuildError = QString::fromUtf8(e.what());
                }
            };
            load::LoadReport report;
            const bool trace = qEnvironmentVariableIntValue("NPUSCOPE_TRACE_QUERIES") != 0;
            if (trace)
                options.report = &report;
            const auto loadStart = std::chrono::steady_clock::now();
            const auto sinceLoad = [&loadStart] {
                return std::chrono::duration<double>(std::chrono::steady_clock::now() - loadStart).count();
            };
            options.beforeIndexes = [&](model::Database& model) {
                prepareIndexes(model);
                if (trace)
                    spdlog::info("load: rows in at {:.3f} s, prebuild prepared at {:.3f} s", report.parseSeconds,
                        sinceLoad());
                workspace->startIndexBuild(out.prebuild);
            };
            std::unique_ptr<model::Database> db = load::Loader::load(
                plan, options,
                [state](const load::LoadProgress& progress) {
                    std::lock_guard lock(state->mutex);
                    state->progress = progress;
                },
                &state->cancel);
            if (!db) {
                out.cancelled = true;
                return out;
            }
            if (trace)
                spdlog::info("load: loaded at {:.3f} s (parse {:.3f}, merge {:.3f}, post-load {:.3f}, index {:.3f})",
                    sinceLoad(), report.parseSeconds, report.mergeSeconds, report.postLoadSeconds, report.indexSeconds);
            // Still ours alone: count what the status bar shows before handing it over.
            out.ranks = query::RankQuery::rankCount(*db);
            out.steps = static_cast<int64_t>(query::StepQuery::steps(*db).size());
            out.problems = query::IssueQuery::problemCount(*db);
            if (out.ranks == 0) {
                out.error = tr("No ranks could be loaded");
                return out;
            }
            out.nothingUsable = !hasUsableData(query::RankQuery::ranks(*db), out.steps);
            if (!prebuildTried)
                prepareIndexes(*db);
            if (trace)
                spdlog::info("load: counted at {:.3f} s", sinceLoad());
            out.database = std::move(db);
        } catch (const std::exception& e) {
            out.error = QString::fromUtf8(e.what());
            out.database.reset();
        }
        return out;
    }));

    if (m_options.interactive && isVisible()) {
        m_progress = new QProgressDialog(tr("Detecting\u2026"), tr("Cancel"), 0, 1000, this);
        m_progress->setWindowTitle(tr("Opening profile"));
        m_progress->setWindowModality(Qt::WindowModal);
        m_progress->setMinimumDuration(300);
        m_progress->setAutoClose(false);
        m_progress->setAutoReset(false);
        m_progress->setMinimumWidth(520);
        connect(m_progress, &QProgressDialog::canceled, this, [state] { state->cancel = true; });
    }
    m_progressTimer->start();
}

QString MainWindow::progressText(const load::LoadProgress& progress)
{
    const QString current = QString::fromStdString(progress.currentFile);
    // The loader's stages after the files (Loader's progress messages): what it is doing, not "Loading <stage>".
    static const std::map<QString, const char*> stages {
        { QStringLiteral("reading the parse cache"), QT_TR_NOOP("Reading the parse cache\u2026") },
        { QStringLiteral("reading the joined imported ranks"), QT_TR_NOOP("Reading the joined imported ranks\u2026") },
        { QStringLiteral("resolving communication groups"),
            QT_TR_NOOP("Resolving communication groups (local link ranks to global ranks)\u2026") },
        { QStringLiteral("building the indexes"), QT_TR_NOOP("Building the indexes\u2026") },
        { QStringLiteral("writing the parse cache"), QT_TR_NOOP("Writing the parse cache for the next open\u2026") },
        { QStringLiteral("merging ranks"), QT_TR_NOOP("Merging the ranks\u2026") },
    };
    if (const auto stage = stages.find(current); stage != stages.end())
        return tr(stage->second);
    const QString file = QFileInfo(current).fileName();
    QString text = file.isEmpty() ? tr("Detecting\u2026") : tr("Loading %1").arg(file);
    if (file.endsWith(QLatin1String(".nprank"))) // a folder of `npuscope-cli import` files: merged, not parsed
        text = tr("Reading imported ranks\n%1 of %2 ranks imported").arg(progress.ranksDone).arg(progress.ranksTotal);
    else if (progress.ranksTotal > 0)
        text += tr("\nrank %1 of %2").arg(progress.ranksDone).arg(progress.ranksTotal);
    return text;
}

void MainWindow::updateProgress()
{
    if (!m_loadState)
        return;
    load::LoadProgress progress;
    {
        std::lock_guard lock(m_loadState->mutex);
        progress = m_loadState->progress;
    }
    QString text = progressText(progress);
    // A stage that takes a while shows that it is still going: its seconds count up.
    if (text != m_stageText) {
        m_stageText = text;
        m_stageClock.start();
    } else if (m_stageClock.isValid() && m_stageClock.elapsed() >= 2000) {
        text += tr(" (%1 s)").arg(m_stageClock.elapsed() / 1000);
    }
    if (m_progress) {
        m_progress->setLabelText(text);
        m_progress->setValue(static_cast<int>(progress.fraction * 1000.0));
    }
    statusBar()->showMessage(text.replace(QLatin1Char('\n'), QStringLiteral(" \u00b7 ")), 500);
}

void MainWindow::cancelLoading()
{
    if (m_loadState)
        m_loadState->cancel = true;
    m_loadState.reset();
    ++m_loadId; // any result still on its way is stale now
    m_loading = false;
    if (m_progressTimer)
        m_progressTimer->stop();
    closeProgress();
}

void MainWindow::closeProgress()
{
    // Deleted now, not later: a deferred delete waits for a nested event loop (a message box) to end, and the
    // dialog's minimum-duration timer could still pop it up in front of that message box.
    delete m_progress;
    m_progress = nullptr;
}

void MainWindow::finishLoad(quint64 id, const LoadOutcome& outcome, const QStringList& paths)
{
    if (id != m_loadId)
        return;
    m_loading = false;
    m_loadState.reset();
    m_progressTimer->stop();
    closeProgress();
    statusBar()->clearMessage();

    if (!outcome.database) {
        const QString message = outcome.cancelled ? tr("Loading cancelled") : outcome.error;
        // Keep whatever was loaded before; just say what happened.
        if (!m_workspace->database())
            m_summary->setText(message.section(QLatin1Char('\n'), 0, 0));
        else
            statusBar()->showMessage(message.section(QLatin1Char('\n'), 0, 0), 8000);
        if (m_options.interactive && !outcome.cancelled && isVisible())
            showNothingLoaded(message);
        emit loadFinished(false, message);
        return;
    }
    hideWelcome();

    m_rankCount = outcome.ranks;
    m_stepCount = outcome.steps;
    m_summary->setText(plural(outcome.ranks, tr("rank"), tr("ranks")) + QStringLiteral(" \u00b7 ")
        + plural(outcome.steps, tr("step"), tr("steps")));
    if (outcome.nothingUsable)
        m_summary->setText(tr("Nothing usable found in %1 (see Parse issues)")
                               .arg(QDir::toNativeSeparators(paths.join(QStringLiteral(", ")))));
    setBadge(outcome.problems, true);
    QStringList names;
    for (const QString& p : paths)
        names << QFileInfo(p).fileName();
    setWindowTitle(QStringLiteral("%1 \u2014 npuscope").arg(names.join(QStringLiteral(", "))));
    addRecent(paths);
    m_workspace->setParseCache(outcome.usedCache ? std::make_shared<const load::ParseCache>() : nullptr);
    m_workspace->setDatabase(outcome.database, paths, outcome.prebuild);
    if (!outcome.prebuildError.isEmpty())
        m_workspace->reportError(tr("Communication indexes"),
            tr("copying the model to build them beside the views failed (%1); they are built on the model instead")
                .arg(outcome.prebuildError));
    if (outcome.nothingUsable) {
        // The files were there but gave nothing: say so in one sentence and show why (Parse issues).
        showIssues();
        if (m_options.interactive && isVisible())
            showNothingLoaded(m_summary->text());
    }
    emit loadFinished(true, m_summary->text());
}

void MainWindow::showNothingLoaded(const QString& message)
{
    // One sentence and a link; the detector's per-file notes stay behind "Show Details".
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Nothing loaded"), QString(), QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("nothingLoadedBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextFormat(Qt::RichText);
    box->setText(message.section(QLatin1Char('\n'), 0, 0).toHtmlEscaped()
        + QStringLiteral("<br><a href=\"formats\">%1</a>").arg(tr("What can I open?")));
    const QString details = message.section(QLatin1Char('\n'), 1);
    if (!details.isEmpty())
        box->setDetailedText(details);
    box->setTextInteractionFlags(Qt::TextBrowserInteraction);
    for (QLabel* label : box->findChildren<QLabel*>())
        connect(label, &QLabel::linkActivated, this, [this] { HelpDialogs::showFormats(this); });
    box->open();
}

bool MainWindow::waitUntilIdle(int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    // Two quiet passes in a row: a finished query may immediately start a dependent one.
    int quiet = 0;
    while (!deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (!m_loading && !m_workspace->isBusy()) {
            if (++quiet >= 3)
                return true;
        } else {
            quiet = 0;
        }
        QThread::msleep(5);
    }
    return false;
}

} // namespace npuscope::gui
