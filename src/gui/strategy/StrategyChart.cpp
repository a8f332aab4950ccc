// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/strategy/StrategyChart.h"

#include "npuscope/gui/common/DivergingScale.h"
#include "npuscope/gui/common/TimeFormat.h"

#include <QCoreApplication>
#include <QPaintEvent>
#include <QPainter>
#include <QPainterPath>
#include <QRegion>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

namespace npuscope::gui {

namespace {

constexpr int kMargin = 8;
constexpr int kStageGap = 14; // px between stage columns
constexpr int kStagePad = 4; // px inside a stage box
constexpr int kReplicaPad = 2; // px inside a DP replica box
constexpr int kReplicaGap = 3; // px between DP replica boxes

// Diverging around the median (ColorBrewer RdBu ends): a light neutral grey within the band, towards red above the
// median and blue below; every metric here is "more is worse".
const QColor kNeutral(0xe8, 0xe8, 0xe8);
const QColor kWarm(0xd7, 0x30, 0x27);
const QColor kCool(0x45, 0x75, 0xb4);
const QColor kNoData(0xbd, 0xbd, 0xbd);
const QColor kLink(0x1f, 0x4e, 0x9c);

// The link colour on this palette's base: the light one on a dark base (dark theme), opaque.
QColor linkColour(const QPalette& palette)
{
    return palette.color(QPalette::Base).lightnessF() < 0.5 ? QColor(0x7f, 0xa8, 0xf0) : kLink;
}

QColor mix(const QColor& a, const QColor& b, double f)
{
    return QColor::fromRgbF(static_cast<float>(a.redF() + f * (b.redF() - a.redF())),
        static_cast<float>(a.greenF() + f * (b.greenF() - a.greenF())),
        static_cast<float>(a.blueF() + f * (b.blueF() - a.blueF())));
}

int ceilDiv(int a, int b) { return (a + b - 1) / b; }

} // namespace

StrategyChart::StrategyChart(QWidget* parent)
    : ChartWidget(parent, { .hover = true })
{
    connect(this, &ChartWidget::itemClicked, this, [this](int item) {
        if (item >= 0)
            emit rankClicked(item);
    });
}

void StrategyChart::setLayoutData(query::ParallelLayout layout)
{
    m_layout = std::move(layout);
    resetHover();
    relayout();
}

void StrategyChart::setValues(query::RankMetric metric, std::map<int64_t, double> values)
{
    m_metric = metric;
    m_values = std::move(values);
    m_median.reset();
    std::vector<double> sorted;
    sorted.reserve(m_values.size());
    for (const auto& [rank, v] : m_values) {
        sorted.push_back(v);
    }
    // The colour's reference (as query::ColumnStats::median): the mean of the two middle values for an even count.
    if (!sorted.empty()) {
        std::sort(sorted.begin(), sorted.end());
        const size_t n = sorted.size();
        m_median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
    update();
}

void StrategyChart::setP2pPairs(std::vector<std::pair<int64_t, int64_t>> pairs)
{
    m_pairs = std::move(pairs);
    update();
}

void StrategyChart::setRange(std::optional<double> low, std::optional<double> high)
{
    m_low = low;
    m_high = high;
    update();
}

bool StrategyChart::inRange(int64_t rank) const
{
    const auto it = m_values.find(rank);
    if (it == m_values.end())
        return !m_low && !m_high;
    return (!m_low || it->second >= *m_low) && (!m_high || it->second <= *m_high);
}

void StrategyChart::setSelectedRank(std::optional<int64_t> rank)
{
    setSelectedItem(rank && m_layout.find(*rank) ? static_cast<int>(*rank) : -1);
}

QColor StrategyChart::colorOf(std::optional<double> value) const
{
    if (!value || !m_median)
        return kNoData;
    const double deviation = *m_median > 0 ? (*value - *m_median) / *m_median : 0.0;
    return deviationColour(deviation, DivergingScale::neutralBand());
}

QColor StrategyChart::deviationColour(double deviation, double band)
{
    const double s = DivergingScale::strength(deviation, band);
    if (s == 0)
        return kNeutral;
    // The first step past the band is already visibly tinted, as in the tables.
    return mix(kNeutral, s > 0 ? kWarm : kCool, 0.2 + 0.8 * std::abs(s));
}

QString StrategyChart::formatValue(double value) const
{
    if (query::rankMetricIsRatio(m_metric))
        return QStringLiteral("%1 %").arg(100.0 * value, 0, 'f', 1);
    return TimeFormat::withUnit(static_cast<int64_t>(std::llround(value)), TimeFormat::Unit::Milliseconds);
}

int StrategyChart::legendHeight() const { return kMargin + 2 * fontMetrics().height() + 10; }

StrategyChart::Geometry StrategyChart::computeGeometry(int width, int height) const
{
    Geometry g;
    const auto& s = m_layout.sizes;
    const QFontMetrics fm = fontMetrics();
    g.top = legendHeight() + fm.height() + 6;
    g.left = kMargin;
    g.stageGap = kStageGap;
    g.cpGap = s.cp > 1 ? 3 : 0;
    const int pp = std::max(1, s.pp);
    const int dp = std::max(1, s.dp);
    const int cellsPerReplica = std::max(1, s.cp * s.tp);
    const int stageWidth = std::max(0, (width - 2 * kMargin - (pp - 1) * kStageGap) / pp - 2 * kStagePad);
    const int availHeight = std::max(0, height - g.top - kMargin - 2 * kStagePad);
    // Try every number of replica columns and keep the one giving the largest cells (width counts less than height
    // beyond the caps, so replicas wrap only when rows would get too flat).
    double best = -1;
    for (int k = 1; k <= dp; ++k) {
        const int rows = ceilDiv(dp, k);
        const int cw = (stageWidth - (k - 1) * kReplicaGap - k * (2 * kReplicaPad + (s.cp - 1) * g.cpGap))
            / (k * cellsPerReplica);
        if (cw < kMinCell && k > 1)
            break;
        const int ch = (availHeight - rows * (2 * kReplicaPad + kReplicaGap)) / rows;
        const int w = std::clamp(cw, kMinCell, kMaxCellWidth);
        const int h = std::clamp(ch, kMinCell, kMaxCellHeight);
        const double score = std::min<double>(w, 1.8 * h);
        if (score > best) {
            best = score;
            g.replicaColumns = k;
            g.cellWidth = w;
            g.cellHeight = h;
        }
    }
    g.replicaWidth = cellsPerReplica * g.cellWidth + (s.cp - 1) * g.cpGap + 2 * kReplicaPad;
    g.replicaHeight = g.cellHeight + 2 * kReplicaPad;
    g.stageWidth = g.replicaColumns * g.replicaWidth + (g.replicaColumns - 1) * kReplicaGap + 2 * kStagePad;
    return g;
}

void StrategyChart::relayout()
{
    m_geometry = computeGeometry(width(), height());
    updateGeometry();
    update();
}

void StrategyChart::resizeEvent(QResizeEvent* event)
{
    ChartWidget::resizeEvent(event);
    m_geometry = computeGeometry(width(), height());
}

QSize StrategyChart::minimumSizeHint() const
{
    if (m_layout.ranks.empty())
        return { 200, 120 };
    const Geometry g = computeGeometry(0, 0);
    const int pp = std::max(1, m_layout.sizes.pp);
    const int rows = ceilDiv(std::max(1, m_layout.sizes.dp), g.replicaColumns);
    return { 2 * kMargin + pp * g.stageWidth + (pp - 1) * kStageGap,
        g.top + 2 * kStagePad + rows * (g.replicaHeight + kReplicaGap) + kMargin };
}

QSize StrategyChart::sizeHint() const { return minimumSizeHint().expandedTo({ 640, 400 }); }

QRect StrategyChart::cellRect(int64_t rank) const
{
    const auto* c = m_layout.find(rank);
    if (!c)
        return {};
    const Geometry& g = m_geometry;
    const int col = c->dp % g.replicaColumns;
    const int row = c->dp / g.replicaColumns;
    const int x = g.left + c->pp * (g.stageWidth + kStageGap) + kStagePad + col * (g.replicaWidth + kReplicaGap)
        + kReplicaPad + c->cp * (m_layout.sizes.tp * g.cellWidth + g.cpGap) + c->tp * g.cellWidth;
    const int y = g.top + kStagePad + row * (g.replicaHeight + kReplicaGap) + kReplicaPad;
    return { x, y, g.cellWidth, g.cellHeight };
}

int StrategyChart::itemAt(const QPoint& pos) const
{
    const Geometry& g = m_geometry;
    const auto& s = m_layout.sizes;
    if (m_layout.ranks.empty() || pos.y() < g.top || pos.x() < g.left)
        return -1;
    const int pp = (pos.x() - g.left) / (g.stageWidth + kStageGap);
    if (pp >= s.pp)
        return -1;
    const int inStageX = pos.x() - g.left - pp * (g.stageWidth + kStageGap) - kStagePad;
    const int inStageY = pos.y() - g.top - kStagePad;
    if (inStageX < 0 || inStageY < 0)
        return -1;
    const int col = inStageX / (g.replicaWidth + kReplicaGap);
    const int row = inStageY / (g.replicaHeight + kReplicaGap);
    if (col >= g.replicaColumns)
        return -1;
    const int dp = row * g.replicaColumns + col;
    if (dp >= s.dp)
        return -1;
    int x = inStageX - col * (g.replicaWidth + kReplicaGap) - kReplicaPad;
    const int cpWidth = s.tp * g.cellWidth + g.cpGap;
    const int cp = x / cpWidth;
    x -= cp * cpWidth;
    const int tp = x / g.cellWidth;
    if (cp >= s.cp || tp >= s.tp || x < 0)
        return -1;
    const auto rank = m_layout.rankAt(pp, dp, cp, tp);
    if (!rank || !cellRect(*rank).contains(pos))
        return -1;
    return static_cast<int>(*rank);
}

QString StrategyChart::itemToolTip(int item) const
{
    const auto* c = m_layout.find(item);
    if (!c)
        return {};
    const auto& s = m_layout.sizes;
    QString html = QStringLiteral("<b>Rank %1</b>").arg(c->rank);
    if (!c->loaded)
        html += tr(" (not loaded)");
    html += QStringLiteral("<br>PP %1 / %2 &nbsp; DP %3 / %4").arg(c->pp).arg(s.pp).arg(c->dp).arg(s.dp);
    if (s.cp > 1)
        html += QStringLiteral(" &nbsp; CP %1 / %2").arg(c->cp).arg(s.cp);
    html += QStringLiteral(" &nbsp; TP %1 / %2").arg(c->tp).arg(s.tp);
    if (s.ep > 1)
        html += QStringLiteral(" &nbsp; EP %1 / %2").arg(c->ep).arg(s.ep);
    const auto it = m_values.find(c->rank);
    html += QStringLiteral("<br>%1: %2")
                .arg(QCoreApplication::translate("RankMetric", query::rankMetricTitle(m_metric)),
                    it != m_values.end() ? formatValue(it->second) : TimeFormat::kAbsent);
    int links = 0;
    for (const auto& [src, dst] : m_pairs)
        links += src == c->rank || dst == c->rank;
    if (links > 0)
        html += tr("<br>%1 point-to-point link(s)").arg(links);
    return html;
}

void StrategyChart::paintLegend(QPainter& p) const
{
    const QFontMetrics fm = fontMetrics();
    const int y0 = kMargin;
    const int h = fm.height();
    p.setPen(palette().color(QPalette::WindowText));
    const QString title = QCoreApplication::translate("RankMetric", query::rankMetricTitle(m_metric));
    p.drawText(kMargin, y0 + fm.ascent(), title);
    const int barX = kMargin + fm.horizontalAdvance(title) + 12;
    // The bar spans deviations of −20 % .. +20 % from the median; its labels: the two ends and the median with the
    // neutral band. At least as wide as its labels and gaps, so that they never run together.
    const double saturation = DivergingScale::kSaturation;
    const double band = DivergingScale::neutralBand();
    const QString low = QStringLiteral("\u2212%1 %").arg(saturation * 100, 0, 'f', 0);
    const QString high = QStringLiteral("+%1 %").arg(saturation * 100, 0, 'f', 0);
    const QString middle = m_median
        ? tr("median %1, %2 neutral").arg(formatValue(*m_median), DivergingScale::percent(band))
        : tr("no rank has this figure");
    const int labelsWidth = fm.horizontalAdvance(low) + fm.horizontalAdvance(middle) + fm.horizontalAdvance(high) + 24;
    const int barWidth = std::max(std::clamp(width() / 5, 120, 280), labelsWidth);
    for (int x = 0; x < barWidth; ++x)
        p.fillRect(QRect(barX + x, y0, 1, h), deviationColour(((x + 0.5) / barWidth * 2 - 1) * saturation, band));
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.drawRect(QRect(barX, y0, barWidth, h).adjusted(0, 0, -1, -1));
    p.setPen(palette().color(QPalette::WindowText));
    const int labelY = y0 + h + 2 + fm.ascent();
    if (m_median) {
        p.drawText(barX, labelY, low);
        p.drawText(barX + barWidth - fm.horizontalAdvance(high), labelY, high);
    }
    p.drawText(barX + (barWidth - fm.horizontalAdvance(middle)) / 2, labelY, middle);
    int sx = barX + barWidth + 24;
    const auto swatch = [&](const QBrush& brush, const QString& text) {
        const QRect r(sx, y0, h, h);
        p.fillRect(r, palette().color(QPalette::Base));
        p.fillRect(r, brush);
        p.setPen(QPen(palette().color(QPalette::Mid), 1));
        p.drawRect(r.adjusted(0, 0, -1, -1));
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(sx + h + 4, y0 + fm.ascent(), text);
        sx += h + 4 + fm.horizontalAdvance(text) + 16;
    };
    swatch(kNoData, tr("no figure"));
    swatch(QBrush(kNoData, Qt::BDiagPattern), tr("not loaded"));
    if (m_low || m_high) {
        QColor faded = kWarm;
        faded.setAlpha(50);
        swatch(faded, tr("outside range"));
    }
    if (!m_pairs.empty()) {
        p.setPen(QPen(linkColour(palette()), 2));
        p.drawLine(sx, y0 + h / 2, sx + 18, y0 + h / 2);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(sx + 22, y0 + fm.ascent(), tr("point-to-point link"));
    }
}

void StrategyChart::paintEvent(QPaintEvent* event)
{
    QPainter p(this);
    p.fillRect(event->rect(), palette().color(QPalette::Base));
    if (m_layout.ranks.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No ranks loaded"));
        return;
    }
    paintLegend(p);
    const QFontMetrics fm = fontMetrics();
    const Geometry& g = m_geometry;
    const auto& s = m_layout.sizes;
    const int rows = ceilDiv(std::max(1, s.dp), g.replicaColumns);
    const int stageHeight = 2 * kStagePad + rows * (g.replicaHeight + kReplicaGap) - kReplicaGap;
    const QColor frame = palette().color(QPalette::Mid);

    // Stage boxes with their headers, DP replica boxes inside.
    for (int pp = 0; pp < s.pp; ++pp) {
        const int x = g.left + pp * (g.stageWidth + kStageGap);
        const QRect box(x, g.top, g.stageWidth, stageHeight);
        p.setPen(palette().color(QPalette::WindowText));
        const QString header = s.pp > 1 ? tr("Stage %1 \u00b7 %2 ranks").arg(pp).arg(int64_t(s.dp) * s.cp * s.tp)
                                        : tr("%1 ranks").arg(int64_t(s.dp) * s.cp * s.tp);
        p.drawText(QRect(x, g.top - fm.height() - 4, std::max(g.stageWidth, 1), fm.height()),
            Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(header, Qt::ElideRight, std::max(g.stageWidth, 1)));
        p.setPen(QPen(frame, 1));
        p.setBrush(palette().color(QPalette::AlternateBase));
        p.drawRect(box.adjusted(0, 0, -1, -1));
        p.setBrush(Qt::NoBrush);
        if (g.replicaHeight >= 8 && s.tp * s.cp > 1) {
            for (int dp = 0; dp < s.dp; ++dp) {
                const QRect r(x + kStagePad + (dp % g.replicaColumns) * (g.replicaWidth + kReplicaGap),
                    g.top + kStagePad + (dp / g.replicaColumns) * (g.replicaHeight + kReplicaGap), g.replicaWidth,
                    g.replicaHeight);
                p.drawRect(r.adjusted(0, 0, -1, -1));
            }
        }
    }

    // The links only in the gaps between the stage boxes: which rows of one stage send to which of the next. Across the
    // cells they struck through the rank numbers, and under them they showed between cells as if they ended there.
    if (!m_pairs.empty()) {
        QRegion gaps;
        for (int pp = 0; pp + 1 < s.pp; ++pp)
            gaps += QRect(g.left + pp * (g.stageWidth + kStageGap) + g.stageWidth, g.top, kStageGap, stageHeight);
        p.save();
        p.setClipRegion(gaps);
        // One line per unordered pair between different stages: send and receive of a pair draw once.
        std::set<std::pair<int64_t, int64_t>> drawn;
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setPen(QPen(linkColour(palette()), 2));
        for (const auto& [src, dst] : m_pairs) {
            const auto key = std::minmax(src, dst);
            const auto* a = m_layout.find(src);
            const auto* b = m_layout.find(dst);
            if (!a || !b || a->pp == b->pp || !drawn.insert(key).second)
                continue;
            p.drawLine(QRectF(cellRect(src)).center(), QRectF(cellRect(dst)).center());
        }
        p.restore();
    }

    const int gap = std::min(g.cellWidth, g.cellHeight) >= 10 ? 1 : 0;
    // Every cell or none gets its number, so the numbers never thin out unevenly.
    // By the digits' own height: a Chinese UI's font has a taller line (for Han characters) than its digits need, and
    // the numbers were dropped from cells they fit.
    const bool labels = g.cellHeight >= fm.tightBoundingRect(QStringLiteral("0123456789")).height() + 4
        && fm.horizontalAdvance(QString::number(m_layout.ranks.back().rank)) + 4 <= g.cellWidth - gap;
    // Fills, then the labels.
    struct Label {
        QRect rect;
        QColor color;
        int64_t rank;
    };
    std::vector<Label> texts;
    for (const auto& c : m_layout.ranks) {
        const QRect full = cellRect(c.rank);
        if (!full.intersects(event->rect()))
            continue;
        const QRect r = full.adjusted(0, 0, -gap, -gap);
        const auto it = m_values.find(c.rank);
        const std::optional<double> value = it != m_values.end() ? std::optional(it->second) : std::nullopt;
        QColor fill = colorOf(value);
        const bool faded = (m_low || m_high) && !inRange(c.rank);
        if (faded)
            fill.setAlpha(50);
        p.fillRect(r, palette().color(QPalette::Base));
        if (c.loaded)
            p.fillRect(r, fill);
        else
            p.fillRect(r, QBrush(kNoData, Qt::BDiagPattern));
        if (labels && !faded)
            texts.push_back({ r, c.loaded && fill.lightnessF() < 0.55f ? Qt::white : Qt::black, c.rank });
    }

    for (const auto& [r, color, rank] : texts) {
        p.setPen(color);
        p.drawText(r, Qt::AlignCenter, QString::number(rank));
    }
    if (const auto* hovered = m_layout.find(hoveredItem())) {
        p.setPen(QPen(palette().color(QPalette::WindowText), 1));
        p.drawRect(cellRect(hovered->rank).adjusted(0, 0, -gap - 1, -gap - 1));
    }

    if (const int selected = selectedItem(); selected >= 0) {
        p.setPen(QPen(QColor(0x00, 0x9e, 0xe0), 3));
        p.setBrush(Qt::NoBrush);
        p.drawRect(cellRect(selected).adjusted(-1, -1, -gap, -gap));
    }
}

} // namespace npuscope::gui
