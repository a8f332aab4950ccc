// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/comm/CommMatrixView.h"

#include "npuscope/gui/comm/GroupTableModel.h"
#include "npuscope/gui/comm/GroupText.h"
#include "npuscope/gui/common/TimeFormat.h"

#include <QEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace npuscope::gui {

namespace {

constexpr double kMaxZoom = 256.0;
constexpr int kGap = 4; // px between the bands around the plot
constexpr int kLegendBar = 16; // px width of the colour bar
constexpr int kMinBlockBand = 60; // px the row group labels get at least
constexpr int kMaxColumnLabel = 160; // px a column group label is elided to when it is wider than its block
constexpr int kDragStart = 4; // px a press must move to become a drag

QColor lerp(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
        static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
        static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}

// Low → high. Bandwidth reads "red is slow"; size and time read "dark is large".
QColor ramp(double t, bool lowIsBad)
{
    static const QColor bad[] = { QColor(200, 30, 40), QColor(245, 160, 60), QColor(250, 235, 150),
        QColor(140, 200, 120), QColor(30, 120, 90) };
    // The heat scale starts at a visible tint, not near-white: the smallest sizes and times must show on a light
    // canvas.
    static const QColor heat[] = { QColor(252, 215, 140), QColor(250, 180, 90), QColor(240, 120, 50),
        QColor(190, 40, 40), QColor(100, 10, 40) };
    const QColor* stops = lowIsBad ? bad : heat;
    t = std::clamp(t, 0.0, 1.0) * 4.0;
    const int i = std::min(3, static_cast<int>(t));
    return lerp(stops[i], stops[i + 1], t - i);
}

QString number(double v, int decimals = 3) { return QString::number(v, 'f', decimals); }

// The next step of 1, 2, 5, 10, 20, 50, ... that is at least minimum.
// Sums up the links of a block of cells for every metric's statistic.
struct Accumulator {
    int links = 0;
    double sizeMb = 0;
    double minBandwidth = std::numeric_limits<double>::infinity();
    int32_t minBandwidthAt = -1;
    int64_t maxTime = -1;
    int32_t maxTimeAt = -1;
    double maxSize = -1;
    int32_t maxSizeAt = -1;
    int32_t first = -1;
    const std::string* transport = nullptr;
    bool mixed = false;

    void add(const query::MatrixCell& c, int32_t index)
    {
        ++links;
        sizeMb += c.sizeMb;
        if (first < 0)
            first = index;
        if (const auto bw = c.bandwidthGbps(); bw && *bw < minBandwidth) {
            minBandwidth = *bw;
            minBandwidthAt = index;
        }
        if (c.timeNs > maxTime) {
            maxTime = c.timeNs;
            maxTimeAt = index;
        }
        if (c.sizeMb > maxSize) {
            maxSize = c.sizeMb;
            maxSizeAt = index;
        }
        if (!transport)
            transport = &c.transport;
        else if (*transport != c.transport)
            mixed = true;
    }

    // The block's statistic for a metric and the link it comes from.
    void finish(CommMatrixView::Metric metric, CommMatrixView::Block& b) const
    {
        b.links = links;
        b.transport = !transport ? QString() : mixed ? QStringLiteral("mixed") : QString::fromStdString(*transport);
        b.value.reset();
        b.representative = first;
        if (links == 0)
            return;
        switch (metric) {
        case CommMatrixView::Metric::Bandwidth:
            if (minBandwidthAt >= 0) {
                b.value = minBandwidth;
                b.representative = minBandwidthAt;
            }
            break;
        case CommMatrixView::Metric::Size:
            b.value = sizeMb;
            b.representative = maxSizeAt;
            break;
        case CommMatrixView::Metric::Time:
            b.value = static_cast<double>(maxTime) / 1.0e6;
            b.representative = maxTimeAt;
            break;
        case CommMatrixView::Metric::Transport:
            b.representative = minBandwidthAt >= 0 ? minBandwidthAt : first;
            break;
        }
    }
};

} // namespace

