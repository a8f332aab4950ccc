// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/TableSetup.h"

#include "npuscope/gui/common/RowTableModelBase.h"

#include <QAction>
#include <QApplication>
#include <QBoxLayout>
#include <QClipboard>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHelpEvent>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLayout>
#include <QMessageBox>
#include <QPointer>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

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
    setup->setObjectName(QStringLiteral("tableSetup"));
    setup->m_toolbar = options.toolbar;
    setup->m_toolbarRow = options.toolbarRow;
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
    view->viewport()->installEventFilter(setup);
    return setup;
}

void TableSetup::fitColumns(QTableView* view, std::vector<int> elastic)
{
    TableSetup* setup = of(view);
    if (!setup)
        return;
    // Measured over the first 200 rows (Qt's default is 1,000): a table of tens of thousands of instances spent a
    // tenth of a second in text measurement per refill; the rows are sorted by the figure that matters, so the first
    // ones are the ones read.
    view->horizontalHeader()->setResizeContentsPrecision(200);
    view->resizeColumnsToContents();
    const QHeaderView* header = view->horizontalHeader();
    setup->m_elastic = std::move(elastic);
    setup->m_natural.assign(static_cast<size_t>(header->count()), 0);
    for (int c = 0; c < header->count(); ++c)
        setup->m_natural[static_cast<size_t>(c)] = header->sectionSize(c);
    setup->applyFit();
}

void TableSetup::applyFit()
{
    QHeaderView* header = m_view->horizontalHeader();
    if (m_fitting || m_elastic.empty() || static_cast<int>(m_natural.size()) != header->count())
        return;
    m_fitting = true;
    const auto natural = [this](int c) { return m_natural[static_cast<size_t>(c)]; };
    const auto isElastic
        = [this](int c) { return std::find(m_elastic.begin(), m_elastic.end(), c) != m_elastic.end(); };
    int fixed = 0;
    std::vector<int> elastic;
    for (int c = 0; c < header->count(); ++c) {
        if (m_view->isColumnHidden(c))
            continue;
        if (isElastic(c))
            elastic.push_back(c);
        else
            // As sized, or as the user dragged it; a stretched last section by its content (its size is what is left).
            fixed += header->stretchLastSection() && header->visualIndex(c) == header->count() - 1 ? natural(c)
                                                                                                   : header->sectionSize(c);
    }
    int budget = m_view->viewport()->width() - fixed;
    // Each keeps its header and about a dozen characters (an op name cut to "hcom_…" says nothing), or half its
    // text when that is less. When even that does not fit, the table scrolls anyway: then each keeps two dozen
    // characters (or its whole text), since cutting the names further saves no scrolling worth the loss.
    const int charWidth = m_view->fontMetrics().averageCharWidth();
    const auto floorOf = [&](int c, int characters) {
        const int readable = std::min(characters > 12 ? natural(c) : natural(c) / 2, characters * charWidth);
        return std::min(natural(c), std::max({ kMinElasticWidth, header->sectionSizeHint(c), readable }));
    };
    int atFloors = 0;
    for (const int c : elastic)
        atFloors += floorOf(c, 12);
    const int characters = atFloors > budget ? 24 : 12;
    // Water-filling: the narrowest elastic column first, each taking at most an equal share of what is left.
    std::sort(elastic.begin(), elastic.end(), [&](int a, int b) { return natural(a) < natural(b); });
    for (size_t i = 0; i < elastic.size(); ++i) {
        const int c = elastic[i];
        const int share = budget / static_cast<int>(elastic.size() - i);
        const int width = std::max(floorOf(c, characters), std::min(natural(c), share));
        budget -= width;
        header->resizeSection(c, width);
    }
    m_fitting = false;
}

bool TableSetup::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_view->viewport())
        return QObject::eventFilter(watched, event);
    if (event->type() == QEvent::Resize && !m_elastic.empty()) {
        applyFit();
    } else if (event->type() == QEvent::ToolTip) {
        // A cut cell without a tooltip of its own shows its whole text.
        const auto* help = static_cast<QHelpEvent*>(event);
        const QModelIndex index = m_view->indexAt(help->pos());
        if (index.isValid() && !index.data(Qt::ToolTipRole).isValid()) {
            const QString text = index.data(Qt::DisplayRole).toString();
            if (!text.isEmpty() && m_view->visualRect(index).width() < m_view->sizeHintForIndex(index).width()) {
                QToolTip::showText(help->globalPos(), text, m_view->viewport(), m_view->visualRect(index));
                return true;
            }
        }
    }
    return QObject::eventFilter(watched, event);
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

TableSetup* TableSetup::of(const QTableView* view)
{
    return view ? view->findChild<TableSetup*>(QStringLiteral("tableSetup"), Qt::FindDirectChildrenOnly) : nullptr;
}

namespace {

