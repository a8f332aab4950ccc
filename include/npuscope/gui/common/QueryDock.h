// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/QueryRunner.h"

#include <QDockWidget>

#include <functional>
#include <initializer_list>
#include <vector>

class QHBoxLayout;
class QLabel;
class QVBoxLayout;

namespace npuscope::gui {

class DeferredReload;
class Workspace;

// The base of every dock that shows the result of background queries. It owns the Workspace wiring, the
// dock's QueryRunners, "dirty when hidden, re-query when shown" (DeferredReload) and the reload triggers;
// a subclass keeps its widgets, its query call and its display code:
//
//   MyDock::MyDock(Workspace* ws, QWidget* parent) : QueryDock(tr("Title"), kObjectName, ws, parent) {
//       const auto [body, layout, bar] = makeBody();   // or a widget of its own
//       ...                                            // the dock's own widgets
//       setBody(body);
//       reloadOn({ &Workspace::stepChanged });         // databaseChanged is always a trigger
//       requestReload();
//   }
//   void MyDock::reload() { if (!runner()->run(query, display)) showEmpty(); }
//
// A failed query is reported to the Parse issues dock (QueryRunner -> Workspace::reportError) and shown in
// a red line above the dock's content until the next reload. GUI thread only.
class QueryDock : public QDockWidget {
    Q_OBJECT
public:
    ~QueryDock() override;

    Workspace* workspace() const { return m_workspace; }
    // Background requests of this dock in flight.
    bool isBusy() const;
    // The line that shows the last failed query's message (hidden when none).
    QLabel* errorLabel() const { return m_errorLabel; }

protected:
    QueryDock(const QString& title, const char* objectName, Workspace* workspace, QWidget* parent);

    // Re-queries the view (called by requestReload, now or when the dock is next shown).
    virtual void reload() = 0;

    // The content of a dock led by a row of controls: widget (for setBody) holds layout, a column with the docks'
    // 4 px margin, whose first row is bar.
    struct Body {
        QWidget* widget;
        QVBoxLayout* layout;
        QHBoxLayout* bar;
    };
    struct BodyOptions {
        int spacing = -1; // between the column's rows; -1: the style's
        int barGap = 0; // under the bar, for a column whose other rows touch (spacing 0)
    };
    Body makeBody(const BodyOptions& options);
    Body makeBody() { return makeBody(BodyOptions {}); }
    // The dock's content, shown under the error line.
    void setBody(QWidget* body);
    // The dock's first runner; addRunner() makes more (independent request streams), all owned by the dock and
    // reporting their failures under the dock's title.
    QueryRunner* runner() const { return m_runners.front(); }
    QueryRunner* addRunner(QueryRunner::Delivery delivery = QueryRunner::Delivery::NewestOnly);
    // Reloads now, or when the dock is next shown if it is hidden in a visible window.
    void requestReload();
    // Reload while hidden too (DeferredReload::setAlwaysRun): for a dock whose result other views lead with.
    void setReloadWhenHidden(bool always);
    // Also reload when the Workspace emits one of these (databaseChanged always does).
    void reloadOn(std::initializer_list<void (Workspace::*)()> triggers);
    // On these signals run part, a smaller re-query than reload(); while the dock waits to be shown the full
    // reload is requested instead.
    void reloadPartOn(std::initializer_list<void (Workspace::*)()> triggers, std::function<void()> part);
    // Shows message in the error line (hidden again by the next reload).
    void showError(const QString& message);

private:
    Workspace* m_workspace;
    std::vector<QueryRunner*> m_runners;
    DeferredReload* m_deferred;
    QLabel* m_errorLabel;
};

} // namespace npuscope::gui