CommMatrixView::CommMatrixView(QWidget* parent)
    : ChartWidget(parent)
{
    setObjectName(QStringLiteral("commMatrixView"));
    setMouseTracking(true);
    setMinimumSize(200, 160);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

QColor CommMatrixView::transportColor(const std::string& t)
{
    if (t == "LOCAL")
        return QColor(170, 170, 170);
    if (t == "HCCS")
        return QColor(66, 133, 244);
    if (t == "SDMA")
        return QColor(52, 168, 83);
    if (t == "RDMA")
        return QColor(234, 67, 53);
    if (t == "PCIE")
        return QColor(251, 188, 5);
    if (t == "SIO")
        return QColor(155, 89, 182);
    return QColor(90, 90, 90);
}

void CommMatrixView::setMatrix(query::CommMatrix matrix)
{
    const bool sameAxis = matrix.ranks == m_matrix.ranks;
    m_matrix = std::move(matrix);
    int64_t maxRank = 0;
    for (int64_t r : m_matrix.ranks)
        maxRank = std::max(maxRank, r);
    m_position.assign(static_cast<size_t>(maxRank + 1), -1);
    for (size_t i = 0; i < m_matrix.ranks.size(); ++i) {
        if (m_matrix.ranks[i] >= 0)
            m_position[static_cast<size_t>(m_matrix.ranks[i])] = static_cast<int>(i);
    }
    m_ascending = std::is_sorted(m_matrix.ranks.begin(), m_matrix.ranks.end());
    m_blockLabels.clear();
    for (const auto& b : m_matrix.blocks)
        m_blockLabels.push_back(blockLabelOf(b));
    const size_t n = m_matrix.ranks.size();
    m_cellAt.assign(n * n, -1);
    for (size_t i = 0; i < m_matrix.cells.size(); ++i) {
        const auto& c = m_matrix.cells[i];
        if (c.src < 0 || c.dst < 0 || static_cast<size_t>(std::max(c.src, c.dst)) >= m_position.size())
            continue;
        const int row = m_position[static_cast<size_t>(c.src)];
        const int col = m_position[static_cast<size_t>(c.dst)];
        if (row >= 0 && col >= 0)
            m_cellAt[static_cast<size_t>(row) * n + static_cast<size_t>(col)] = static_cast<int32_t>(i);
    }
    if (!sameAxis || m_window.isEmpty())
        resetView();
    else
        clampWindow();
    invalidateLevels();
}

void CommMatrixView::setMetric(Metric metric)
{
    if (metric == m_metric)
        return;
    m_metric = metric;
    invalidateLevels();
}

void CommMatrixView::setHideLocal(bool hide)
{
    if (hide == m_hideLocal)
        return;
    m_hideLocal = hide;
    invalidateLevels();
}

bool CommMatrixView::shown(const query::MatrixCell& c) const
{
    return !m_hideLocal || (c.src != c.dst && c.transport != "LOCAL");
}

std::optional<double> CommMatrixView::cellValue(const query::MatrixCell& c) const
{
    switch (m_metric) {
    case Metric::Bandwidth:
        return c.bandwidthGbps();
    case Metric::Size:
        return c.sizeMb;
    case Metric::Time:
        return static_cast<double>(c.timeNs) / 1.0e6;
    case Metric::Transport:
        return std::nullopt;
    }
    return std::nullopt;
}

QColor CommMatrixView::colorFor(double value, const std::optional<std::pair<double, double>>& range) const
{
    if (!range)
        return Qt::gray;
    const double span = range->second - range->first;
    const double t = span > 0 ? (value - range->first) / span : 0.5;
    return ramp(t, m_metric == Metric::Bandwidth);
}

void CommMatrixView::invalidateLevels()
{
    m_levels.clear();
    m_range = level(1).range;
    update();
}

const CommMatrixView::Level& CommMatrixView::level(int k) const
{
    auto it = m_levels.find(k);
    if (it == m_levels.end())
        it = m_levels.emplace(k, buildLevel(k)).first;
    return it->second;
}

CommMatrixView::Level CommMatrixView::buildLevel(int k) const
{
    ++m_imagesBuilt;
    const int n = static_cast<int>(m_matrix.ranks.size());
    Level lv;
    lv.side = std::max(1, (n + k - 1) / k);
    const size_t side = static_cast<size_t>(lv.side);
    lv.representative.assign(side * side, -1);
    lv.image = QImage(lv.side, lv.side, QImage::Format_RGB32);
    lv.image.fill(palette().color(QPalette::AlternateBase));
    // Blocks with their links: sort the (block, cell) pairs once instead of holding an accumulator per block.
    std::vector<std::pair<uint32_t, int32_t>> keyed;
    keyed.reserve(m_matrix.cells.size());
    for (size_t i = 0; i < m_matrix.cells.size(); ++i) {
        const auto& c = m_matrix.cells[i];
        if (!shown(c) || c.src < 0 || c.dst < 0 || static_cast<size_t>(std::max(c.src, c.dst)) >= m_position.size())
            continue;
        const int row = m_position[static_cast<size_t>(c.src)];
        const int col = m_position[static_cast<size_t>(c.dst)];
        if (row < 0 || col < 0)
            continue;
        keyed.emplace_back(
            static_cast<uint32_t>(row / k) * static_cast<uint32_t>(side) + static_cast<uint32_t>(col / k),
            static_cast<int32_t>(i));
    }
    if (k > 1) {
        // Grouped by block with a counting sort (stable: cells keep their order within a block, as the comparison
        // sort of (block, cell) pairs gave): linear in the cells, where sorting a 1,024-rank matrix's million pairs
        // held the GUI thread for 120 ms.
        std::vector<uint32_t> start(side * side + 1, 0);
        for (const auto& [block, cell] : keyed)
            ++start[block + 1];
        for (size_t b = 1; b < start.size(); ++b)
            start[b] += start[b - 1];
        std::vector<std::pair<uint32_t, int32_t>> grouped(keyed.size());
        for (const auto& entry : keyed)
            grouped[start[entry.first]++] = entry;
        keyed = std::move(grouped);
    }
    std::vector<std::pair<uint32_t, Block>> blocks;
    for (size_t i = 0; i < keyed.size();) {
        Accumulator acc;
        size_t j = i;
        for (; j < keyed.size() && keyed[j].first == keyed[i].first; ++j)
            acc.add(m_matrix.cells[static_cast<size_t>(keyed[j].second)], keyed[j].second);
        Block b;
        acc.finish(m_metric, b);
        if (b.value) {
            // Anchored at 0 so a few percent of spread does not read as red against green.
            if (!lv.range)
                lv.range = std::make_pair(0.0, *b.value);
            lv.range->first = std::min(lv.range->first, *b.value);
            lv.range->second = std::max(lv.range->second, *b.value);
        }
        blocks.emplace_back(keyed[i].first, std::move(b));
        i = j;
    }
    for (const auto& [key, b] : blocks) {
        lv.representative[key] = b.representative;
        QColor color;
        if (m_metric == Metric::Transport)
            color = transportColor(b.transport.toStdString());
        else
            color = b.value ? colorFor(*b.value, lv.range) : QColor(210, 210, 210);
        lv.image.setPixel(static_cast<int>(key % side), static_cast<int>(key / side), color.rgb());
    }
    return lv;
}

CommMatrixView::Layout CommMatrixView::layout() const
{
    Layout l;
    const QFontMetrics fm = fontMetrics();
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics bfm(bold);
    const QRect area = rect().adjusted(kGap, kGap, -kGap, -kGap);
    l.captionText = captionText();
    const QRect caption = bfm.boundingRect(QRect(area.left(), area.top(), std::max(1, area.width()), 100000),
        Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, l.captionText);
    l.caption = QRect(area.left(), area.top(), area.width(), caption.height());
    const bool blocks = !m_matrix.blocks.empty();
    const int line = fm.height();
    int top = l.caption.bottom() + 1 + kGap;
    if (blocks)
        top += line + kGap;
    top += line + kGap; // column ticks

    int left = area.left();
    int blockBand = 0;
    if (blocks) {
        int widest = 0;
        for (const QString& label : m_blockLabels)
            widest = std::max(widest, fm.horizontalAdvance(label) + 4);
        blockBand = std::min(widest, std::max(kMinBlockBand, width() / 6));
        left += blockBand + kGap;
    }
    int64_t widestRank = 0;
    for (int64_t r : m_matrix.ranks)
        widestRank = std::max(widestRank, r);
    left += fm.horizontalAdvance(QString::number(widestRank)) + kGap;

    // The legend's widest text: numbers, units and the aggregated mode's lines (the longest they can get).
    int legendText = fm.horizontalAdvance(QStringLiteral("8888888.8"));
    for (const QString& s : { tr("%1 \u00d7 %1 ranks").arg(8888), tr("zoom %1\u00d7").arg(256.0, 0, 'f', 1),
             tr("min bandwidth"), tr("sum of sizes"), tr("max time"), QStringLiteral("LOCAL  mixed") })
        legendText = std::max(legendText, fm.horizontalAdvance(s));
    const int legendWidth = kLegendBar + kGap + std::min(legendText, std::max(80, width() / 5));
    const int right = area.right() - legendWidth - 3 * kGap;
    l.plot = QRect(QPoint(left, top), QPoint(std::max(left + 10, right), std::max(top + 10, area.bottom())));
    l.legend = QRect(l.plot.right() + 1 + 3 * kGap, l.plot.top(), legendWidth, area.bottom() - l.plot.top() + 1);
    if (blocks) {
        l.rowBlocks = QRect(area.left(), l.plot.top(), blockBand, l.plot.height());
        l.colBlocks = QRect(l.plot.left(), l.caption.bottom() + 1 + kGap, l.plot.width(), line);
    }
    return l;
}

QString CommMatrixView::captionText() const
{
    const int n = static_cast<int>(m_matrix.ranks.size());
    QString text = tr("Rows: src rank \u00b7 columns: dst rank \u00b7 %1 ranks").arg(n);
    if (m_matrix.localGroup)
        text += QStringLiteral(" \u00b7 ") + tr("group-local ranks, global ranks unknown");
    if (!m_matrix.orderedBy.empty())
        text += QStringLiteral(" \u00b7 ") + tr("ordered by %1 groups").arg(QString::fromStdString(m_matrix.orderedBy));
    return text;
}

QString CommMatrixView::blockLabelOf(const query::AxisBlock& block) const
{
    const bool named = !block.label.empty() && block.label != block.hash;
    const size_t end = std::min(block.end, m_matrix.ranks.size());
    const std::vector<int64_t> ranks(m_matrix.ranks.begin() + static_cast<std::ptrdiff_t>(std::min(block.begin, end)),
        m_matrix.ranks.begin() + static_cast<std::ptrdiff_t>(end));
    return (named ? QString::fromStdString(block.label) : tr("group")) + QLatin1Char(' ') + firstRanksText(ranks);
}

QString CommMatrixView::blockToolTip(const query::AxisBlock& block) const
{
    const size_t end = std::min(block.end, m_matrix.ranks.size());
    std::vector<int64_t> ranks(m_matrix.ranks.begin() + static_cast<std::ptrdiff_t>(std::min(block.begin, end)),
        m_matrix.ranks.begin() + static_cast<std::ptrdiff_t>(end));
    std::sort(ranks.begin(), ranks.end());
    const bool named = !block.label.empty() && block.label != block.hash;
    QString html
        = QStringLiteral("<b>%1</b>").arg(named ? QString::fromStdString(block.label).toHtmlEscaped() : tr("group"));
    html += QStringLiteral("<br>") + tr("%1 ranks: %2").arg(ranks.size()).arg(GroupTableModel::rankList(ranks));
    if (!block.hash.empty())
        html += QStringLiteral("<br>") + tr("hash %1").arg(QString::fromStdString(block.hash));
    return html;
}

QString CommMatrixView::statisticText() const
{
    switch (m_metric) {
    case Metric::Bandwidth:
        return tr("the lowest bandwidth of the block's links");
    case Metric::Size:
        return tr("the summed transit size of the block's links");
    case Metric::Time:
        return tr("the longest transit time of the block's links");
    case Metric::Transport:
        return tr("the transport the block's links share (\u201cmixed\u201d when they differ)");
    }
    return {};
}

QRect CommMatrixView::plotRect() const { return layout().plot; }

QPointF CommMatrixView::cellPixels(const QRect& plot) const
{
    if (m_window.isEmpty())
        return { 1, 1 };
    return { plot.width() / m_window.width(), plot.height() / m_window.height() };
}

QPointF CommMatrixView::toCells(const QPointF& pos) const
{
    const QRect plot = plotRect();
    const QPointF px = cellPixels(plot);
    return { m_window.x() + (pos.x() - plot.left()) / px.x(), m_window.y() + (pos.y() - plot.top()) / px.y() };
}

QRectF CommMatrixView::cellRect(int row, int col) const
{
    const QRect plot = plotRect();
    const QPointF px = cellPixels(plot);
    return { plot.left() + (col - m_window.x()) * px.x(), plot.top() + (row - m_window.y()) * px.y(), px.x(), px.y() };
}

int CommMatrixView::blockSize() const
{
    const int n = static_cast<int>(m_matrix.ranks.size());
    const QPointF px = cellPixels(plotRect());
    const double smallest = std::min(px.x(), px.y());
    int k = 1;
    while (k * smallest < kMinCellPx && k < n)
        k *= 2;
    return k;
}

double CommMatrixView::zoom() const
{
    const double n = static_cast<double>(m_matrix.ranks.size());
    return n > 0 && m_window.width() > 0 ? n / m_window.width() : 1.0;
}

void CommMatrixView::clampWindow()
{
    const double n = static_cast<double>(m_matrix.ranks.size());
    if (n <= 0) {
        m_window = {};
        return;
    }
    const double smallest = std::max(1.0, n / kMaxZoom);
    const double w = std::clamp(m_window.width(), smallest, n);
    const double h = std::clamp(m_window.height(), smallest, n);
    m_window = QRectF(std::clamp(m_window.x(), 0.0, n - w), std::clamp(m_window.y(), 0.0, n - h), w, h);
}

void CommMatrixView::setZoom(double zoom, QPointF anchorCell)
{
    const double n = static_cast<double>(m_matrix.ranks.size());
    if (n <= 0)
        return;
    if (anchorCell.x() < 0)
        anchorCell = m_window.center();
    // Keep the anchor cell under the same fraction of the view.
    const double visible = n / std::clamp(zoom, 1.0, std::max(1.0, std::min(kMaxZoom, n)));
    const QPointF frac(
        (anchorCell.x() - m_window.x()) / m_window.width(), (anchorCell.y() - m_window.y()) / m_window.height());
    m_window = QRectF(anchorCell.x() - frac.x() * visible, anchorCell.y() - frac.y() * visible, visible, visible);
    clampWindow();
    update();
}

void CommMatrixView::zoomToCells(const QRectF& cells)
{
    m_window = cells.normalized();
    clampWindow();
    update();
}

void CommMatrixView::resetView()
{
    const double n = static_cast<double>(m_matrix.ranks.size());
    m_window = QRectF(0, 0, n, n);
    update();
}

CommMatrixView::Block CommMatrixView::blockOf(int row0, int row1, int col0, int col1) const
{
    const size_t n = m_matrix.ranks.size();
    Accumulator acc;
    for (int r = row0; r < row1; ++r) {
        for (int c = col0; c < col1; ++c) {
            const int32_t i = m_cellAt[static_cast<size_t>(r) * n + static_cast<size_t>(c)];
            if (i >= 0 && shown(m_matrix.cells[static_cast<size_t>(i)]))
                acc.add(m_matrix.cells[static_cast<size_t>(i)], i);
        }
    }
    Block b;
    b.row0 = row0;
    b.row1 = row1;
    b.col0 = col0;
    b.col1 = col1;
    acc.finish(m_metric, b);
    return b;
}

std::optional<CommMatrixView::Block> CommMatrixView::blockAt(const QPoint& pos) const
{
    const int n = static_cast<int>(m_matrix.ranks.size());
    if (n == 0 || !plotRect().contains(pos))
        return std::nullopt;
    const QPointF cell = toCells(pos);
    const int col = static_cast<int>(std::floor(cell.x()));
    const int row = static_cast<int>(std::floor(cell.y()));
    if (row < 0 || col < 0 || row >= n || col >= n)
        return std::nullopt;
    const int k = blockSize();
    const int r0 = row / k * k, c0 = col / k * k;
    return blockOf(r0, std::min(n, r0 + k), c0, std::min(n, c0 + k));
}

const query::MatrixCell* CommMatrixView::cellAt(const QPoint& pos) const
{
    const auto b = blockAt(pos);
    if (!b || b->representative < 0)
        return nullptr;
    return &m_matrix.cells[static_cast<size_t>(b->representative)];
}

void CommMatrixView::addContextActions(QMenu& menu, const QPoint& pos)
{
    const query::MatrixCell* cell = cellAt(pos);
    if (!cell || cell->src == cell->dst)
        return;
    const qint64 src = cell->src, dst = cell->dst;
    menu.addAction(tr("Costliest collectives of link %1\u2013%2").arg(src).arg(dst), this,
        [this, src, dst] { emit collectivesRequested(src, dst); });
}

QString CommMatrixView::toolTipFor(const query::MatrixCell& c) const
{
    const auto bw = c.bandwidthGbps();
    QString html = QStringLiteral("<b>%1 \u2192 %2</b>%3<table>")
                       .arg(c.src)
                       .arg(c.dst)
                       .arg(m_matrix.localGroup ? tr(" (group-local ranks)") : QString());
    auto row = [&html](const QString& k, const QString& v) {
        html += QStringLiteral("<tr><td>%1</td><td align=right>&nbsp;%2</td></tr>").arg(k, v);
    };
    row(tr("Transport"), QString::fromStdString(c.transport));
    row(tr("Transit size"), number(c.sizeMb) + QStringLiteral(" MB"));
    row(tr("Transit time"), TimeFormat::withUnit(c.timeNs, TimeFormat::Unit::Milliseconds));
    row(tr("Bandwidth"), bw ? number(*bw) + QStringLiteral(" GB/s") : TimeFormat::kAbsent);
    row(tr("Op"), c.opName.empty() ? tr("total of %1 link(s)").arg(c.links) : QString::fromStdString(c.opName));
    return html + QStringLiteral("</table>");
}

QString CommMatrixView::toolTipAt(const QPoint& pos) const
{
    if (const auto b = blockAt(pos)) {
        const bool single = b->row1 - b->row0 == 1 && b->col1 - b->col0 == 1;
        if (single)
            return b->representative >= 0 ? toolTipFor(m_matrix.cells[static_cast<size_t>(b->representative)])
                                          : QString();
        auto ranksOf = [this](int from, int to) {
            std::vector<int64_t> ranks(m_matrix.ranks.begin() + from, m_matrix.ranks.begin() + to);
            std::sort(ranks.begin(), ranks.end());
            return GroupTableModel::rankList(ranks);
        };
        QString html = tr("<b>src %1 \u2192 dst %2</b><br>a block of %3 \u00d7 %4 ranks")
                           .arg(ranksOf(b->row0, b->row1), ranksOf(b->col0, b->col1))
                           .arg(b->row1 - b->row0)
                           .arg(b->col1 - b->col0);
        if (b->links == 0)
            return html + QStringLiteral("<br>") + tr("no links");
        html += QStringLiteral("<table>");
        auto row = [&html](const QString& k, const QString& v) {
            html += QStringLiteral("<tr><td>%1</td><td align=right>&nbsp;%2</td></tr>").arg(k, v);
        };
        row(tr("Links"), QString::number(b->links));
        row(tr("Transport"), b->transport);
        const QString value = !b->value     ? TimeFormat::kAbsent
            : m_metric == Metric::Bandwidth ? number(*b->value) + QStringLiteral(" GB/s")
            : m_metric == Metric::Size      ? number(*b->value) + QStringLiteral(" MB")
                                            : number(*b->value) + QStringLiteral(" ms");
        if (m_metric != Metric::Transport)
            row(m_metric == Metric::Bandwidth  ? tr("Lowest bandwidth")
                    : m_metric == Metric::Size ? tr("Summed size")
                                               : tr("Longest time"),
                value);
        html += QStringLiteral("</table>") + tr("Cell colour: %1.").arg(statisticText());
        if (b->representative >= 0) {
            const auto& c = m_matrix.cells[static_cast<size_t>(b->representative)];
            html += QStringLiteral("<br>")
                + tr("Click selects link %1 \u2192 %2; zoom in for single ranks.").arg(c.src).arg(c.dst);
        }
        return html;
    }
    for (const auto& [r, index] : m_blockLabelHits) {
        if (r.contains(pos))
            return blockToolTip(m_matrix.blocks[index]);
    }
    return {};
}

void CommMatrixView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    m_labelRects.clear();
    m_columnTicks.clear();
    m_blockLabelHits.clear();
    m_rowBlockLabels.clear();
    m_columnBlockLabels.clear();
    m_slowestRing = {};
    const int n = static_cast<int>(m_matrix.ranks.size());
    if (n == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("No communication links for this selection"));
        return;
    }
    const Layout l = layout();
    const QRect plot = l.plot;
    const QPointF px = cellPixels(plot);
    const int k = blockSize();
    const Level& lv = level(k);

    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::WindowText));
    QRect drawn;
    p.drawText(l.caption, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, l.captionText, &drawn);
    m_labelRects.push_back(drawn);
    p.setFont(font());

    p.save();
    p.setClipRect(plot);
    // Whole image pixels (blocks) around the visible window, so nearest-neighbour scaling keeps every cell's edges
    // where cellRect() says they are; the clip cuts the partly visible ones.
    const int bx0 = static_cast<int>(std::floor(m_window.left() / k));
    const int by0 = static_cast<int>(std::floor(m_window.top() / k));
    const int bx1 = std::min(lv.side, static_cast<int>(std::ceil(m_window.right() / k)));
    const int by1 = std::min(lv.side, static_cast<int>(std::ceil(m_window.bottom() / k)));
    const QRectF target(plot.left() + (bx0 * k - m_window.left()) * px.x(),
        plot.top() + (by0 * k - m_window.top()) * px.y(), (bx1 - bx0) * k * px.x(), (by1 - by0) * k * px.y());
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.drawImage(target, lv.image, QRectF(bx0, by0, bx1 - bx0, by1 - by0));

    const QPointF blockPx = px * k;
    if (std::min(blockPx.x(), blockPx.y()) >= 6) {
        p.setPen(QPen(QColor(255, 255, 255, 160), 1));
        for (int i = bx0; i <= bx1; ++i) {
            const double x = plot.left() + (i * k - m_window.left()) * px.x();
            p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom() + 1));
        }
        for (int i = by0; i <= by1; ++i) {
            const double y = plot.top() + (i * k - m_window.top()) * px.y();
            p.drawLine(QPointF(plot.left(), y), QPointF(plot.right() + 1, y));
        }
    }
    // Group blocks on the diagonal.
    QColor frame = palette().color(QPalette::Text);
    frame.setAlpha(90);
    p.setPen(QPen(frame, 1));
    p.setBrush(Qt::NoBrush);
    if (m_matrix.blocks.size() > 1) {
        for (const auto& b : m_matrix.blocks) {
            const QRectF r(plot.left() + (static_cast<double>(b.begin) - m_window.left()) * px.x(),
                plot.top() + (static_cast<double>(b.begin) - m_window.top()) * px.y(),
                static_cast<double>(b.end - b.begin) * px.x(), static_cast<double>(b.end - b.begin) * px.y());
            if (std::min(r.width(), r.height()) >= 3 && r.intersects(QRectF(plot)))
                p.drawRect(r);
        }
    }
    // The slowest non-LOCAL link (its block when aggregated): a ring that stays visible when the cell is one pixel.
    if (m_matrix.slowestCell && m_metric == Metric::Bandwidth) {
        const auto& c = m_matrix.cells[*m_matrix.slowestCell];
        const int row = m_position[static_cast<size_t>(c.src)] / k * k;
        const int col = m_position[static_cast<size_t>(c.dst)] / k * k;
        const QRectF cell(plot.left() + (col - m_window.left()) * px.x(), plot.top() + (row - m_window.top()) * px.y(),
            std::min(k, n - col) * px.x(), std::min(k, n - row) * px.y());
        if (QRectF(plot).intersects(cell)) {
            // At least 10 px so a one-pixel cell stays visible, moved inside the plot so an edge cell's ring is not
            // cut off, and the 2 px pen drawn within the ring's rectangle.
            QRectF ring(0, 0, std::min(std::max(10.0, cell.width()), static_cast<double>(plot.width())),
                std::min(std::max(10.0, cell.height()), static_cast<double>(plot.height())));
            ring.moveCenter(cell.center());
            const QRectF inside = QRectF(plot).adjusted(0, 0, -1, -1);
            if (ring.left() < inside.left())
                ring.moveLeft(inside.left());
            if (ring.right() > inside.right())
                ring.moveRight(inside.right());
            if (ring.top() < inside.top())
                ring.moveTop(inside.top());
            if (ring.bottom() > inside.bottom())
                ring.moveBottom(inside.bottom());
            m_slowestRing = ring;
            // The palette's highlight on a halo of its base: visible on any cell colour, light theme or dark (a
            // near-black frame disappeared on the dark theme's canvas).
            p.setPen(QPen(palette().color(QPalette::Base), 4));
            p.drawRect(ring.adjusted(1, 1, -1, -1));
            p.setPen(QPen(palette().color(QPalette::Highlight), 2));
            p.drawRect(ring.adjusted(1, 1, -1, -1));
        }
    }
    if (!m_rubberBand.isNull()) {
        QColor fill = palette().color(QPalette::Highlight);
        fill.setAlpha(50);
        p.fillRect(m_rubberBand, fill);
        p.setPen(QPen(palette().color(QPalette::Highlight), 1, Qt::DashLine));
        p.drawRect(m_rubberBand.adjusted(0, 0, -1, -1));
    }
    p.restore();
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.drawRect(plot.adjusted(-1, -1, 0, 0));

    paintTicks(p, l);
    paintBlocks(p, l);
    paintLegend(p, l, lv, k);
}

