// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/strategy/StrategyGraphCanvas.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>

#include <algorithm>
#include <array>
#include <cmath>

namespace npuscope::gui {

namespace {

using Layout = query::StrategyGraphLayout;
using Kind = Layout::Kind;

constexpr int kMinimapWidth = 220;
constexpr int kMinimapStage = 7; // px per stage strip
constexpr double kDetail = 3.0; // px per column from which nodes are boxes and edges are drawn
constexpr double kLabels = 56.0; // px per column from which boxes carry their type
constexpr int kHaloWidth = 3; // px: the narrowest halo drawn (zoomed out)

QColor haloColor() { return QColor(255, 196, 0); }
QColor collapsedColor() { return QColor(96, 125, 139); }

} // namespace

StrategyGraphCanvas::StrategyGraphCanvas(QWidget* parent)
    : ChartWidget(parent,
        { .objectName = "strategyGraphCanvas",
            .hover = true,
            .plotMargins = QMargins(6, 4, 6, 4),
            .minimumSize = QSize(200, 160),
            .horizontal = QSizePolicy::Expanding,
            .vertical = QSizePolicy::Expanding })
{
    setFocusPolicy(Qt::StrongFocus);
}

QColor StrategyGraphCanvas::kindColor(Kind kind)
{
    switch (kind) {
    case Kind::Cube:
        return QColor(66, 133, 244);
    case Kind::Vector:
        return QColor(52, 168, 83);
    case Kind::Communication:
        return QColor(241, 143, 1);
    case Kind::Pipeline:
        return QColor(233, 163, 157);
    case Kind::Other:
        break;
    }
    return QColor(150, 150, 150);
}

void StrategyGraphCanvas::setGraph(std::shared_ptr<const query::StrategyGraphLayout> layout)
{
    m_layout = std::move(layout);
    m_halo.assign(m_layout ? m_layout->nodes.size() : 0, 0);
    // Each band's top, and the content's bottom after the last.
    m_bandTops.assign(1, 0);
    for (size_t i = 0; m_layout && i < m_layout->stages.size(); ++i)
        m_bandTops.push_back(m_bandTops.back() + kBandHeader + m_layout->stages[i].lanes * kLaneHeight + 8);
    m_haloCount = 0;
    m_collapsedScopes.clear();
    placeColumns();
    resetHover();
    setSelectedItem(-1);
    m_fitted = false;
    fit();
}

void StrategyGraphCanvas::setHalo(const std::vector<uint32_t>& nodes)
{
    std::fill(m_halo.begin(), m_halo.end(), 0);
    m_haloCount = 0;
    for (const uint32_t n : nodes) {
        if (n < m_halo.size() && !m_halo[n]) {
            m_halo[n] = 1;
            ++m_haloCount;
        }
    }
    update();
}

void StrategyGraphCanvas::setCollapsed(const std::vector<std::string>& scopes)
{
    m_collapsedScopes = scopes;
    placeColumns();
    clampView();
    if (m_fitted)
        fit();
    update();
}

uint32_t StrategyGraphCanvas::stageColumns(size_t stageSlot) const
{
    return stageSlot < m_columnNodes.size() ? static_cast<uint32_t>(m_columnNodes[stageSlot].size()) : 0;
}

void StrategyGraphCanvas::placeColumns()
{
    const size_t n = m_layout ? m_layout->nodes.size() : 0;
    m_column.assign(n, 0);
    m_rep.resize(n);
    m_runLength.assign(n, 1);
    m_runScope.assign(n, -1);
    m_columnNodes.assign(m_layout ? m_layout->stages.size() : 0, {});
    m_columns = 0;
    m_runs = 0;
    if (!m_layout)
        return;
    const Layout& l = *m_layout;
    // Per scope string the collapsed scope it lies under (the first listed), -1 for none.
    std::vector<int> scopeRun(l.scopes.size(), -1);
    for (size_t i = 0; i < l.scopes.size() && !m_collapsedScopes.empty(); ++i) {
        const std::string& s = l.scopes[i];
        for (size_t k = 0; k < m_collapsedScopes.size(); ++k) {
            const std::string& prefix = m_collapsedScopes[k];
            if (s == prefix
                || (s.size() > prefix.size() && s.compare(0, prefix.size(), prefix) == 0 && s[prefix.size()] == '/')) {
                scopeRun[i] = static_cast<int>(k);
                break;
            }
        }
    }
    for (size_t st = 0; st < l.stages.size(); ++st) {
        const auto& stage = l.stages[st];
        auto& columns = m_columnNodes[st];
        columns.reserve(stage.count);
        for (uint32_t i = stage.first; i < stage.first + stage.count; ++i) {
            const int run = scopeRun[l.nodes[i].scope];
            if (run >= 0 && i > stage.first && scopeRun[l.nodes[i - 1].scope] == run) {
                const uint32_t rep = m_rep[i - 1];
                m_rep[i] = rep;
                m_column[i] = m_column[rep];
                m_runLength[i] = 0;
                ++m_runLength[rep];
                continue;
            }
            m_rep[i] = i;
            m_column[i] = static_cast<uint32_t>(columns.size());
            m_runScope[i] = run;
            m_runs += run >= 0;
            columns.push_back(i);
        }
        m_columns = std::max(m_columns, static_cast<uint32_t>(columns.size()));
    }
}

QString StrategyGraphCanvas::runLabel(uint32_t node) const
{
    const std::string& path = m_collapsedScopes[static_cast<size_t>(m_runScope[node])];
    const auto slash = path.rfind('/');
    return QString::fromStdString(slash == std::string::npos ? path : path.substr(slash + 1));
}

void StrategyGraphCanvas::fit()
{
    const int width = std::max(1, plotRect().width());
    const uint32_t columns = std::max<uint32_t>(1, m_columns);
    m_scaleX = static_cast<double>(width) / columns;
    m_offsetX = 0;
    m_offsetY = 0;
    m_fitted = true;
    update();
}

void StrategyGraphCanvas::zoomAt(double factor, double x)
{
    if (!m_layout)
        return;
    const double column = m_offsetX + (x - plotRect().left()) / m_scaleX;
    const double fitScale = static_cast<double>(std::max(1, plotRect().width())) / std::max<uint32_t>(1, m_columns);
    m_scaleX = std::clamp(m_scaleX * factor, fitScale, 400.0);
    m_offsetX = column - (x - plotRect().left()) / m_scaleX;
    m_fitted = false;
    clampView();
    update();
}

void StrategyGraphCanvas::centerOn(uint32_t node)
{
    if (!m_layout || node >= m_layout->nodes.size())
        return;
    const auto& n = m_layout->nodes[node];
    if (m_scaleX < kLabels)
        m_scaleX = kLabels;
    m_offsetX = m_column[node] - plotRect().width() / (2 * m_scaleX);
    m_offsetY = bandTop(n.stageSlot) + kBandHeader + n.lane * kLaneHeight - plotRect().height() / 2;
    m_fitted = false;
    clampView();
    update();
}

void StrategyGraphCanvas::clampView()
{
    if (!m_layout)
        return;
    const double visible = plotRect().width() / m_scaleX;
    m_offsetX = std::clamp(m_offsetX, 0.0, std::max(0.0, m_columns - visible));
    m_offsetY = std::clamp(m_offsetY, 0, std::max(0, contentHeight() - plotRect().height()));
}

int StrategyGraphCanvas::bandTop(size_t stage) const
{
    return m_bandTops.empty() ? 0 : m_bandTops[std::min(stage, m_bandTops.size() - 1)];
}

int StrategyGraphCanvas::contentHeight() const { return m_layout ? bandTop(m_layout->stages.size()) : 0; }

QPointF StrategyGraphCanvas::nodeCenter(uint32_t node) const
{
    const auto& n = m_layout->nodes[m_rep[node]];
    const double x = columnX(m_column[node]) + m_scaleX / 2;
    const double y
        = plotRect().top() + bandTop(n.stageSlot) + kBandHeader + n.lane * kLaneHeight + kLaneHeight / 2.0 - m_offsetY;
    return { x, y };
}

QRect StrategyGraphCanvas::minimapRect() const
{
    if (!m_layout || m_layout->stages.empty())
        return {};
    const int h = static_cast<int>(m_layout->stages.size()) * kMinimapStage + 6;
    const QRect plot = plotRect();
    const int w = std::min(kMinimapWidth, plot.width() / 4); // a small canvas keeps most of itself for the graph
    return { plot.right() - w - 4, plot.bottom() - h - 4, w, h };
}

void StrategyGraphCanvas::moveToMinimap(const QPoint& pos)
{
    const QRect mini = minimapRect();
    if (mini.isEmpty() || !m_layout)
        return;
    const double fx = std::clamp((pos.x() - mini.left()) / static_cast<double>(mini.width()), 0.0, 1.0);
    const int stage
        = std::clamp((pos.y() - mini.top() - 3) / kMinimapStage, 0, static_cast<int>(m_layout->stages.size()) - 1);
    const double visible = plotRect().width() / m_scaleX;
    m_offsetX = fx * m_columns - visible / 2;
    m_offsetY = bandTop(static_cast<size_t>(stage)) - plotRect().height() / 3;
    m_fitted = false;
    clampView();
    update();
}

QImage StrategyGraphCanvas::renderFrame()
{
    QImage image(size(), QImage::Format_ARGB32_Premultiplied);
    image.fill(palette().base().color());
    QPainter p(&image);
    paintGraph(p, rect());
    return image;
}

void StrategyGraphCanvas::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    paintGraph(p, rect());
}

