// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QScrollArea>

namespace npuscope::gui {

// The area every dock's content sits in (QueryDock::setBody). At its usual sizes it is invisible: the content fills
// it and its size hint is the content's. When the dock is made smaller than the content needs (a laptop screen, a
// scale factor of 2, many docks side by side) the content keeps its minimum size and scrolls, instead of the dock
// asking the main window for more room than the screen has (which makes the window's layout overlap docks, tab bars
// and the status bar). Its own minimum is the content's, capped at a few lines of text. GUI thread only.
class DockScrollArea : public QScrollArea {
    Q_OBJECT
public:
    explicit DockScrollArea(QWidget* content, QWidget* parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
};

} // namespace npuscope::gui
