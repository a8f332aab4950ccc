// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/compare/BaselineLoader.h"

#include "npuscope/gui/common/Workspace.h"
#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/load/ParseCache.h"
#include "npuscope/query/RankQuery.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <vector>

namespace npuscope::gui {

namespace {

struct Outcome {
    std::shared_ptr<model::Database> database;
    QString message;
};

Outcome loadBaseline(const std::vector<std::string>& inputs, bool useCache, const std::atomic<bool>* cancel)
{
    Outcome out;
    try {
        const io::LoadPlan plan = io::Detector::detect(inputs);
        if (plan.ranks.empty()) {
            out.message = QObject::tr("No profiling data found in %1")
                              .arg(QString::fromStdString(inputs.empty() ? std::string() : inputs.front()));
            return out;
        }
        load::LoadOptions options;
        // Of the deferred files only what the comparison reads, below (as npuscope-cli diff): importing the whole
        // Memory group also parsed every memory_record.csv sample, which no compare view shows.
        options.loadTimelines = false;
        const load::ParseCache cache;
        if (useCache)
            options.cache = &cache;
        std::unique_ptr<model::Database> db = load::Loader::load(plan, options, {}, cancel);
        if (db) {
            // The operator level reads only the count and Σ duration per rank, step and kernel (kernel_sum rows, as
            // npuscope-cli diff): every kernel row of a 1,024-rank baseline took minutes.
            std::vector<int64_t> ranks;
            for (const auto& r : plan.ranks)
                ranks.push_back(r.rank);
            load::Loader::loadKernelSums(*db, ranks, {}, cancel, options.cache);
            // The memory level: the peaks are memory_peak rows of the summary; the allocations per operator come
            // from operator_memory.csv alone. The model is still this thread's only.
            load::Loader::loadOperatorMemory(*db, ranks, {}, cancel);
        }
        if (!db || (cancel && cancel->load())) {
            out.message = QObject::tr("Loading the baseline was cancelled");
            return out;
        }
        const int64_t ranks = query::RankQuery::rankCount(*db);
        if (ranks == 0) {
            out.message = QObject::tr("No ranks could be loaded from the baseline");
            return out;
        }
        const int n = static_cast<int>(ranks);
        out.message = n == 1 ? BaselineLoader::tr("%n rank", nullptr, n) : BaselineLoader::tr("%n ranks", nullptr, n);
        out.database = std::move(db);
    } catch (const std::exception& e) {
        out.message = QObject::tr("The baseline could not be loaded: %1").arg(QString::fromUtf8(e.what()));
    }
    return out;
}

} // namespace

BaselineLoader::BaselineLoader(Workspace* workspace, QObject* parent)
    : QObject(parent)
    , m_workspace(workspace)
{
}

BaselineLoader::~BaselineLoader() { cancel(); }

void BaselineLoader::cancel()
{
    if (m_cancel)
        *m_cancel = true;
    m_cancel.reset();
}

void BaselineLoader::load(const QStringList& paths, bool useCache)
{
    cancel();
    QStringList absolute;
    std::vector<std::string> inputs;
    for (const QString& p : paths) {
        absolute << QFileInfo(p).absoluteFilePath();
        inputs.push_back(absolute.back().toStdString());
    }
    auto flag = std::make_shared<std::atomic<bool>>(false);
    m_cancel = flag;
    m_workspace->beginQuery();
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, flag, absolute] {
        const Outcome outcome = watcher->result();
        watcher->deleteLater();
        m_workspace->endQuery();
        if (*flag) // cancelled or superseded: a newer load or a new model owns the baseline now
            return;
        m_cancel.reset();
        if (outcome.database)
            m_workspace->setBaseline(outcome.database, absolute);
        emit finished(outcome.database != nullptr, outcome.message);
    });
    watcher->setFuture(QtConcurrent::run(
        m_workspace->jobPool(), [inputs, useCache, flag] { return loadBaseline(inputs, useCache, flag.get()); }));
}

} // namespace npuscope::gui
