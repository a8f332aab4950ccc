// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/app/HelpDialogs.h"

#include "npuscope/gui/common/MetricText.h"
#include "npuscope/query/MetricDefinitions.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtGlobal>

#include <sqlite3.h>

#include <utility>

namespace npuscope::gui {

namespace {

QString table(const QString& title, const std::vector<std::pair<QString, QString>>& rows)
{
    QString html = QStringLiteral("<h3>%1</h3><table cellspacing=0 cellpadding=3>").arg(title);
    for (const auto& [key, what] : rows)
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(key.toHtmlEscaped(), what.toHtmlEscaped());
    return html + QStringLiteral("</table>");
}

} // namespace

QString HelpDialogs::shortcutsHtml()
{
    QString html = table(tr("Everywhere"),
        {
            { tr("Ctrl+O"), tr("Open a profiling folder (or drop folders on the window)") },
            { tr("Ctrl+K, Ctrl+Shift+P"),
                tr("Go to a view, menu action, rank, step or operator by typing its name (Enter goes there)") },
            { tr("Ctrl+1 \u2026 Ctrl+9"),
                tr("Cluster steps, Timeline, Overview, Advice, Blame, Operators, Communication matrix, Collectives, "
                   "Marey") },
            { tr("F1, ?"), tr("This sheet") },
            { tr("Click"), tr("Select a rank (or step, group, op): every view follows it") },
            { tr("Esc"), tr("Clear the selected ranks, operator and collective instance") },
            { tr("Ctrl+C"), tr("Copy the selected table rows (tab-separated, with the header)") },
            { tr("Right click"),
                tr("Tables: Copy rows, Export CSV\u2026 (also on the toolbar above each table); charts: Save "
                   "image\u2026 (PNG or SVG)") },
            { tr("Ctrl+Q"), tr("Quit") },
        });
    html += table(tr("Timeline"),
        {
            { tr("W / S"), tr("Zoom in / out at the mouse") },
            { tr("A / D"), tr("Pan left / right") },
            { tr("Ctrl+wheel"), tr("Zoom at the mouse") },
            { tr("Shift+wheel"), tr("Pan") },
            { tr("Drag"), tr("Pan") },
            { tr("Shift+drag"), tr("Select a time range (its statistics show in Area statistics)") },
            { tr("F"), tr("Fit the range, else the selected slice, else everything") },
            { tr("0"), tr("Fit everything") },
            { tr("Backspace"), tr("Undo the last zoom") },
            { tr("M"), tr("Put a marker at the mouse") },
            { tr("Esc"), tr("Clear the selected slice and range") },
        });
    return html;
}

QString HelpDialogs::metricsHtml()
{
    std::vector<std::pair<QString, QString>> rows;
    for (const auto& d : query::MetricDefinitions::all())
        rows.emplace_back(MetricText::name(d.name), MetricText::definition(d.name));
    return table(tr("Metrics (as docs/metrics.md defines them)"), rows);
}

QString HelpDialogs::formatsHtml()
{
    return tr("<h3>What can I open?</h3>"
              "<p>A folder written by an Ascend profiler, or a folder that holds several of them (one per rank):</p>"
              "<ul>"
              "<li>torch_npu: <code>*_ascend_pt</code> folders with <code>ASCEND_PROFILER_OUTPUT</code> "
              "(CSV/JSON or <code>ascend_pytorch_profiler*.db</code>)</li>"
              "<li>MindSpore: <code>*_ascend_ms</code> folders, or a <code>profiler</code> folder with "
              "<code>step_trace_raw_*</code> files</li>"
              "<li>CANN msprof: <code>PROF_*</code> folders (<code>mindstudio_profiler_output</code> or "
              "<code>msprof_*.db</code>)</li>"
              "<li>msprof-analyze: <code>cluster_analysis_output</code></li>"
              "</ul>"
              "<p>Drop the folder on the window or use File \u2192 Open folder. The demo on the welcome page is two "
              "ranks of a real torch_npu job.</p>");
}

QString HelpDialogs::aboutHtml()
{
    return tr("<h3>npuscope %1</h3>"
              "<p>A viewer for Huawei Ascend NPU training profiles, from one rank to thousands.</p>"
              "<p>Qt %2 (built with %3) \u00b7 SQLite %4</p>"
              "<p>npuscope is licensed under the Apache License 2.0. It uses Qt (LGPL v3), SQLite (public domain), "
              "nlohmann/json (MIT), spdlog and fmt (MIT).</p>")
        .arg(QStringLiteral(NPUSCOPE_VERSION), QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR),
            QString::fromLatin1(sqlite3_libversion()));
}

QDialog* HelpDialogs::showHtml(QWidget* parent, const char* objectName, const QString& title, const QString& html)
{
    auto* dialog = new QDialog(parent);
    dialog->setObjectName(QString::fromLatin1(objectName));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    auto* layout = new QVBoxLayout(dialog);
    auto* text = new QTextBrowser(dialog);
    text->setOpenExternalLinks(true);
    text->setHtml(html);
    layout->addWidget(text, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    dialog->resize(640, 560);
    dialog->show();
    return dialog;
}

QDialog* HelpDialogs::showShortcuts(QWidget* parent)
{
    return showHtml(parent, "shortcutSheet", tr("Shortcuts and metrics"), shortcutsHtml() + metricsHtml());
}

QDialog* HelpDialogs::showFormats(QWidget* parent)
{
    return showHtml(parent, "formatsHelp", tr("What can I open?"), formatsHtml());
}

QDialog* HelpDialogs::showAbout(QWidget* parent)
{
    QDialog* dialog = showHtml(parent, "aboutBox", tr("About npuscope"), aboutHtml());
    dialog->resize(520, 300);
    return dialog;
}

} // namespace npuscope::gui
