// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/ChartWidget.h"
#include "npuscope/query/FlopsScopeQuery.h"

#include <QRectF>
#include <QString>

namespace npuscope::gui {

// An icicle chart of one rank's FLOPs scope tree (query::FlopsScopeQuery): the root (Total) is the top row across the
// whole width, each scope a box under its parent whose width is its share of the root's FLOPs, so the widths of a
// row's boxes add up to the FLOPs of the scopes above them. Boxes take the colour of their top-level branch (Default,
// Gradients, ...), lighter with depth. Items are indexes into tree().nodes; hover says scope, FLOPs and shares, a
// click selects (ChartWidget::itemClicked). GUI thread only.
class FlopsScopeChart : public ChartWidget {
    Q_OBJECT
public:
    explicit FlopsScopeChart(QWidget* parent = nullptr);

    void setTree(query::FlopsScopeTree tree);
    const query::FlopsScopeTree& tree() const { return m_tree; }
    // The box of a node in widget coordinates (empty for an index out of range).
    QRectF nodeRect(int index) const;

    int itemAt(const QPoint& pos) const override;
    QString itemToolTip(int item) const override;
    QSize sizeHint() const override { return { 900, 360 }; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    double rowHeight() const;
    QColor nodeColor(int index) const;

    query::FlopsScopeTree m_tree;
    std::vector<int> m_branch; // per node: the index of its top-level ancestor's slot in the palette
};

} // namespace npuscope::gui
