// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/strategy/ParallelStrategyDock.h"

#include "npuscope/gui/common/TranslatedText.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/strategy/StrategyChart.h"
#include "npuscope/query/ParallelLayoutQuery.h"
#include "npuscope/query/RankMetricQuery.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace npuscope::gui {

namespace {

const char* const kSizeNames[5] = { "PP", "DP", "CP", "TP", "EP" };

int& sizeAt(query::ParallelSizes& s, int i)
{
    int* const fields[5] = { &s.pp, &s.dp, &s.cp, &s.tp, &s.ep };
    return *fields[i];
}

struct LayoutResult {
    query::ParallelLayout layout;
    std::vector<std::pair<int64_t, int64_t>> pairs;
};

} // namespace

ParallelStrategyDock::ParallelStrategyDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Parallel strategy"), kObjectName, ws, parent)
    , m_chart(new StrategyChart)
    , m_valueRunner(addRunner())
{
    const auto [body, layout, bar] = makeBody({ .spacing = 4 });
    bar->addWidget(new QLabel(tr("Colour by:"), body));
    m_metric = new QComboBox(body);
    m_metric->setObjectName(QStringLiteral("strategyMetric"));
    for (int i = 0; i < query::kRankMetricCount; ++i)
        m_metric->addItem(
            QCoreApplication::translate("RankMetric", query::rankMetricTitle(static_cast<query::RankMetric>(i))), i);
    m_metric->setToolTip(tr("Per-rank figure of the selected step (or the mean over steps); docs/metrics.md"));
    bar->addWidget(m_metric);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("Range:"), body));
    auto makeBound = [body](const QString& special) {
        auto* spin = new QDoubleSpinBox(body);
        spin->setRange(0, 1e9);
        spin->setMaximumWidth(140);
        spin->setDecimals(3);
        spin->setKeyboardTracking(false);
        spin->setSpecialValueText(special);
        // Narrower than the hint for 1e9 with 3 decimals, so the bar fits a 1366 px screen at a scale of 2; a larger
        // value scrolls inside the field.
        spin->setMinimumWidth(spin->fontMetrics().horizontalAdvance(special + QStringLiteral("00")) + 24);
        spin->setToolTip(tr("Cells outside the range are drawn faded (ms for times, % for ratios)"));
        return spin;
    };
    m_low = makeBound(tr("no minimum"));
    m_low->setObjectName(QStringLiteral("strategyLow"));
    m_high = makeBound(tr("no maximum"));
    m_high->setObjectName(QStringLiteral("strategyHigh"));
    bar->addWidget(m_low);
    bar->addWidget(new QLabel(QStringLiteral("\u2013"), body));
    bar->addWidget(m_high);
    m_unit = new QLabel(body);
    bar->addWidget(m_unit);
    bar->addStretch(1);

    auto* sizes = new QHBoxLayout;
    sizes->addWidget(new QLabel(tr("Sizes:"), body));
    for (int i = 0; i < 5; ++i) {
        sizes->addWidget(new QLabel(QString::fromLatin1(kSizeNames[i]), body));
        m_sizeSpins[i] = new QSpinBox(body);
        m_sizeSpins[i]->setObjectName(QStringLiteral("strategySize%1").arg(QString::fromLatin1(kSizeNames[i])));
        m_sizeSpins[i]->setRange(1, 1 << 20);
        m_sizeSpins[i]->setMaximumWidth(90);
        // Room for four digits rather than the hint's seven (the range's maximum).
        m_sizeSpins[i]->setMinimumWidth(m_sizeSpins[i]->fontMetrics().horizontalAdvance(QStringLiteral("00000")) + 24);
        sizes->addWidget(m_sizeSpins[i]);
    }
    m_apply = new QPushButton(tr("Apply"), body);
    m_apply->setToolTip(tr("Lay the ranks out with these sizes in Megatron order (rank = tp + TP\u00b7(cp + "
                           "CP\u00b7(dp + DP\u00b7pp))), remembered for these inputs"));
    m_fromData = new QPushButton(tr("From data"), body);
    m_fromData->setToolTip(tr("Forget the entered sizes and use the layout the data gives"));
    sizes->addWidget(m_apply);
    sizes->addWidget(m_fromData);
    sizes->addStretch(1);
    layout->addLayout(sizes);
    // On its own line and wrapped: the sentence can be long and must not widen the dock.
    m_source = new QLabel(body);
    m_source->setObjectName(QStringLiteral("strategySource"));
    m_source->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_source->setWordWrap(true);
    m_source->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(m_source);

    m_scroll = new QScrollArea(body);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidget(m_chart);
    layout->addWidget(m_scroll, 1);
    setBody(body);

    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] {
        m_low->setValue(0);
        m_high->setValue(0);
        reloadValues();
    });
    connect(m_low, &QDoubleSpinBox::valueChanged, this, &ParallelStrategyDock::applyRange);
    connect(m_high, &QDoubleSpinBox::valueChanged, this, &ParallelStrategyDock::applyRange);
    connect(m_apply, &QPushButton::clicked, this, [this] {
        query::ParallelSizes s;
        for (int i = 0; i < 5; ++i)
            sizeAt(s, i) = m_sizeSpins[i]->value();
        applySizes(s);
    });
    connect(m_fromData, &QPushButton::clicked, this, [this] { applySizes(std::nullopt); });
    connect(m_chart, &StrategyChart::rankClicked, this,
        [this](qint64 rank) { workspace()->setSelectedRank(static_cast<int64_t>(rank)); });
    connect(workspace(), &Workspace::selectedRankChanged, this, &ParallelStrategyDock::syncSelection);
    reloadPartOn({ &Workspace::stepChanged }, [this] { reloadValues(); });
    reloadPartOn({ &Workspace::deviceCapacityChanged }, [this] { reloadValues(); });
    connect(ws, &Workspace::parallelSizesChanged, this, [this] { requestReload(); });
    requestReload();
}

