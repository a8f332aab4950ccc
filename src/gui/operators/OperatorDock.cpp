// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/operators/OperatorDock.h"

#include "npuscope/gui/common/DeferredLoadService.h"
#include "npuscope/gui/common/DockControls.h"

#include "npuscope/gui/common/PieChart.h"
#include "npuscope/gui/common/TableSetup.h"
#include "npuscope/gui/common/TimeFormat.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/compare/BaselineComparison.h"
#include "npuscope/gui/operators/OperatorTableModel.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/OperatorQuery.h"
#include "npuscope/query/RankQuery.h"
#include "npuscope/query/compare/RunComparison.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <unordered_map>
#include <variant>

namespace npuscope::gui {

namespace {

// Compare mode against a baseline: the n keys whose change in the run comparison is largest (changes: its keys by
// |Δ| descending), each with the shown rank's own row, or a row of count 0 for a key the rank has no kernel of (one
// only the baseline has: dropped it would hide the change); keys the comparison lacks follow by total. n = 0: all.
std::vector<query::OperatorRow> largestChanges(
    std::vector<query::OperatorRow> rows, const std::vector<query::OperatorDiff>& changes, size_t n, int64_t rank)
{
    std::unordered_map<std::string, size_t> at;
    for (size_t i = 0; i < rows.size(); ++i)
        at.emplace(rows[i].key, i);
    std::vector<bool> used(rows.size(), false);
    std::vector<query::OperatorRow> out;
    for (const auto& d : changes) {
        if (n > 0 && out.size() >= n)
            break;
        if (const auto it = at.find(d.key); it != at.end()) {
            used[it->second] = true;
            out.push_back(std::move(rows[it->second]));
        } else {
            query::OperatorRow r;
            r.rank = rank;
            r.key = d.key;
            out.push_back(std::move(r));
        }
    }
    if (n > 0 && out.size() >= n)
        return out;
    std::vector<query::OperatorRow> rest;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (!used[i])
            rest.push_back(std::move(rows[i]));
    }
    for (auto& r : query::OperatorQuery::largest(std::move(rest), n == 0 ? 0 : n - out.size()))
        out.push_back(std::move(r));
    return out;
}

using query::OperatorGroupBy;

constexpr TableSetup::Options kTableOptions { .stretchLastSection = false,
    .sortable = true,
    .sortColumn = OperatorTableModel::Total,
    .sortOrder = Qt::DescendingOrder };

constexpr int kPieHeight = 230; // px, the pies' initial share of the splitter

// What a table query returns: one rank's (or every rank's) rows or a comparison, limited to the top N keys, and what
// the pies show.
struct Shown {
    std::variant<std::vector<query::OperatorRow>, std::vector<query::OperatorCompareRow>> rows;
    size_t keys = 0; // before the top-N limit
    int64_t kernels = 0; // kernel rows behind the figures (base rank in compare mode)
    int64_t extraNs = 0; // compare: Σ difference over every key
    size_t ranksWithKernels = 0; // all ranks: ranks that have kernel rows
    std::vector<query::OperatorRow> baseTypes, compareTypes; // grouped by type, for the type pie
    std::array<int64_t, query::kCoreClassCount> baseCores {}, compareCores {};
};

QColor typeColor(size_t i)
{
    static const std::array<QColor, 12> kPalette { QColor(66, 133, 244), QColor(234, 67, 53), QColor(251, 188, 5),
        QColor(52, 168, 83), QColor(255, 109, 1), QColor(70, 189, 198), QColor(171, 71, 188), QColor(124, 179, 66),
        QColor(240, 98, 146), QColor(92, 107, 192), QColor(141, 110, 99), QColor(0, 137, 123) };
    if (i < kPalette.size())
        return kPalette[i];
    // Beyond the palette: hues spread by the golden angle.
    return QColor::fromHsv(static_cast<int>((i * 137) % 360), 150, 210);
}

QColor coreColor(query::CoreClass c)
{
    switch (c) {
    case query::CoreClass::AiCore:
        return { 66, 133, 244 };
    case query::CoreClass::AiVector:
        return { 52, 168, 83 };
    case query::CoreClass::Mix:
        return { 171, 71, 188 };
    case query::CoreClass::AiCpu:
        return { 255, 109, 1 };
    case query::CoreClass::Communication:
        return { 234, 67, 53 };
    case query::CoreClass::Other:
        break;
    }
    return { 158, 158, 158 };
}

const QColor kOtherColor(189, 189, 189);

// A ring of the type pie: each label's total in rows, "other" the rest of rows' total.
PieChart::Ring typeRing(
    const QString& name, const std::vector<query::OperatorShare>& labels, const std::vector<query::OperatorRow>& rows)
{
    std::map<std::string, int64_t> byKey;
    int64_t all = 0;
    for (const auto& r : rows) {
        byKey[r.key] += r.totalNs;
        all += r.totalNs;
    }
    PieChart::Ring ring { name, {} };
    int64_t listed = 0;
    for (const auto& s : labels) {
        if (&s == &labels.back() && s.label == "other" && !byKey.count("other")) {
            ring.values.push_back(all - listed);
            break;
        }
        const auto it = byKey.find(s.label);
        const int64_t v = it == byKey.end() ? 0 : it->second;
        ring.values.push_back(v);
        listed += v;
    }
    return ring;
}

} // namespace

