// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/DeviceHeatmap.h"

#include <QPaintEvent>
#include <QPainter>
#include <QScrollArea>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace npuscope::gui {

namespace {

constexpr int kMargin = 8;
constexpr int kRightMargin = 12;
const QString kNoHost = QStringLiteral("\u2014");

// 1, 2, 5, 10, ... the smallest that is >= needed.
int niceEvery(int needed)
{
    for (int magnitude = 1;; magnitude *= 10) {
        for (int f : { 1, 2, 5 }) {
            if (f * magnitude >= needed)
                return f * magnitude;
        }
    }
}

// Natural order, so "node2" sorts before "node10" (QCollator's numeric mode needs ICU, which a build may lack).
bool naturalLess(const QString& a, const QString& b)
{
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            const qsizetype si = i, sj = j;
            while (i < a.size() && a[i].isDigit())
                ++i;
            while (j < b.size() && b[j].isDigit())
                ++j;
            // Compare the numbers without their leading zeros: more digits is larger, else digit by digit.
            qsizetype za = si, zb = sj;
            while (za + 1 < i && a[za] == QLatin1Char('0'))
                ++za;
            while (zb + 1 < j && b[zb] == QLatin1Char('0'))
                ++zb;
            const QStringView va = QStringView(a).mid(za, i - za), vb = QStringView(b).mid(zb, j - zb);
            if (va.size() != vb.size())
                return va.size() < vb.size();
            if (const int c = va.compare(vb); c != 0)
                return c < 0;
            continue;
        }
        if (a[i] != b[j])
            return a[i] < b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

} // namespace

DeviceHeatmap::DeviceHeatmap(QWidget* parent)
    : ChartWidget(parent, { .hover = true, .horizontal = QSizePolicy::Expanding, .vertical = QSizePolicy::Expanding })
    , m_emptyText(tr("No ranks loaded"))
{
    connect(this, &ChartWidget::itemClicked, this,
        [this](int item) { emit rankClicked(m_slots[static_cast<size_t>(item)].rank); });
}

QColor DeviceHeatmap::rampColor(std::span<const ColorStop> stops, double value)
{
    if (stops.empty())
        return {};
    for (size_t i = 1; i < stops.size(); ++i) {
        if (value <= stops[i].at) {
            const double t = std::clamp((value - stops[i - 1].at) / (stops[i].at - stops[i - 1].at), 0.0, 1.0);
            const QColor& a = stops[i - 1].color;
            const QColor& b = stops[i].color;
            return QColor::fromRgbF(static_cast<float>(a.redF() + t * (b.redF() - a.redF())),
                static_cast<float>(a.greenF() + t * (b.greenF() - a.greenF())),
                static_cast<float>(a.blueF() + t * (b.blueF() - a.blueF())));
        }
    }
    return stops.back().color;
}

void DeviceHeatmap::setEmptyText(const QString& text)
{
    m_emptyText = text;
    update();
}

QScrollArea* DeviceHeatmap::makeScrollArea(QWidget* parent)
{
    auto* scroll = new QScrollArea(parent);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(this);
    return scroll;
}

QString DeviceHeatmap::percent(double ratio)
{
    return QStringLiteral("%1 %").arg(100.0 * ratio, 0, 'f', ratio < 0.1 ? 1 : 0);
}