void CommMatrixView::paintTicks(QPainter& p, const Layout& l)
{
    const int n = static_cast<int>(m_matrix.ranks.size());
    const QFontMetrics fm = fontMetrics();
    const QRect plot = l.plot;
    const QPointF px = cellPixels(plot);
    int64_t widest = 0;
    for (int64_t r : m_matrix.ranks)
        widest = std::max(widest, r);
    const int labelWidth = fm.horizontalAdvance(QString::number(widest));
    // The axis positions to label: every one when each has room; else ranks on a 1-2-5 scale when the axis ascends
    // (monotonic and evenly spaced); else none when group labels name the blocks; else every few positions.
    auto positions = [&](double from, double visible, double pxAxis, double needed) {
        std::vector<int> out;
        const int first = std::max(0, static_cast<int>(std::floor(from)));
        const int last = std::min(n - 1, static_cast<int>(std::ceil(from + visible)) - 1);
        if (pxAxis >= needed) {
            for (int i = first; i <= last; ++i)
                out.push_back(i);
            return out;
        }
        if (!m_ascending && !m_matrix.blocks.empty())
            return out;
        const int64_t step = std::max<int64_t>(1, std::llround(niceStep(needed / pxAxis, 1))); // whole ranks
        double previous = -std::numeric_limits<double>::infinity();
        for (int i = first; i <= last; ++i) {
            const int64_t key = m_ascending ? m_matrix.ranks[static_cast<size_t>(i)] : i;
            const double centre = (i + 0.5 - from) * pxAxis;
            if (key % step != 0 || centre - previous < needed)
                continue;
            out.push_back(i);
            previous = centre;
        }
        return out;
    };
    p.setPen(palette().color(QPalette::WindowText));
    const QColor tick = palette().color(QPalette::Mid);
    // Columns, above the plot (the first label may reach into the empty corner left of it).
    QRect previous;
    const int colTop = plot.top() - kGap - fm.height();
    for (int i : positions(m_window.left(), m_window.width(), px.x(), labelWidth + 8.0)) {
        const QString text = QString::number(m_matrix.ranks[static_cast<size_t>(i)]);
        const int w = fm.horizontalAdvance(text);
        const double x = plot.left() + (i + 0.5 - m_window.left()) * px.x();
        QRect r(static_cast<int>(std::lround(x - w / 2.0)), colTop, w, fm.height());
        if (r.left() < 0)
            r.moveLeft(0);
        if (r.right() > width() - 1)
            r.moveRight(width() - 1);
        if (!previous.isNull() && r.left() <= previous.right() + 3)
            continue;
        p.drawText(r, Qt::AlignCenter, text);
        p.setPen(tick);
        p.drawLine(QPointF(x, plot.top() - 3), QPointF(x, plot.top() - 1));
        p.setPen(palette().color(QPalette::WindowText));
        m_labelRects.push_back(r);
        m_columnTicks.push_back(m_matrix.ranks[static_cast<size_t>(i)]);
        previous = r;
    }
    // Rows, left of the plot; a label may move down or up by up to half its height to stay beside the plot (clear of
    // the column labels), so the scale leaves room for that.
    previous = {};
    const int rowRight = plot.left() - kGap;
    for (int i : positions(m_window.top(), m_window.height(), px.y(), fm.height() * 1.5 + 2.0)) {
        const QString text = QString::number(m_matrix.ranks[static_cast<size_t>(i)]);
        const int w = fm.horizontalAdvance(text);
        const double y = plot.top() + (i + 0.5 - m_window.top()) * px.y();
        QRect r(rowRight - w, static_cast<int>(std::lround(y - fm.height() / 2.0)), w, fm.height());
        if (r.top() < plot.top())
            r.moveTop(plot.top());
        if (r.bottom() > plot.bottom())
            r.moveBottom(plot.bottom());
        if (!previous.isNull() && r.top() <= previous.bottom() + 1)
            continue;
        p.drawText(r, Qt::AlignRight | Qt::AlignVCenter, text);
        p.setPen(tick);
        p.drawLine(QPointF(plot.left() - 3, y), QPointF(plot.left() - 1, y));
        p.setPen(palette().color(QPalette::WindowText));
        m_labelRects.push_back(r);
        previous = r;
    }
}

