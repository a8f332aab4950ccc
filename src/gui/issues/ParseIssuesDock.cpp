// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/issues/ParseIssuesDock.h"
#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/EmptyHint.h"
#include "npuscope/gui/common/TableSetup.h"

#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/issues/IssueFilterModel.h"
#include "npuscope/gui/issues/IssueTableModel.h"
#include "npuscope/query/RankQuery.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace npuscope::gui {

ParseIssuesDock::ParseIssuesDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Parse issues"), kObjectName, ws, parent)
    , m_model(new IssueTableModel(this))
    , m_filter(new IssueFilterModel(this))
{
    const auto [body, layout, bar] = makeBody({ .spacing = 4 });
    m_filterEdit = newFilterEdit("issueFilter", tr("Filter by file, message, rank\u2026"), body);
    bar->addWidget(m_filterEdit, 1);
    m_severityCombo = new QComboBox(body);
    m_severityCombo->setObjectName(QStringLiteral("severityCombo"));
    m_severityCombo->addItem(tr("All severities"));
    m_severityCombo->addItem(tr("Errors"), 0);
    m_severityCombo->addItem(tr("Warnings"), 1);
    m_severityCombo->addItem(tr("Info"), 2);
    bar->addWidget(m_severityCombo);
    m_count = new QLabel(body);
    bar->addWidget(m_count);

    m_filter->setSourceModel(m_model);
    m_table = new QTableView(body);
    m_table->setObjectName(QStringLiteral("issuesTable"));
    m_table->setModel(m_filter);
    // Insertion order until the user sorts.
    TableSetup::install(m_table, { .stretchLastSection = true, .sortable = true, .sortColumn = -1 });
    layout->addWidget(m_table, 1);
    setBody(body);
    setEmptyHint(m_table, tr("No parse issues: every file was read as expected."));

    connect(m_filterEdit, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_filter->setText(text);
        updateCount();
    });
    connect(m_severityCombo, &QComboBox::currentIndexChanged, this, [this](int) {
        const QVariant level = m_severityCombo->currentData();
        m_filter->setSeverityLevel(level.isValid() ? std::optional<int>(level.toInt()) : std::nullopt);
        updateCount();
    });
    reloadOn({ &Workspace::issuesAdded });
    connect(workspace(), &Workspace::errorReported, this, &ParseIssuesDock::showIssues);
    requestReload();
}

void ParseIssuesDock::reload()
{
    const bool started = runner()->run([](model::Database& db) { return query::IssueQuery::issues(db); },
        [this](std::vector<query::ParseIssue> issues) {
            m_modelIssues = std::move(issues);
            showIssues();
        });
    if (!started) {
        m_modelIssues.clear();
        showIssues();
    }
}

void ParseIssuesDock::showIssues()
{
    std::vector<query::ParseIssue> rows = m_modelIssues;
    const auto& errors = workspace()->viewErrors();
    rows.insert(rows.end(), errors.begin(), errors.end());
    m_model->setIssues(std::move(rows));
    // The file and the message give up width (elided, whole in the tooltip); severity, rank and line never do.
    TableSetup::fitColumns(m_table, { IssueTableModel::File, IssueTableModel::Message });
    updateCount();
}

void ParseIssuesDock::updateCount()
{
    const int shown = m_filter->rowCount();
    const int total = m_model->rowCount();
    const QString noun = total == 1 ? tr("issue") : tr("issues");
    QString text = shown == total ? QStringLiteral("%1 %2").arg(total).arg(noun)
                                  : tr("%1 of %2 %3").arg(shown).arg(total).arg(noun);
    // The status bar's badge counts the warnings and errors ("problems"); say how many of these those are, so the
    // two numbers never seem to disagree (in Chinese both nouns are 问题).
    const auto problems = std::count_if(m_model->issues().begin(), m_model->issues().end(),
        [](const query::ParseIssue& i) { return IssueTableModel::severityLevel(i.severity) <= 1; });
    if (problems != total)
        text += tr(" (%1 warnings or errors)").arg(problems);
    m_count->setText(text);
    setEmptyHint(m_table,
        total == 0 ? tr("No parse issues: every file was read as expected.")
                   : tr("No issue matches the filter (%1 in all).").arg(total));
}

} // namespace npuscope::gui