OperatorDock::OperatorDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Operators"), kObjectName, ws, parent)
    , m_model(new OperatorTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    const auto [body, layout, controls] = makeBody();
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
    m_rank->setToolTip(tr("The rank shown, or every loaded rank summed; in compare mode the baseline rank R"));
    controls->addWidget(m_rank);
    controls->addWidget(new QLabel(tr("Compare with:"), body));
    m_compare = new QComboBox(body);
    m_compare->setObjectName(QStringLiteral("operatorCompare"));
    m_compare->setToolTip(tr("The comparison rank R2: each key shows both totals and R2 \u2212 R, largest first"));
    controls->addWidget(m_compare);
    controls->addWidget(new QLabel(tr("Top:"), body));
    m_topN = new QSpinBox(body);
    m_topN->setObjectName(QStringLiteral("operatorTopN"));
    m_topN->setRange(0, 10000);
    m_topN->setValue(kDefaultTopN);
    m_topN->setSpecialValueText(tr("all"));
    m_topN->setToolTip(tr("The table and the type pie show the N keys with the largest total (compare mode: the "
                          "largest |difference|); 0 shows every key"));
    controls->addWidget(m_topN);
    controls->addSpacing(12);
    m_filter = newFilterEdit("operatorFilter", tr("Filter keys"), body);
    m_filter->setMaximumWidth(260);
    controls->addWidget(m_filter);
    controls->addStretch(1);
    auto* statusLine = new QHBoxLayout;
    m_status = newWrappedLabel("operatorStatus", body);
    statusLine->addWidget(m_status, 1);
    m_loadAll = new QPushButton(body);
    m_loadAll->setObjectName(QStringLiteral("operatorLoadAll"));
    m_loadAll->setToolTip(tr("Imports every rank's kernel_details.csv in the background"));
    m_loadAll->hide();
    statusLine->addWidget(m_loadAll);
    layout->addLayout(statusLine);

    auto* splitter = new QSplitter(Qt::Vertical, body);
    auto* pies = new QWidget(splitter);
    auto* pieLayout = new QHBoxLayout(pies);
    pieLayout->setContentsMargins(0, 0, 0, 0);
    m_typePie = new PieChart(pies);
    m_typePie->setObjectName(QStringLiteral("operatorTypePie"));
    m_corePie = new PieChart(pies);
    m_corePie->setObjectName(QStringLiteral("operatorCorePie"));
    pieLayout->addWidget(m_typePie, 1);
    pieLayout->addWidget(m_corePie, 1);
    m_proxy->setFilterKeyColumn(OperatorTableModel::Key);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table = TableSetup::sortedTable(m_model, m_proxy, OperatorTableModel::ValueRole, kTableOptions, splitter);
    m_table->setObjectName(QStringLiteral("operatorTable"));
    m_table->setToolTip(
        tr("Click an operator: the timeline highlights its occurrences (double-click: also show the timeline)"));
    splitter->addWidget(pies);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({ kPieHeight, 400 });
    layout->addWidget(splitter, 1);
    setBody(body);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    // Esc (or the timeline's clear button) clears the selected operator: its row is no longer highlighted.
    // An operator picked in another view (Strategy graph, Marey) selects its row when the table lists it by the same
    // grouping.
    connect(ws, &Workspace::operatorChanged, this, [this] {
        const auto op = workspace()->selectedOperator();
        if (!op) {
            m_table->clearSelection();
            return;
        }
        if (op->by != static_cast<OperatorGroupBy>(m_groupBy->currentData().toInt()))
            return;
        for (int r = 0; r < m_model->rowCount(); ++r) {
            if (m_model->rowAt(r).base.key != op->key)
                continue;
            const QModelIndex shown = m_proxy->mapFromSource(m_model->index(r, OperatorTableModel::Key));
            if (shown.isValid() && !m_table->selectionModel()->isRowSelected(shown.row(), QModelIndex())) {
                const QSignalBlocker block(m_table);
                m_table->selectRow(shown.row());
                m_table->scrollTo(shown);
            }
            break;
        }
    });
    for (QComboBox* combo : { m_groupBy, m_rank, m_compare })
        connect(combo, &QComboBox::currentIndexChanged, this, &OperatorDock::refresh);
    connect(m_topN, &QSpinBox::valueChanged, this, &OperatorDock::refresh);
    // A single click selects the operator (the timeline marks its occurrences); a double-click also shows the timeline.
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex& index) { selectOperatorAt(index.row()); });
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        selectOperatorAt(index.row());
        workspace()->requestShowView(QStringLiteral("timeline"));
    });
    // The rows listed depend on the comparison (its largest changes): query again, then apply its columns.
    connect(BaselineComparison::of(ws), &BaselineComparison::comparisonChanged, this, [this] {
        applyComparison();
        refresh();
    });
    connect(m_loadAll, &QPushButton::clicked, this, [this] {
        m_importAll = true;
        refresh();
    });
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