void DeviceHeatmap::setPlaces(const std::vector<Place>& places)
{
    m_slots.clear();
    m_rowLabels.clear();
    m_labelWidth = -1;
    m_columnLabels.clear();
    m_columns = 0;
    const bool anyHost = std::any_of(places.begin(), places.end(), [](const auto& p) { return p.host.has_value(); });

    if (!anyHost) {
        // Nothing says which devices share a server: rank order, a fixed row length, so rank r is at r / 16, r % 16.
        m_columns = std::min<int>(kRanksPerRow, static_cast<int>(places.size()));
        for (size_t i = 0; i < places.size(); ++i) {
            const int row = static_cast<int>(i) / kRanksPerRow;
            if (row == static_cast<int>(m_rowLabels.size())) {
                const size_t last = std::min(places.size(), i + kRanksPerRow) - 1;
                m_rowLabels.push_back(tr("ranks %1\u2013%2").arg(places[i].rank).arg(places[last].rank));
            }
            m_slots.push_back({ places[i].rank, kNoHost, row, static_cast<int>(i) % kRanksPerRow });
        }
        for (int c = 0; c < m_columns; ++c)
            m_columnLabels.push_back(QStringLiteral("+%1").arg(c));
    } else {
        // Rows: hosts in natural order ("node2" before "node10"), ranks without a host last. Columns: device ids.
        std::vector<QString> hosts;
        std::set<int64_t> devices;
        for (const auto& p : places) {
            hosts.push_back(p.host ? QString::fromStdString(*p.host) : kNoHost);
            if (p.device)
                devices.insert(*p.device);
        }
        std::vector<QString> rows = hosts;
        std::sort(rows.begin(), rows.end(), [&](const QString& a, const QString& b) {
            if ((a == kNoHost) != (b == kNoHost))
                return b == kNoHost;
            return naturalLess(a, b);
        });
        rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
        std::map<QString, int> rowOf;
        for (size_t r = 0; r < rows.size(); ++r)
            rowOf.emplace(rows[r], static_cast<int>(r));
        std::map<int64_t, int> columnOf;
        for (int64_t d : devices) {
            columnOf.emplace(d, static_cast<int>(m_columnLabels.size()));
            m_columnLabels.push_back(QStringLiteral("dev %1").arg(d));
        }
        // A rank without a device id, or a second rank on the same device of a host, goes after the device columns.
        std::vector<std::set<int>> taken(rows.size());
        for (size_t i = 0; i < places.size(); ++i) {
            const int row = rowOf.at(hosts[i]);
            int column = places[i].device ? columnOf.at(*places[i].device) : static_cast<int>(devices.size());
            while (taken[static_cast<size_t>(row)].count(column))
                column = std::max(column + 1, static_cast<int>(devices.size()));
            taken[static_cast<size_t>(row)].insert(column);
            m_slots.push_back({ places[i].rank, hosts[i], row, column });
            m_columns = std::max(m_columns, column + 1);
        }
        while (static_cast<int>(m_columnLabels.size()) < m_columns)
            m_columnLabels.emplace_back();
        m_rowLabels = std::move(rows);
        m_labelWidth = -1;
    }

    m_cellAt.assign(static_cast<size_t>(rowCount()) * static_cast<size_t>(m_columns), -1);
    for (size_t i = 0; i < m_slots.size(); ++i)
        m_cellAt[static_cast<size_t>(m_slots[i].row) * static_cast<size_t>(m_columns)
            + static_cast<size_t>(m_slots[i].column)]
            = static_cast<int>(i);
    setSelectedItem(-1);
    resetHover();
    setMinimumSize(minimumSizeHint());
    updateGeometry();
    update();
}

int DeviceHeatmap::cellOfRank(int64_t rank) const
{
    for (size_t i = 0; i < m_slots.size(); ++i) {
        if (m_slots[i].rank == rank)
            return static_cast<int>(i);
    }
    return -1;
}

void DeviceHeatmap::setSelectedRank(std::optional<int64_t> rank) { setSelectedItem(rank ? cellOfRank(*rank) : -1); }

void DeviceHeatmap::addToolTipRow(QString& html, const QString& name, const QString& value)
{
    html += QStringLiteral("<tr><td>%1</td><td>&nbsp;%2</td></tr>").arg(name, value.toHtmlEscaped());
}

int DeviceHeatmap::labelWidth() const
{
    // Measured once per set of labels and font: every cell's rectangle asks for it, and shaping 128 host labels for
    // each of 1,024 cells held the GUI thread for a quarter of a second per paint.
    const QFont current = font();
    if (m_labelWidth < 0 || m_labelWidthFont != current || m_labelWidthRows != m_rowLabels.size()) {
        int widest = 0;
        const QFontMetrics metrics(current);
        for (const auto& label : m_rowLabels)
            widest = std::max(widest, metrics.horizontalAdvance(label));
        m_labelWidth = widest;
        m_labelWidthFont = current;
        m_labelWidthRows = m_rowLabels.size();
    }
    return kMargin + m_labelWidth + 8;
}

