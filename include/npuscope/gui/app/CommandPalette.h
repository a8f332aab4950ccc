// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>
#include <QString>

#include <functional>
#include <vector>

class QLineEdit;
class QListWidget;
class QLabel;

namespace npuscope::gui {

// Every view, menu action, rank, step and operator of the window, found by typing (Ctrl+K or Ctrl+Shift+P): each word
// typed must appear in an entry's kind or text, case-insensitive; entries whose text starts with the query come first,
// then by kind order (views, actions, ranks, steps, operators). Up/Down choose, Enter (or a click) runs the entry and
// closes the palette, Esc closes it. GUI thread only.
class CommandPalette : public QDialog {
    Q_OBJECT
public:
    enum class Kind { View, Action, Rank, Step, Operator };
    struct Entry {
        Kind kind = Kind::Action;
        QString text; // "Timeline", "File › Open folder…", "Rank 12", "Step 3", "MatMul"
        QString hint; // right-hand side: a shortcut, "slowest", ...
        std::function<void()> run;
    };
    static constexpr int kMaxShown = 200;

    explicit CommandPalette(QWidget* parent = nullptr);

    void setEntries(std::vector<Entry> entries);
    // Shows the palette over the parent's top centre with an empty query.
    void popup();
    // Filters the list as the user would by typing text.
    void setQuery(const QString& text);
    QLineEdit* queryEdit() const { return m_edit; }
    // The entries the list shows now, in order (at most kMaxShown).
    std::vector<const Entry*> shown() const;
    // Runs the highlighted entry (the first by default) and closes; false when the list is empty.
    bool runCurrent();

    // -1: text does not match query; otherwise a rank, lower first (0: text starts with the query).
    static int matchRank(const QString& query, const QString& kindName, const QString& text);
    static QString kindName(Kind kind);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void refilter();

    QLineEdit* m_edit;
    QListWidget* m_list;
    QLabel* m_count;
    std::vector<Entry> m_entries;
    std::vector<size_t> m_shown; // indexes into m_entries
};

} // namespace npuscope::gui
