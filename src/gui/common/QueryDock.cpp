// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/QueryDock.h"

#include "npuscope/gui/common/DeferredReload.h"
#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/DockScrollArea.h"
#include "npuscope/gui/common/TableSetup.h"
#include "npuscope/gui/common/Workspace.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace npuscope::gui {

QueryDock::QueryDock(const QString& title, const char* objectName, Workspace* workspace, QWidget* parent)
    : QDockWidget(title, parent)
    , m_workspace(workspace)
    , m_deferred(new DeferredReload(this, [this] { reload(); }))
    , m_errorLabel(new QLabel(this))
{
    setObjectName(QString::fromLatin1(objectName));
    m_errorLabel->setObjectName(QStringLiteral("queryError"));
    m_errorLabel->setStyleSheet(QStringLiteral("color: #b00000; padding: 2px 6px;"));
    m_errorLabel->setWordWrap(true);
    m_errorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_errorLabel->hide();
    addRunner();
    connect(m_workspace, &Workspace::databaseChanged, this, &QueryDock::requestReload);
}

QueryDock::~QueryDock() = default;

bool QueryDock::isBusy() const
{
    return std::any_of(m_runners.begin(), m_runners.end(), [](const QueryRunner* r) { return r->isBusy(); });
}

QueryDock::Body QueryDock::makeBody(const BodyOptions& options)
{
    const auto [body, layout] = newColumn(this, 4);
    layout->setSpacing(options.spacing);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, options.barGap);
    layout->addLayout(bar);
    return { body, layout, bar };
}

void QueryDock::setBody(QWidget* body)
{
    const auto [frame, layout] = newColumn(this);
    layout->setSpacing(0);
    m_errorLabel->setParent(frame);
    layout->addWidget(m_errorLabel);
    body->setParent(frame);
    layout->addWidget(body, 1);
    // Every table of the dock gets its Copy / Export CSV toolbar here, once the tables sit in their layouts.
    TableSetup::addToolbars(body);
    // Scrolls when the dock is smaller than its content needs (DockScrollArea).
    setWidget(new DockScrollArea(frame, this));
}

QueryRunner* QueryDock::addRunner(QueryRunner::Delivery delivery)
{
    auto* runner = new QueryRunner(m_workspace, windowTitle(), this, delivery);
    connect(runner, &QueryRunner::failed, this, &QueryDock::showError);
    m_runners.push_back(runner);
    return runner;
}

void QueryDock::setReloadWhenHidden(bool always) { m_deferred->setAlwaysRun(always); }

void QueryDock::requestReload()
{
    m_errorLabel->hide();
    m_deferred->request();
}

void QueryDock::reloadOn(std::initializer_list<void (Workspace::*)()> triggers)
{
    for (auto signal : triggers)
        connect(m_workspace, signal, this, &QueryDock::requestReload);
}

void QueryDock::reloadPartOn(std::initializer_list<void (Workspace::*)()> triggers, std::function<void()> part)
{
    for (auto signal : triggers) {
        connect(m_workspace, signal, this, [this, part] {
            // A new model: databaseChanged has reloaded (or queued) every part already.
            if (m_workspace->isResetting())
                return;
            if (m_deferred->mustWait())
                m_deferred->request();
            else
                part();
        });
    }
}

void QueryDock::showError(const QString& message)
{
    m_errorLabel->setText(tr("\u26a0 %1 (listed in Parse issues)").arg(message));
    m_errorLabel->show();
}

} // namespace npuscope::gui
