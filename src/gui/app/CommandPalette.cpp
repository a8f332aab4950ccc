// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/app/CommandPalette.h"

#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace npuscope::gui {

CommandPalette::CommandPalette(QWidget* parent)
    : QDialog(parent, Qt::Popup | Qt::FramelessWindowHint)
    , m_edit(new QLineEdit(this))
    , m_list(new QListWidget(this))
    , m_count(new QLabel(this))
{
    setObjectName(QStringLiteral("commandPalette"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    m_edit->setObjectName(QStringLiteral("commandPaletteQuery"));
    m_edit->setPlaceholderText(tr("Go to a view, action, rank, step or operator\u2026"));
    m_edit->setClearButtonEnabled(true);
    m_list->setObjectName(QStringLiteral("commandPaletteList"));
    m_list->setUniformItemSizes(true);
    m_count->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_edit);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_count);
    m_edit->installEventFilter(this);
    connect(m_edit, &QLineEdit::textChanged, this, &CommandPalette::refilter);
    connect(m_list, &QListWidget::itemActivated, this, [this] { runCurrent(); });
    connect(m_list, &QListWidget::itemClicked, this, [this] { runCurrent(); });
}

QString CommandPalette::kindName(Kind kind)
{
    switch (kind) {
    case Kind::View:
        return tr("View");
    case Kind::Action:
        return tr("Action");
    case Kind::Rank:
        return tr("Rank");
    case Kind::Step:
        return tr("Step");
    case Kind::Operator:
        return tr("Operator");
    }
    return {};
}

int CommandPalette::matchRank(const QString& query, const QString& kindName, const QString& text)
{
    const QString q = query.simplified();
    if (q.isEmpty())
        return 1;
    const QString haystack = kindName + QLatin1Char(' ') + text;
    for (const QString& word : q.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!haystack.contains(word, Qt::CaseInsensitive))
            return -1;
    }
    if (text.startsWith(q, Qt::CaseInsensitive))
        return text.size() == q.size() ? 0 : 1; // an exact name ("Rank 12" for "rank 12") before its prefixes
    return 2;
}

void CommandPalette::setEntries(std::vector<Entry> entries)
{
    m_entries = std::move(entries);
    refilter();
}

void CommandPalette::popup()
{
    if (QWidget* p = parentWidget()) {
        const int w = std::clamp(p->width() / 2, 360, 720);
        const int h = std::clamp(p->height() / 2, 240, 520);
        const QPoint topCentre = p->mapToGlobal(QPoint((p->width() - w) / 2, std::min(80, p->height() / 8)));
        setGeometry(QRect(topCentre, QSize(w, h)));
    }
    m_edit->clear();
    refilter();
    show();
    raise();
    activateWindow();
    m_edit->setFocus();
}

void CommandPalette::setQuery(const QString& text)
{
    m_edit->setText(text);
    refilter();
}

std::vector<const CommandPalette::Entry*> CommandPalette::shown() const
{
    std::vector<const Entry*> out;
    for (size_t i : m_shown)
        out.push_back(&m_entries[i]);
    return out;
}

void CommandPalette::refilter()
{
    const QString query = m_edit->text();
    struct Hit {
        int rank;
        size_t index;
    };
    std::vector<Hit> hits;
    for (size_t i = 0; i < m_entries.size(); ++i) {
        const int rank = matchRank(query, kindName(m_entries[i].kind), m_entries[i].text);
        if (rank >= 0)
            hits.push_back({ rank, i });
    }
    // Better matches first; within a rank the entries keep their order (views, actions, ranks, steps, operators).
    std::stable_sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.rank < b.rank; });
    m_shown.clear();
    m_list->clear();
    for (const Hit& h : hits) {
        if (m_shown.size() >= static_cast<size_t>(kMaxShown))
            break;
        m_shown.push_back(h.index);
        const Entry& e = m_entries[h.index];
        QString line = kindName(e.kind) + QStringLiteral(": ") + e.text;
        if (!e.hint.isEmpty())
            line += QStringLiteral("    ") + e.hint;
        m_list->addItem(line);
    }
    if (m_list->count() > 0)
        m_list->setCurrentRow(0);
    m_count->setText(hits.size() > m_shown.size() ? tr("%1 of %2 matches shown").arg(m_shown.size()).arg(hits.size())
                                                  : tr("%n match(es)", nullptr, static_cast<int>(hits.size())));
}

bool CommandPalette::runCurrent()
{
    const int row = m_list->currentRow();
    if (row < 0 || static_cast<size_t>(row) >= m_shown.size())
        return false;
    const auto run = m_entries[m_shown[static_cast<size_t>(row)]].run;
    hide();
    if (run)
        run();
    return true;
}

bool CommandPalette::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_edit && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        const int count = m_list->count();
        switch (key->key()) {
        case Qt::Key_Down:
            if (count > 0)
                m_list->setCurrentRow((m_list->currentRow() + 1) % count);
            return true;
        case Qt::Key_Up:
            if (count > 0)
                m_list->setCurrentRow((m_list->currentRow() + count - 1) % count);
            return true;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            runCurrent();
            return true;
        case Qt::Key_Escape:
            hide();
            return true;
        default:
            break;
        }
    }
    return QDialog::eventFilter(watched, event);
}

} // namespace npuscope::gui
