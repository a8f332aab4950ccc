// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/MetricText.h"
#include "npuscope/gui/common/RowColumn.h"
#include "npuscope/gui/common/RowTableModelBase.h"
#include "npuscope/gui/common/TimeFormat.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <vector>

namespace npuscope::gui {

// A table over a std::vector<Row>: one RowColumn<Row> per column says the header (title, the metric's definition as
// tooltip, led by query::MetricDefinitions' definition when MetricText maps the column to one), the raw value
// (ValueRole, the sort key), the display text, the alignment and per-cell tooltip, foreground and font. Sorting
// (sort(), or a QSortFilterProxyModel with sortRole ValueRole), copying and CSV come with it; a model adds its own
// roles in cellData(). GUI thread only.
template <class Row> class RowTableModel : public RowTableModelBase {
public:
    explicit RowTableModel(QObject* parent = nullptr)
        : RowTableModelBase(parent)
    {
    }

    const std::vector<Row>& rows() const { return m_rows; }
    // Replaces every row (a model reset); a model with more to do on a reset declares its own setRows.
    void setRows(std::vector<Row> rows) { resetRows(std::move(rows)); }
    const Row& rowAt(int row) const { return m_rows[static_cast<size_t>(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
    }

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override
    {
        if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
            return {};
        const Row& row = rowAt(index.row());
        if (auto special = cellData(row, index.column(), role))
            return *special;
        const RowColumn<Row>& column = m_columns[static_cast<size_t>(index.column())];
        auto call = [&row](const auto& f) { return f ? QVariant(f(row)) : QVariant(); };
        switch (role) {
        case Qt::DisplayRole:
            return textOf(row, index.column());
        case ValueRole:
            return call(column.value);
        case Qt::TextAlignmentRole:
            return column.alignment ? QVariant::fromValue(column.alignment) : QVariant();
        case Qt::ToolTipRole:
            return call(column.toolTip);
        case Qt::ForegroundRole:
            return call(column.foreground);
        case Qt::FontRole:
            return call(column.font);
        default:
            return {};
        }
    }

    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override
    {
        if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
            return RowTableModelBase::headerData(section, orientation, role);
        const RowColumn<Row>& column = m_columns[static_cast<size_t>(section)];
        if (role == Qt::DisplayRole)
            return column.title;
        if (role == Qt::ToolTipRole) {
            // The metric's definition from query::MetricDefinitions (docs/metrics.md) when the column shows one, then
            // the column's own note.
            const QString tip = MetricText::headerTip(*this, column.title, column.definition);
            return tip.isEmpty() ? QVariant() : QVariant(tip);
        }
        return {};
    }

    // Stable sort of the rows by the column's value; persistent indexes (a view's selection) follow their rows.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override
    {
        if (column < 0 || column >= columnCount() || !m_columns[static_cast<size_t>(column)].value)
            return;
        const auto& value = m_columns[static_cast<size_t>(column)].value;
        emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
        std::vector<QVariant> keys;
        keys.reserve(m_rows.size());
        for (const Row& r : m_rows)
            keys.push_back(value(r));
        std::vector<size_t> perm(m_rows.size());
        std::iota(perm.begin(), perm.end(), size_t { 0 });
        std::stable_sort(perm.begin(), perm.end(), [&](size_t a, size_t b) {
            // Absent values sort after every value (as QSortFilterProxyModel sorts them), a strict weak order.
            const QVariant &x = keys[a], &y = keys[b];
            int c = 0;
            if (!x.isValid() || !y.isValid()) {
                c = int(y.isValid()) - int(x.isValid());
            } else {
                const auto p = QVariant::compare(x, y);
                c = p == QPartialOrdering::Less ? -1 : (p == QPartialOrdering::Greater ? 1 : 0);
            }
            if (c == 0)
                return tieLess(m_rows[a], m_rows[b]);
            return order == Qt::AscendingOrder ? c < 0 : c > 0;
        });
        std::vector<Row> sorted;
        sorted.reserve(m_rows.size());
        std::vector<int> newRow(m_rows.size());
        for (size_t i = 0; i < perm.size(); ++i) {
            sorted.push_back(std::move(m_rows[perm[i]]));
            newRow[perm[i]] = static_cast<int>(i);
        }
        m_rows = std::move(sorted);
        const QModelIndexList from = persistentIndexList();
        QModelIndexList to;
        to.reserve(from.size());
        for (const QModelIndex& i : from)
            to.append(index(newRow[static_cast<size_t>(i.row())], i.column()));
        changePersistentIndexList(from, to);
        emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
    }

protected:
    // Called once from the derived constructor; lambdas may capture the model for its state (unit, names).
    void setColumns(std::vector<RowColumn<Row>> columns) { m_columns = std::move(columns); }
    // Replaces every row (a model reset).
    void resetRows(std::vector<Row> rows)
    {
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
    }
    // The column's ValueRole for a row (invalid for a column without value).
    QVariant valueOf(const Row& row, int column) const
    {
        const auto& value = m_columns[static_cast<size_t>(column)].value;
        return value ? value(row) : QVariant();
    }
    // The column's display text for a row.
    QString textOf(const Row& row, int column) const
    {
        const RowColumn<Row>& c = m_columns[static_cast<size_t>(column)];
        if (c.text)
            return c.text(row);
        const QVariant v = valueOf(row, column);
        return v.isValid() ? v.toString() : TimeFormat::kAbsent;
    }
    // Direct access for models that insert, remove or edit single rows; they emit the matching signals.
    std::vector<Row>& mutableRows() { return m_rows; }
    // A model's own roles, or a role it answers differently from the column descriptor; nullopt: use the descriptor.
    virtual std::optional<QVariant> cellData(const Row& row, int column, int role) const
    {
        Q_UNUSED(row);
        Q_UNUSED(column);
        Q_UNUSED(role);
        return std::nullopt;
    }
    // Order of rows whose sort values are equal (stable by default).
    virtual bool tieLess(const Row& a, const Row& b) const
    {
        Q_UNUSED(a);
        Q_UNUSED(b);
        return false;
    }
    void emitColumnChanged(int first, int last, const QList<int>& roles = {})
    {
        if (!m_rows.empty())
            emit dataChanged(index(0, first), index(rowCount() - 1, last), roles);
    }

private:
    std::vector<RowColumn<Row>> m_columns;
    std::vector<Row> m_rows;
};

} // namespace npuscope::gui
