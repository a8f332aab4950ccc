// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/pipeline/PipelineDock.h"

#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/EmptyHint.h"
#include "npuscope/gui/common/TableSetup.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/pipeline/PipelineChain.h"
#include "npuscope/gui/pipeline/PipelineOpTableModel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace npuscope::gui {

namespace {

QString percent(double share) { return QString::number(share * 100, 'f', 1); }

// The bottleneck line: the operator and the rule that found it, or why there is none.
QString bottleneckText(const query::RankPipeline& p)
{
    using query::NoBottleneck;
    using query::PipelineQuery;
    if (const auto& b = p.bottleneck) {
        const QString op = PipelineDock::tr("%1 (op %2)").arg(QString::fromStdString(b->opType)).arg(b->opId);
        if (b->rule == "queue_drop")
            return PipelineDock::tr("Bottleneck: %1. Rule queue_drop: its output queue (%2 % used) is emptier than its "
                                    "input queue (%3 %) by more than %4 %: it consumes faster than it produces.")
                .arg(op, percent(b->usage), percent(b->inputUsage.value_or(0)), percent(PipelineQuery::kUsageDrop));
        if (b->rule == "slow_source")
            return PipelineDock::tr("Bottleneck: %1. Rule slow_source: a source whose output queue is %2 % used "
                                    "(below %3 %): reading the data is too slow.")
                .arg(op, percent(b->usage), percent(PipelineQuery::kLowUsage));
        return PipelineDock::tr("Bottleneck: %1. Rule all_queues_full: every queue below it is above %2 % used: the "
                                "last operator or the transfer to the device is too slow.")
            .arg(op, percent(PipelineQuery::kHighUsage));
    }
    switch (p.noBottleneck) {
    case NoBottleneck::KeepsUp:
        return PipelineDock::tr("No bottleneck: the device queue was empty in %1 % of the samples (at most %2 %), the "
                                "pipeline keeps up with the device.")
            .arg(percent(p.deviceQueueEmptyRate.value_or(0)), percent(PipelineQuery::kDeviceQueueEmptyRate));
    case NoBottleneck::NoQueueFigures:
        return PipelineDock::tr("No bottleneck found: no operator has sampled output queue figures.");
    case NoBottleneck::NoRuleFired:
        return PipelineDock::tr("No bottleneck found: no operator's queues single one out (no queue drop above %1 %, "
                                "no source below %2 %, not every queue above %3 %).")
            .arg(percent(PipelineQuery::kUsageDrop), percent(PipelineQuery::kLowUsage),
                percent(PipelineQuery::kHighUsage));
    case NoBottleneck::NoOperators:
    case NoBottleneck::None:
        break;
    }
    return PipelineDock::tr("No bottleneck: this rank has no dataset operator file (minddata_pipeline_raw or "
                            "pipeline_profiling).");
}

QString queueText(const query::RankPipeline& p)
{
    QStringList parts;
    if (p.deviceQueueSamples > 0)
        parts << PipelineDock::tr("Device queue empty in %1 of %2 samples (%3 %), full in %4")
                     .arg(p.deviceQueueEmpty)
                     .arg(p.deviceQueueSamples)
                     .arg(percent(p.deviceQueueEmptyRate.value_or(0)))
                     .arg(p.deviceQueueFull);
    else
        parts << PipelineDock::tr("No device queue file");
    if (const auto cpu = p.processCpuPct())
        parts << PipelineDock::tr("process CPU %1 %").arg(*cpu, 0, 'f', 1);
    if (p.hostCpuUserPct || p.hostCpuSysPct)
        parts << PipelineDock::tr("host CPU user %1 %, sys %2 %")
                     .arg(p.hostCpuUserPct.value_or(0), 0, 'f', 1)
                     .arg(p.hostCpuSysPct.value_or(0), 0, 'f', 1);
    return parts.join(QStringLiteral("; "));
}

} // namespace

