// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/TableSetup.h"

#include "npuscope/gui/common/RowTableModelBase.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QFileDialog>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QMessageBox>
#include <QSortFilterProxyModel>
#include <QTableView>

#include <algorithm>
#include <numeric>

namespace npuscope::gui {

TableSetup::TableSetup(QTableView* view)
    : QObject(view)
    , m_view(view)
{
}

TableSetup* TableSetup::install(QTableView* view, const Options& options)
{
    auto* setup = new TableSetup(view);
    view->setSortingEnabled(options.sortable);
    if (options.sortable)
        view->sortByColumn(options.sortColumn, options.sortOrder);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(
        options.singleSelection ? QAbstractItemView::SingleSelection : QAbstractItemView::ExtendedSelection);
    if (options.readOnly)
        view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->verticalHeader()->hide();
    if (options.compactRows)
        view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    if (options.centeredHeader)
        view->horizontalHeader()->setDefaultAlignment(Qt::AlignCenter);
    if (options.stretchLastSection)
        view->horizontalHeader()->setStretchLastSection(true);
    view->setWordWrap(false);

    setup->m_copy = new QAction(tr("Copy rows"), view);
    setup->m_copy->setShortcut(QKeySequence::Copy);
    setup->m_copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(setup->m_copy, &QAction::triggered, setup, [setup] {
        const QString text = setup->selectedRowsText();
        if (!text.isEmpty())
            QApplication::clipboard()->setText(text);
    });
    setup->m_export = new QAction(tr("Export CSV\u2026"), view);
    connect(setup->m_export, &QAction::triggered, setup, &TableSetup::exportWithDialog);
    view->addAction(setup->m_copy);
    view->addAction(setup->m_export);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    return setup;
}

QTableView* TableSetup::sortedTable(
    QAbstractItemModel* model, QSortFilterProxyModel* proxy, int sortRole, const Options& options, QWidget* parent)
{
    proxy->setSourceModel(model);
    proxy->setSortRole(sortRole);
    auto* view = new QTableView(parent);
    view->setModel(proxy);
    install(view, options);
    return view;
}

void TableSetup::selectSourceRow(QTableView* view, const QSortFilterProxyModel* proxy, int sourceRow)
{
    if (sourceRow < 0) {
        view->clearSelection();
        return;
    }
    const QModelIndex index = proxy->mapFromSource(proxy->sourceModel()->index(sourceRow, 0));
    view->selectRow(index.row());
    view->scrollTo(index);
}

std::vector<int> TableSetup::visibleColumns() const
{
    const QHeaderView* header = m_view->horizontalHeader();
    std::vector<int> columns;
    for (int visual = 0; visual < header->count(); ++visual) {
        const int logical = header->logicalIndex(visual);
        if (!m_view->isColumnHidden(logical))
            columns.push_back(logical);
    }
    return columns;
}

QString TableSetup::selectedRowsText() const
{
    if (!m_view->model() || !m_view->selectionModel())
        return {};
    std::vector<int> rows;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows())
        rows.push_back(index.row());
    if (rows.empty())
        return {};
    // Rows of a proxy are in view order already; the selection lists them in click order.
    std::sort(rows.begin(), rows.end());
    return RowTableModelBase::tabText(*m_view->model(), rows, visibleColumns());
}

QString TableSetup::csvText() const
{
    if (!m_view->model())
        return {};
    std::vector<int> rows(static_cast<size_t>(m_view->model()->rowCount()));
    std::iota(rows.begin(), rows.end(), 0);
    return RowTableModelBase::csvText(*m_view->model(), rows, visibleColumns());
}

bool TableSetup::writeCsv(const QString& path, QString* error) const
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(csvText().toUtf8()) < 0) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void TableSetup::exportWithDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        m_view, tr("Export table as CSV"), m_view->objectName() + QStringLiteral(".csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!writeCsv(path, &error))
        QMessageBox::warning(m_view, tr("Export CSV"), error);
}

} // namespace npuscope::gui
