// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/app/WelcomePage.h"

#include <QCommandLinkButton>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace npuscope::gui {

WelcomePage::WelcomePage(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("welcomePage"));
    auto* outer = new QHBoxLayout(this);
    outer->addStretch(1);
    auto* column = new QVBoxLayout;
    column->addStretch(1);

    auto* title = new QLabel(tr("<h1>npuscope</h1>"), this);
    column->addWidget(title);
    auto* about = new QLabel(tr("npuscope shows where the time of an Ascend NPU training job goes: the step time of "
                                "every rank split into computing, communication and idle time, the communication "
                                "between ranks, memory, operators and a timeline of every device, for one rank or "
                                "thousands. Open the folder the profiler (torch_npu, MindSpore, msprof) wrote."),
        this);
    about->setWordWrap(true);
    about->setMaximumWidth(560);
    column->addWidget(about);
    column->addSpacing(12);

    auto* open
        = new QCommandLinkButton(tr("Open folder\u2026"), tr("A profiler output folder, or a folder of them"), this);
    open->setObjectName(QStringLiteral("welcomeOpen"));
    connect(open, &QPushButton::clicked, this, &WelcomePage::openFolderRequested);
    column->addWidget(open);
    m_demo = new QCommandLinkButton(tr("Open the demo"), tr("Two real ranks of an 8-rank torch_npu job"), this);
    m_demo->setObjectName(QStringLiteral("welcomeDemo"));
    connect(m_demo, &QPushButton::clicked, this, [this] {
        if (!m_demoPath.isEmpty())
            emit openRequested({ m_demoPath });
    });
    m_demo->hide();
    column->addWidget(m_demo);

    m_recentTitle = new QLabel(tr("<b>Open recent</b>"), this);
    column->addWidget(m_recentTitle);
    m_recentLayout = new QVBoxLayout;
    m_recentLayout->setSpacing(2);
    column->addLayout(m_recentLayout);
    column->addSpacing(12);

    auto* hint = new QLabel(
        tr("Or drop folders on this window. <a href=\"formats\">What can I open?</a> \u00b7 F1: shortcuts"), this);
    hint->setObjectName(QStringLiteral("welcomeHint"));
    connect(hint, &QLabel::linkActivated, this, &WelcomePage::formatsRequested);
    column->addWidget(hint);
    column->addStretch(2);

    outer->addLayout(column);
    outer->addStretch(1);
    setRecent({});
}

void WelcomePage::setRecent(const QStringList& entries)
{
    while (QLayoutItem* item = m_recentLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    constexpr int kShown = 5;
    int shown = 0;
    for (const QString& entry : entries) {
        const QStringList paths = entryPaths(entry);
        if (paths.isEmpty())
            continue;
        const QString text = entryText(paths);
        auto* link = new QLabel(QStringLiteral("<a href=\"open\">%1</a>").arg(text.toHtmlEscaped()), this);
        link->setToolTip(paths.join(QLatin1Char('\n')));
        connect(link, &QLabel::linkActivated, this, [this, paths] { emit openRequested(paths); });
        m_recentLayout->addWidget(link);
        if (++shown == kShown)
            break;
    }
    m_recentTitle->setVisible(shown > 0);
}

QStringList WelcomePage::entryPaths(const QString& entry) { return entry.split(QLatin1Char('\n'), Qt::SkipEmptyParts); }

QString WelcomePage::entryText(const QStringList& paths)
{
    if (paths.isEmpty())
        return {};
    QString text = QDir::toNativeSeparators(paths.first());
    if (paths.size() > 1)
        text += tr(" (+%1 more)").arg(paths.size() - 1);
    return text;
}

void WelcomePage::setDemoPath(const QString& path)
{
    m_demoPath = path;
    m_demo->setVisible(!path.isEmpty());
}

} // namespace npuscope::gui