bool OperatorDock::allRanks() const
{
    const QVariant v = m_rank->currentData();
    return v.isValid() && v.toLongLong() == query::kAllRanks;
}

std::optional<int64_t> OperatorDock::shownRank() const
{
    const QVariant v = m_rank->currentData();
    return v.isValid() ? std::optional<int64_t>(v.toLongLong()) : std::nullopt;
}

std::optional<int64_t> OperatorDock::comparedRank() const
{
    const QVariant v = m_compare->currentData();
    return v.isValid() && !allRanks() ? std::optional<int64_t>(v.toLongLong()) : std::nullopt;
}

void OperatorDock::showAllRanks() { setRank(query::kAllRanks); }

void OperatorDock::setRank(int64_t rank)
{
    const int i = m_rank->findData(QVariant::fromValue<qlonglong>(rank));
    m_pendingRank = i < 0 ? std::optional<int64_t>(rank) : std::nullopt;
    if (i >= 0)
        m_rank->setCurrentIndex(i);
}

void OperatorDock::setCompareRank(std::optional<int64_t> rank)
{
    const int i = rank ? m_compare->findData(QVariant::fromValue<qlonglong>(*rank)) : 0;
    m_pendingCompare = i < 0 ? rank : std::nullopt;
    if (i >= 0)
        m_compare->setCurrentIndex(i);
}

void OperatorDock::selectOperatorAt(int viewRow)
{
    const QModelIndex source = m_proxy->mapToSource(m_proxy->index(viewRow, OperatorTableModel::Key));
    if (!source.isValid())
        return;
    const auto& row = m_model->rowAt(source.row());
    Workspace::OperatorKey op;
    op.by = static_cast<OperatorGroupBy>(m_groupBy->currentData().toInt());
    op.key = row.base.key;
    // One rank: its occurrences; all ranks or a comparison: the occurrences on every loaded rank.
    if (!allRanks() && !comparedRank())
        op.rank = shownRank();
    workspace()->setSelectedOperator(op);
}