    // A row of small buttons: the row count on the left, Copy and Export CSV on the right.
    class TableToolbar : public QWidget {
    public:
        explicit TableToolbar(QWidget* parent)
            : QWidget(parent)
        {
            setObjectName(QStringLiteral("tableToolbar"));
            auto* layout = new QHBoxLayout(this);
            layout->setContentsMargins(4, 0, 2, 0);
            layout->setSpacing(2);
            m_rows = new QLabel(this);
            m_rows->setObjectName(QStringLiteral("tableRowCount"));
            // Quiet but readable: the placeholder colour (the disabled grey was 1.7:1 on the light theme's window).
            m_rows->setForegroundRole(QPalette::PlaceholderText);
            layout->addWidget(m_rows);
            layout->addStretch(1);
            m_copy = button(TableSetup::tr("Copy"), TableSetup::tr("Copy the selected rows (Ctrl+C), tab-separated"));
            m_copy->setObjectName(QStringLiteral("tableCopyButton"));
            m_export = button(TableSetup::tr("Export CSV\u2026"), TableSetup::tr("Save every row as a CSV file"));
            m_export->setObjectName(QStringLiteral("tableExportButton"));
            layout->addWidget(m_copy);
            layout->addWidget(m_export);
        }

        // Acts on setup's table from now on (nullptr: disabled).
        void follow(TableSetup* setup)
        {
            for (const auto& c : m_connections)
                disconnect(c);
            m_connections.clear();
            m_setup = setup;
            m_copy->setEnabled(setup != nullptr);
            m_export->setEnabled(setup != nullptr);
            if (!setup) {
                m_rows->clear();
                return;
            }
            m_connections.push_back(connect(m_copy, &QToolButton::clicked, setup->copyAction(), &QAction::trigger));
            m_connections.push_back(connect(m_export, &QToolButton::clicked, setup->exportAction(), &QAction::trigger));
            const QTableView* view = setup->view();
            if (QAbstractItemModel* model = view ? view->model() : nullptr) {
                const auto update = [this] { updateCount(); };
                m_connections.push_back(connect(model, &QAbstractItemModel::modelReset, this, update));
                m_connections.push_back(connect(model, &QAbstractItemModel::layoutChanged, this, update));
                m_connections.push_back(connect(model, &QAbstractItemModel::rowsInserted, this, update));
                m_connections.push_back(connect(model, &QAbstractItemModel::rowsRemoved, this, update));
            }
            updateCount();
        }

    private:
        QToolButton* button(const QString& text, const QString& tip)
        {
            auto* b = new QToolButton(this);
            b->setText(text);
            b->setToolTip(tip);
            b->setAutoRaise(true);
            b->setToolButtonStyle(Qt::ToolButtonTextOnly);
            return b;
        }
        void updateCount()
        {
            const TableSetup* setup = m_setup.data();
            const QTableView* view = setup ? setup->view() : nullptr;
            const QAbstractItemModel* model = view ? view->model() : nullptr;
            if (!model) {
                m_rows->clear();
                return;
            }
            // Two sources: English has no translation file to pick the plural form ("2 row(s)" otherwise).
            const int n = model->rowCount();
            m_rows->setText(n == 1 ? TableSetup::tr("%n row", nullptr, n) : TableSetup::tr("%n rows", nullptr, n));
        }

        QPointer<TableSetup> m_setup;
        QLabel* m_rows;
        QToolButton* m_copy;
        QToolButton* m_export;
        std::vector<QMetaObject::Connection> m_connections;
    };

    // The table and its toolbar; shown and hidden with the table (a dock hides a table it has nothing for).
    class TableFrame : public QWidget {
    public:
        TableFrame(QTableView* view, QWidget* parent)
            : QWidget(parent)
            , m_view(view)
        {
            setObjectName(view->objectName() + QStringLiteral("Frame"));
        }
        // Returns the toolbar.
        QWidget* adopt(TableSetup* setup, bool hidden, QBoxLayout* toolbarRow)
        {
            auto* layout = new QVBoxLayout(this);
            layout->setContentsMargins(0, 0, 0, 0);
            layout->setSpacing(0);
            auto* bar = new TableToolbar(this);
            if (toolbarRow) {
                toolbarRow->addWidget(bar); // reparented to the row's widget; shown and hidden with the table
                m_outsideBar = bar;
            } else
                layout->addWidget(bar);
            m_view->setParent(this);
            layout->addWidget(m_view, 1);
            // A table the dock hid stays hidden (and so does its frame) until the dock shows it.
            if (!hidden)
                m_view->show();
            setSizePolicy(m_view->sizePolicy());
            // A table squeezed below a few rows shows nothing useful: it keeps its header and kMinimumRows rows, and a
            // dock too small for them scrolls (DockScrollArea) instead. The header grows with two-line titles.
            keepRowsVisible();
            connect(m_view->horizontalHeader(), &QHeaderView::geometriesChanged, this, [this] { keepRowsVisible(); });
            bar->follow(setup);
            setHidden(hidden);
            if (m_outsideBar)
                m_outsideBar->setHidden(hidden);
            m_view->installEventFilter(this);
            return bar;
        }

