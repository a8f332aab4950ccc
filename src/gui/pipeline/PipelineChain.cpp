// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/pipeline/PipelineChain.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <map>

namespace npuscope::gui {

namespace {

constexpr double kBoxHeight = 78;
constexpr double kMaxBoxWidth = 210;
constexpr double kMinBoxWidth = 120;
constexpr double kGap = 34; // between columns, for the arrows
constexpr double kRowGap = 14;
constexpr int kMargin = 10;

QColor bottleneckColor() { return QColor(214, 39, 40); }

QString percentText(const std::optional<double>& share)
{
    return share ? QStringLiteral("%1 %").arg(*share * 100, 0, 'f', 1) : QStringLiteral("\u2014");
}

void drawArrow(QPainter& p, QPointF from, QPointF to)
{
    p.drawLine(from, to);
    const QPointF tip = to;
    QPainterPath head;
    head.moveTo(tip);
    head.lineTo(tip + QPointF(-8, -4.5));
    head.lineTo(tip + QPointF(-8, 4.5));
    head.closeSubpath();
    p.fillPath(head, p.pen().color());
}

} // namespace

PipelineChain::PipelineChain(QWidget* parent)
    : ChartWidget(parent, { .objectName = "pipelineChain", .hover = true })
{
}

void PipelineChain::setPipeline(std::optional<query::RankPipeline> pipeline)
{
    m_pipeline = std::move(pipeline);
    resetHover();
    setSelectedItem(-1);
    layoutBoxes();
    updateGeometry();
    update();
}

QSize PipelineChain::sizeHint() const
{
    int columns = 1, rows = 1;
    if (m_pipeline) {
        std::map<int, int> perDepth;
        for (const auto& op : m_pipeline->ops)
            rows = std::max(rows, ++perDepth[op.depth]);
        columns = static_cast<int>(perDepth.size()) + 1;
    }
    return { static_cast<int>(columns * (kMaxBoxWidth + kGap)) + 2 * kMargin,
        static_cast<int>(rows * (kBoxHeight + kRowGap)) + 2 * kMargin };
}

QSize PipelineChain::minimumSizeHint() const { return { 240, static_cast<int>(kBoxHeight) + 2 * kMargin }; }

void PipelineChain::resizeEvent(QResizeEvent* event)
{
    ChartWidget::resizeEvent(event);
    layoutBoxes();
}

void PipelineChain::layoutBoxes()
{
    m_boxes.clear();
    if (!m_pipeline)
        return;
    const auto& ops = m_pipeline->ops;
    int maxDepth = 0;
    for (const auto& op : ops)
        maxDepth = std::max(maxDepth, op.depth);
    const int columns = (ops.empty() ? 0 : maxDepth + 1) + 1; // the operators, then the device queue
    const QRectF area = QRectF(rect()).adjusted(kMargin, kMargin, -kMargin, -kMargin);
    const double width = std::clamp((area.width() - (columns - 1) * kGap) / columns, kMinBoxWidth, kMaxBoxWidth);
    const double used = columns * width + (columns - 1) * kGap;
    const double left = area.left() + std::max(0.0, (area.width() - used) / 2);
    // Operators per column (column = maxDepth - depth), in the given order (siblings by op id).
    std::map<int, std::vector<size_t>> byColumn;
    for (size_t i = 0; i < ops.size(); ++i)
        byColumn[maxDepth - ops[i].depth].push_back(i);
    m_boxes.assign(ops.size() + 1, QRectF());
    auto place = [&](int column, size_t row, size_t rows) {
        const double stack = static_cast<double>(rows) * kBoxHeight + static_cast<double>(rows - 1) * kRowGap;
        const double top = area.top() + std::max(0.0, (area.height() - stack) / 2);
        return QRectF(
            left + column * (width + kGap), top + static_cast<double>(row) * (kBoxHeight + kRowGap), width, kBoxHeight);
    };
    for (const auto& [column, items] : byColumn) {
        for (size_t r = 0; r < items.size(); ++r)
            m_boxes[items[r]] = place(column, r, items.size());
    }
    m_boxes.back() = place(columns - 1, 0, 1);
}

int PipelineChain::itemAt(const QPoint& pos) const
{
    for (size_t i = 0; i < m_boxes.size(); ++i) {
        if (m_boxes[i].contains(pos))
            return static_cast<int>(i);
    }
    return -1;
}

QString PipelineChain::itemToolTip(int item) const
{
    if (!m_pipeline || item < 0 || item >= static_cast<int>(m_boxes.size()))
        return {};
    const auto& p = *m_pipeline;
    if (item == static_cast<int>(p.ops.size()))
        return tr("Device queue: empty in %1 of %2 samples, full in %3; capacity %4")
            .arg(p.deviceQueueEmpty)
            .arg(p.deviceQueueSamples)
            .arg(p.deviceQueueFull)
            .arg(p.deviceQueueCapacity ? QString::number(*p.deviceQueueCapacity) : QStringLiteral("\u2014"));
    const auto& op = p.ops[static_cast<size_t>(item)];
    return tr("%1 (op %2)\nWorkers: %3\nOutput queue: %4 used, capacity %5, mean %6 rows\nCPU: %7 %")
        .arg(QString::fromStdString(op.opType))
        .arg(op.opId)
        .arg(op.numWorkers ? QString::number(*op.numWorkers) : QStringLiteral("\u2014"))
        .arg(percentText(op.queueUsage))
        .arg(op.queueCapacity ? QString::number(*op.queueCapacity) : QStringLiteral("\u2014"))
        .arg(op.queueAvgSize ? QString::number(*op.queueAvgSize, 'f', 1) : QStringLiteral("\u2014"))
        .arg(op.cpuPct() ? QString::number(*op.cpuPct(), 'f', 1) : QStringLiteral("\u2014"));
}

void PipelineChain::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    if (!m_pipeline || m_boxes.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No data pipeline for this rank"));
        return;
    }
    const auto& ops = m_pipeline->ops;
    std::map<int64_t, size_t> index;
    for (size_t i = 0; i < ops.size(); ++i)
        index[ops[i].opId] = i;
    p.setPen(QPen(palette().color(QPalette::Text), 1.5));
    for (size_t i = 0; i < ops.size(); ++i) {
        const size_t to = ops[i].parentId ? index[*ops[i].parentId] : ops.size();
        const QRectF& a = m_boxes[i];
        const QRectF& b = m_boxes[to];
        drawArrow(p, QPointF(a.right(), a.center().y()), QPointF(b.left() - 1, b.center().y()));
    }
    for (size_t i = 0; i < ops.size(); ++i)
        drawBox(p, static_cast<int>(i));
    drawDeviceQueue(p);
}

