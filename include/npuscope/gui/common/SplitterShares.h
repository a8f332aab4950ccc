// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QPointer>

#include <vector>

class QSplitter;
class QWidget;

namespace npuscope::gui {

// Keeps a splitter's panes at fixed shares of its length (e.g. a table 3 and its detail pane 2) each time the splitter
// is resized, until the user drags a handle; from then on the splitter keeps the user's sizes as usual. Stretch
// factors alone do not do it: they share only what is left after every pane's size hint, so in a short dock a table
// with a tall hint took nearly all of the height and left its detail pane one line. Hidden panes get nothing and the
// others share the length. The object is a child of the splitter. GUI thread only.
class SplitterShares : public QObject {
    Q_OBJECT
public:
    // shares: one positive weight per pane, in the splitter's order.
    static SplitterShares* install(QSplitter* splitter, std::vector<int> shares);
    // A table over its detail pane (the splitter's two panes) at 3 : 2 whatever the two would like (the table's hint
    // took nearly all of a short dock): stretch factors and shares 3 and 2, panes that do not collapse, the detail at
    // least four lines of text high.
    static SplitterShares* installTableDetail(QSplitter* splitter, QWidget* detail);
    // Whether the user has moved a handle (the shares no longer apply).
    bool userSized() const { return m_userSized; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    SplitterShares(QSplitter* splitter, std::vector<int> shares);
    void apply();

    QPointer<QSplitter> m_splitter;
    std::vector<int> m_shares;
    bool m_userSized = false;
};

} // namespace npuscope::gui