void OperatorDock::reload()
{
    m_imported.clear();
    m_importing.clear();
    m_queue.clear();
    m_importAll = false;
    m_ranks.clear();
    m_model->setRows({});
    m_typePie->setData({}, {}, {});
    m_corePie->setData({}, {}, {});
    m_status->setText(tr("Listing ranks\u2026"));
    const bool started = runner()->run(
        [](model::Database& db) {
            std::vector<int64_t> ranks;
            for (const auto& info : query::RankQuery::ranks(db))
                ranks.push_back(info.rank);
            return ranks;
        },
        [this](std::vector<int64_t> ranks) {
            m_ranks = ranks;
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
                if (ranks.size() > 1)
                    m_rank->addItem(tr("All ranks"), QVariant::fromValue<qlonglong>(query::kAllRanks));
                if (const auto selected = workspace()->selectedRank())
                    m_rank->setCurrentIndex(std::max(0, m_rank->findData(QVariant::fromValue<qlonglong>(*selected))));
                // A choice made before the ranks were listed (the screenshot's --rank all / --compare).
                if (m_pendingRank)
                    setRank(*m_pendingRank);
                if (m_pendingCompare)
                    setCompareRank(m_pendingCompare);
                m_pendingRank.reset();
                m_pendingCompare.reset();
            }
            refresh();
        });
    if (!started)
        m_status->setText(tr("Open a profile to see its operators."));
}

void OperatorDock::followSelectedRank()
{
    const auto selected = workspace()->selectedRank();
    // "All ranks" stays: a rank picked elsewhere does not narrow the sum the user asked for.
    if (!selected || allRanks())
        return;
    const int i = m_rank->findData(QVariant::fromValue<qlonglong>(*selected));
    if (i >= 0)
        m_rank->setCurrentIndex(i); // refreshes when it changes
}

std::vector<int64_t> OperatorDock::neededRanks() const
{
    if (allRanks()) {
        std::vector<int64_t> ranks = m_ranks;
        if (!m_importAll && ranks.size() > static_cast<size_t>(kAutoImportRanks))
            ranks.resize(kAutoImportRanks);
        return ranks;
    }
    std::vector<int64_t> needed;
    if (const auto rank = shownRank())
        needed.push_back(*rank);
    if (const auto compare = comparedRank(); compare && needed.front() != *compare)
        needed.push_back(*compare);
    return needed;
}

void OperatorDock::startImports()
{
    while (static_cast<int>(m_importing.size()) < kParallelImports && !m_queue.empty()) {
        const int64_t rank = m_queue.front();
        m_queue.pop_front();
        if (m_imported.count(rank) || m_importing.count(rank))
            continue;
        m_importing.insert(rank);
        // Only the rank's kernel files (not its timeline), through the Workspace's load service (one import per rank,
        // its own pool); parsing runs without the model lock (the loader merges under it).
        const bool started = workspace()->loads()->request(
            rank, DeferredLoadService::Part::Kernels, this, [this, rank](const DeferredLoadService::Result& r) {
                m_importing.erase(rank);
                if (r.cancelled) {
                    startImports();
                    return;
                }
                m_imported.insert(
                    rank); // after a failure: not retried until the model changes; the error line says why
                if (!r.error.isEmpty()) {
                    showError(tr("rank %1: kernels not loaded: %2").arg(rank).arg(r.error));
                    startImports();
                    refresh();
                    return;
                }
                startImports();
                // Import problems were written to the model's parse_issue table; issuesAdded refreshes this dock.
                workspace()->notifyIssuesAdded();
            });
        if (!started)
            m_importing.erase(rank);
    }
}

