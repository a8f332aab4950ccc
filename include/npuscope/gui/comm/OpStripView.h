// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/CommAnalysisQuery.h"

#include "npuscope/gui/common/ChartWidget.h"

#include <QStringList>

#include <vector>

namespace npuscope::gui {

// Thumbnail of the step's communication ops: one strip per rank on the shared clock. The same op
// (same name) has the same colour on every rank, and hovering one outlines it on all ranks, so a
// rank that starts it late stands out. A click emits opActivated with the op's time window (the
// dock hands it to the Workspace, which the timeline follows). GUI thread only.
class OpStripView : public ChartWidget {
    Q_OBJECT
public:
    explicit OpStripView(QWidget* parent = nullptr);

    void setStrip(query::OpStrip strip);
    const query::OpStrip& strip() const { return m_strip; }
    // Index into strip().ops at a widget position, -1 when none.
    int opAt(const QPoint& pos) const;
    int itemAt(const QPoint& pos) const override { return opAt(pos); }
    QString itemToolTip(int item) const override { return toolTipFor(item); }
    QString toolTipFor(int op) const;
    static QColor colorOf(int nameIndex);
    // The op type a name stands for: "hcom_allReduce__478_2_1" → "allReduce", "AllReduce-op12" → "AllReduce".
    static QString opTypeOf(const std::string& name);
    // More op names than this (a large cluster: every group has its own op keys) colour the ops by type, with a
    // legend, since hundreds of hues tell nothing apart.
    static constexpr size_t kMaxNameColours = 16;
    bool coloursByType() const { return m_byType; }
    const QStringList& types() const { return m_types; }
    QSize sizeHint() const override { return { 480, 220 }; }

signals:
    void opActivated(qint64 rank, qint64 beginNs, qint64 endNs);

protected:
    // Hovering an op highlights every op of its name.
    void hoverChanged(int item) override;
    void paintEvent(QPaintEvent* event) override;

private:
    QRect plotRect() const;
    int rowAt(int y) const;

    query::OpStrip m_strip;
    std::vector<size_t> m_rowStart; // first op of each rank row, plus ops.size()
    int m_hoverName = -1;
    bool m_byType = false;
    QStringList m_types; // distinct op types, in order of first appearance
    std::vector<int> m_typeOfName; // by name index, into m_types
    int colourIndex(const query::OpSpan& op) const
    {
        return m_byType ? m_typeOfName[static_cast<size_t>(op.nameIndex)] : op.nameIndex;
    }
};

} // namespace npuscope::gui
