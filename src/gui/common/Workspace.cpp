// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/Workspace.h"

#include "npuscope/gui/common/DeferredLoadService.h"
#include "npuscope/query/IndexPrebuild.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QPointer>
#include <QSettings>
#include <QThreadPool>

#include <algorithm>
#include <chrono>
#include <utility>

#include <spdlog/spdlog.h>

namespace npuscope::gui {

namespace {

// Sets field to value when they differ; true when it changed (the setters then emit their signal).
template <typename T, typename V> bool assignChanged(T& field, V&& value)
{
    if (field == value)
        return false;
    field = std::forward<V>(value);
    return true;
}

} // namespace

Workspace::Workspace(QObject* parent)
    : QObject(parent)
    , m_inMemoryPool(new QThreadPool(this))
    , m_queryPool(new QThreadPool(this))
    , m_jobPool(new QThreadPool(this))
    , m_prebuildPool(new QThreadPool(this))
    , m_loads(new DeferredLoadService(this))
{
    // In-memory queries are short; two threads keep them from waiting on each other.
    m_inMemoryPool->setMaxThreadCount(2);
    // SQL queries take the model lock one at a time; a second thread lets a superseded request be skipped while
    // another holds the lock.
    m_queryPool->setMaxThreadCount(2);
    m_jobPool->setMaxThreadCount(2);
    // A view query waiting for a reserved index may hold the model lock or a thread of the pools above: the build it
    // waits for must not queue behind it.
    m_prebuildPool->setMaxThreadCount(1);
}

Workspace::~Workspace()
{
    // The imports first: they may hold the model lock a query waits for.
    delete m_loads;
    m_loads = nullptr;
    m_queryPool->waitForDone();
    m_jobPool->waitForDone();
    m_inMemoryPool->waitForDone();
    m_prebuildPool->waitForDone();
}

std::shared_ptr<model::Database> Workspace::database() const { return m_database; }

void Workspace::startIndexBuild(std::shared_ptr<query::IndexPrebuild> prebuild)
{
    // build() keeps an error for run() to rethrow, where it is reported for its model.
    if (prebuild)
        m_prebuildPool->start([prebuild = std::move(prebuild)] { prebuild->build(); });
}

void Workspace::setDatabase(
    std::shared_ptr<model::Database> database, const QStringList& sourcePaths, std::shared_ptr<query::IndexPrebuild> prebuild)
{
    if (prebuild && database) {
        // The model first, the prebuild second: the prebuild's reservations are dropped before the model goes.
        struct Job {
            std::shared_ptr<model::Database> db;
            std::shared_ptr<query::IndexPrebuild> prebuild;
        };
        m_prebuildPool->start([job = Job { database, std::move(prebuild) }, self = QPointer<Workspace>(this)]() mutable {
            try {
                const auto start = std::chrono::steady_clock::now();
                const int filled = job.prebuild->run();
                if (qEnvironmentVariableIntValue("NPUSCOPE_TRACE_QUERIES") != 0)
                    spdlog::info("index prebuild: {} of 2 indexes filled in {:.1f} ms ({}, copy {:.1f} MB)", filled,
                        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(),
                        job.prebuild->parallel() ? "both at once" : "in turn",
                        static_cast<double>(job.prebuild->copyBytes()) / 1e6);
            } catch (const std::exception& e) {
                // The reservations are dropped with the prebuild: the views build the indexes themselves. Said in
                // Parse issues (on the GUI thread, for the model it was made for).
                const QString message = QString::fromUtf8(e.what());
                QMetaObject::invokeMethod(
                    self,
                    [self, db = job.db, message] {
                        if (self && self->database() == db)
                            self->reportError(tr("Communication indexes"),
                                tr("building them beside the views failed (%1); they are built on the model instead")
                                    .arg(message));
                    },
                    Qt::QueuedConnection);
            }
            job.prebuild.reset();
        });
    }
    // The selection belongs to the old model: a rank or step may not exist in the new one.
    m_database = std::move(database);
    m_sourcePaths = sourcePaths;
    m_selectedRanks.clear();
    m_step.reset();
    m_timeWindow.reset();
    m_groupHash.reset();
    m_commOp.reset();
    m_operator.reset();
    m_collectiveFocus.reset();
    m_criticalPath.reset();
    const bool hadTop = !m_topFindingRule.isEmpty();
    m_topFindingRule.clear();
    m_topFindingText.clear();
    const bool hadErrors = !m_viewErrors.empty();
    m_viewErrors.clear();
    emit databaseChanged();
    m_resetting = true;
    emit selectedRankChanged();
    emit stepChanged();
    emit timeWindowChanged();
    emit groupChanged();
    emit commOpChanged();
    emit operatorChanged();
    m_resetting = false;
    if (hadErrors)
        emit errorReported();
    if (hadTop)
        emit topFindingChanged();
}

void Workspace::setTopFinding(const QString& rule, const QString& text)
{
    if (rule == m_topFindingRule && text == m_topFindingText)
        return;
    m_topFindingRule = rule;
    m_topFindingText = text;
    emit topFindingChanged();
}

void Workspace::setBaseline(std::shared_ptr<model::Database> baseline, const QStringList& paths)
{
    if (baseline == m_baseline && paths == m_baselinePaths)
        return;
    m_baseline = std::move(baseline);
    m_baselinePaths = m_baseline ? paths : QStringList();
    emit baselineChanged();
}

std::optional<int64_t> Workspace::selectedRank() const
{
    if (m_selectedRanks.empty())
        return std::nullopt;
    return m_selectedRanks.front();
}

void Workspace::setSelectedRank(std::optional<int64_t> rank)
{
    setSelectedRanks(rank ? std::vector<int64_t> { *rank } : std::vector<int64_t> {});
}

void Workspace::setSelectedRanks(std::vector<int64_t> ranks)
{
    // Keep the first (primary) rank in place, drop duplicates after it.
    std::vector<int64_t> unique;
    for (int64_t r : ranks) {
        if (std::find(unique.begin(), unique.end(), r) == unique.end())
            unique.push_back(r);
    }
    if (assignChanged(m_selectedRanks, std::move(unique)))
        emit selectedRankChanged();
}

void Workspace::setStep(std::optional<int64_t> step)
{
    if (assignChanged(m_step, step))
        emit stepChanged();
}

void Workspace::setSkipFirstStep(bool skip)
{
    if (assignChanged(m_skipFirstStep, skip))
        emit stepChanged();
}

void Workspace::setTimeWindow(std::optional<TimeWindow> window)
{
    if (assignChanged(m_timeWindow, window))
        emit timeWindowChanged();
}

void Workspace::setGroupHash(std::optional<std::string> hash)
{
    if (assignChanged(m_groupHash, std::move(hash)))
        emit groupChanged();
}

void Workspace::setSelectedOperator(std::optional<OperatorKey> op)
{
    if (assignChanged(m_operator, std::move(op)))
        emit operatorChanged();
}

void Workspace::setCollectiveFocus(std::optional<CollectiveFocus> focus)
{
    if (assignChanged(m_collectiveFocus, std::move(focus)))
        emit collectiveFocusChanged();
}

void Workspace::setCriticalPath(std::optional<CriticalPathMark> mark)
{
    if (assignChanged(m_criticalPath, std::move(mark)))
        emit criticalPathChanged();
}

void Workspace::setCommOp(std::optional<std::string> opName)
{
    if (assignChanged(m_commOp, std::move(opName)))
        emit commOpChanged();
}

void Workspace::setShowHostIps(bool on)
{
    if (assignChanged(m_showHostIps, on))
        emit hostDisplayChanged();
}

void Workspace::reportError(const QString& source, const QString& message, std::optional<int64_t> rank)
{
    query::ParseIssue issue;
    issue.severity = "error";
    issue.rank = rank;
    issue.message = (source.isEmpty() ? message : source + QStringLiteral(": ") + message).toStdString();
    // A view re-queries on every selection change: a failing query would otherwise add a row each time.
    const bool known = std::any_of(m_viewErrors.begin(), m_viewErrors.end(),
        [&](const query::ParseIssue& e) { return e.rank == issue.rank && e.message == issue.message; });
    if (known)
        return;
    m_viewErrors.push_back(std::move(issue));
    emit errorReported();
}

bool Workspace::isBusy() const { return m_pendingQueries > 0 || (m_loads && m_loads->pendingCount() > 0); }

void Workspace::beginQuery()
{
    if (m_pendingQueries++ == 0)
        emit busyChanged(true);
}

void Workspace::endQuery()
{
    if (m_pendingQueries > 0 && --m_pendingQueries == 0)
        emit busyChanged(false);
}

double Workspace::deviceCapacityGb() const
{
    return QSettings().value(QLatin1String(kCapacitySetting), kDefaultCapacityGb).toDouble();
}

void Workspace::setDeviceCapacityGb(double gb)
{
    if (!(gb > 0) || gb == deviceCapacityGb())
        return;
    QSettings().setValue(QLatin1String(kCapacitySetting), gb);
    emit deviceCapacityChanged();
}

namespace {

// The five sizes in the order they are stored: pp, dp, cp, tp, ep.
int& sizeAt(query::ParallelSizes& s, int i)
{
    switch (i) {
    case 0:
        return s.pp;
    case 1:
        return s.dp;
    case 2:
        return s.cp;
    case 3:
        return s.tp;
    default:
        return s.ep;
    }
}

QString sizesSettingKey(const QString& inputSet)
{
    return QStringLiteral("%1/%2").arg(QLatin1String(Workspace::kSizesSetting), inputSet);
}

std::optional<query::ParallelSizes> readSizes(const QString& inputSet)
{
    if (inputSet.isEmpty())
        return std::nullopt;
    const QStringList parts
        = QSettings().value(sizesSettingKey(inputSet)).toString().split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (parts.size() != 5)
        return std::nullopt;
    query::ParallelSizes s;
    for (int i = 0; i < 5; ++i) {
        bool ok = false;
        sizeAt(s, i) = parts[i].toInt(&ok);
        if (!ok)
            return std::nullopt;
    }
    return s;
}

} // namespace

std::optional<query::ParallelSizes> Workspace::parallelSizes() const
{
    // Read once per input set; an input set without paths (a model given directly) keeps its sizes in memory only.
    const QString key = inputSetKey(m_sourcePaths);
    if (key != m_sizesInputSet) {
        m_sizes = readSizes(key);
        m_sizesInputSet = key;
    }
    return m_sizes;
}

void Workspace::setParallelSizes(std::optional<query::ParallelSizes> sizes)
{
    if (sizes == parallelSizes())
        return;
    m_sizes = sizes;
    if (!m_sizesInputSet.isEmpty()) {
        QSettings settings;
        if (sizes) {
            QStringList parts;
            for (int i = 0; i < 5; ++i)
                parts << QString::number(sizeAt(*sizes, i));
            settings.setValue(sizesSettingKey(m_sizesInputSet), parts.join(QLatin1Char(',')));
        } else {
            settings.remove(sizesSettingKey(m_sizesInputSet));
        }
    }
    emit parallelSizesChanged();
}

QString Workspace::inputSetKey(const QStringList& sourcePaths)
{
    QStringList paths;
    for (const QString& p : sourcePaths) {
        const QFileInfo info(p);
        const QString canonical = info.canonicalFilePath();
        paths << QDir::cleanPath(canonical.isEmpty() ? info.absoluteFilePath() : canonical);
    }
    paths.removeDuplicates();
    paths.sort();
    if (paths.isEmpty())
        return {};
    return QString::fromLatin1(
        QCryptographicHash::hash(paths.join(QLatin1Char('\n')).toUtf8(), QCryptographicHash::Sha1).toHex());
}

} // namespace npuscope::gui