std::optional<query::ParallelSizes> ParallelStrategyDock::userSizes() const { return workspace()->parallelSizes(); }

void ParallelStrategyDock::applySizes(std::optional<query::ParallelSizes> sizes)
{
    workspace()->setParallelSizes(sizes); // parallelSizesChanged reloads this view and Marey
}

void ParallelStrategyDock::reload()
{
    // The sizes applied for this input set, if any (another input set has its own).
    const auto user = workspace()->parallelSizes();
    const bool started = runner()->run(
        [user](model::Database& db) {
            return LayoutResult { query::ParallelLayoutQuery::layout(db, user),
                query::ParallelLayoutQuery::p2pPairs(db) };
        },
        [this](LayoutResult r) {
            for (int i = 0; i < 5; ++i)
                m_sizeSpins[i]->setValue(sizeAt(r.layout.sizes, i));
            QString text = tr("%1 ranks: PP %2 \u00d7 DP %3 \u00d7 CP %4 \u00d7 TP %5")
                               .arg(r.layout.worldSize)
                               .arg(r.layout.sizes.pp)
                               .arg(r.layout.sizes.dp)
                               .arg(r.layout.sizes.cp)
                               .arg(r.layout.sizes.tp);
            if (r.layout.sizes.ep > 1)
                text += tr(", EP %1").arg(r.layout.sizes.ep);
            int64_t loaded = 0;
            for (const auto& stage : r.layout.stages)
                loaded += static_cast<int64_t>(stage.loadedRanks.size());
            if (loaded != r.layout.worldSize)
                text += tr(" (%1 loaded)").arg(loaded);
            text += tr(" \u2014 from %1: %2")
                        .arg(QCoreApplication::translate("LayoutSource", query::layoutSourceName(r.layout.source)),
                            translatedText(r.layout.detail));
            QString notes;
            for (const auto& n : r.layout.notes)
                notes += (notes.isEmpty() ? QString() : QStringLiteral("\n")) + translatedText(n);
            if (!notes.isEmpty())
                text += tr(" \u26a0 %1").arg(notes.section(QLatin1Char('\n'), 0, 0));
            m_source->setText(text);
            m_source->setToolTip(notes);
            m_chart->setLayoutData(std::move(r.layout));
            m_chart->setP2pPairs(std::move(r.pairs));
            syncSelection();
        });
    if (!started) {
        m_valueRunner->cancelPending(); // a figure of the previous model must not reach the cleared chart
        m_chart->setLayoutData({});
        m_source->setText(tr("No profile loaded"));
        return;
    }
    reloadValues();
}

void ParallelStrategyDock::reloadValues()
{
    const auto metric = static_cast<query::RankMetric>(m_metric->currentData().toInt());
    const auto step = workspace()->step();
    const bool skipFirst = workspace()->skipFirstStep();
    const double capacityMb = workspace()->deviceCapacityGb() * 1024.0;
    const bool ratio = query::rankMetricIsRatio(metric);
    m_unit->setText(ratio ? QStringLiteral("%") : QStringLiteral("ms"));
    m_valueRunner->run(
        [metric, step, skipFirst, capacityMb](
            model::Database& db) { return query::RankMetricQuery::values(db, metric, step, skipFirst, capacityMb); },
        [this, metric](std::map<int64_t, double> values) {
            m_chart->setValues(metric, std::move(values));
            applyRange();
        });
}

void ParallelStrategyDock::applyRange()
{
    const auto metric = static_cast<query::RankMetric>(m_metric->currentData().toInt());
    // The spin boxes show ms or %; the chart's values are ns or ratios.
    const double scale = query::rankMetricIsRatio(metric) ? 0.01 : 1e6;
    const auto bound = [scale](QDoubleSpinBox* spin) {
        return spin->value() > spin->minimum() ? std::optional(spin->value() * scale) : std::nullopt;
    };
    m_chart->setRange(bound(m_low), bound(m_high));
}

void ParallelStrategyDock::syncSelection() { m_chart->setSelectedRank(workspace()->selectedRank()); }

} // namespace npuscope::gui
