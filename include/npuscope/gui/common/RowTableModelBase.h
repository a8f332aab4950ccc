// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QAbstractTableModel>

#include <vector>

namespace npuscope::gui {

// What every table of the docks shares, independent of its row type: the value role the tables sort by and the
// text forms of a table (clipboard, CSV). RowTableModel<Row> builds on it. GUI thread only.
class RowTableModelBase : public QAbstractTableModel {
    Q_OBJECT
public:
    enum BaseRole {
        // The raw value of a cell (ns, count, ratio, name): the sort key, and what the models call RawValueRole.
        ValueRole = Qt::UserRole + 1,
    };

    using QAbstractTableModel::QAbstractTableModel;

    // Tab-separated text of `rows` (in that order) over `columns`, a header line first, one line per row, each line
    // ending in '\n'. Cells are the display text; a tab or line break inside one becomes a space.
    static QString tabText(const QAbstractItemModel& model, const std::vector<int>& rows, const std::vector<int>& columns);
    // RFC 4180 CSV of `rows` over `columns`, a header record first, records ending in CRLF. A field holding a comma,
    // a quote or a line break is quoted, quotes doubled.
    static QString csvText(const QAbstractItemModel& model, const std::vector<int>& rows, const std::vector<int>& columns);
    // One CSV field, quoted when needed.
    static QString csvField(const QString& text);

    // The same over this model: all columns; `rows` empty means every row in model order.
    QString copyText(const std::vector<int>& rows) const;
    QString csvText(const std::vector<int>& rows = {}) const;

private:
    std::vector<int> allColumns() const;
};

} // namespace npuscope::gui
