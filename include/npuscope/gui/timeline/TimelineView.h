// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/timeline/TimelineRenderer.h"

#include <QWidget>

#include <optional>
#include <vector>

class QMenu;
class QScrollBar;

namespace npuscope::gui {

// The timeline canvas: paints a TimelineRenderer and turns input into navigation. W/S zoom at the
// cursor, A/D pan, Ctrl+wheel zoom, wheel scrolls rows, drag pans, Shift+drag selects a time range
// and the rows it covers, F fits the range (or the selected slice, or everything), Backspace undoes
// a zoom, 0 resets, M adds a marker at the cursor. Clicking a rank or process header expands or
// collapses it; clicking a thread row's label shows all its levels or collapses it to the level cap.
// Right-clicking a row header opens its menu (pin, hide, move, levels). GUI thread only.
class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);

    TimelineRenderer& renderer() { return m_renderer; }
    // Call after the renderer's ranks changed (rows, bounds, scroll range).
    void relayout();
    void fitAll();
    void fitRange(int64_t begin, int64_t end);
    // Selects a slice and scrolls its row into view; centres it horizontally when centre is set.
    void selectSlice(int rank, const query::SliceRef& ref, bool centre);
    // The tracks (rank index, track index) the last range selection covered.
    const std::vector<std::pair<int, int>>& rangeTracks() const { return m_rangeTracks; }
    void setRangeSelection(int64_t begin, int64_t end, std::vector<std::pair<int, int>> tracks);
    void zoomAt(double xInAxis, double factor);
    // Scrolls so that a row (index into the renderer's rows) is at the top of the scrolled area.
    void scrollToRow(int row);
    // The row header menu (the caller owns it); rowMenuRequested lets the dock add its actions.
    QMenu* createRowMenu(int row);
    // Display time under the mouse, if it is over the time area.
    std::optional<int64_t> cursorNs() const { return m_cursorNs; }

signals:
    void sliceSelected(int rank, int track, int depth, qulonglong index);
    void selectionCleared();
    void rangeCleared();
    void markerRequested(qint64 ns);
    void rowMenuRequested(QMenu* menu, int row);
    void rangeSelected(qint64 begin, qint64 end);
    void rankHeaderClicked(int rank);
    void processHeaderClicked(int rank, int process);
    // A row was pinned, unpinned, hidden, shown or moved from the row menu.
    void rowStateChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool event(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void pushUndo();
    void syncScrollBar();
    double cursorAxisX() const;
    void finishRange(QPoint end);

    TimelineRenderer m_renderer;
    QScrollBar* m_scroll;
    std::vector<core::TimeAxis> m_undo;
    std::vector<std::pair<int, int>> m_rangeTracks;
    QPoint m_pressPos;
    QPoint m_lastPos;
    bool m_pressed = false;
    bool m_rangeDrag = false;
    bool m_moved = false;
    std::optional<int64_t> m_cursorNs;
};

} // namespace npuscope::gui
