// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QScrollArea>

namespace npuscope::gui {

// The area every dock's content sits in (QueryDock::setBody). At its usual sizes it is invisible: the content fills
// it and its size hint is the content's. When the dock is made smaller than the content needs (a laptop screen, a
// scale factor of 2, many docks side by side) the content keeps its minimum size and scrolls, instead of the dock
// asking the main window for more room than the screen has (which makes the window's layout overlap docks, tab bars
// and the status bar). Its own minimum is the content's, capped at a few lines of text.
//
// The area sizes the content itself: as wide as the viewport (or its minimum width) and as high as the viewport, or as
// the content's *minimum* height for that width when that is more. QScrollArea's resizable mode gives content whose
// layout has a height for width (any word-wrapped label) its *preferred* height for the width instead, so a dock with
// a wrapped line scrolled whenever it was shorter than its content would like, and the panes at its bottom (a detail
// pane under a table) were pushed out of sight. GUI thread only.
class DockScrollArea : public QScrollArea {
    Q_OBJECT
public:
    explicit DockScrollArea(QWidget* content, QWidget* parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // Resizes the content to the viewport, or to its minimum for the viewport's width when that is more.
    void fitContent();
    // The content's minimum height at a width (its layout's height for width when it has one).
    int minimumHeightAt(int width) const;

    bool m_fitting = false;
};

} // namespace npuscope::gui
