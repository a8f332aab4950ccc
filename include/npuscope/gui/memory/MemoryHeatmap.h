// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/MemoryQuery.h"

#include "npuscope/gui/common/ChartWidget.h"

#include <QColor>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace npuscope::gui {

// One cell per device, coloured by peak reserved ÷ capacity (MemoryQuery), with a legend above the grid.
// Layout: one row per host (ranks without a host in one row "—"), one column per device id; when no rank has a host
// the ranks are laid out in rank order, kRanksPerRow to a row. Cells shrink to fit the widget down to kMinCell px
// (1,024 devices stay one scrollable picture; meant for a QScrollArea with widgetResizable). Items are indexes into
// cells(). GUI thread only.
class MemoryHeatmap : public ChartWidget {
    Q_OBJECT
public:
    struct Cell {
        query::RankMemoryPeak peak;
        QString host; // as drawn: the rank's host, or "—"
        int row = 0;
        int column = 0;
    };
    static constexpr int kRanksPerRow = 16;
    static constexpr int kMinCell = 6; // px
    static constexpr int kMaxCellWidth = 96; // px
    static constexpr int kMaxCellHeight = 56; // px
    static constexpr double kHighRatio = 0.9; // ratios above this are drawn red

    explicit MemoryHeatmap(QWidget* parent = nullptr);

    // Replaces the cells (peaks in rank order, as MemoryQuery::peaks returns them).
    void setPeaks(std::vector<query::RankMemoryPeak> peaks);
    const std::vector<Cell>& cells() const { return m_cells; }
    int rowCount() const { return static_cast<int>(m_rowLabels.size()); }
    int columnCount() const { return m_columns; }
    const std::vector<QString>& rowLabels() const { return m_rowLabels; }

    // Index into cells() of a rank, -1 when absent.
    int cellOfRank(int64_t rank) const;
    void setSelectedRank(std::optional<int64_t> rank);
    // The cell rectangle of cells()[index] at the current size (px).
    QRect cellRect(int index) const;
    // Fill colour of a ratio; nullopt (no memory records or no capacity) is grey.
    static QColor colorOf(std::optional<double> ratio);

    int itemAt(const QPoint& pos) const override;
    QString itemToolTip(int item) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void rankClicked(qint64 rank);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Geometry {
        int left = 0, top = 0, cellWidth = 0, cellHeight = 0;
    };
    Geometry geometry() const;
    int labelWidth() const;
    int legendHeight() const;
    void paintLegend(QPainter& p) const;

    std::vector<Cell> m_cells;
    std::vector<QString> m_rowLabels;
    std::vector<QString> m_columnLabels;
    int m_columns = 0;
    std::vector<int> m_cellAt; // row * m_columns + column -> index into m_cells, -1 for an empty slot
};

} // namespace npuscope::gui