void CommMatrixView::paintBlocks(QPainter& p, const Layout& l)
{
    if (m_matrix.blocks.empty())
        return;
    const QFontMetrics fm = fontMetrics();
    const QRect plot = l.plot;
    const QPointF px = cellPixels(plot);
    const QColor shade = palette().color(QPalette::AlternateBase);
    const QColor text = palette().color(QPalette::WindowText);
    QRect previousRow, previousCol;
    // One label every rowStride / colStride blocks, the same stride along the axis, so the labels are evenly spaced
    // when they do not fit every block (skipping whichever overlapped the last one drawn spaced them unevenly).
    double rowPx = std::numeric_limits<double>::infinity(), colPx = rowPx;
    int widest = 0;
    for (size_t bi = 0; bi < m_matrix.blocks.size(); ++bi) {
        const auto& b = m_matrix.blocks[bi];
        rowPx = std::min(rowPx, static_cast<double>(b.end - b.begin) * px.y());
        colPx = std::min(colPx, static_cast<double>(b.end - b.begin) * px.x());
        widest = std::max(widest, fm.horizontalAdvance(m_blockLabels[bi]));
    }
    const auto stride = [](double needed, double pitch) {
        return pitch > 0 && std::isfinite(pitch) ? std::max(1, static_cast<int>(std::ceil(needed / pitch))) : 1;
    };
    // A little more than the overlap checks below ask, for the rounding of label positions to whole pixels.
    const int rowStride = stride(fm.height() + 4, rowPx);
    // Column blocks too narrow for their labels show their first rank instead (the row label of the same block starts
    // with it; the whole label is in the tooltip) when that fits every block: a label on every column block.
    std::vector<QString> compact(m_matrix.blocks.size());
    int widestCompact = 0;
    for (size_t bi = 0; bi < m_matrix.blocks.size(); ++bi) {
        const auto& b = m_matrix.blocks[bi];
        const size_t end = std::min(b.end, m_matrix.ranks.size());
        if (b.begin < end)
            compact[bi]
                = QString::number(*std::min_element(m_matrix.ranks.begin() + static_cast<std::ptrdiff_t>(b.begin),
                    m_matrix.ranks.begin() + static_cast<std::ptrdiff_t>(end)));
        widestCompact = std::max(widestCompact, fm.horizontalAdvance(compact[bi]));
    }
    const bool compactColumns = widest + 4 > colPx && widestCompact + 10 <= colPx;
    const int colStride
        = widest + 4 <= colPx || compactColumns ? 1 : stride(std::min(widest, kMaxColumnLabel) + 10, colPx);
    // Shading first, then the labels: a column label may reach over the next blocks' shading.
    for (int pass = 0; pass < 2; ++pass) {
        const bool labels = pass == 1;
        for (size_t bi = 0; bi < m_matrix.blocks.size(); ++bi) {
            const auto& b = m_matrix.blocks[bi];
            const QString& label = m_blockLabels[bi];
            // Rows: the block's extent shaded on every other block, the label centred on it (elided to the band).
            const double y0
                = std::max<double>(plot.top(), plot.top() + (static_cast<double>(b.begin) - m_window.top()) * px.y());
            const double y1 = std::min<double>(
                plot.bottom() + 1, plot.top() + (static_cast<double>(b.end) - m_window.top()) * px.y());
            if (y1 > y0) {
                const QRect extent(l.rowBlocks.left(), static_cast<int>(y0), l.rowBlocks.width(),
                    std::max(1, static_cast<int>(y1) - static_cast<int>(y0)));
                // Shaded in runs of rowStride blocks: each run starts with its label (one per block, two blocks
                // apart, left runs of shading without a label that read as empty label boxes).
                if (!labels) {
                    if ((bi / static_cast<size_t>(rowStride)) % 2 == 1)
                        p.fillRect(extent, shade);
                    m_blockLabelHits.emplace_back(extent, bi);
                }
                const QString shown = fm.elidedText(label, Qt::ElideRight, l.rowBlocks.width() - 4);
                QRect r(l.rowBlocks.left() + 2, static_cast<int>(std::lround((y0 + y1 - fm.height()) / 2.0)),
                    fm.horizontalAdvance(shown), fm.height());
                if (r.top() < plot.top())
                    r.moveTop(plot.top());
                if (r.bottom() > plot.bottom())
                    r.moveBottom(plot.bottom());
                if (labels && !shown.isEmpty() && static_cast<int>(bi) % rowStride == 0
                    && (previousRow.isNull() || r.top() > previousRow.bottom() + 1)) {
                    p.setPen(text);
                    p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, shown);
                    m_labelRects.push_back(r);
                    m_rowBlockLabels.emplace_back(bi, r);
                    previousRow = r;
                }
            }
            // Columns: centred over the block when it fits, else from the block's start over the next ones.
            const double x0 = std::max<double>(
                plot.left(), plot.left() + (static_cast<double>(b.begin) - m_window.left()) * px.x());
            const double x1 = std::min<double>(
                plot.right() + 1, plot.left() + (static_cast<double>(b.end) - m_window.left()) * px.x());
            if (x1 > x0) {
                const QRect extent(static_cast<int>(x0), l.colBlocks.top(),
                    std::max(1, static_cast<int>(x1) - static_cast<int>(x0)), l.colBlocks.height());
                if (!labels) {
                    if ((bi / static_cast<size_t>(colStride)) % 2 == 1)
                        p.fillRect(extent, shade);
                    m_blockLabelHits.emplace_back(extent, bi);
                }
                const QString& columnLabel = compactColumns ? compact[bi] : label;
                const int full = fm.horizontalAdvance(columnLabel);
                QString shown = columnLabel;
                QRect r;
                if (compactColumns) {
                    // At the block's start, as a row label is: evenly spaced whatever the number's width.
                    r = QRect(static_cast<int>(x0) + 3, l.colBlocks.top(), full, fm.height());
                } else if (full <= x1 - x0 - 4) {
                    r = QRect(
                        static_cast<int>(std::lround((x0 + x1 - full) / 2.0)), l.colBlocks.top(), full, fm.height());
                } else {
                    shown = fm.elidedText(label, Qt::ElideRight, std::min(full, kMaxColumnLabel));
                    r = QRect(static_cast<int>(x0) + 2, l.colBlocks.top(), fm.horizontalAdvance(shown), fm.height());
                }
                if (r.right() > width() - 1)
                    r.moveRight(width() - 1);
                if (labels && !shown.isEmpty() && static_cast<int>(bi) % colStride == 0
                    && (previousCol.isNull() || r.left() > previousCol.right() + 6)) {
                    p.setPen(text);
                    p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, shown);
                    m_labelRects.push_back(r);
                    m_columnBlockLabels.emplace_back(bi, r);
                    previousCol = r;
                }
            }
        }
    }
}

