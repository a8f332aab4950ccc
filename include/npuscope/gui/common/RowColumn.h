// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QVariant>

#include <functional>
#include <utility>

namespace npuscope::gui {

// One column of a RowTableModel<Row>: how a row shows in it. Every function gets the row and may be left empty.
template <class Row> struct RowColumn {
    using Value = std::function<QVariant(const Row&)>;
    using Text = std::function<QString(const Row&)>;

    RowColumn(QString title_, QString definition_, Value value_, Text text_ = {},
        Qt::Alignment alignment_ = Qt::AlignRight | Qt::AlignVCenter, Value toolTip_ = {})
        : title(std::move(title_))
        , definition(std::move(definition_))
        , value(std::move(value_))
        , text(std::move(text_))
        , alignment(alignment_)
        , toolTip(std::move(toolTip_))
    {
    }

    // Header text.
    QString title;
    // Header tooltip: what the figure is, as docs/metrics.md defines it (e.g. "Wait / (Wait + Transit)").
    QString definition;
    // RowTableModelBase::ValueRole: the raw value (ns, count, ratio, name) the column sorts by; invalid when absent.
    Value value;
    // Qt::DisplayRole; when empty, the value's text ("—" when the value is invalid).
    Text text;
    // Qt::TextAlignmentRole; an empty alignment leaves the view's default.
    Qt::Alignment alignment = Qt::AlignRight | Qt::AlignVCenter;
    // Qt::ToolTipRole, Qt::ForegroundRole, Qt::FontRole per cell.
    Value toolTip;
    Value foreground;
    Value font;
};

} // namespace npuscope::gui
