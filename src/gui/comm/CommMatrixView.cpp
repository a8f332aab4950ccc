// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/comm/CommMatrixView.h"

#include "npuscope/gui/common/TimeFormat.h"

#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace npuscope::gui {

namespace {

constexpr int kLegendWidth = 96;
constexpr double kMaxZoom = 256.0;

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
    static const QColor heat[] = { QColor(255, 247, 210), QColor(253, 200, 110), QColor(240, 120, 50),
        QColor(190, 40, 40), QColor(100, 10, 40) };
    const QColor* stops = lowIsBad ? bad : heat;
    t = std::clamp(t, 0.0, 1.0) * 4.0;
    const int i = std::min(3, static_cast<int>(t));
    return lerp(stops[i], stops[i + 1], t - i);
}

QString number(double v, int decimals = 3) { return QString::number(v, 'f', decimals); }

} // namespace

CommMatrixView::CommMatrixView(QWidget* parent)
    : ChartWidget(parent)
{
    setObjectName(QStringLiteral("commMatrixView"));
    setMouseTracking(true);
    setMinimumSize(240, 200);
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
    if (!sameAxis)
        resetView();
    rebuildImage();
}

void CommMatrixView::setMetric(Metric metric)
{
    if (metric == m_metric)
        return;
    m_metric = metric;
    rebuildImage();
}