void CommMatrixView::paintLegend(QPainter& p, const Layout& l, const Level& lv, int k)
{
    const QFontMetrics fm = fontMetrics();
    const int lx = l.legend.left();
    const int textX = lx + kLegendBar + kGap;
    const int textWidth = l.legend.right() - textX + 1;
    // Lines under the scale: the aggregated mode's block size and statistic, the zoom.
    QStringList notes;
    if (k > 1) {
        notes << tr("%1 \u00d7 %1 ranks").arg(k);
        notes << (m_metric == Metric::Bandwidth ? tr("min bandwidth")
                : m_metric == Metric::Size      ? tr("sum of sizes")
                : m_metric == Metric::Time      ? tr("max time")
                                                : tr("shared transport"));
    }
    if (zoom() > 1.0 + 1e-9)
        notes << tr("zoom %1\u00d7").arg(zoom(), 0, 'f', 1);
    const int line = fm.height();
    const int notesHeight = notes.isEmpty() ? 0 : kGap * 2 + line * static_cast<int>(notes.size());
    int y = l.legend.top();
    auto note = [&](const QString& s, int atY) {
        const QString shown = fm.elidedText(s, Qt::ElideRight, l.legend.right() - lx + 1);
        const QRect r(lx, atY, fm.horizontalAdvance(shown), line);
        p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, shown);
        m_labelRects.push_back(r);
    };
    p.setPen(palette().color(QPalette::WindowText));
    if (m_metric == Metric::Transport) {
        const int entry = std::max(20, line + 4);
        for (const char* t : { "HCCS", "SDMA", "RDMA", "PCIE", "SIO", "LOCAL", "mixed" }) {
            if (y + entry > l.legend.bottom() - notesHeight)
                break;
            p.fillRect(QRect(lx, y + (entry - 14) / 2, 14, 14), transportColor(t));
            const QRect r(textX, y, std::min(textWidth, fm.horizontalAdvance(QString::fromLatin1(t))), entry);
            p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, QString::fromLatin1(t));
            m_labelRects.push_back(r);
            y += entry;
        }
    } else if (lv.range) {
        const int lh = std::max(0, std::min(260, l.legend.height() - notesHeight));
        if (lh >= line * 2) {
            for (int i = 0; i < lh; ++i) {
                const double t = 1.0 - static_cast<double>(i) / std::max(1, lh - 1);
                p.fillRect(QRect(lx, y + i, kLegendBar, 1), ramp(t, m_metric == Metric::Bandwidth));
            }
            p.setPen(QPen(palette().color(QPalette::Mid), 1));
            p.drawRect(QRect(lx, y, kLegendBar, lh).adjusted(0, 0, -1, -1));
            p.setPen(palette().color(QPalette::WindowText));
            const int decimals = lv.range->second >= 100 ? 1 : 3;
            const QString unit = m_metric == Metric::Bandwidth ? QStringLiteral("GB/s")
                : m_metric == Metric::Size                     ? QStringLiteral("MB")
                                                               : QStringLiteral("ms");
            auto text = [&](const QString& s, int top) {
                const QString shown = fm.elidedText(s, Qt::ElideRight, textWidth);
                const QRect r(textX, top, fm.horizontalAdvance(shown), line);
                p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, shown);
                m_labelRects.push_back(r);
            };
            text(number(lv.range->second, decimals), y);
            text(number(lv.range->first, decimals), y + lh - line);
            if (lh >= line * 3 + 4)
                text(unit, y + (lh - line) / 2);
            y += lh;
        }
    }
    if (notes.isEmpty() || y + notesHeight > l.legend.bottom() + 1)
        return;
    y += kGap * 2;
    for (const QString& s : notes) {
        note(s, y);
        y += line;
    }
}

