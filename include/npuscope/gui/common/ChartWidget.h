// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QColor>
#include <QImage>
#include <QMargins>
#include <QSize>
#include <QSizePolicy>
#include <QWidget>

class QMenu;

namespace npuscope::gui {

// What a chart sets once when it is made (ChartWidget's constructor); each field left as it is changes nothing.
struct ChartSetup {
    const char* objectName = nullptr;
    // The hovered item follows the mouse (mouse tracking), not only a pressed button.
    bool hover = false;
    QMargins plotMargins {};
    QSize minimumSize {}; // (0, h): a minimum height only
    QSizePolicy::Policy horizontal = QSizePolicy::Preferred;
    QSizePolicy::Policy vertical = QSizePolicy::Preferred;
};

// Base of the custom-painted charts: a chart draws itself and answers "which item is at this point" and "what does
// this item say"; the base turns that into hover tracking, tooltips, clicks, a selected item, and image export
// (context menu "Save image…", PNG or SVG). Items are the chart's own indexes (a bar, a cell, an op), -1 for none.
// GUI thread only.
class ChartWidget : public QWidget {
    Q_OBJECT
public:
    explicit ChartWidget(QWidget* parent = nullptr, const ChartSetup& setup = {});

    // The item under a widget position (px), -1 for none.
    virtual int itemAt(const QPoint& pos) const;
    // The tooltip of an item; empty hides the tooltip.
    virtual QString itemToolTip(int item) const;

    // The item under the mouse, -1 for none.
    int hoveredItem() const { return m_hovered; }
    // The item drawn as selected, -1 for none; setting it repaints and emits selectedItemChanged.
    int selectedItem() const { return m_selected; }
    void setSelectedItem(int item);

    // The area inside the plot margins (px).
    QRect plotRect() const { return rect().marginsRemoved(m_plotMargins); }
    void setPlotMargins(const QMargins& margins);
    QMargins plotMargins() const { return m_plotMargins; }

    // An axis tick step on the 1-2-5 sequence (…, 0.1, 0.2, 0.5, 1, 2, 5, 10, …): the smallest at least range / ticks
    // (1 for a range that is not positive).
    static double niceStep(double range, double ticks);
    // Gridlines: the text colour, faint, so they show on the light and the dark theme alike (black at 10 % was
    // invisible on the dark base).
    QColor gridColor() const;
    // The band behind a selected rank or step: the palette's highlight, translucent (one selection colour with the
    // tables; a yellow band read as more of the yellow Preparing part).
    QColor selectionColor() const;

    // The chart as drawn at its current size (device-independent pixels).
    QImage toImage() const;
    // Writes the chart as PNG (toImage()) or, for a path ending in .svg, as SVG; false with `error` set when it cannot.
    bool saveImage(const QString& path, QString* error) const;

signals:
    // A left click on an item.
    void itemClicked(int item);
    void selectedItemChanged(int item);

protected:
    bool event(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    // Forgets the hovered item without repainting (the items were replaced).
    void resetHover() { m_hovered = -1; }
    // Called when the hovered item changed; the default repaints.
    virtual void hoverChanged(int item);
    // Lets a chart put its own actions for the point pos (widget coordinates) above "Save image" in its context menu.
    virtual void addContextActions(QMenu& menu, const QPoint& pos);

private:
    void setHovered(int item);

    QMargins m_plotMargins;
    int m_hovered = -1;
    int m_selected = -1;
};

} // namespace npuscope::gui