int DeviceHeatmap::legendHeight() const { return kMargin + 2 * fontMetrics().height() + 12; }

DeviceHeatmap::Geometry DeviceHeatmap::geometry() const
{
    Geometry g;
    g.left = labelWidth();
    g.top = legendHeight() + fontMetrics().height() + 4;
    const int columns = std::max(1, m_columns);
    const int rows = std::max(1, rowCount());
    g.cellWidth = std::clamp((width() - g.left - kRightMargin) / columns, kMinCell, kMaxCellWidth);
    g.cellHeight = std::clamp((height() - g.top - kMargin) / rows, kMinCell, kMaxCellHeight);
    return g;
}

QSize DeviceHeatmap::minimumSizeHint() const
{
    const Geometry g = geometry();
    return { std::max(g.left + std::max(1, m_columns) * kMinCell + kRightMargin, 360),
        g.top + std::max(1, rowCount()) * kMinCell + kMargin };
}

QSize DeviceHeatmap::sizeHint() const
{
    const Geometry g = geometry();
    return { g.left + std::max(1, m_columns) * 64 + kRightMargin, g.top + std::max(1, rowCount()) * 40 + kMargin };
}

QRect DeviceHeatmap::cellRect(int index) const
{
    if (index < 0 || index >= static_cast<int>(m_slots.size()))
        return {};
    const Geometry g = geometry();
    const auto& c = m_slots[static_cast<size_t>(index)];
    return { g.left + c.column * g.cellWidth, g.top + c.row * g.cellHeight, g.cellWidth, g.cellHeight };
}

int DeviceHeatmap::itemAt(const QPoint& pos) const
{
    if (m_slots.empty())
        return -1;
    const Geometry g = geometry();
    if (pos.x() < g.left || pos.y() < g.top)
        return -1;
    const int column = (pos.x() - g.left) / g.cellWidth;
    const int row = (pos.y() - g.top) / g.cellHeight;
    if (column >= m_columns || row >= rowCount())
        return -1;
    return m_cellAt[static_cast<size_t>(row) * static_cast<size_t>(m_columns) + static_cast<size_t>(column)];
}

void DeviceHeatmap::paintLegend(QPainter& p) const
{
    const Legend key = legend();
    const QFontMetrics fm = fontMetrics();
    const int barWidth = std::min(320, std::max(160, width() / 4));
    const int x0 = labelWidth();
    const int y0 = kMargin;
    const int barHeight = fm.height();
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(kMargin, y0, x0 - kMargin - 6 + barWidth, barHeight, Qt::AlignLeft | Qt::AlignVCenter, key.title);
    const int barX = kMargin + fm.horizontalAdvance(key.title) + 12;
    if (key.ramp) {
        for (int x = 0; x < barWidth; ++x)
            p.fillRect(QRect(barX + x, y0, 1, barHeight), key.ramp((x + 0.5) / barWidth));
    }
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.drawRect(QRect(barX, y0, barWidth, barHeight).adjusted(0, 0, -1, -1));
    p.setPen(palette().color(QPalette::WindowText));
    for (const auto& tick : key.ticks) {
        const int x = barX + static_cast<int>(std::lround(tick.at * barWidth));
        p.drawLine(x, y0 + barHeight, x, y0 + barHeight + 3);
        const int w = fm.horizontalAdvance(tick.label);
        const int tx
            = tick.align.testFlag(Qt::AlignRight) ? x - w : (tick.align.testFlag(Qt::AlignLeft) ? x : x - w / 2);
        p.drawText(std::max(barX, tx), y0 + barHeight + 4 + fm.ascent(), tick.label);
    }
    int sx = barX + barWidth + 28;
    for (const auto& [color, text] : key.swatches) {
        p.fillRect(QRect(sx, y0, barHeight, barHeight), color);
        p.setPen(QPen(palette().color(QPalette::Mid), 1));
        p.drawRect(QRect(sx, y0, barHeight, barHeight).adjusted(0, 0, -1, -1));
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(sx + barHeight + 4, y0 + fm.ascent() + (barHeight - fm.height()) / 2, text);
        sx += barHeight + 4 + fm.horizontalAdvance(text) + 18;
    }
}