void CommMatrixView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        invalidateLevels();
    ChartWidget::changeEvent(event);
}

bool CommMatrixView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (!text.isEmpty())
            QToolTip::showText(help->globalPos(), text, this);
        else
            QToolTip::hideText();
        return true;
    }
    return ChartWidget::event(event);
}

void CommMatrixView::wheelEvent(QWheelEvent* event)
{
    const double n = static_cast<double>(m_matrix.ranks.size());
    if (n <= 0 || m_window.isEmpty())
        return;
    const QPointF anchor = toCells(event->position());
    const double factor = std::pow(1.0015, event->angleDelta().y());
    // Both axes by the same factor, keeping the anchor under the cursor (a dragged rectangle's aspect stays).
    const QPointF frac((anchor.x() - m_window.x()) / m_window.width(), (anchor.y() - m_window.y()) / m_window.height());
    const double smallest = std::max(1.0, n / kMaxZoom);
    const double w = std::clamp(m_window.width() / factor, smallest, n);
    const double h = std::clamp(m_window.height() / factor, smallest, n);
    m_window = QRectF(anchor.x() - frac.x() * w, anchor.y() - frac.y() * h, w, h);
    clampWindow();
    update();
    event->accept();
}

void CommMatrixView::mousePressEvent(QMouseEvent* event)
{
    const bool pan = event->button() == Qt::MiddleButton
        || (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    if (event->button() == Qt::LeftButton || pan) {
        m_press = event->position().toPoint();
        m_panning = pan;
        m_pressWindow = m_window.topLeft();
        m_rubberBand = {};
        event->accept();
        return;
    }
    ChartWidget::mousePressEvent(event);
}

void CommMatrixView::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_press || !(event->buttons() & (Qt::LeftButton | Qt::MiddleButton))) {
        QWidget::mouseMoveEvent(event);
        return;
    }
    const QPoint pos = event->position().toPoint();
    if (m_panning) {
        const QPointF px = cellPixels(plotRect());
        const QPointF delta(
            static_cast<double>(pos.x() - m_press->x()) / px.x(), static_cast<double>(pos.y() - m_press->y()) / px.y());
        m_window.moveTopLeft(m_pressWindow - delta);
        clampWindow();
        update();
    } else if ((pos - *m_press).manhattanLength() >= kDragStart) {
        m_rubberBand = QRect(*m_press, pos).normalized().intersected(plotRect());
        update();
    }
}

void CommMatrixView::mouseReleaseEvent(QMouseEvent* event)
{
    if (!m_press || (event->button() != Qt::LeftButton && event->button() != Qt::MiddleButton)) {
        ChartWidget::mouseReleaseEvent(event);
        return;
    }
    const QPoint press = *m_press;
    const QPoint pos = event->position().toPoint();
    const QRect band = m_rubberBand;
    const bool panning = m_panning;
    m_press.reset();
    m_panning = false;
    m_rubberBand = {};
    if (panning)
        return;
    if ((pos - press).manhattanLength() < kDragStart) {
        if (const auto* c = cellAt(pos))
            emit linkClicked(c->src, c->dst);
        update();
        return;
    }
    if (band.width() >= kDragStart && band.height() >= kDragStart)
        zoomToCells(QRectF(toCells(band.topLeft()), toCells(QPointF(band.right() + 1, band.bottom() + 1))));
    else
        update();
}

void CommMatrixView::mouseDoubleClickEvent(QMouseEvent*) { resetView(); }

} // namespace npuscope::gui