void StrategyGraphCanvas::paintGraph(QPainter& p, const QRect&)
{
    if (!m_layout || m_layout->nodes.empty()) {
        p.setPen(palette().placeholderText().color());
        p.drawText(plotRect(), Qt::AlignCenter | Qt::TextWordWrap,
            tr("No parallel strategy graph: the job has no parallel_strategy_{rank}.json files (MindSpore auto or "
               "semi-auto parallel writes them)."));
        return;
    }
    const Layout& l = *m_layout;
    const QRect plot = plotRect();
    p.setClipRect(plot);
    const QColor text = palette().text().color();
    const bool detail = m_scaleX >= kDetail;
    const auto firstColumn = static_cast<uint32_t>(std::max(0.0, std::floor(m_offsetX)));
    const auto lastColumn = static_cast<uint32_t>(std::max(0.0, std::ceil(m_offsetX + plot.width() / m_scaleX)));
    const QRgb halo = haloColor().rgba();
    const QRgb runRgb = collapsedColor().rgba();
    std::array<QRgb, 5> kindRgb {};
    for (size_t k = 0; k < kindRgb.size(); ++k)
        kindRgb[k] = kindColor(static_cast<Kind>(k)).rgba();
    QImage raster;
    uchar* rasterBits = nullptr; // scanLine() checks for a detach on every call: the bits once
    qsizetype rasterLine = 0;
    std::vector<QPoint> haloMarks; // raster positions of halo nodes (zoomed out)
    if (!detail) {
        raster = QImage(plot.size(), QImage::Format_ARGB32_Premultiplied);
        raster.fill(Qt::transparent);
        rasterBits = raster.bits();
        rasterLine = raster.bytesPerLine();
    }
    std::vector<std::pair<QRect, QString>> headers; // drawn last, over the Send→Receive curves
    for (size_t s = 0; s < l.stages.size(); ++s) {
        const auto& stage = l.stages[s];
        const int top = plot.top() + bandTop(s) - m_offsetY;
        const int bandHeight = kBandHeader + stage.lanes * kLaneHeight;
        if (top > plot.bottom() || top + bandHeight < plot.top())
            continue;
        p.fillRect(QRect(plot.left(), top, plot.width(), bandHeight), gridColor());
        QString header = tr("Stage %1").arg(stage.stage);
        const int count = static_cast<int>(stage.count);
        if (stage.graphRank)
            header += tr(" · graph of rank %1").arg(*stage.graphRank)
                + (count == 1 ? tr(" · %n operator", nullptr, count) : tr(" · %n operators", nullptr, count));
        else
            header += tr(" · no graph loaded (no rank of this stage has a readable parallel_strategy file)");
        headers.emplace_back(QRect(plot.left() + 4, top, plot.width() - 8, kBandHeader), header);
        const auto& columns = m_columnNodes[s];
        const auto drawn = static_cast<uint32_t>(columns.size());
        if (drawn == 0)
            continue;
        const uint32_t from = std::min(firstColumn, drawn);
        const uint32_t to = std::min(lastColumn + 1, drawn);
        for (uint32_t c = from; c < to; ++c) {
            const uint32_t i = columns[c];
            const auto& n = l.nodes[i];
            const uint32_t length = m_runLength[i];
            const bool run = m_runScope[i] >= 0;
            bool haloed = false;
            for (uint32_t k = i; k < i + length && !haloed; ++k)
                haloed = m_halo[k] != 0;
            const int y = top + kBandHeader + n.lane * kLaneHeight;
            if (!detail) {
                const int px = static_cast<int>((c - m_offsetX) * m_scaleX);
                if (px < 0 || px >= raster.width())
                    continue;
                const int py = y - plot.top() + kLaneHeight / 2;
                const QRgb colour = run ? runRgb : kindRgb[static_cast<size_t>(n.kind)];
                for (int row = std::max(0, py - 3); row <= std::min(raster.height() - 1, py + 3); ++row)
                    reinterpret_cast<QRgb*>(rasterBits + row * rasterLine)[px] = colour;
                if (haloed && (haloMarks.empty() || haloMarks.back() != QPoint(px, py)))
                    haloMarks.emplace_back(px, py);
                continue;
            }
            const double x = columnX(c);
            const double w = std::max(2.0, m_scaleX * 0.8);
            const QRectF box(x + (m_scaleX - w) / 2, y + 2, w, kLaneHeight - 4);
            if (haloed)
                p.fillRect(box.adjusted(-2, -2, 2, 2), haloColor());
            const int selected = selectedItem();
            const bool isSelected = selected >= 0 && static_cast<size_t>(selected) < m_rep.size()
                && m_rep[static_cast<size_t>(selected)] == i;
            if (run) {
                // A collapsed scope: one node for its operators, named by the scope.
                p.fillRect(box, collapsedColor());
                p.setPen(QPen(text, 1, Qt::DashLine));
                p.drawRect(box);
                if (m_scaleX >= kLabels) {
                    p.setPen(Qt::white);
                    p.drawText(box.adjusted(2, 0, -2, 0), Qt::AlignCenter,
                        fontMetrics().elidedText(QStringLiteral("%1 (%2)").arg(runLabel(i)).arg(length),
                            Qt::ElideMiddle, static_cast<int>(box.width()) - 4));
                }
            } else {
                p.fillRect(box, kindColor(n.kind));
                if (n.special & 2)
                    p.setPen(QPen(QColor(214, 39, 40), 2));
                else if (n.special & 4)
                    p.setPen(QPen(QColor(148, 103, 189), 2));
                else
                    p.setPen(Qt::NoPen);
                if (n.special & 6)
                    p.drawRect(box);
                if ((n.special & 1) && w >= 4) {
                    p.setPen(Qt::NoPen);
                    p.setBrush(text);
                    p.drawEllipse(QPointF(box.right() - 3, box.top() + 3), 2, 2);
                    p.setBrush(Qt::NoBrush);
                }
                if (m_scaleX >= kLabels) {
                    p.setPen(Qt::white);
                    p.drawText(box.adjusted(2, 0, -2, 0), Qt::AlignCenter,
                        fontMetrics().elidedText(QString::fromStdString(l.types[n.type]), Qt::ElideRight,
                            static_cast<int>(box.width()) - 4));
                }
            }
            if (isSelected) {
                p.setPen(QPen(text, 2));
                p.drawRect(box.adjusted(-1, -1, 1, 1));
            }
            // The edges into this node (a collapsed run: into any of its operators from outside it).
            p.setPen(QPen(text.lighter(100), 1));
            p.setOpacity(0.35);
            for (uint32_t m = i; m < i + length; ++m) {
                for (uint32_t k = l.inBegin[m]; k < l.inBegin[m + 1]; ++k) {
                    const uint32_t src = l.edges[l.inEdges[k]].first;
                    if (m_rep[src] == i)
                        continue;
                    p.drawLine(
                        nodeCenter(src) + QPointF(m_scaleX * 0.4, 0), nodeCenter(i) - QPointF(m_scaleX * 0.4, 0));
                }
            }
            p.setOpacity(1);
        }
    }
    if (!detail) {
        // The halo above and below each marked node, at least kHaloWidth px wide: a one-pixel column in a node's own
        // colour would vanish among its neighbours when zoomed out.
        for (const QPoint& at : haloMarks) {
            for (const int row0 : { at.y() - 6, at.y() + 4 }) {
                for (int row = std::max(0, row0); row <= std::min(raster.height() - 1, row0 + 2); ++row) {
                    auto* line = reinterpret_cast<QRgb*>(rasterBits + row * rasterLine);
                    for (int x = std::max(0, at.x() - kHaloWidth / 2);
                         x <= std::min(raster.width() - 1, at.x() + kHaloWidth / 2); ++x)
                        line[x] = halo;
                }
            }
        }
        p.drawImage(plot.topLeft(), raster);
    }
    // Send→Receive pairs between the bands.
    p.setPen(QPen(QColor(214, 39, 40), 1.5, Qt::DashLine));
    for (const auto& [send, recv] : l.sendRecv) {
        const QPointF a = nodeCenter(send), b = nodeCenter(recv);
        QPainterPath path(a);
        const double dy = (b.y() - a.y()) / 2;
        path.cubicTo(a + QPointF(0, dy), b - QPointF(0, dy), b);
        p.drawPath(path);
    }
    // The band headers on their band's colour: a curve passing under them leaves them readable.
    p.setPen(text);
    for (const auto& [area, header] : headers) {
        const QRect used = p.fontMetrics().boundingRect(area, Qt::AlignVCenter | Qt::AlignLeft, header);
        const QRect box = used.adjusted(-3, 0, 3, 0).intersected(area.adjusted(-4, 0, 4, 0));
        p.fillRect(box, palette().base()); // gridColor() may be translucent: the band's colour over the base
        p.fillRect(box, gridColor());
        p.drawText(area, Qt::AlignVCenter | Qt::AlignLeft, header);
    }
    // The minimap: every stage a strip, the view a rectangle.
    p.setClipping(false);
    const QRect mini = minimapRect();
    p.fillRect(mini, palette().window());
    p.setPen(gridColor().darker(150));
    p.drawRect(mini);
    for (size_t s = 0; s < l.stages.size(); ++s) {
        const int y = mini.top() + 3 + static_cast<int>(s) * kMinimapStage;
        const int w = static_cast<int>(
            mini.width() * (stageColumns(s) / static_cast<double>(std::max<uint32_t>(1, m_columns))));
        p.fillRect(QRect(mini.left() + 1, y, w, kMinimapStage - 2), kindColor(Kind::Cube).lighter(130));
    }
    const double fx0 = m_offsetX / std::max<uint32_t>(1, m_columns);
    const double fx1 = (m_offsetX + plot.width() / m_scaleX) / std::max<uint32_t>(1, m_columns);
    int firstStage = 0, lastStage = static_cast<int>(l.stages.size()) - 1;
    for (size_t s = 0; s < l.stages.size(); ++s) {
        if (bandTop(s + 1) <= m_offsetY)
            firstStage = static_cast<int>(s) + 1;
        if (bandTop(s) < m_offsetY + plot.height())
            lastStage = static_cast<int>(s);
    }
    firstStage = std::min(firstStage, lastStage);
    p.setPen(QPen(text, 1.5));
    p.drawRect(QRectF(mini.left() + fx0 * mini.width(), mini.top() + 2 + firstStage * kMinimapStage,
        std::max(3.0, (fx1 - fx0) * mini.width()), (lastStage - firstStage + 1) * kMinimapStage));
}

