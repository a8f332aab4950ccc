// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/compare/CompareDock.h"

#include "npuscope/gui/common/DockControls.h"
#include "npuscope/gui/common/TableSetup.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/gui/compare/BaselineComparison.h"
#include "npuscope/gui/compare/CommDiffModel.h"
#include "npuscope/gui/compare/OperatorDiffModel.h"
#include "npuscope/gui/compare/RankDeltaStrip.h"
#include "npuscope/gui/compare/WaterfallChart.h"
#include "npuscope/query/compare/DiffReport.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace npuscope::gui {

namespace {

QTableView* diffTable(QAbstractItemModel* model, QWidget* parent)
{
    auto* view = new QTableView(parent);
    view->setModel(model);
    TableSetup::install(view, { .singleSelection = true, .stretchLastSection = false, .sortable = true });
    return view;
}

QString sideText(const QStringList& paths, const query::DiffSide& side)
{
    QStringList names;
    for (const QString& p : paths)
        names << QFileInfo(p).fileName();
    // English has no .qm file: the singular and plural are separate sources, each with %n for the translations.
    const int stepCount = static_cast<int>(side.stepCount);
    const int rankCount = static_cast<int>(side.ranks.size());
    const QString steps = side.step ? CompareDock::tr("step %1").arg(*side.step)
        : stepCount == 1            ? CompareDock::tr("mean of %n step", nullptr, stepCount)
        : stepCount > 0             ? CompareDock::tr("mean of %n steps", nullptr, stepCount)
                                    : CompareDock::tr("whole range as one step");
    const QString ranks = rankCount == 1 ? CompareDock::tr("%n rank", nullptr, rankCount)
                                         : CompareDock::tr("%n ranks", nullptr, rankCount);
    return CompareDock::tr("%1 (%2, %3)").arg(names.join(QStringLiteral(", ")), ranks, steps);
}

} // namespace

CompareDock::CompareDock(Workspace* ws, QWidget* parent)
    : QueryDock(tr("Compare"), kObjectName, ws, parent)
    , m_categories(new OperatorDiffModel(tr("Category"), this))
    , m_types(new OperatorDiffModel(tr("Op type"), this))
    , m_kernels(new OperatorDiffModel(tr("Kernel"), this))
    , m_comm(new CommDiffModel(this))
{
    m_pages = new QStackedWidget(this);
    m_message = new QLabel(m_pages);
    m_message->setObjectName(QStringLiteral("compareMessage"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_pages->addWidget(m_message);

    const auto [body, layout] = newColumn(m_pages, 4);
    m_headline = newWrappedLabel("compareHeadline", body);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_headline->font();
    bold.setBold(true);
    m_headline->setFont(bold);
    layout->addWidget(m_headline);
    // Profiles of different profiler levels: said before any figure is read.
    m_levelNote = newWrappedLabel("compareLevelNote", body);
    m_levelNote->setStyleSheet(QStringLiteral("QLabel { color: #b35900; }"));
    m_levelNote->hide();
    layout->addWidget(m_levelNote);
    m_sides = newWrappedLabel("compareSides", body);
    layout->addWidget(m_sides);

    auto* splitter = new QSplitter(Qt::Vertical, body);
    auto* charts = new QSplitter(Qt::Horizontal, splitter);
    m_waterfall = new WaterfallChart(charts);
    const auto [stripBox, stripLayout] = newColumn(charts);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("\u0394 per rank of"), stripBox));
    m_component = new QComboBox(stripBox);
    m_component->setObjectName(QStringLiteral("compareComponent"));
    using query::DiffComponent;
    for (DiffComponent c : { DiffComponent::Computing, DiffComponent::Step, DiffComponent::CommunicationNotOverlapped,
             DiffComponent::Overlapped, DiffComponent::Free, DiffComponent::Bubble, DiffComponent::Preparing })
        m_component->addItem(QString::fromUtf8(query::diffComponentTitle(c)), static_cast<int>(c));
    bar->addWidget(m_component);
    bar->addStretch(1);
    stripLayout->addLayout(bar);
    m_strip = new RankDeltaStrip(stripBox);
    stripLayout->addWidget(m_strip, 1);
    charts->addWidget(m_waterfall);
    charts->addWidget(stripBox);
    charts->setStretchFactor(0, 2);
    charts->setStretchFactor(1, 3);

    m_tabs = new QTabWidget(splitter);
    m_tabs->setObjectName(QStringLiteral("compareTables"));
    QTableView* categories = diffTable(m_categories, m_tabs);
    categories->setColumnHidden(OperatorDiffModel::Category, true); // the key is the category
    m_tabs->addTab(categories, tr("Categories"));
    QTableView* types = diffTable(m_types, m_tabs);
    types->setObjectName(QStringLiteral("compareTypesTable"));
    m_tabs->addTab(types, tr("Op types"));
    QTableView* kernels = diffTable(m_kernels, m_tabs);
    kernels->setObjectName(QStringLiteral("compareKernelsTable"));
    m_tabs->addTab(kernels, tr("Kernels"));
    QTableView* comm = diffTable(m_comm, m_tabs);
    comm->setObjectName(QStringLiteral("compareCommTable"));
    m_tabs->addTab(comm, tr("Communication"));
    splitter->addWidget(charts);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    layout->addWidget(splitter, 1);
    m_pages->addWidget(body);
    setBody(m_pages);

    connect(m_component, &QComboBox::currentIndexChanged, this,
        [this] { m_strip->setComponent(static_cast<query::DiffComponent>(m_component->currentData().toInt())); });
    connect(m_strip, &ChartWidget::itemClicked, this, [this](int item) {
        if (const auto rank = m_strip->rankOf(item))
            workspace()->setSelectedRank(*rank);
    });
    connect(ws, &Workspace::selectedRankChanged, this, [this] { m_strip->setMarkedRank(workspace()->selectedRank()); });
    // A single click on an op type or a kernel selects that operator everywhere (the Operators view and the timeline
    // highlight it, as a click in the Operators view does); Esc (no operator) clears the row.
    const std::pair<QTableView*, query::OperatorGroupBy> operatorTables[]
        = { { types, query::OperatorGroupBy::Type }, { kernels, query::OperatorGroupBy::Name } };
    for (const auto& table : operatorTables) {
        QTableView* view = table.first;
        const query::OperatorGroupBy by = table.second;
        connect(view, &QTableView::clicked, this, [this, view, by](const QModelIndex& index) {
            const QString key = view->model()->index(index.row(), OperatorDiffModel::Key).data().toString();
            if (!index.isValid() || key.isEmpty())
                return;
            workspace()->setSelectedOperator(Workspace::OperatorKey { by, key.toStdString(), std::nullopt });
        });
        connect(ws, &Workspace::operatorChanged, view, [this, view] {
            if (!workspace()->selectedOperator())
                view->selectionModel()->clear();
        });
    }
    // A single click on a communication row selects its group in the communication views (Groups, Matrix, Links);
    // the row is cleared when no group is selected any more.
    connect(comm, &QTableView::clicked, this, [this, comm](const QModelIndex& index) {
        if (!index.isValid())
            return;
        const QString group = comm->model()->index(index.row(), CommDiffModel::Group).data().toString();
        if (!group.isEmpty())
            workspace()->setGroupHash(group.toStdString());
    });
    connect(ws, &Workspace::groupChanged, comm, [this, comm] {
        if (!workspace()->groupHash())
            comm->selectionModel()->clear();
    });
    reloadOn({ &Workspace::baselineChanged });
    connect(BaselineComparison::of(ws), &BaselineComparison::comparisonChanged, this, &CompareDock::requestReload);
    requestReload();
}