PipelineDock::PipelineDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Data pipeline"), kObjectName, ws, parent)
    , m_model(new PipelineOpTableModel(this))
{
    const auto [body, layout, bar] = makeBody({ .spacing = 4 });
    auto* rankLabel = new QLabel(tr("Rank:"), body);
    m_rankCombo = new QComboBox(body);
    m_rankCombo->setObjectName(QStringLiteral("pipelineRank"));
    fitToItems(m_rankCombo);
    rankLabel->setBuddy(m_rankCombo);
    bar->addWidget(rankLabel);
    bar->addWidget(m_rankCombo);
    m_queue = newWrappedLabel("pipelineQueue", body);
    bar->addWidget(m_queue, 1);

    m_bottleneck = newWrappedLabel("pipelineBottleneck", body);
    m_bottleneck->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_bottleneck);

    auto* split = new QSplitter(Qt::Vertical, body);
    m_chain = new PipelineChain(split);
    auto* scroll = new QScrollArea(split);
    scroll->setWidget(m_chain);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* proxy = new QSortFilterProxyModel(this);
    m_table = TableSetup::sortedTable(m_model, proxy, RowTableModelBase::ValueRole,
        { .stretchLastSection = false, .sortable = true, .sortColumn = -1, .toolbarRow = bar }, split);
    m_table->setObjectName(QStringLiteral("pipelineTable"));
    split->addWidget(scroll);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    setBody(body);
    setEmptyHint(m_table, tr("No MindSpore data pipeline files were loaded."));

    connect(m_rankCombo, &QComboBox::currentIndexChanged, this, [this] { showRank(); });
    connect(ws, &Workspace::selectedRankChanged, this, [this] { followSelection(); });
    requestReload();
}

void PipelineDock::reload()
{
    const bool started = runner()->run([](model::Database& db) { return query::PipelineQuery::ranks(db); },
        [this](std::vector<query::RankPipeline> r) { showResult(std::move(r)); });
    if (!started)
        showResult({});
}

void PipelineDock::showResult(std::vector<query::RankPipeline> pipelines)
{
    m_pipelines = std::move(pipelines);
    const QVariant previous = m_rankCombo->currentData();
    {
        const QSignalBlocker block(m_rankCombo);
        m_rankCombo->clear();
        for (const auto& p : m_pipelines)
            m_rankCombo->addItem(QString::number(p.rank), QVariant::fromValue<qlonglong>(p.rank));
        const int keep = m_rankCombo->findData(previous);
        m_rankCombo->setCurrentIndex(keep >= 0 ? keep : 0);
    }
    m_rankCombo->setEnabled(m_pipelines.size() > 1);
    followSelection();
    showRank();
}

void PipelineDock::followSelection()
{
    const auto rank = workspace()->selectedRank();
    if (!rank)
        return;
    const int index = m_rankCombo->findData(QVariant::fromValue<qlonglong>(*rank));
    if (index >= 0 && index != m_rankCombo->currentIndex())
        m_rankCombo->setCurrentIndex(index); // showRank through currentIndexChanged
}

void PipelineDock::showRank()
{
    const int index = m_rankCombo->currentIndex();
    if (index < 0 || index >= static_cast<int>(m_pipelines.size())) {
        m_chain->setPipeline(std::nullopt);
        m_model->setRows({});
        m_bottleneck->setText(m_pipelines.empty() ? tr("No MindSpore data pipeline files (minddata_pipeline_raw, "
                                                       "pipeline_profiling, minddata_cpu_utilization, "
                                                       "device_queue_profiling) were loaded.")
                                                  : QString());
        m_queue->clear();
        return;
    }
    const auto& p = m_pipelines[static_cast<size_t>(index)];
    m_chain->setPipeline(p);
    m_model->setRows(p.ops);
    TableSetup::fitColumns(m_table, {});
    m_bottleneck->setText(bottleneckText(p));
    m_queue->setText(queueText(p));
}

} // namespace npuscope::gui
