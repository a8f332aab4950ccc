// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/comm/CommDurationDock.h"
#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/TableSetup.h"

#include "npuscope/gui/comm/CommDurationModel.h"
#include "npuscope/gui/comm/CommRankChart.h"
#include "npuscope/gui/comm/CommSelectionBar.h"
#include "npuscope/gui/comm/OpStripView.h"
#include "npuscope/gui/comm/PacketChart.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/query/CommAnalysisQuery.h"
#include "npuscope/query/CommOpIndex.h"

#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QResizeEvent>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace npuscope::gui {

namespace {

struct DurationResult {
    std::vector<query::RankDuration> rows;
    std::vector<query::PacketDistribution> packets;
    query::OpStrip strip;
    std::string emptyReason; // why there are no ops at all (empty when the selection merely has none)
    double ms = 0;
};

// A wrapped title whose minimum height is what its text needs at its width: the splitters around it do not ask
// for heights for widths, so a title wrapped to two lines would push its chart out of the box.
class TitleLabel : public QLabel {
public:
    using QLabel::QLabel;
    QSize minimumSizeHint() const override
    {
        QSize size = QLabel::minimumSizeHint();
        if (width() > 0)
            size.setHeight(std::max(size.height(), heightForWidth(width())));
        return size;
    }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QLabel::resizeEvent(event);
        if (event->oldSize().width() != event->size().width())
            updateGeometry();
    }
};

QWidget* titled(const QString& title, QWidget* content, QWidget* parent, QLabel** labelOut = nullptr)
{
    const auto [box, l] = newColumn(parent);
    l->setSpacing(2);
    auto* label = new TitleLabel(QStringLiteral("<b>%1</b>").arg(title), box);
    label->setWordWrap(true);
    if (labelOut)
        *labelOut = label;
    l->addWidget(label);
    content->setParent(box);
    l->addWidget(content, 1);
    return box;
}

} // namespace

CommDurationDock::CommDurationDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Communication duration"), kObjectName, ws, parent)
    , m_model(new CommDurationModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    const auto [body, layout, bar] = makeBody();
    m_bar = new CommSelectionBar(ws, body);
    bar->addWidget(m_bar);
    bar->addStretch(1);
    m_summary = new QLabel(body);
    m_summary->setObjectName(QStringLiteral("durationSummary"));
    bar->addWidget(m_summary);

    m_table = TableSetup::sortedTable(m_model, m_proxy, CommDurationModel::RawValueRole,
        { .singleSelection = true, .centeredHeader = true, .sortable = true, .sortColumn = CommDurationModel::Rank },
        body);
    m_table->setObjectName(QStringLiteral("durationTable"));
    m_chart = new CommRankChart(body);
    m_packets = new PacketChart(body);
    m_strip = new OpStripView(body);

    auto* top = new QSplitter(Qt::Horizontal, body);
    top->addWidget(m_table);
    top->addWidget(titled(m_chart->title(), m_chart, top, &m_chartTitle));
    m_chartTitle->setObjectName(QStringLiteral("commRankChartTitle"));
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);
    top->setSizes({ 1210, 390 });
    auto* bottom = new QSplitter(Qt::Horizontal, body);
    bottom->addWidget(titled(tr("Packet sizes per transport (packet count per size range)"), m_packets, bottom));
    bottom->addWidget(titled(tr("Ops over the step per rank (click: timeline)"), m_strip, bottom));
    bottom->setStretchFactor(0, 2);
    bottom->setStretchFactor(1, 3);
    auto* split = new QSplitter(Qt::Vertical, body);
    split->addWidget(top);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    setBody(body);

    auto selectRank = [this](qint64 rank) { workspace()->setSelectedRank(rank); };
    connect(m_chart, &CommRankChart::rankClicked, this, selectRank);
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex& index) {
        if (index.isValid())
            workspace()->setSelectedRank(index.data(CommDurationModel::RankIdRole).toLongLong());
    });
    connect(m_strip, &OpStripView::opActivated, this, [this](qint64 rank, qint64 begin, qint64 end) {
        workspace()->setSelectedRank(rank);
        workspace()->setTimeWindow(Workspace::TimeWindow { begin, end });
    });
    reloadOn({ &Workspace::stepChanged, &Workspace::groupChanged, &Workspace::commOpChanged });
    connect(workspace(), &Workspace::selectedRankChanged, this, &CommDurationDock::syncSelection);
    requestReload();
}

void CommDurationDock::reload()
{
    const query::CommSelection sel = CommSelectionBar::selection(*workspace());
    const bool started = runner()->runInMemory(
        [sel](const std::shared_ptr<model::Database>& database) {
            // Built once per database (first use), then every selection is computed in memory.
            const auto index = query::CommOpIndex::forDatabase(database);
            const query::CommOpIndex& db = *index;
            QElapsedTimer t;
            t.start();
            DurationResult r;
            r.rows = query::CommAnalysisQuery::durations(db, sel);
            r.packets = query::CommAnalysisQuery::packets(db, sel);
            // The strip shows every op of the step (the chosen op is one of them).
            query::CommSelection stripSel = sel;
            stripSel.opName.reset();
            r.strip = query::CommAnalysisQuery::opStrip(db, stripSel);
            r.ms = static_cast<double>(t.nsecsElapsed()) / 1.0e6;
            if (r.rows.empty() && index->size() == 0) {
                auto guard = database->lock();
                r.emptyReason = query::CommAnalysisQuery::noCommReason(*database);
            }
            return r;
        },
        [this](DurationResult r) {
            m_lastQueryMs = r.ms;
            ++m_resultsApplied;
            m_summary->setText(
                r.emptyReason.empty() ? tr("%1 ranks").arg(r.rows.size()) : QString::fromStdString(r.emptyReason));
            m_chart->setEmptyText(r.emptyReason.empty() ? tr("No communication ops in this selection")
                                                        : QString::fromStdString(r.emptyReason));
            m_chart->setRows(r.rows);
            m_chartTitle->setText(QStringLiteral("<b>%1</b>").arg(m_chart->title().toHtmlEscaped()));
            m_model->setRows(std::move(r.rows));
            m_packets->setDistributions(std::move(r.packets));
            m_strip->setStrip(std::move(r.strip));
            fitColumns();
            syncSelection();
        });
    if (!started) {
        m_model->setRows({});
        m_chart->setRows({});
        m_packets->setDistributions({});
        m_strip->setStrip({});
        m_summary->setText(tr("No profile loaded"));
    }
}

void CommDurationDock::fitColumns()
{
    // resizeColumnsToContents() asks the delegate about every row: ~25 ms of GUI time per selection change at
    // 1,024 ranks. The rows with the longest text per column give the same widths.
    const int grid = m_table->showGrid() ? 1 : 0;
    for (int c = 0; c < CommDurationModel::ColumnCount; ++c) {
        int width = m_table->horizontalHeader()->sectionSizeHint(c);
        for (int row : m_model->widestRows(c))
            width = std::max(
                width, m_table->sizeHintForIndex(m_proxy->mapFromSource(m_model->index(row, c))).width() + grid);
        m_table->setColumnWidth(c, width);
    }
}

void CommDurationDock::syncSelection()
{
    const auto rank = workspace()->selectedRank();
    m_chart->setSelectedRank(rank);
    TableSetup::selectSourceRow(m_table, m_proxy, rank ? m_model->rowOfRank(*rank) : -1);
}

} // namespace npuscope::gui