namespace {

// tr() of OperatorDock for the free functions below: the same context (lupdate sees "OperatorDock" in the markers;
// scripts/update-translations.sh adds the namespace).
QString trOperators(const char* text) { return QCoreApplication::translate("npuscope::gui::OperatorDock", text); }

// The worker's part of refresh(): the rows of one rank, of every rank or of a comparison, cut to the top N (against a
// baseline: the largest changes), and what the pies show.
Shown queryShown(const std::shared_ptr<model::Database>& db, OperatorGroupBy by, std::optional<int64_t> rank,
    std::optional<int64_t> compare, bool all, size_t topN, const std::shared_ptr<const query::RunDiff>& diff)
{
    const auto index = query::OperatorQuery::forDatabase(*db);
    Shown s;
    if (compare) {
        auto rows = index->compare(by, *rank, *compare);
        s.keys = rows.size();
        for (const auto& r : rows) {
            s.extraNs += r.diffNs();
            s.kernels += r.base.count;
        }
        s.rows = query::OperatorQuery::largest(std::move(rows), topN);
        s.baseTypes = index->group(OperatorGroupBy::Type, *rank);
        s.compareTypes = index->group(OperatorGroupBy::Type, *compare);
        s.baseCores = index->coreTotals(*rank);
        s.compareCores = index->coreTotals(*compare);
        return s;
    }
    auto rows = all ? index->aggregate(by) : index->group(by, *rank);
    s.keys = rows.size();
    for (const auto& r : rows)
        s.kernels += r.count;
    if (diff)
        s.rows
            = largestChanges(std::move(rows), by == OperatorGroupBy::Type ? diff->types : diff->kernels, topN, *rank);
    else
        s.rows = query::OperatorQuery::largest(std::move(rows), topN);
    s.baseTypes = all ? index->aggregate(OperatorGroupBy::Type) : index->group(OperatorGroupBy::Type, *rank);
    s.baseCores = index->coreTotals(all ? std::nullopt : rank);
    s.ranksWithKernels = all ? index->ranks().size() : 1;
    return s;
}

// The pies of a query's result: kernel time by op type (top N and other) and by accelerator core class, one ring per
// rank (outer: the comparison rank).
void fillPies(PieChart* typePie, PieChart* corePie, const Shown& s, std::optional<int64_t> rank,
    std::optional<int64_t> compare, bool all, size_t topN)
{
    const bool comparing = compare.has_value();
    // The pies: by type (top N and other) and by accelerator core class.
    const QString baseName = all ? trOperators(QT_TRANSLATE_NOOP("OperatorDock", "all ranks"))
                                 : trOperators(QT_TRANSLATE_NOOP("OperatorDock", "rank %1")).arg(*rank);
    // The types ranked by their total over both ranks in compare mode, so both rings list the same parts.
    std::map<std::string, int64_t> byKey;
    for (const auto* list : { &s.baseTypes, &s.compareTypes }) {
        for (const auto& r : *list)
            byKey[r.key] += r.totalNs;
    }
    std::vector<query::OperatorRow> summed;
    for (const auto& [key, total] : byKey) {
        query::OperatorRow r;
        r.key = key;
        r.totalNs = total;
        summed.push_back(r);
    }
    const auto labels = query::OperatorQuery::topShares(summed, topN);
    std::vector<PieChart::Part> typeParts;
    for (size_t i = 0; i < labels.size(); ++i) {
        const bool other = i + 1 == labels.size() && labels[i].label == "other" && !byKey.count("other");
        typeParts.push_back(
            { other ? trOperators(QT_TRANSLATE_NOOP("OperatorDock", "other")) : QString::fromStdString(labels[i].label),
                other ? kOtherColor : typeColor(i) });
    }
    std::vector<PieChart::Ring> typeRings;
    std::vector<PieChart::Ring> coreRings;
    std::vector<PieChart::Part> coreParts;
    for (size_t c = 0; c < query::kCoreClassCount; ++c) {
        const auto cls = static_cast<query::CoreClass>(c);
        // coreClassName is a string literal, marked for translation.
        coreParts.push_back(
            { QCoreApplication::translate("CoreClass", query::coreClassName(cls).data()), coreColor(cls) });
    }
    const auto coreRing = [](const QString& name, const auto& totals) {
        return PieChart::Ring { name, std::vector<int64_t>(totals.begin(), totals.end()) };
    };
    if (comparing) {
        const QString compareName = trOperators(QT_TRANSLATE_NOOP("OperatorDock", "rank %1")).arg(*compare);
        typeRings = { typeRing(compareName, labels, s.compareTypes), typeRing(baseName, labels, s.baseTypes) };
        coreRings = { coreRing(compareName, s.compareCores), coreRing(baseName, s.baseCores) };
    } else {
        typeRings = { typeRing(baseName, labels, s.baseTypes) };
        coreRings = { coreRing(baseName, s.baseCores) };
    }
    const QString rings = comparing
        ? trOperators(QT_TRANSLATE_NOOP("OperatorDock", " \u2014 outer: rank %1, inner: rank %2"))
              .arg(*compare)
              .arg(*rank)
        : QString();
    typePie->setData(trOperators(QT_TRANSLATE_NOOP("OperatorDock", "Kernel time by op type")) + rings,
        std::move(typeParts), std::move(typeRings));
    corePie->setData(trOperators(QT_TRANSLATE_NOOP("OperatorDock", "Kernel time by accelerator core")) + rings,
        std::move(coreParts), std::move(coreRings));
    const QString none = trOperators(QT_TRANSLATE_NOOP("OperatorDock", "No kernel rows"));
    typePie->setPlaceholder(none);
    corePie->setPlaceholder(none);
}

} // namespace

