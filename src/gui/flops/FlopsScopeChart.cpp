// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/flops/FlopsScopeChart.h"

#include "npuscope/gui/flops/FlopsHeatmap.h"

#include <QPainter>

#include <algorithm>
#include <array>

namespace npuscope::gui {

namespace {

// One hue per top-level branch (Default, Gradients, recompute_Default, ...); the root is grey.
const std::array<QColor, 6> kBranch { QColor(0x45, 0x75, 0xb4), QColor(0xd9, 0x5f, 0x02), QColor(0x1b, 0x9e, 0x77),
    QColor(0x75, 0x70, 0xb3), QColor(0xe7, 0x29, 0x8a), QColor(0x66, 0xa6, 0x1e) };
constexpr double kMaxRowHeight = 30.0;
constexpr double kMinLabelWidth = 36.0;

QString percentText(double share) { return QStringLiteral("%1 %").arg(share * 100.0, 0, 'f', 1); }

void addRow(QString& html, const QString& name, const QString& value)
{
    html += QStringLiteral("<tr><td>%1</td><td>&nbsp;%2</td></tr>").arg(name.toHtmlEscaped(), value.toHtmlEscaped());
}

} // namespace

FlopsScopeChart::FlopsScopeChart(QWidget* parent)
    : ChartWidget(parent, { .objectName = "flopsScopeChart", .plotMargins = { 8, 8, 8, 8 }, .minimumSize = { 0, 120 } })
{
}

void FlopsScopeChart::setTree(query::FlopsScopeTree tree)
{
    m_tree = std::move(tree);
    m_branch.assign(m_tree.nodes.size(), -1);
    int branches = 0;
    for (size_t i = 1; i < m_tree.nodes.size(); ++i) {
        const int parent = m_tree.nodes[i].parent;
        m_branch[i] = parent == 0 ? branches++ : m_branch[static_cast<size_t>(parent)];
    }
    resetHover();
    setSelectedItem(-1);
    update();
}

double FlopsScopeChart::rowHeight() const
{
    const int rows = m_tree.maxDepth + 1;
    return std::min(kMaxRowHeight, static_cast<double>(plotRect().height()) / rows);
}

QRectF FlopsScopeChart::nodeRect(int index) const
{
    if (index < 0 || index >= static_cast<int>(m_tree.nodes.size()))
        return {};
    const auto& n = m_tree.nodes[static_cast<size_t>(index)];
    const QRectF plot = plotRect();
    const double h = rowHeight();
    return { plot.left() + n.start * plot.width(), plot.top() + n.depth * h, n.share * plot.width(), h };
}

int FlopsScopeChart::itemAt(const QPoint& pos) const
{
    for (int i = 0; i < static_cast<int>(m_tree.nodes.size()); ++i) {
        if (nodeRect(i).contains(pos))
            return i;
    }
    return -1;
}

QColor FlopsScopeChart::nodeColor(int index) const
{
    const int branch = m_branch[static_cast<size_t>(index)];
    if (branch < 0)
        return palette().color(QPalette::Mid);
    const QColor base = kBranch[static_cast<size_t>(branch) % kBranch.size()];
    // Deeper scopes lighter, so a row reads as one level; at most 60 % towards white.
    const double t = std::min(0.6, 0.09 * (m_tree.nodes[static_cast<size_t>(index)].depth - 1));
    return QColor::fromRgbF(static_cast<float>(base.redF() + (1 - base.redF()) * t),
        static_cast<float>(base.greenF() + (1 - base.greenF()) * t),
        static_cast<float>(base.blueF() + (1 - base.blueF()) * t));
}

QString FlopsScopeChart::itemToolTip(int item) const
{
    if (item < 0 || item >= static_cast<int>(m_tree.nodes.size()))
        return {};
    const auto& n = m_tree.nodes[static_cast<size_t>(item)];
    QString html = QStringLiteral("<b>%1</b><table>").arg(QString::fromStdString(n.name).toHtmlEscaped());
    if (!n.path.empty())
        addRow(html, tr("Scope"), QString::fromStdString(n.path));
    addRow(html, tr("FLOPs"), FlopsHeatmap::withPrefix(n.flops, QStringLiteral("FLOPs")));
    addRow(html, tr("Share of the total"), percentText(n.share));
    if (n.parent >= 0)
        addRow(html, tr("Share of the parent"), percentText(n.parentShare));
    addRow(html, tr("In the scope itself"), FlopsHeatmap::withPrefix(n.selfFlops, QStringLiteral("FLOPs")));
    addRow(html, tr("Rank"), QString::number(m_tree.rank));
    html += QStringLiteral("</table>");
    if (n.split)
        html += tr("<i>This scope name has several parents in the file; its sub-scopes are divided among them by "
                   "FLOPs.</i>");
    return html;
}

void FlopsScopeChart::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    if (m_tree.nodes.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("No FLOPs per scope (flops_scope_N.json) for this rank"));
        return;
    }
    const QFontMetrics fm(font());
    for (int i = 0; i < static_cast<int>(m_tree.nodes.size()); ++i) {
        const QRectF r = nodeRect(i);
        if (r.width() < 0.5)
            continue; // below a pixel: the parent's box shows it
        QColor fill = nodeColor(i);
        if (i == hoveredItem())
            fill = fill.lighter(115);
        painter.fillRect(r.adjusted(0, 0, -1, -1), fill);
        if (i == selectedItem()) {
            painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
            painter.drawRect(r.adjusted(1, 1, -2, -2));
        }
        if (r.width() < kMinLabelWidth)
            continue;
        const auto& n = m_tree.nodes[static_cast<size_t>(i)];
        const QString text = QStringLiteral("%1  %2").arg(QString::fromStdString(n.name), percentText(n.share));
        painter.setPen(qGray(fill.rgb()) > 140 ? Qt::black : Qt::white);
        painter.drawText(r.adjusted(4, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft,
            fm.elidedText(text, Qt::ElideRight, static_cast<int>(r.width()) - 8));
    }
}

} // namespace npuscope::gui