void DeviceHeatmap::paintEvent(QPaintEvent* event)
{
    QPainter p(this);
    p.fillRect(event->rect(), palette().color(QPalette::Base));
    if (m_slots.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(
            rect().adjusted(kMargin, kMargin, -kMargin, -kMargin), Qt::AlignCenter | Qt::TextWordWrap, m_emptyText);
        return;
    }
    paintLegend(p);
    const QFontMetrics fm = fontMetrics();
    const Geometry g = geometry();
    const int gap = std::min(g.cellWidth, g.cellHeight) >= 10 ? 2 : 1;

    // Column labels over the grid, thinned out to the ones that fit.
    int widestColumn = 1;
    for (const auto& label : m_columnLabels)
        widestColumn = std::max(widestColumn, fm.horizontalAdvance(label));
    const int columnEvery = niceEvery((widestColumn + 6 + g.cellWidth - 1) / g.cellWidth);
    p.setPen(palette().color(QPalette::WindowText));
    for (int c = 0; c < m_columns; c += columnEvery) {
        p.drawText(QRect(g.left + c * g.cellWidth - g.cellWidth, g.top - fm.height() - 2, 3 * g.cellWidth, fm.height()),
            Qt::AlignCenter, m_columnLabels[static_cast<size_t>(c)]);
    }
    const int rowEvery = niceEvery((fm.height() + 1 + g.cellHeight - 1) / g.cellHeight);
    for (int r = 0; r < rowCount(); r += rowEvery) {
        p.drawText(QRect(kMargin, g.top + r * g.cellHeight + g.cellHeight / 2 - fm.height() / 2, g.left - kMargin - 8,
                       fm.height()),
            Qt::AlignRight | Qt::AlignVCenter, m_rowLabels[static_cast<size_t>(r)]);
    }

    const bool twoLines = g.cellHeight >= 2 * fm.height() + 4;
    const bool oneLine = g.cellHeight >= fm.height() + 2 && g.cellWidth >= fm.horizontalAdvance(cellTextSample()) + 4;
    for (size_t i = 0; i < m_slots.size(); ++i) {
        const auto& cell = m_slots[i];
        const QRect full = cellRect(static_cast<int>(i));
        if (!full.intersects(event->rect()))
            continue;
        const QRect r = full.adjusted(0, 0, -gap, -gap);
        const QColor fill = cellColor(static_cast<int>(i));
        p.fillRect(r, fill);
        const bool dark = fill.lightnessF() < 0.55f;
        if (oneLine) {
            p.setPen(dark ? Qt::white : Qt::black);
            const QString value = cellText(static_cast<int>(i));
            const QString rank = QStringLiteral("r") + QString::number(cell.rank);
            if (twoLines && r.width() >= fm.horizontalAdvance(rank) + 4) {
                p.drawText(r.adjusted(0, 2, 0, -r.height() / 2), Qt::AlignHCenter | Qt::AlignBottom, rank);
                p.drawText(r.adjusted(0, r.height() / 2, 0, -2), Qt::AlignHCenter | Qt::AlignTop, value);
            } else {
                p.drawText(r, Qt::AlignCenter, value);
            }
        }
        if (static_cast<int>(i) == hoveredItem()) {
            p.setPen(QPen(palette().color(QPalette::WindowText), 1));
            p.drawRect(r.adjusted(0, 0, -1, -1));
        }
    }
    if (const int selected = selectedItem(); selected >= 0) {
        const QRect r = cellRect(selected).adjusted(-1, -1, -gap + 1, -gap + 1);
        p.setPen(QPen(QColor(255, 190, 0), 3));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r);
    }
}

} // namespace npuscope::gui