void CompareDock::showMessage(const QString& text)
{
    m_diff.reset();
    m_message->setText(text);
    m_pages->setCurrentWidget(m_message);
}

void CompareDock::reload()
{
    const auto base = workspace()->baseline();
    if (!workspace()->database()) {
        showMessage(tr("No profile loaded."));
        return;
    }
    if (!base) {
        // The command line never breaks inside (a narrow dock split it into "--" and "baseline"): no-break spaces and
        // hyphens.
        const QString command = QStringLiteral("npuscope\u00a0\u2011\u2011baseline\u00a0BASE\u00a0PATH");
        showMessage(tr("No baseline to compare with.\n\nChoose one with File \u2192 Compare with\u2026, drop a folder "
                       "on the window with Ctrl (or Shift) held, or start %1.\nThe opened profile is the new run; the "
                       "baseline may be any input npuscope opens, a GPU trace too.")
                        .arg(command));
        return;
    }
    // BaselineComparison computes the one comparison every compare view shows.
    if (const auto diff = BaselineComparison::of(workspace())->comparison()) {
        if (diff != m_diff)
            showDiff(diff);
        return;
    }
    showMessage(tr("Comparing with the baseline\u2026"));
}

void CompareDock::showDiff(std::shared_ptr<const query::RunDiff> diff)
{
    m_diff = std::move(diff);
    const query::RunDiff& d = *m_diff;
    m_headline->setText(QString::fromStdString(query::DiffReport::headline(d)));
    const std::string levels = query::DiffReport::levelNote(d);
    m_levelNote->setText(
        levels.empty() ? QString() : tr("Not comparable as is: %1.").arg(QString::fromStdString(levels)));
    m_levelNote->setVisible(!levels.empty());
    QString sides
        = tr("Base: %1 \u2192 new: %2")
              .arg(sideText(workspace()->baselinePaths(), d.base), sideText(workspace()->sourcePaths(), d.neu));
    if (!d.unmatchedBase.empty() || !d.unmatchedNew.empty())
        sides += tr(" \u00b7 unmatched ranks: %1 only in base, %2 only in new")
                     .arg(d.unmatchedBase.size())
                     .arg(d.unmatchedNew.size());
    if (!d.unmapped.empty())
        sides += tr(" \u00b7 %1 GPU kernels without a category (Categories tab: \u201cunmapped GPU kernel\u201d)")
                     .arg(d.unmapped.size());
    m_sides->setText(sides);
    m_waterfall->setDiff(d);
    m_strip->setDiff(d);
    m_strip->setMarkedRank(workspace()->selectedRank());
    m_categories->setRows(d.categories);
    m_types->setRows(d.types);
    m_kernels->setRows(d.kernels);
    m_comm->setRows(d.communication);
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (auto* view = qobject_cast<QTableView*>(m_tabs->widget(i)))
            TableSetup::fitColumns(view, { 0 }); // the name (category, type, kernel, op) gives up width
    }
    m_pages->setCurrentIndex(1);
}

} // namespace npuscope::gui