void OperatorDock::refresh()
{
    const auto rank = shownRank();
    if (!rank) {
        m_model->setRows({});
        m_status->setText(tr("No ranks loaded."));
        return;
    }
    const bool all = allRanks();
    m_compare->setEnabled(!all);
    const auto compare = comparedRank();
    const auto needed = neededRanks();
    std::vector<int64_t> missing;
    for (int64_t r : needed) {
        if (!m_imported.count(r))
            missing.push_back(r);
    }
    // Importing parses large files: only for a dock the user can see.
    m_waitingForShow = !isVisible() && !missing.empty();
    if (m_waitingForShow) {
        m_status->setText(all ? tr("The kernels of the ranks are loaded when this view is shown.")
                              : tr("The kernels of rank %1 are loaded when this view is shown.").arg(*rank));
        return;
    }
    for (int64_t r : missing) {
        if (!m_importing.count(r) && std::find(m_queue.begin(), m_queue.end(), r) == m_queue.end())
            m_queue.push_back(r);
    }
    startImports();
    const size_t loaded = needed.size() - missing.size();
    const bool capped = all && !m_importAll && m_ranks.size() > needed.size();
    m_loadAll->setVisible(capped);
    m_loadAll->setText(tr("Load all %1 ranks").arg(m_ranks.size()));
    QString progress;
    if (!missing.empty())
        progress = tr("Loading kernels of %1 of %2 ranks\u2026").arg(loaded).arg(needed.size());
    if (capped)
        progress += (progress.isEmpty() ? QString() : QStringLiteral(" "))
            + tr("\u26a0 %1 ranks: the sum covers the first %2 (each rank's kernel table is held in memory); "
                 "\u201cLoad all\u201d imports the rest.")
                  .arg(m_ranks.size())
                  .arg(kAutoImportRanks);
    // One rank (or a comparison) waits for its kernels; all ranks show the ranks loaded so far and update.
    if (!all && !missing.empty()) {
        m_status->setText(tr("Loading kernels of rank %1\u2026").arg([&] {
            QStringList list;
            for (int64_t r : missing)
                list << QString::number(r);
            return list.join(QStringLiteral(", "));
        }()));
        return;
    }

    const auto by = static_cast<OperatorGroupBy>(m_groupBy->currentData().toInt());
    const auto topN = static_cast<size_t>(m_topN->value());
    // Against a baseline run the table lists the keys that changed most (the run comparison has no shape keys).
    auto diff = BaselineComparison::of(workspace())->comparison();
    if (by == OperatorGroupBy::Shape)
        diff.reset();
    runner()->runInMemory(
        [by, rank, compare, all, topN, diff](
            const std::shared_ptr<model::Database>& db) { return queryShown(db, by, rank, compare, all, topN, diff); },
        [this, rank, compare, all, topN, progress, againstBaseline = diff != nullptr](Shown s) {
            const bool comparing = compare.has_value();
            const QString limit = topN == 0 || s.keys <= topN ? QString()
                : againstBaseline && !comparing ? tr(" (the %1 largest changes against the baseline shown)").arg(topN)
                                                : tr(" (top %1 shown)").arg(topN);
            QString text;
            if (comparing) {
                const QString amount = TimeFormat::withUnit(std::abs(s.extraNs), TimeFormat::Unit::Microseconds);
                text = (s.extraNs >= 0 ? tr("<b>Rank %1 (baseline) vs rank %2</b>: %3 keys%4; rank %2 spends %5 more "
                                            "in kernels than rank %1")
                                       : tr("<b>Rank %1 (baseline) vs rank %2</b>: %3 keys%4; rank %2 spends %5 less "
                                            "in kernels than rank %1"))
                           .arg(*rank)
                           .arg(*compare)
                           .arg(s.keys)
                           .arg(limit)
                           .arg(amount);
                m_model->setCompareRows(std::move(std::get<std::vector<query::OperatorCompareRow>>(s.rows)));
            } else {
                const auto& list = std::get<std::vector<query::OperatorRow>>(s.rows);
                if (s.keys == 0)
                    text = all ? tr("No rank loaded so far has kernel rows.")
                               : tr("Rank %1 has no kernel rows (kernel_details.csv, op_summary or a db export's "
                                    "kernel tables).")
                                     .arg(*rank);
                else if (all)
                    text = tr("<b>All ranks</b> (%1 with kernels): %2 keys%3, %4 kernels over every loaded step")
                               .arg(s.ranksWithKernels)
                               .arg(s.keys)
                               .arg(limit)
                               .arg(s.kernels);
                else
                    text = tr("<b>Rank %1</b>: %2 keys%3, %4 kernels over every loaded step")
                               .arg(*rank)
                               .arg(s.keys)
                               .arg(limit)
                               .arg(s.kernels);
                m_model->setRows(list);
            }
            m_status->setText(progress.isEmpty() ? text : text + QStringLiteral("<br>") + progress.toHtmlEscaped());

            fillPies(m_typePie, m_corePie, s, rank, compare, all, topN);
            applyComparison();
        });
}

