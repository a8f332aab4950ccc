// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/RowTableModelBase.h"

#include <QStringList>

#include <numeric>

namespace npuscope::gui {

namespace {

    // Header titles break long names over two lines for narrow columns; exported text keeps one line per record.
    QString headerText(const QAbstractItemModel& model, int column)
    {
        QString text = model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        text.replace(QLatin1Char('\n'), QLatin1Char(' '));
        return text;
    }

    template <class Field>
    QString joinRecords(const QAbstractItemModel& model, const std::vector<int>& rows, const std::vector<int>& columns,
        QChar separator, const QString& lineEnd, Field field)
    {
        QString out;
        QStringList fields;
        for (int c : columns)
            fields << field(headerText(model, c));
        out += fields.join(separator) + lineEnd;
        for (int r : rows) {
            fields.clear();
            for (int c : columns)
                fields << field(model.index(r, c).data(Qt::DisplayRole).toString());
            out += fields.join(separator) + lineEnd;
        }
        return out;
    }

} // namespace

QString RowTableModelBase::tabText(
    const QAbstractItemModel& model, const std::vector<int>& rows, const std::vector<int>& columns)
{
    return joinRecords(model, rows, columns, QLatin1Char('\t'), QStringLiteral("\n"), [](QString text) {
        for (QChar& ch : text) {
            if (ch == QLatin1Char('\t') || ch == QLatin1Char('\n') || ch == QLatin1Char('\r'))
                ch = QLatin1Char(' ');
        }
        return text;
    });
}

QString RowTableModelBase::csvText(
    const QAbstractItemModel& model, const std::vector<int>& rows, const std::vector<int>& columns)
{
    return joinRecords(model, rows, columns, QLatin1Char(','), QStringLiteral("\r\n"), &RowTableModelBase::csvField);
}

QString RowTableModelBase::csvField(const QString& text)
{
    const bool quote = text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"'))
        || text.contains(QLatin1Char('\n')) || text.contains(QLatin1Char('\r'));
    if (!quote)
        return text;
    QString escaped = text;
    escaped.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

std::vector<int> RowTableModelBase::allColumns() const
{
    std::vector<int> columns(static_cast<size_t>(columnCount()));
    std::iota(columns.begin(), columns.end(), 0);
    return columns;
}

QString RowTableModelBase::copyText(const std::vector<int>& rows) const { return tabText(*this, rows, allColumns()); }

QString RowTableModelBase::csvText(const std::vector<int>& rows) const
{
    std::vector<int> all = rows;
    if (all.empty()) {
        all.resize(static_cast<size_t>(rowCount()));
        std::iota(all.begin(), all.end(), 0);
    }
    return csvText(*this, all, allColumns());
}

} // namespace npuscope::gui
