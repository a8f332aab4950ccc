// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/issues/IssueTableModel.h"

#include "npuscope/gui/common/TranslatedText.h"

#include <QBrush>
#include <QColor>
#include <QDir>
#include <QFileInfo>

namespace npuscope::gui {

using query::ParseIssue;

namespace {

QVariant optionalLong(const std::optional<int64_t>& v) { return v ? QVariant::fromValue<qlonglong>(*v) : QVariant(); }
QString optionalNumber(const std::optional<int64_t>& v) { return v ? QString::number(*v) : QString(); }

QString severityText(const std::string& severity)
{
    switch (IssueTableModel::severityLevel(severity)) {
    case 0:
        return IssueTableModel::tr("error");
    case 1:
        return IssueTableModel::tr("warning");
    case 2:
        return IssueTableModel::tr("info");
    default:
        return QString::fromStdString(severity);
    }
}

} // namespace

IssueTableModel::IssueTableModel(QObject* parent)
    : RowTableModel(parent)
{
    std::vector<RowColumn<ParseIssue>> columns {
        { tr("Severity"), tr("Severity of the issue: error, warning or info"),
            [](const ParseIssue& i) { return QVariant(QString::fromStdString(i.severity)); },
            // Shown in the GUI's language; the value (and so the sort key's tie-break) stays the model's word.
            [](const ParseIssue& i) { return severityText(i.severity); }, {} },
        { tr("Rank"), tr("The rank whose files the issue is about; empty when it concerns the whole load"),
            [](const ParseIssue& i) { return optionalLong(i.rank); },
            [](const ParseIssue& i) { return optionalNumber(i.rank); } },
        { tr("File"), tr("The file (folder and name; the full path is in the cell's tooltip)"),
            [](const ParseIssue& i) { return i.file ? QVariant(QString::fromStdString(*i.file)) : QVariant(); },
            [](const ParseIssue& i) {
                // The folder and file name identify it; the full path is in the tooltip.
                if (!i.file)
                    return QString();
                const QFileInfo info(QString::fromStdString(*i.file));
                const QString dir = info.dir().dirName();
                return dir.isEmpty() || dir == QLatin1String(".") ? info.fileName()
                                                                  : dir + QLatin1Char('/') + info.fileName();
            },
            {} },
        { tr("Line"), tr("Line in the file (1-based), when known"),
            [](const ParseIssue& i) { return optionalLong(i.line); },
            [](const ParseIssue& i) { return optionalNumber(i.line); } },
        { tr("Message"), tr("What went wrong while importing"),
            [](const ParseIssue& i) { return QVariant(QString::fromStdString(i.message)); }, {}, {} },
    };
    columns[Severity].foreground = [](const ParseIssue& i) {
        // Tints readable on the light and the dark palette; info in the palette's own text colour.
        switch (severityLevel(i.severity)) {
        case 0:
            return QVariant(QBrush(QColor(0xd3, 0x2f, 0x2f)));
        case 1:
            return QVariant(QBrush(QColor(0xd0, 0x70, 0x00)));
        default:
            return QVariant();
        }
    };
    for (auto& column : columns) {
        column.toolTip = [](const ParseIssue& i) {
            QString tip = QString::fromStdString(i.message);
            if (i.file)
                tip += QStringLiteral("\n%1%2").arg(
                    QString::fromStdString(*i.file), i.line ? QStringLiteral(":%1").arg(*i.line) : QString());
            return tip;
        };
    }
    setColumns(std::move(columns));
}

void IssueTableModel::setIssues(std::vector<query::ParseIssue> issues)
{
    // Rendered once here, not per paint or sort: the rows show (and copy) the message in the GUI's language.
    for (auto& i : issues) {
        if (i.messageTemplate) {
            i.message = issueMessage(i).toStdString();
            i.messageTemplate.reset();
        }
    }
    resetRows(std::move(issues));
}

int IssueTableModel::severityLevel(const std::string& severity)
{
    if (severity == "error")
        return 0;
    if (severity == "warning")
        return 1;
    if (severity == "info")
        return 2;
    return 3;
}

std::optional<QVariant> IssueTableModel::cellData(const query::ParseIssue& issue, int, int role) const
{
    if (role == SeverityLevelRole)
        return severityLevel(issue.severity);
    return std::nullopt;
}

} // namespace npuscope::gui
