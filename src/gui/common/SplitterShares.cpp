// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/SplitterShares.h"

#include <QEvent>
#include <QSplitter>

#include <algorithm>

namespace npuscope::gui {

SplitterShares::SplitterShares(QSplitter* splitter, std::vector<int> shares)
    : QObject(splitter)
    , m_splitter(splitter)
    , m_shares(std::move(shares))
{
}

SplitterShares* SplitterShares::install(QSplitter* splitter, std::vector<int> shares)
{
    auto* keeper = new SplitterShares(splitter, std::move(shares));
    splitter->installEventFilter(keeper);
    connect(splitter, &QSplitter::splitterMoved, keeper, [keeper] { keeper->m_userSized = true; });
    keeper->apply();
    return keeper;
}

SplitterShares* SplitterShares::installTableDetail(QSplitter* splitter, QWidget* detail)
{
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* keeper = install(splitter, { 3, 2 });
    splitter->setChildrenCollapsible(false);
    detail->setMinimumHeight(4 * detail->fontMetrics().lineSpacing());
    return keeper;
}

bool SplitterShares::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_splitter && !m_userSized && (event->type() == QEvent::Resize || event->type() == QEvent::Show))
        apply();
    return QObject::eventFilter(watched, event);
}

void SplitterShares::apply()
{
    QSplitter* splitter = m_splitter.data();
    if (!splitter)
        return;
    const int count = splitter->count();
    std::vector<bool> visible(static_cast<size_t>(count), false);
    int weights = 0, panes = 0;
    for (int i = 0; i < count; ++i) {
        const QWidget* pane = splitter->widget(i);
        visible[static_cast<size_t>(i)] = pane && !pane->isHidden() && i < static_cast<int>(m_shares.size());
        if (visible[static_cast<size_t>(i)]) {
            ++panes;
            weights += m_shares[static_cast<size_t>(i)];
        }
    }
    const int length = (splitter->orientation() == Qt::Vertical ? splitter->height() : splitter->width())
        - std::max(0, panes - 1) * splitter->handleWidth();
    if (weights <= 0 || length <= 0)
        return;
    QList<int> sizes;
    for (int i = 0; i < count; ++i)
        sizes << (visible[static_cast<size_t>(i)] ? length * m_shares[static_cast<size_t>(i)] / weights : 0);
    // setSizes moves the handles without splitterMoved: the user has not sized anything.
    if (sizes != splitter->sizes())
        splitter->setSizes(sizes);
}

} // namespace npuscope::gui
