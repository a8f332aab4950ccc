// SPDX-License-Identifier: Apache-2.0
// RowTableModel: columns from descriptors, sorting, copy and CSV text; TableSetup's copy over a sorting proxy.
#include "npuscope/gui/common/RowTableModel.h"
#include "npuscope/gui/common/TableSetup.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCoreApplication>
#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>

#include <gtest/gtest.h>

#include <optional>

using namespace npuscope::gui;

namespace {

struct Item {
    QString name;
    std::optional<int64_t> ns;
};

class ItemModel : public RowTableModel<Item> {
public:
    enum Column { Name, Time, ColumnCount };

    ItemModel()
    {
        setColumns({
            { QStringLiteral("Name"), QStringLiteral("the item's name"),
                [](const Item& i) { return QVariant(i.name); }, {}, Qt::AlignLeft | Qt::AlignVCenter },
            { QStringLiteral("Time\n(ns)"), QStringLiteral("Time = end \u2212 start"),
                [](const Item& i) { return i.ns ? QVariant::fromValue<qlonglong>(*i.ns) : QVariant(); } },
        });
    }
    void setItems(std::vector<Item> items) { resetRows(std::move(items)); }
};

std::vector<Item> items()
{
    return { { QStringLiteral("plain"), 30 }, { QStringLiteral("a,b \"q\""), 10 }, { QStringLiteral("none"), {} },
        { QStringLiteral("tab\there"), 20 } };
}

QStringList names(const QAbstractItemModel& model)
{
    QStringList out;
    for (int r = 0; r < model.rowCount(); ++r)
        out << model.index(r, ItemModel::Name).data().toString();
    return out;
}

} // namespace

TEST(RowTableModel, ColumnsRolesAndOwnSort)
{
    ItemModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setItems(items());
    ASSERT_EQ(model.rowCount(), 4);
    ASSERT_EQ(model.columnCount(), 2);
    EXPECT_EQ(model.headerData(ItemModel::Time, Qt::Horizontal).toString(), QStringLiteral("Time\n(ns)"));
    EXPECT_EQ(model.headerData(ItemModel::Time, Qt::Horizontal, Qt::ToolTipRole).toString(),
        QStringLiteral("Time = end \u2212 start"));
    EXPECT_EQ(model.index(0, ItemModel::Time).data().toString(), QStringLiteral("30"));
    EXPECT_EQ(model.index(0, ItemModel::Time).data(RowTableModelBase::ValueRole).toLongLong(), 30);
    EXPECT_EQ(model.index(2, ItemModel::Time).data().toString(), QStringLiteral("\u2014"));
    EXPECT_FALSE(model.index(2, ItemModel::Time).data(RowTableModelBase::ValueRole).isValid());
    EXPECT_EQ(model.index(0, ItemModel::Name).data(Qt::TextAlignmentRole).value<Qt::Alignment>(),
        Qt::AlignLeft | Qt::AlignVCenter);

    const QPersistentModelIndex tracked = model.index(0, ItemModel::Name); // "plain"
    model.sort(ItemModel::Time, Qt::AscendingOrder);
    EXPECT_EQ(names(model),
        (QStringList { QStringLiteral("a,b \"q\""), QStringLiteral("tab\there"), QStringLiteral("plain"),
            QStringLiteral("none") }))
        << "absent values sort last, as a QSortFilterProxyModel sorts them";
    EXPECT_EQ(tracked.row(), 2) << "persistent indexes follow their rows";
    model.sort(ItemModel::Time, Qt::DescendingOrder);
    EXPECT_EQ(names(model).front(), QStringLiteral("none"));
    EXPECT_EQ(names(model).back(), QStringLiteral("a,b \"q\""));
    model.sort(ItemModel::Name, Qt::AscendingOrder);
    EXPECT_EQ(names(model).front(), QStringLiteral("a,b \"q\""));
}

TEST(RowTableModel, CopyAndCsvTextAreExact)
{
    ItemModel model;
    model.setItems(items());
    EXPECT_EQ(model.copyText({ 1, 0 }), QStringLiteral("Name\tTime (ns)\na,b \"q\"\t10\nplain\t30\n"));
    EXPECT_EQ(model.copyText({ 3 }), QStringLiteral("Name\tTime (ns)\ntab here\t20\n"));
    EXPECT_EQ(model.csvText(),
        QStringLiteral("Name,Time (ns)\r\nplain,30\r\n\"a,b \"\"q\"\"\",10\r\nnone,\u2014\r\ntab\there,20\r\n"));
    EXPECT_EQ(RowTableModelBase::csvField(QStringLiteral("two\nlines")), QStringLiteral("\"two\nlines\""));
}

TEST(RowTableModel, TableSetupCopiesWhatTheSortedViewShows)
{
    ItemModel model;
    model.setItems(items());
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(RowTableModelBase::ValueRole);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QTableView view;
    view.setModel(&proxy);
    TableSetup* setup = TableSetup::install(
        &view, { .sortable = true, .sortColumn = ItemModel::Time, .sortOrder = Qt::DescendingOrder });
    EXPECT_EQ(names(proxy).front(), QStringLiteral("none"));
    EXPECT_TRUE(view.verticalHeader()->isHidden());
    EXPECT_EQ(view.selectionBehavior(), QAbstractItemView::SelectRows);
    EXPECT_EQ(setup->copyAction()->shortcut(), QKeySequence(QKeySequence::Copy));
    EXPECT_TRUE(setup->selectedRowsText().isEmpty());
    view.selectRow(2); // "tab\there", 20
    EXPECT_EQ(setup->selectedRowsText(), QStringLiteral("Name\tTime (ns)\ntab here\t20\n"));
    view.setColumnHidden(ItemModel::Name, true);
    EXPECT_EQ(setup->csvText(), QStringLiteral("Time (ns)\r\n\u2014\r\n30\r\n20\r\n10\r\n"));
}

TEST(RowTableModel, FitColumnsCutsTheNamesNeverTheFigures)
{
    ItemModel model;
    model.setItems({ { QStringLiteral("a very long operator name that would push the figures out of sight "
                                      "hcom_allReduce__478_2_1@4893536815798884678"),
                         123456789 },
        { QStringLiteral("short"), 42 } });
    QTableView view;
    view.setModel(&model);
    TableSetup::install(&view, {});
    view.resize(300, 200);
    view.show();
    view.resizeColumnsToContents();
    const int figure = view.columnWidth(ItemModel::Time);
    const int wholeName = view.columnWidth(ItemModel::Name);
    TableSetup::fitColumns(&view, { ItemModel::Name });
    const int viewport = view.viewport()->width();
    // The figure keeps its whole width; the name gives up what the viewport lacks (not less than its floor).
    EXPECT_GE(view.columnWidth(ItemModel::Time), figure);
    EXPECT_LE(view.columnWidth(ItemModel::Name) + view.columnWidth(ItemModel::Time), viewport);
    EXPECT_GE(view.columnWidth(ItemModel::Name), TableSetup::kMinElasticWidth);
    // Wider: the name takes its whole text again, and no more.
    view.resize(wholeName + figure + 80, 200);
    QCoreApplication::processEvents();
    EXPECT_EQ(view.columnWidth(ItemModel::Name), wholeName);
    // Narrower than the figure alone: the name stays at its floor, the figure whole, and the table scrolls.
    view.resize(120, 200);
    QCoreApplication::processEvents();
    EXPECT_GE(view.columnWidth(ItemModel::Time), figure);
    EXPECT_GE(view.columnWidth(ItemModel::Name), TableSetup::kMinElasticWidth);
}