    protected:
        bool eventFilter(QObject* watched, QEvent* event) override
        {
            if (watched == m_view && event->type() == QEvent::ShowToParent) {
                show();
                if (m_outsideBar)
                    m_outsideBar->show();
            } else if (watched == m_view && event->type() == QEvent::HideToParent) {
                hide();
                if (m_outsideBar)
                    m_outsideBar->hide();
            }
            return QWidget::eventFilter(watched, event);
        }

    private:
        static constexpr int kMinimumRows = 3;

        void keepRowsVisible()
        {
            const int height = m_view->horizontalHeader()->sizeHint().height()
                + kMinimumRows * m_view->verticalHeader()->defaultSectionSize() + 2 * m_view->frameWidth()
                + m_view->horizontalScrollBar()->sizeHint().height();
            if (m_view->minimumHeight() != height)
                m_view->setMinimumHeight(height);
        }

        QTableView* m_view;
        QPointer<QWidget> m_outsideBar; // the toolbar when it sits in a row of the dock's (Options::toolbarRow)
    };

    // Puts frame where widget is in its parent (a splitter or a layout); false when neither holds it.
    bool replaceInParent(QWidget* widget, QWidget* frame)
    {
        QWidget* parent = widget->parentWidget();
        if (!parent)
            return false;
        if (auto* splitter = qobject_cast<QSplitter*>(parent)) {
            const int index = splitter->indexOf(widget);
            if (index < 0)
                return false;
            splitter->replaceWidget(index, frame);
            return true;
        }
        if (!parent->layout())
            return false;
        // replaceWidget searches nested layouts too and keeps the item's stretch.
        QLayoutItem* old = parent->layout()->replaceWidget(widget, frame);
        if (!old)
            return false;
        delete old;
        return true;
    }

} // namespace

void TableSetup::addToolbars(QWidget* root)
{
    for (QTableView* view : root->findChildren<QTableView*>()) {
        TableSetup* setup = of(view);
        if (!setup || !setup->m_toolbar || setup->m_toolbarWidget)
            continue;
        auto* stack = qobject_cast<QStackedWidget*>(view->parentWidget());
        auto* tabs = stack ? qobject_cast<QTabWidget*>(stack->parentWidget()) : nullptr;
        if (tabs) {
            // One toolbar in the corner of the tab bar, following the current page's table.
            // TableToolbar has no meta-object of its own: found by its name (only it has this one).
            auto* bar = static_cast<TableToolbar*>(
                tabs->findChild<QWidget*>(QStringLiteral("tableToolbar"), Qt::FindDirectChildrenOnly));
            if (!bar) {
                bar = new TableToolbar(tabs);
                tabs->setCornerWidget(bar, Qt::TopRightCorner);
                auto follow = [tabs, bar] {
                    auto* page = qobject_cast<QTableView*>(tabs->currentWidget());
                    TableSetup* s = of(page);
                    bar->follow(s && s->m_toolbar ? s : nullptr);
                    bar->setVisible(s && s->m_toolbar);
                };
                connect(tabs, &QTabWidget::currentChanged, bar, follow);
                follow();
            }
            setup->m_toolbarWidget = bar;
            continue;
        }
        const bool hidden = view->isHidden();
        auto* frame = new TableFrame(view, nullptr); // parented by the splitter or layout that takes it
        if (!replaceInParent(view, frame)) {
            delete frame;
            continue;
        }
        setup->m_toolbarWidget = frame->adopt(setup, hidden, setup->m_toolbarRow.data());
    }
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

QString TableSetup::suggestedCsvName() const
{
    // Named after the view the user sees ("npuscope-cluster-steps.csv"), not the widget's object name.
    QString title;
    for (QWidget* w = m_view; w; w = w->parentWidget()) {
        if (auto* dock = qobject_cast<QDockWidget*>(w)) {
            title = dock->windowTitle();
            break;
        }
    }
    if (title.isEmpty())
        title = m_view->objectName();
    title = title.toLower().replace(QRegularExpression(QStringLiteral("[^\\w]+")), QStringLiteral("-"));
    title.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
    return QStringLiteral("npuscope-%1.csv").arg(title.isEmpty() ? QStringLiteral("table") : title);
}

void TableSetup::exportWithDialog()
{
    const QString path
        = QFileDialog::getSaveFileName(m_view, tr("Export table as CSV"), suggestedCsvName(), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!writeCsv(path, &error))
        QMessageBox::warning(m_view, tr("Export CSV"), error);
}

} // namespace npuscope::gui