void PipelineChain::drawBox(QPainter& p, int item) const
{
    const auto& op = m_pipeline->ops[static_cast<size_t>(item)];
    const QRectF box = m_boxes[static_cast<size_t>(item)];
    const bool bottleneck = m_pipeline->bottleneck && m_pipeline->bottleneck->opId == op.opId;
    QColor fill = palette().color(QPalette::AlternateBase);
    if (item == hoveredItem() || item == selectedItem())
        fill = selectionColor();
    p.setPen(bottleneck ? QPen(bottleneckColor(), 3) : QPen(palette().color(QPalette::Mid), 1));
    p.setBrush(fill);
    const QRectF inner = drawBoxFrame(p, box, QPalette::Text);
    const QFontMetricsF fm(titleFont());
    p.drawText(QRectF(inner.left(), inner.top(), inner.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
        fm.elidedText(QString::fromStdString(op.opType), Qt::ElideRight, inner.width()));
    p.setFont(font());
    const QFontMetricsF small(font());
    const QString workers
        = op.numWorkers ? tr("op %1 \u00b7 %2 workers").arg(op.opId).arg(*op.numWorkers) : tr("op %1").arg(op.opId);
    p.drawText(QRectF(inner.left(), inner.top() + fm.height(), inner.width(), small.height()),
        Qt::AlignLeft | Qt::AlignVCenter, small.elidedText(workers, Qt::ElideRight, inner.width()));
    // The output queue usage bar.
    const QRectF bar(inner.left(), inner.bottom() - small.height() - 10, inner.width(), 8);
    p.setPen(Qt::NoPen);
    p.setBrush(palette().color(QPalette::Base));
    p.drawRect(bar);
    if (op.queueUsage) {
        p.setBrush(palette().color(QPalette::Highlight));
        p.drawRect(QRectF(bar.left(), bar.top(), bar.width() * std::clamp(*op.queueUsage, 0.0, 1.0), bar.height()));
    }
    p.setPen(bottleneck ? bottleneckColor() : palette().color(QPalette::Text));
    const QString queue = bottleneck ? tr("queue %1 \u00b7 bottleneck").arg(percentText(op.queueUsage))
                                     : tr("queue %1").arg(percentText(op.queueUsage));
    p.drawText(QRectF(inner.left(), inner.bottom() - small.height(), inner.width(), small.height()),
        Qt::AlignLeft | Qt::AlignVCenter, small.elidedText(queue, Qt::ElideRight, inner.width()));
}

QRectF PipelineChain::drawBoxFrame(QPainter& p, const QRectF& box, QPalette::ColorRole text) const
{
    p.drawRoundedRect(box, 6, 6);
    p.setFont(titleFont());
    p.setPen(palette().color(text));
    return box.adjusted(8, 5, -8, -5);
}

QFont PipelineChain::titleFont() const
{
    QFont bold = font();
    bold.setBold(true);
    return bold;
}

void PipelineChain::drawDeviceQueue(QPainter& p) const
{
    const int item = static_cast<int>(m_boxes.size()) - 1;
    const QRectF box = m_boxes.back();
    const auto& pl = *m_pipeline;
    const bool starved
        = pl.deviceQueueEmptyRate && *pl.deviceQueueEmptyRate > query::PipelineQuery::kDeviceQueueEmptyRate;
    p.setPen(QPen(starved ? bottleneckColor() : palette().color(QPalette::Mid), starved ? 2 : 1, Qt::DashLine));
    p.setBrush(item == hoveredItem() || item == selectedItem() ? selectionColor() : palette().color(QPalette::Button));
    const QRectF inner = drawBoxFrame(p, box, QPalette::ButtonText);
    p.drawText(inner, Qt::AlignLeft | Qt::AlignTop, tr("Device queue"));
    p.setFont(font());
    const QString line = pl.deviceQueueSamples > 0
        ? tr("empty %1 of %2 samples").arg(percentText(pl.deviceQueueEmptyRate)).arg(pl.deviceQueueSamples)
        : tr("no device queue file");
    const QFontMetricsF small(font());
    if (starved)
        p.setPen(bottleneckColor());
    p.drawText(inner, Qt::AlignLeft | Qt::AlignBottom, small.elidedText(line, Qt::ElideRight, inner.width()));
}

} // namespace npuscope::gui
