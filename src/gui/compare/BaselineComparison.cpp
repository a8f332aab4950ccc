// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/compare/BaselineComparison.h"

#include "npuscope/gui/common/QueryRunner.h"
#include "npuscope/gui/common/Workspace.h"
#include "npuscope/io/detect/LoadPlan.h"
#include "npuscope/load/Loader.h"
#include "npuscope/query/RankQuery.h"
#include "npuscope/query/compare/RunComparison.h"

#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>

namespace npuscope::gui {

BaselineComparison* BaselineComparison::of(Workspace* workspace)
{
    if (auto* existing = workspace->findChild<BaselineComparison*>(QString(), Qt::FindDirectChildrenOnly))
        return existing;
    return new BaselineComparison(workspace);
}

BaselineComparison::BaselineComparison(Workspace* workspace)
    : QObject(workspace)
    , m_workspace(workspace)
    , m_runner(new QueryRunner(workspace, QStringLiteral("Compare"), this))
{
    connect(workspace, &Workspace::baselineChanged, this, &BaselineComparison::recompute);
    // A new model drops the comparison (MainWindow drops the baseline too: it belonged to the old model).
    connect(workspace, &Workspace::databaseChanged, this, [this] {
        m_runner->cancelPending();
        setComparison(nullptr);
    });
    recompute();
}

bool BaselineComparison::isBusy() const { return m_runner->isBusy(); }

void BaselineComparison::setComparison(std::shared_ptr<const query::RunDiff> comparison)
{
    if (comparison == m_comparison)
        return;
    m_comparison = std::move(comparison);
    emit comparisonChanged();
}

void BaselineComparison::recompute()
{
    m_runner->cancelPending();
    setComparison(nullptr);
    const auto base = m_workspace->baseline();
    if (!base || !m_workspace->database())
        return;
    // Kernel sums and operator_memory rows come from each rank's deferred files: import them (parsed without the
    // model lock), then compare; RunComparison takes each model's lock itself.
    m_runner->runUnlocked(
        [base, cache = m_workspace->parseCache()](const std::shared_ptr<model::Database>& db) {
            std::vector<int64_t> ranks;
            {
                auto guard = db->lock();
                for (const auto& r : query::RankQuery::ranks(*db))
                    ranks.push_back(r.rank);
            }
            // Ranks parse in parallel (the loader merges each under the model lock). Of the kernel files only the
            // count and Σ duration per step and kernel (kernel_sum, as npuscope-cli diff; ranks whose kernels a view
            // imported keep their kernel rows).
            // A pool of the job's own: blocking on the pool this job runs on could wait for itself, and Qt's global
            // pool is the painter's.
            QThreadPool ranksPool;
            ranksPool.setMaxThreadCount(std::max(1, QThread::idealThreadCount()));
            QtConcurrent::blockingMap(&ranksPool, ranks, [&db, &cache](int64_t rank) {
                load::Loader::loadDeferred(*db, rank, io::kMemoryGroup, {}, nullptr, cache.get());
            });
            load::Loader::loadKernelSums(*db, ranks, {}, nullptr, cache.get());
            return std::make_shared<const query::RunDiff>(query::RunComparison::compare(*base, *db, {}));
        },
        [this, base](std::shared_ptr<const query::RunDiff> diff) {
            if (m_workspace->baseline() == base)
                setComparison(std::move(diff));
        });
}

} // namespace npuscope::gui