int StrategyGraphCanvas::itemAt(const QPoint& pos) const
{
    if (!m_layout || minimapRect().contains(pos))
        return -1;
    const QRect plot = plotRect();
    const int y = pos.y() - plot.top() + m_offsetY;
    for (size_t s = 0; s < m_layout->stages.size(); ++s) {
        const auto& stage = m_layout->stages[s];
        const int lanesTop = bandTop(s) + kBandHeader;
        if (y < lanesTop || y >= lanesTop + stage.lanes * kLaneHeight)
            continue;
        const int lane = (y - lanesTop) / kLaneHeight;
        const double column = m_offsetX + (pos.x() - plot.left()) / m_scaleX;
        // Zoomed out a pixel holds many columns: the nearest node of the lane within 3 px.
        const double slack = std::max(0.5, 3 / m_scaleX);
        const auto lo = static_cast<int64_t>(std::floor(column - slack));
        const auto hi = static_cast<int64_t>(std::ceil(column + slack));
        int best = -1;
        double bestDistance = 1e300;
        const auto& columns = m_columnNodes[s];
        for (int64_t c = std::max<int64_t>(0, lo); c <= hi && c < static_cast<int64_t>(columns.size()); ++c) {
            const uint32_t i = columns[static_cast<size_t>(c)];
            if (m_layout->nodes[i].lane != lane)
                continue;
            const double d = std::abs(c + 0.5 - column);
            if (d < bestDistance) {
                bestDistance = d;
                best = static_cast<int>(i);
            }
        }
        return best;
    }
    return -1;
}

