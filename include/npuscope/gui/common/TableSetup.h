// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QPointer>

#include <vector>

class QAbstractItemModel;
class QBoxLayout;
class QAction;
class QSortFilterProxyModel;
class QTableView;
class QWidget;

namespace npuscope::gui {

// Sets up a dock's QTableView the way every dock shows a table (whole rows selected, no vertical header, compact
// rows, no word wrap, read-only) and gives it "Copy rows" (Ctrl+C: the selected rows, tab-separated with a header)
// and "Export CSV…" (every row in view order, RFC 4180) in its context menu and, once addToolbars() has run over
// the dock (QueryDock::setBody does), on a small toolbar above the table (a tab page's table: in the tab bar's
// corner). Works through sort / filter proxies: the text is what the view shows, in its order, over its visible
// columns. The object is a child of the view. GUI thread only.
class TableSetup : public QObject {
    Q_OBJECT
public:
    struct Options {
        bool singleSelection = false; // else extended selection
        bool stretchLastSection = false;
        bool centeredHeader = false;
        bool readOnly = true;
        // Row height = font height + 6 px, as the docks' tables have it; off keeps the style's height.
        bool compactRows = true;
        bool sortable = false;
        int sortColumn = -1; // with sortable: the initial sort column, -1 for the model's order
        Qt::SortOrder sortOrder = Qt::AscendingOrder;
        // Copy / Export CSV on a toolbar above the table (off for a table that continues another, e.g. a footer).
        bool toolbar = true;
        // With toolbar: the row it is added to (at its end), e.g. the dock's own row of controls above the table,
        // instead of a row of its own above the table: one row less of a low dock's height.
        QBoxLayout* toolbarRow = nullptr;
    };

    // The view keeps its model; call after setModel.
    static TableSetup* install(QTableView* view, const Options& options);
    // A new view (a child of parent) of model through proxy (not owned; its sort role set to sortRole), installed
    // with options.
    static QTableView* sortedTable(
        QAbstractItemModel* model, QSortFilterProxyModel* proxy, int sortRole, const Options& options, QWidget* parent);
    // Selects the view row that shows sourceRow of the proxy's source model and scrolls to it; sourceRow < 0 clears
    // the selection.
    static void selectSourceRow(QTableView* view, const QSortFilterProxyModel* proxy, int sourceRow);

    // Puts a toolbar (row count, Copy, Export CSV) above every table under root that has a TableSetup with the
    // toolbar option and none yet: the table is moved into a frame that takes its place in its layout or splitter;
    // the tables that are pages of a QTabWidget share one toolbar in the tab bar's corner that acts on the current
    // page. Call once the tables sit in their layouts.
    static void addToolbars(QWidget* root);
    // The TableSetup installed on view, nullptr when none.
    static TableSetup* of(const QTableView* view);

    // Sizes the columns of view (installed) to their contents and fits them in its viewport, now and on every
    // resize of the viewport: when the contents are wider than the viewport, the elastic columns (logical indexes:
    // names, messages, member lists) give up width, the narrowest keeping the most, each down to its header's width
    // (at least kMinElasticWidth); every other column (figures) keeps its content width, so a number is never cut.
    // An elided cell shows its whole text as a tooltip when the model gives none. Columns the view still cannot hold
    // scroll. Call after a model reset, instead of resizeColumnsToContents().
    static void fitColumns(QTableView* view, std::vector<int> elastic);
    static constexpr int kMinElasticWidth = 60;
    QTableView* view() const { return m_view; }
    // The toolbar addToolbars() gave the table (above it, in a row of the dock's, or shared in a tab bar's corner),
    // nullptr before or without one.
    QWidget* toolbar() const { return m_toolbarWidget.data(); }

    // Selected rows in view order (Ctrl+C); empty when nothing is selected.
    QString selectedRowsText() const;
    // Every row in view order as CSV.
    QString csvText() const;
    // Writes csvText() to a file; false with `error` set when it cannot.
    bool writeCsv(const QString& path, QString* error) const;
    // The file name the CSV export suggests: "npuscope-<the dock's title>.csv" ("npuscope-cluster-steps.csv").
    QString suggestedCsvName() const;

    QAction* copyAction() const { return m_copy; }
    QAction* exportAction() const { return m_export; }

private:
    explicit TableSetup(QTableView* view);
    std::vector<int> visibleColumns() const;
    void exportWithDialog();
    void applyFit();
    bool eventFilter(QObject* watched, QEvent* event) override;

    std::vector<int> m_elastic; // fitColumns: the columns that give up width
    std::vector<int> m_natural; // fitColumns: every column's content width, by logical index (the elastic ones used)
    bool m_fitting = false;

    QTableView* m_view;
    bool m_toolbar = true;
    QPointer<QBoxLayout> m_toolbarRow;
    QPointer<QWidget> m_toolbarWidget; // addToolbars: the toolbar acting on this table
    QAction* m_copy = nullptr;
    QAction* m_export = nullptr;
};

} // namespace npuscope::gui