void CommMatrixView::setHideLocal(bool hide)
{
    if (hide == m_hideLocal)
        return;
    m_hideLocal = hide;
    rebuildImage();
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

QColor CommMatrixView::colorFor(double value) const
{
    if (!m_range)
        return Qt::gray;
    const double span = m_range->second - m_range->first;
    const double t = span > 0 ? (value - m_range->first) / span : 0.5;
    return ramp(t, m_metric == Metric::Bandwidth);
}

void CommMatrixView::rebuildImage()
{
    const int n = static_cast<int>(m_matrix.ranks.size());
    m_range.reset();
    for (const auto& c : m_matrix.cells) {
        if (!shown(c))
            continue;
        if (auto v = cellValue(c)) {
            // Anchored at 0 so a few percent of spread does not read as red against green.
            if (!m_range)
                m_range = std::make_pair(0.0, *v);
            m_range->first = std::min(m_range->first, *v);
            m_range->second = std::max(m_range->second, *v);
        }
    }
    m_cellAt.assign(static_cast<size_t>(n) * static_cast<size_t>(n), -1);
    m_image = QImage(std::max(1, n), std::max(1, n), QImage::Format_RGB32);
    m_image.fill(QColor(246, 246, 246));
    for (size_t i = 0; i < m_matrix.cells.size(); ++i) {
        const auto& c = m_matrix.cells[i];
        if (c.src < 0 || c.dst < 0 || static_cast<size_t>(std::max(c.src, c.dst)) >= m_position.size())
            continue;
        const int row = m_position[static_cast<size_t>(c.src)];
        const int col = m_position[static_cast<size_t>(c.dst)];
        if (row < 0 || col < 0 || !shown(c))
            continue;
        m_cellAt[static_cast<size_t>(row) * static_cast<size_t>(n) + static_cast<size_t>(col)]
            = static_cast<int32_t>(i);
        QColor color = transportColor(c.transport);
        if (m_metric != Metric::Transport) {
            const auto v = cellValue(c);
            color = v ? colorFor(*v) : QColor(210, 210, 210);
        }
        m_image.setPixel(col, row, color.rgb());
    }
    update();
}

QRect CommMatrixView::plotRect() const
{
    const int left = fontMetrics().horizontalAdvance(QStringLiteral("src 8888")) + 8;
    const int top = fontMetrics().height() * 2 + 8;
    const int w = std::max(10, width() - left - kLegendWidth - 8);
    const int h = std::max(10, height() - top - 8);
    const int side = std::min(w, h);
    return { left, top, side, side };
}

double CommMatrixView::cellPixels() const
{
    const int n = std::max<int>(1, static_cast<int>(m_matrix.ranks.size()));
    return plotRect().width() * m_zoom / n;
}

void CommMatrixView::clampOffset()
{
    const double n = static_cast<double>(m_matrix.ranks.size());
    const double visible = n / m_zoom;
    m_offset.setX(std::clamp(m_offset.x(), 0.0, std::max(0.0, n - visible)));
    m_offset.setY(std::clamp(m_offset.y(), 0.0, std::max(0.0, n - visible)));
}

void CommMatrixView::setZoom(double zoom, QPointF anchorCell)
{
    const double n = static_cast<double>(m_matrix.ranks.size());
    if (anchorCell.x() < 0)
        anchorCell = m_offset + QPointF(n / m_zoom / 2, n / m_zoom / 2);
    // Keep the anchor cell under the same fraction of the view.
    const QPointF frac = (anchorCell - m_offset) * (m_zoom / std::max(1.0, n));
    m_zoom = std::clamp(zoom, 1.0, std::max(1.0, std::min(kMaxZoom, n)));
    m_offset = anchorCell - frac * (std::max(1.0, n) / m_zoom);
    clampOffset();
    update();
}

void CommMatrixView::resetView()
{
    m_zoom = 1.0;
    m_offset = {};
    update();
}

void CommMatrixView::addContextActions(QMenu& menu, const QPoint& pos)
{
    const query::MatrixCell* cell = cellAt(pos);
    if (!cell || cell->src == cell->dst)
        return;
    const qint64 src = cell->src, dst = cell->dst;
    menu.addAction(tr("Costliest collectives of link %1–%2").arg(src).arg(dst), this,
        [this, src, dst] { emit collectivesRequested(src, dst); });
}

const query::MatrixCell* CommMatrixView::cellAt(const QPoint& pos) const
{
    const QRect plot = plotRect();
    const int n = static_cast<int>(m_matrix.ranks.size());
    if (n == 0 || !plot.contains(pos))
        return nullptr;
    const double px = cellPixels();
    const int col = static_cast<int>(std::floor(m_offset.x() + (pos.x() - plot.left()) / px));
    const int row = static_cast<int>(std::floor(m_offset.y() + (pos.y() - plot.top()) / px));
    if (row < 0 || col < 0 || row >= n || col >= n)
        return nullptr;
    const int32_t i = m_cellAt[static_cast<size_t>(row) * static_cast<size_t>(n) + static_cast<size_t>(col)];
    return i < 0 ? nullptr : &m_matrix.cells[static_cast<size_t>(i)];
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

void CommMatrixView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const QFontMetrics fm = fontMetrics();
    const int n = static_cast<int>(m_matrix.ranks.size());
    if (n == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No communication links for this selection"));
        return;
    }
    const QRect plot = plotRect();
    const double visible = n / m_zoom;
    const double px = cellPixels();
    // Source rectangle in cell units; nearest-neighbour scaling keeps single cells crisp.
    const QRectF source(m_offset.x(), m_offset.y(), visible, visible);
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.drawImage(QRectF(plot), m_image, source);

    p.setClipRect(plot.adjusted(0, 0, 1, 1));
    if (px >= 6) {
        p.setPen(QPen(QColor(255, 255, 255, 160), 1));
        const int first = static_cast<int>(std::floor(m_offset.x()));
        for (int i = first; i <= std::min(n, first + static_cast<int>(visible) + 1); ++i) {
            const double x = plot.left() + (i - m_offset.x()) * px;
            p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
            const double y = plot.top() + (i - m_offset.y()) * px;
            p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        }
    }
    // Group blocks on the diagonal.
    p.setPen(QPen(QColor(40, 40, 40, 90), 1));
    p.setBrush(Qt::NoBrush);
    if (m_matrix.blocks.size() > 1) {
        for (const auto& b : m_matrix.blocks) {
            const double x0 = plot.left() + (static_cast<double>(b.begin) - m_offset.x()) * px;
            const double y0 = plot.top() + (static_cast<double>(b.begin) - m_offset.y()) * px;
            const double s = static_cast<double>(b.end - b.begin) * px;
            if (s >= 3)
                p.drawRect(QRectF(x0, y0, s, s));
        }
    }
    // The slowest non-LOCAL link: a ring that stays visible when the cell is one pixel.
    m_slowestRing = {};
    if (m_matrix.slowestCell && m_metric == Metric::Bandwidth) {
        const auto& c = m_matrix.cells[*m_matrix.slowestCell];
        const int row = m_position[static_cast<size_t>(c.src)];
        const int col = m_position[static_cast<size_t>(c.dst)];
        const QRectF cell(plot.left() + (col - m_offset.x()) * px, plot.top() + (row - m_offset.y()) * px, px, px);
        if (QRectF(plot).intersects(cell)) {
            // At least 10 px so a one-pixel cell stays visible, moved inside the plot so an edge cell's ring is not
            // cut off, and the 2 px pen drawn within the ring's rectangle.
            const double side = std::min(
                { std::max(10.0, px), static_cast<double>(plot.width()), static_cast<double>(plot.height()) });
            QRectF ring(0, 0, side, side);
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
            p.setPen(QPen(QColor(20, 20, 20), 2));
            p.drawRect(ring.adjusted(1, 1, -1, -1));
        }
    }
    p.setClipping(false);
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.drawRect(plot.adjusted(0, 0, -1, -1));

    // Axis labels: every k-th rank so labels do not overlap.
    p.setPen(palette().color(QPalette::WindowText));
    // Columns need the widest label's width, rows a text line; 1-2-5 steps so labels read as a scale.
    int64_t widest = 0;
    for (int64_t r : m_matrix.ranks)
        widest = std::max(widest, r);
    const int needed = std::max(fm.height() + 2, fm.horizontalAdvance(QString::number(widest)) + 6);
    int every = 1;
    while (every * px < needed)
        every = every == 1 ? 2 : (every % 10 == 2 ? every / 2 * 5 : every * 2);
    const int first = static_cast<int>(std::ceil(m_offset.x()));
    const int last = std::min(n - 1, static_cast<int>(m_offset.x() + visible));
    for (int i = first; i <= last; ++i) {
        if (i % every != 0)
            continue;
        const QString label = QString::number(m_matrix.ranks[static_cast<size_t>(i)]);
        const double x = plot.left() + (i + 0.5 - m_offset.x()) * px;
        const double y = plot.top() + (i + 0.5 - m_offset.y()) * px;
        const int w = fm.horizontalAdvance(label);
        if (x - w / 2.0 >= plot.left() - 2 && x + w / 2.0 <= plot.right() + 2)
            p.drawText(QPointF(x - w / 2.0, plot.top() - 4 - fm.descent()), label);
        if (y >= plot.top() && y <= plot.bottom())
            p.drawText(QRectF(0, y - fm.height() / 2.0, plot.left() - 5, fm.height()),
                Qt::AlignRight | Qt::AlignVCenter, label);
    }
    QFont small = font();
    small.setBold(true);
    p.setFont(small);
    p.drawText(QRect(plot.left(), 2, plot.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
        tr("dst \u2192   (rows: src; %1 %2%3%4)")
            .arg(n)
            .arg(m_matrix.localGroup ? tr("group-local ranks, global ranks unknown") : tr("ranks"))
            .arg(m_matrix.orderedBy.empty() ? QString()
                                            : tr(", blocks: %1").arg(QString::fromStdString(m_matrix.orderedBy)))
            .arg(m_zoom > 1.0 ? tr(", zoom %1\u00d7").arg(m_zoom, 0, 'f', 1) : QString()));
    p.setFont(font());

    // Legend.
    const int lx = plot.right() + 24;
    const int ly = plot.top();
    if (m_metric == Metric::Transport) {
        int y = ly;
        for (const char* t : { "HCCS", "SDMA", "RDMA", "PCIE", "SIO", "LOCAL", "mixed" }) {
            p.fillRect(QRect(lx, y, 14, 14), transportColor(t));
            p.drawText(QPoint(lx + 20, y + 12), QString::fromLatin1(t));
            y += 20;
        }
        return;
    }
    if (!m_range)
        return;
    const int lh = std::min(plot.height(), 260);
    for (int y = 0; y < lh; ++y) {
        const double t = 1.0 - static_cast<double>(y) / std::max(1, lh - 1);
        p.fillRect(QRect(lx, ly + y, 16, 1), ramp(t, m_metric == Metric::Bandwidth));
    }
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.drawRect(QRect(lx, ly, 16, lh));
    p.setPen(palette().color(QPalette::WindowText));
    const QString unit = m_metric == Metric::Bandwidth ? QStringLiteral("GB/s")
        : m_metric == Metric::Size                     ? QStringLiteral("MB")
                                                       : QStringLiteral("ms");
    const int decimals = m_range->second >= 100 ? 1 : 3;
    p.drawText(QPoint(lx + 20, ly + fm.ascent()), number(m_range->second, decimals));
    p.drawText(QPoint(lx + 20, ly + lh), number(m_range->first, decimals));
    p.drawText(QPoint(lx + 20, ly + lh / 2 + fm.ascent() / 2), unit);
}

bool CommMatrixView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const auto* c = cellAt(help->pos()))
            QToolTip::showText(help->globalPos(), toolTipFor(*c), this);
        else
            QToolTip::hideText();
        return true;
    }
    return ChartWidget::event(event);
}

void CommMatrixView::wheelEvent(QWheelEvent* event)
{
    const QRect plot = plotRect();
    const double px = cellPixels();
    const QPointF anchor = m_offset + (event->position() - QPointF(plot.topLeft())) / px;
    const double factor = std::pow(1.0015, event->angleDelta().y());
    setZoom(m_zoom * factor, anchor);
    event->accept();
}

void CommMatrixView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        m_drag = event->position().toPoint();
        m_dragOffset = m_offset;
    }
}

void CommMatrixView::mouseMoveEvent(QMouseEvent* event)
{
    if (m_drag && (event->buttons() & Qt::LeftButton)) {
        const QPointF delta = (event->position() - QPointF(*m_drag)) / cellPixels();
        m_offset = m_dragOffset - delta;
        clampOffset();
        update();
    }
}

void CommMatrixView::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_drag && event->button() == Qt::LeftButton) {
        const bool click = (event->position().toPoint() - *m_drag).manhattanLength() < 4;
        m_drag.reset();
        if (click) {
            if (const auto* c = cellAt(event->position().toPoint()))
                emit rankClicked(c->src);
        }
    }
}

void CommMatrixView::mouseDoubleClickEvent(QMouseEvent*) { resetView(); }

} // namespace npuscope::gui