QString StrategyGraphCanvas::itemToolTip(int item) const
{
    if (!m_layout || item < 0 || static_cast<size_t>(item) >= m_layout->nodes.size())
        return {};
    const auto& n = m_layout->nodes[static_cast<size_t>(item)];
    if (m_runScope[static_cast<size_t>(item)] >= 0) {
        const int length = static_cast<int>(m_runLength[static_cast<size_t>(item)]);
        const auto& path = m_collapsedScopes[static_cast<size_t>(m_runScope[static_cast<size_t>(item)])];
        return QStringLiteral("<b>%1</b><br>").arg(QString::fromStdString(path).toHtmlEscaped())
            + (length == 1 ? tr("%n operator collapsed", nullptr, length)
                           : tr("%n operators collapsed", nullptr, length))
            + QStringLiteral("<br>")
            + tr("Stage %1 · execution order %2–%3")
                  .arg(m_layout->stages[n.stageSlot].stage)
                  .arg(n.index)
                  .arg(n.index + length - 1);
    }
    QString tip = QStringLiteral("<b>%1</b><br>%2<br>")
                      .arg(QString::fromStdString(m_layout->types[n.type]).toHtmlEscaped(),
                          QString::fromStdString(n.name).toHtmlEscaped());
    tip += tr("Stage %1 · execution order %2").arg(m_layout->stages[n.stageSlot].stage).arg(n.index);
    if (n.strategy)
        tip += QStringLiteral("<br>") + tr("Strategy: %1").arg(QString::fromStdString(*n.strategy).toHtmlEscaped());
    if (n.special & 2)
        tip += QStringLiteral("<br>") + tr("Redistribution operator");
    if (n.special & 4)
        tip += QStringLiteral("<br>") + tr("Gradient aggregation operator");
    return tip;
}

