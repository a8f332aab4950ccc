// SPDX-License-Identifier: Apache-2.0
// MainWindow's ways to a view: showing and raising a dock, the main views of Ctrl+1..9, and the command palette
// (Ctrl+K) with the ranks, steps and operators it finds, fetched off the GUI thread.
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
#include "npuscope/load/ParseCache.h"
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

void MainWindow::showView(QDockWidget* dock)
{
    if (!dock)
        return;
    if (m_workspace->database())
        hideWelcome();
    dock->show();
    dock->raise();
    if (QWidget* body = dock->widget())
        body->setFocus(Qt::ShortcutFocusReason);
}

QList<QDockWidget*> MainWindow::mainViews() const
{
    // The views that answer "where does the step go and why" first.
    return { m_stepsDock, m_timelineDock, m_overviewDock, m_adviceDock, m_blameDock, m_operatorDock, m_commMatrixDock,
        m_collectivesDock, m_mareyDock };
}

void MainWindow::fetchNavigation()
{
    m_navigation.reset();
    if (!m_workspace->database())
        return;
    m_navigationRunner->run(
        [](model::Database& db) {
            return std::make_shared<const query::NavigationTargets>(query::NavigationQuery::targets(db));
        },
        [this](std::shared_ptr<const query::NavigationTargets> targets) {
            m_navigation = std::move(targets);
            if (m_palette && m_palette->isVisible()) {
                const QString query = m_palette->queryEdit()->text();
                showCommandPalette()->setQuery(query);
            }
        });
}

CommandPalette* MainWindow::showCommandPalette()
{
    if (!m_palette)
        m_palette = new CommandPalette(this);
    std::vector<CommandPalette::Entry> entries;
    using Kind = CommandPalette::Kind;
    const QList<QDockWidget*> main = mainViews();
    for (QDockWidget* dock : docks()) {
        const auto k = main.indexOf(dock);
        entries.push_back({ Kind::View, dock->windowTitle(),
            k >= 0 && k < 9
                ? QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + k)).toString(QKeySequence::NativeText)
                : QString(),
            [this, dock] { showView(dock); } });
    }
    // Every enabled menu action, named by its menu path ("File › Open folder…").
    std::function<void(QMenu*, const QString&)> addMenu = [&](QMenu* menu, const QString& path) {
        for (QAction* action : menu->actions()) {
            if (action->isSeparator() || !action->isEnabled() || action->text().isEmpty())
                continue;
            const QString text = QString(action->text()).remove(QLatin1Char('&'));
            if (action->menu()) {
                addMenu(action->menu(), path + text + QStringLiteral(" › "));
                continue;
            }
            if (action == m_viewMenu->actions().value(0))
                continue; // the palette itself
            entries.push_back({ Kind::Action, path + text, action->shortcut().toString(QKeySequence::NativeText),
                [action] { action->trigger(); } });
        }
    };
    for (QAction* top : menuBar()->actions()) {
        if (top->menu())
            addMenu(top->menu(), QString(top->text()).remove(QLatin1Char('&')) + QStringLiteral(" › "));
    }
    // What the docks' own buttons do that a user looks for by name.
    entries.push_back({ Kind::Action, tr("Timeline \u203a Expand all ranks"), QString(), [this] {
                           showView(m_timelineDock);
                           m_timelineDock->expandAllRanks();
                       } });
    entries.push_back(
        { Kind::Action, tr("Cancel background loading"), QString(), [this] { m_workspace->loads()->cancelAll(); } });
    if (m_navigation && m_workspace->database()) {
        for (int64_t rank : m_navigation->ranks) {
            entries.push_back({ Kind::Rank, tr("Rank %1").arg(rank), QString(), [this, rank] {
                                   m_workspace->setSelectedRank(rank);
                                   m_timelineDock->scrollToRank(rank);
                                   showView(m_timelineDock);
                               } });
        }
        for (int64_t step : m_navigation->steps)
            entries.push_back(
                { Kind::Step, tr("Step %1").arg(step), QString(), [this, step] { m_workspace->setStep(step); } });
        for (const std::string& op : m_navigation->operatorTypes) {
            entries.push_back({ Kind::Operator, QString::fromStdString(op), QString(), [this, op] {
                                   m_workspace->setSelectedOperator(
                                       Workspace::OperatorKey { query::OperatorGroupBy::Type, op, std::nullopt });
                                   showView(m_operatorDock);
                               } });
        }
    }
    m_palette->setEntries(std::move(entries));
    if (!m_palette->isVisible())
        m_palette->popup();
    return m_palette;
}

void MainWindow::focusDock(QDockWidget* dock)
{
    if (!dock)
        return;
    hideWelcome();
    for (QDockWidget* other : docks()) {
        if (other != dock)
            other->hide();
    }
    dock->setFloating(false);
    dock->show();
    dock->raise();
}

} // namespace npuscope::gui