void OperatorDock::applyComparison()
{
    m_model->setComparison(BaselineComparison::of(workspace())->comparison(),
        static_cast<OperatorGroupBy>(m_groupBy->currentData().toInt()));
    layoutColumns();
}

void OperatorDock::layoutColumns()
{
    const bool comparing = m_model->isCompare();
    m_table->setColumnHidden(OperatorTableModel::Total, comparing);
    for (int c : { OperatorTableModel::BaseTotal, OperatorTableModel::CompareTotal, OperatorTableModel::Difference })
        m_table->setColumnHidden(c, !comparing);
    m_table->setColumnHidden(OperatorTableModel::Shapes,
        static_cast<OperatorGroupBy>(m_groupBy->currentData().toInt()) != OperatorGroupBy::Shape);
    // FLOPs come from MindSpore's per-op FLOPs file only; without one the columns would be all dashes.
    for (int c : { OperatorTableModel::Flops, OperatorTableModel::FlopsPerSecond })
        m_table->setColumnHidden(c, !m_model->hasFlops());
    // Against a baseline run the rows sort by the |Δ| of the run comparison (largest change first).
    const int runDelta = m_model->runDeltaColumn();
    m_table->sortByColumn(comparing ? OperatorTableModel::Difference
            : runDelta >= 0         ? runDelta
                                    : OperatorTableModel::Total,
        Qt::DescendingOrder);
    // The run comparison's Base / New / Δ / Δ % follow Key and Count, where a 1366-pixel-wide window shows them.
    QHeaderView* header = m_table->horizontalHeader();
    for (int i = 0; runDelta >= 0 && i < m_model->columnCount() - OperatorTableModel::ColumnCount; ++i) {
        const int from = header->visualIndex(OperatorTableModel::ColumnCount + i);
        if (from >= 0 && from != OperatorTableModel::Count + 1 + i)
            header->moveSection(from, OperatorTableModel::Count + 1 + i);
    }
    // Name + shapes keys can be very long: they give up width (elided, whole in the tooltip) and the figures stay in
    // view.
    TableSetup::fitColumns(
        m_table, { OperatorTableModel::Key, OperatorTableModel::Shapes, OperatorTableModel::Accelerator });
}

} // namespace npuscope::gui