void StrategyGraphCanvas::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (event->modifiers() & Qt::ShiftModifier) {
        m_offsetY -= static_cast<int>(steps * kLaneHeight * 3);
        clampView();
        update();
    } else {
        zoomAt(std::pow(1.25, steps), event->position().x());
    }
    event->accept();
}

void StrategyGraphCanvas::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && minimapRect().contains(event->pos())) {
        m_minimapDrag = true;
        moveToMinimap(event->pos());
        return;
    }
    m_dragFrom = event->pos();
    m_dragOffsetX = m_offsetX;
    m_dragOffsetY = m_offsetY;
    m_dragging = false;
    ChartWidget::mousePressEvent(event);
}

void StrategyGraphCanvas::mouseMoveEvent(QMouseEvent* event)
{
    if (m_minimapDrag) {
        moveToMinimap(event->pos());
        return;
    }
    if (event->buttons() & Qt::LeftButton) {
        const QPoint d = event->pos() - m_dragFrom;
        if (m_dragging || d.manhattanLength() > 4) {
            m_dragging = true;
            m_offsetX = m_dragOffsetX - d.x() / m_scaleX;
            m_offsetY = m_dragOffsetY - d.y();
            m_fitted = false;
            clampView();
            update();
            return;
        }
    }
    ChartWidget::mouseMoveEvent(event);
}

void StrategyGraphCanvas::mouseReleaseEvent(QMouseEvent* event)
{
    m_dragging = false;
    m_minimapDrag = false;
    ChartWidget::mouseReleaseEvent(event);
}

void StrategyGraphCanvas::keyPressEvent(QKeyEvent* event)
{
    const double mid = plotRect().center().x();
    switch (event->key()) {
    case Qt::Key_F:
        fit();
        return;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomAt(1.5, mid);
        return;
    case Qt::Key_Minus:
        zoomAt(1 / 1.5, mid);
        return;
    default:
        ChartWidget::keyPressEvent(event);
    }
}

void StrategyGraphCanvas::resizeEvent(QResizeEvent* event)
{
    ChartWidget::resizeEvent(event);
    if (m_fitted)
        fit();
    else
        clampView();
}

} // namespace npuscope::gui
