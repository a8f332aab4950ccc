// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/comm/CommMatrixView.h"

#include "npuscope/gui/comm/GroupTableModel.h"
#include "npuscope/gui/comm/GroupText.h"
#include "npuscope/gui/common/TimeFormat.h"

#include <QEvent>
#include <QFutureWatcher>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QThreadPool>
#include <QToolTip>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <limits>

#include "CommMatrixViewParts.h"

namespace npuscope::gui {

using namespace matrix_detail;

namespace {

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
    : ChartWidget(parent,
        { .objectName = "commMatrixView",
            .hover = true,
            .minimumSize = { 200, 160 },
            .horizontal = QSizePolicy::Expanding,
            .vertical = QSizePolicy::Expanding })
    , m_data(std::make_shared<const query::CommMatrix>())
{
}

QColor CommMatrixView::transportColor(const std::string& t)
{
    static constexpr struct {
        const char* name;
        int r, g, b;
    } kColors[] { { "LOCAL", 170, 170, 170 }, { "HCCS", 66, 133, 244 }, { "SDMA", 52, 168, 83 },
        { "RDMA", 234, 67, 53 }, { "PCIE", 251, 188, 5 }, { "SIO", 155, 89, 182 } };
    for (const auto& c : kColors) {
        if (t == c.name)
            return QColor(c.r, c.g, c.b);
    }
    return QColor(90, 90, 90);
}

void CommMatrixView::setMatrix(query::CommMatrix matrix)
{
    const bool sameAxis = matrix.ranks == m_data->ranks;
    m_data = std::make_shared<const query::CommMatrix>(std::move(matrix));
    int64_t maxRank = 0;
    for (int64_t r : m_data->ranks)
        maxRank = std::max(maxRank, r);
    m_position.assign(static_cast<size_t>(maxRank + 1), -1);
    for (size_t i = 0; i < m_data->ranks.size(); ++i) {
        if (m_data->ranks[i] >= 0)
            m_position[static_cast<size_t>(m_data->ranks[i])] = static_cast<int>(i);
    }
    m_ascending = std::is_sorted(m_data->ranks.begin(), m_data->ranks.end());
    m_blockLabels.clear();
    for (const auto& b : m_data->blocks)
        m_blockLabels.push_back(blockLabelOf(b));
    const size_t n = m_data->ranks.size();
    m_cellAt.assign(n * n, -1);
    for (size_t i = 0; i < m_data->cells.size(); ++i) {
        const auto& c = m_data->cells[i];
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

bool CommMatrixView::shownWhen(const query::MatrixCell& c, bool hideLocal)
{
    return !hideLocal || (c.src != c.dst && c.transport != "LOCAL");
}

std::optional<double> CommMatrixView::cellValue(const query::MatrixCell& c) const { return valueOf(c, m_metric); }

std::optional<double> CommMatrixView::valueOf(const query::MatrixCell& c, Metric metric)
{
    switch (metric) {
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

QColor CommMatrixView::colorFor(double value, const std::optional<std::pair<double, double>>& range, Metric metric)
{
    if (!range)
        return Qt::gray;
    const double span = range->second - range->first;
    const double t = span > 0 ? (value - range->first) / span : 0.5;
    return ramp(t, metric == Metric::Bandwidth);
}

void CommMatrixView::invalidateLevels()
{
    m_levels.clear();
    const bool wasBusy = !m_pending.empty();
    m_pending.clear();
    pendingChanged(wasBusy);
    ++m_generation;
    m_range.reset();
    // The single-rank image gives the colour range; with a pool it arrives later (levelBuilt sets the range).
    if (const Level* one = level(1))
        m_range = one->range;
    update();
}

const CommMatrixView::Level* CommMatrixView::level(int k) const
{
    if (const auto it = m_levels.find(k); it != m_levels.end())
        return &it->second;
    LevelInputs in { m_data, m_position, m_metric, m_hideLocal, palette().color(QPalette::AlternateBase) };
    if (!m_pool) {
        ++m_imagesBuilt;
        return &m_levels.emplace(k, buildLevel(in, k)).first->second;
    }
    const bool wasBusy = !m_pending.empty();
    if (m_pending.insert(k).second) {
        auto* self = const_cast<CommMatrixView*>(this);
        self->pendingChanged(wasBusy);
        auto* watcher = new QFutureWatcher<Level>(self);
        const quint64 generation = m_generation;
        connect(watcher, &QFutureWatcherBase::finished, self, [self, watcher, generation, k] {
            watcher->deleteLater();
            self->levelBuilt(generation, k, watcher->result());
        });
        watcher->setFuture(QtConcurrent::run(m_pool.data(), [in = std::move(in), k] { return buildLevel(in, k); }));
    }
    return nullptr;
}

void CommMatrixView::levelBuilt(quint64 generation, int k, Level level)
{
    if (generation != m_generation)
        return; // the matrix, metric or filter changed since it was asked for
    const bool wasBusy = !m_pending.empty();
    m_pending.erase(k);
    pendingChanged(wasBusy);
    ++m_imagesBuilt;
    if (k == 1)
        m_range = level.range;
    m_levels.insert_or_assign(k, std::move(level));
    update();
}

void CommMatrixView::pendingChanged(bool wasBusy)
{
    if (wasBusy != !m_pending.empty())
        emit imagesBusyChanged(!m_pending.empty());
}

const CommMatrixView::Level* CommMatrixView::nearestLevel(int k, int* built) const
{
    const Level* best = nullptr;
    int bestK = 0;
    for (const auto& [size, lv] : m_levels) {
        // Finer first (more detail than asked for still draws right), then the closest coarser one.
        const bool better = !best || (size <= k ? (bestK > k || size > bestK) : (bestK > k && size < bestK));
        if (better) {
            best = &lv;
            bestK = size;
        }
    }
    if (built)
        *built = bestK;
    return best;
}

CommMatrixView::Level CommMatrixView::buildLevel(const LevelInputs& in, int k)
{
    const query::CommMatrix& matrix = *in.matrix;
    const std::vector<int>& position = in.position;
    const int n = static_cast<int>(matrix.ranks.size());
    Level lv;
    lv.side = std::max(1, (n + k - 1) / k);
    const size_t side = static_cast<size_t>(lv.side);
    lv.representative.assign(side * side, -1);
    lv.image = QImage(lv.side, lv.side, QImage::Format_RGB32);
    lv.image.fill(in.empty);
    // Blocks with their links: sort the (block, cell) pairs once instead of holding an accumulator per block.
    std::vector<std::pair<uint32_t, int32_t>> keyed;
    keyed.reserve(matrix.cells.size());
    for (size_t i = 0; i < matrix.cells.size(); ++i) {
        const auto& c = matrix.cells[i];
        if (!shownWhen(c, in.hideLocal) || c.src < 0 || c.dst < 0 || static_cast<size_t>(std::max(c.src, c.dst)) >= position.size())
            continue;
        const int row = position[static_cast<size_t>(c.src)];
        const int col = position[static_cast<size_t>(c.dst)];
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
            acc.add(matrix.cells[static_cast<size_t>(keyed[j].second)], keyed[j].second);
        Block b;
        acc.finish(in.metric, b);
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
        if (in.metric == Metric::Transport)
            color = transportColor(b.transport.toStdString());
        else
            color = b.value ? colorFor(*b.value, lv.range, in.metric) : QColor(210, 210, 210);
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
    const bool blocks = !m_data->blocks.empty();
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
    for (int64_t r : m_data->ranks)
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
    const int n = static_cast<int>(m_data->ranks.size());
    QString text = tr("Rows: src rank \u00b7 columns: dst rank \u00b7 %1 ranks").arg(n);
    if (m_data->localGroup)
        text += QStringLiteral(" \u00b7 ") + tr("group-local ranks, global ranks unknown");
    if (!m_data->orderedBy.empty())
        text += QStringLiteral(" \u00b7 ") + tr("ordered by %1 groups").arg(QString::fromStdString(m_data->orderedBy));
    return text;
}

QString CommMatrixView::blockLabelOf(const query::AxisBlock& block) const
{
    const bool named = !block.label.empty() && block.label != block.hash;
    const size_t end = std::min(block.end, m_data->ranks.size());
    const std::vector<int64_t> ranks(m_data->ranks.begin() + static_cast<std::ptrdiff_t>(std::min(block.begin, end)),
        m_data->ranks.begin() + static_cast<std::ptrdiff_t>(end));
    return (named ? QString::fromStdString(block.label) : tr("group")) + QLatin1Char(' ') + firstRanksText(ranks);
}

QString CommMatrixView::blockToolTip(const query::AxisBlock& block) const
{
    const size_t end = std::min(block.end, m_data->ranks.size());
    std::vector<int64_t> ranks(m_data->ranks.begin() + static_cast<std::ptrdiff_t>(std::min(block.begin, end)),
        m_data->ranks.begin() + static_cast<std::ptrdiff_t>(end));
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
    const int n = static_cast<int>(m_data->ranks.size());
    const QPointF px = cellPixels(plotRect());
    const double smallest = std::min(px.x(), px.y());
    int k = 1;
    while (k * smallest < kMinCellPx && k < n)
        k *= 2;
    return k;
}

double CommMatrixView::zoom() const
{
    const double n = static_cast<double>(m_data->ranks.size());
    return n > 0 && m_window.width() > 0 ? n / m_window.width() : 1.0;
}

void CommMatrixView::clampWindow()
{
    const double n = static_cast<double>(m_data->ranks.size());
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
    const double n = static_cast<double>(m_data->ranks.size());
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
    const double n = static_cast<double>(m_data->ranks.size());
    m_window = QRectF(0, 0, n, n);
    update();
}

CommMatrixView::Block CommMatrixView::blockOf(int row0, int row1, int col0, int col1) const
{
    const size_t n = m_data->ranks.size();
    Accumulator acc;
    for (int r = row0; r < row1; ++r) {
        for (int c = col0; c < col1; ++c) {
            const int32_t i = m_cellAt[static_cast<size_t>(r) * n + static_cast<size_t>(c)];
            if (i >= 0 && shown(m_data->cells[static_cast<size_t>(i)]))
                acc.add(m_data->cells[static_cast<size_t>(i)], i);
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
    const int n = static_cast<int>(m_data->ranks.size());
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
    return &m_data->cells[static_cast<size_t>(b->representative)];
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
                       .arg(m_data->localGroup ? tr(" (group-local ranks)") : QString());
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
            return b->representative >= 0 ? toolTipFor(m_data->cells[static_cast<size_t>(b->representative)])
                                          : QString();
        auto ranksOf = [this](int from, int to) {
            std::vector<int64_t> ranks(m_data->ranks.begin() + from, m_data->ranks.begin() + to);
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
            const auto& c = m_data->cells[static_cast<size_t>(b->representative)];
            html += QStringLiteral("<br>")
                + tr("Click selects link %1 \u2192 %2; zoom in for single ranks.").arg(c.src).arg(c.dst);
        }
        return html;
    }
    for (const auto& [r, index] : m_blockLabelHits) {
        if (r.contains(pos))
            return blockToolTip(m_data->blocks[index]);
    }
    return {};
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
    const double n = static_cast<double>(m_data->ranks.size());
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
