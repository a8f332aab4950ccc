// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/operators/OperatorDock.h"

#include "npuscope/gui/common/TableSetup.h"
#include "npuscope/gui/common/TimeFormat.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/operators/OperatorTableModel.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/OperatorQuery.h"
#include "npuscope/query/RankQuery.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <variant>

namespace npuscope::gui {

namespace {

using query::OperatorGroupBy;

constexpr TableSetup::Options kTableOptions { .stretchLastSection = false,
    .sortable = true,
    .sortColumn = OperatorTableModel::Total,
    .sortOrder = Qt::DescendingOrder };

constexpr int kMaxKeyWidth = 520; // px

// What a table query returns: one rank's rows or a comparison.
using TableRows = std::variant<std::vector<query::OperatorRow>, std::vector<query::OperatorCompareRow>>;

} // namespace

OperatorDock::OperatorDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Operators"), kObjectName, ws, parent)
    , m_importRunner(addRunner(QueryRunner::Delivery::Every))
    , m_model(new OperatorTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Group by:"), body));
    m_groupBy = new QComboBox(body);
    m_groupBy->setObjectName(QStringLiteral("operatorGroupBy"));
    m_groupBy->addItem(tr("type"), static_cast<int>(OperatorGroupBy::Type));
    m_groupBy->addItem(tr("name"), static_cast<int>(OperatorGroupBy::Name));
    m_groupBy->addItem(tr("name + shapes"), static_cast<int>(OperatorGroupBy::Shape));
    controls->addWidget(m_groupBy);
    controls->addWidget(new QLabel(tr("Rank:"), body));
    m_rank = new QComboBox(body);
    m_rank->setObjectName(QStringLiteral("operatorRank"));
    m_rank->setToolTip(tr("The rank shown; in compare mode the baseline rank R"));
    controls->addWidget(m_rank);
    controls->addWidget(new QLabel(tr("Compare with:"), body));
    m_compare = new QComboBox(body);
    m_compare->setObjectName(QStringLiteral("operatorCompare"));
    m_compare->setToolTip(tr("The comparison rank R2: each key shows both totals and R2 \u2212 R, largest first"));
    controls->addWidget(m_compare);
    controls->addSpacing(12);
    m_filter = new QLineEdit(body);
    m_filter->setObjectName(QStringLiteral("operatorFilter"));
    m_filter->setPlaceholderText(tr("Filter keys"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setMaximumWidth(260);
    controls->addWidget(m_filter);
    controls->addStretch(1);
    layout->addLayout(controls);
    m_status = new QLabel(body);
    m_status->setObjectName(QStringLiteral("operatorStatus"));
    layout->addWidget(m_status);
    m_proxy->setFilterKeyColumn(OperatorTableModel::Key);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table = TableSetup::sortedTable(m_model, m_proxy, OperatorTableModel::ValueRole, kTableOptions, body);
    m_table->setObjectName(QStringLiteral("operatorTable"));
    layout->addWidget(m_table, 1);
    setBody(body);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    for (QComboBox* combo : { m_groupBy, m_rank, m_compare })
        connect(combo, &QComboBox::currentIndexChanged, this, &OperatorDock::refresh);
    reloadPartOn({ &Workspace::selectedRankChanged }, [this] { followSelectedRank(); });
    // Another view imported deferred files (the timeline, a rank it expands): loadTimeline returns at once for a rank
    // whose import another view started, so the kernel rows may arrive after this dock's own import finished.
    reloadPartOn({ &Workspace::issuesAdded }, [this] { refresh(); });
    requestReload();
}

void OperatorDock::showEvent(QShowEvent* event)
{
    QueryDock::showEvent(event);
    if (m_waitingForShow)
        refresh();
}

std::optional<int64_t> OperatorDock::shownRank() const
{
    const QVariant v = m_rank->currentData();
    return v.isValid() ? std::optional<int64_t>(v.toLongLong()) : std::nullopt;
}

std::optional<int64_t> OperatorDock::comparedRank() const
{
    const QVariant v = m_compare->currentData();
    return v.isValid() ? std::optional<int64_t>(v.toLongLong()) : std::nullopt;
}

void OperatorDock::reload()
{
    m_importRunner->cancelPending();
    m_imported.clear();
    m_importing.clear();
    m_model->setRows({});
    m_status->setText(tr("Listing ranks\u2026"));
    const bool started = runner()->run(
        [](model::Database& db) {
            std::vector<int64_t> ranks;
            for (const auto& info : query::RankQuery::ranks(db))
                ranks.push_back(info.rank);
            return ranks;
        },
        [this](std::vector<int64_t> ranks) {
            {
                const QSignalBlocker blockRank(m_rank);
                const QSignalBlocker blockCompare(m_compare);
                m_rank->clear();
                m_compare->clear();
                m_compare->addItem(tr("none"));
                for (int64_t r : ranks) {
                    m_rank->addItem(QString::number(r), QVariant::fromValue<qlonglong>(r));
                    m_compare->addItem(QString::number(r), QVariant::fromValue<qlonglong>(r));
                }
                if (const auto selected = workspace()->selectedRank())
                    m_rank->setCurrentIndex(std::max(0, m_rank->findData(QVariant::fromValue<qlonglong>(*selected))));
            }
            refresh();
        });
    if (!started)
        m_status->setText(tr("Open a profile to see its operators."));
}

void OperatorDock::followSelectedRank()
{
    const auto selected = workspace()->selectedRank();
    if (!selected)
        return;
    const int i = m_rank->findData(QVariant::fromValue<qlonglong>(*selected));
    if (i >= 0)
        m_rank->setCurrentIndex(i); // refreshes when it changes
}

void OperatorDock::importRank(int64_t rank)
{
    m_importing.insert(rank);
    // Parsing runs without the model lock (Loader::loadTimeline merges under it).
    const bool started = m_importRunner->runUnlocked(
        [rank](const std::shared_ptr<model::Database>& db) { return load::Loader::loadTimeline(*db, rank); },
        [this, rank](bool) {
            m_importing.erase(rank);
            m_imported.insert(rank);
            // Import problems were written to the model's parse_issue table; issuesAdded refreshes this dock.
            workspace()->notifyIssuesAdded();
        },
        [this, rank](const QString& message) {
            m_importing.erase(rank);
            m_imported.insert(rank); // not retried until the model changes; the error line says why
            showError(tr("rank %1: kernels not loaded: %2").arg(rank).arg(message));
            refresh();
        });
    if (!started)
        m_importing.erase(rank);
}

void OperatorDock::refresh()
{
    const auto rank = shownRank();
    if (!rank) {
        m_model->setRows({});
        m_status->setText(tr("No ranks loaded."));
        return;
    }
    const auto compare = comparedRank();
    std::vector<int64_t> needed { *rank };
    if (compare && *compare != *rank)
        needed.push_back(*compare);
    QStringList loading;
    // Importing parses large files (trace_view.json too): only for a dock the user can see.
    m_waitingForShow
        = !isVisible() && std::any_of(needed.begin(), needed.end(), [this](int64_t r) { return !m_imported.count(r); });
    if (m_waitingForShow) {
        m_status->setText(tr("The kernels of rank %1 are loaded when this view is shown.").arg(*rank));
        return;
    }
    for (int64_t r : needed) {
        if (m_imported.count(r))
            continue;
        if (!m_importing.count(r))
            importRank(r);
        loading << QString::number(r);
    }
    if (!loading.isEmpty()) {
        m_status->setText(tr("Loading kernels of rank %1\u2026").arg(loading.join(QStringLiteral(", "))));
        return;
    }

    const auto by = static_cast<OperatorGroupBy>(m_groupBy->currentData().toInt());
    runner()->runInMemory(
        [by, rank, compare](const std::shared_ptr<model::Database>& db) -> TableRows {
            const auto index = query::OperatorQuery::forDatabase(*db);
            if (compare)
                return index->compare(by, *rank, *compare);
            return index->group(by, *rank);
        },
        [this, rank, compare](TableRows rows) {
            const bool comparing = compare.has_value();
            if (comparing) {
                auto& list = std::get<std::vector<query::OperatorCompareRow>>(rows);
                int64_t extra = 0;
                for (const auto& r : list)
                    extra += r.diffNs();
                m_status->setText(tr("<b>Rank %1 (baseline) vs rank %2</b>: %3 keys; rank %2 spends %4 more in "
                                     "kernels (negative: less)")
                                      .arg(*rank)
                                      .arg(*compare)
                                      .arg(list.size())
                                      .arg(TimeFormat::withUnit(extra, TimeFormat::Unit::Microseconds)));
                m_model->setCompareRows(std::move(list));
            } else {
                const auto& list = std::get<std::vector<query::OperatorRow>>(rows);
                int64_t kernels = 0;
                for (const auto& r : list)
                    kernels += r.count;
                m_status->setText(list.empty()
                        ? tr("Rank %1 has no kernel rows (kernel_details.csv, op_summary or a db export's kernel "
                             "tables).")
                              .arg(*rank)
                        : tr("<b>Rank %1</b>: %2 keys, %3 kernels over every loaded step")
                              .arg(*rank)
                              .arg(list.size())
                              .arg(kernels));
                m_model->setRows(list);
            }
            m_table->setColumnHidden(OperatorTableModel::Total, comparing);
            for (int c :
                { OperatorTableModel::BaseTotal, OperatorTableModel::CompareTotal, OperatorTableModel::Difference })
                m_table->setColumnHidden(c, !comparing);
            m_table->sortByColumn(
                comparing ? OperatorTableModel::Difference : OperatorTableModel::Total, Qt::DescendingOrder);
            m_table->resizeColumnsToContents();
            // Name + shapes keys can be very long: the figures stay in view.
            m_table->setColumnWidth(
                OperatorTableModel::Key, std::min(m_table->columnWidth(OperatorTableModel::Key), kMaxKeyWidth));
        });
}

} // namespace npuscope::gui
