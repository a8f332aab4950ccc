// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/core/TrText.h"
#include "npuscope/io/parse/IssueText.h"
#include "npuscope/model/ModelWriter.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace npuscope::io {

// Facts one importer of a rank learns that a later importer of the same rank uses. The loader
// imports profiler_info and profiler_metadata first, so the communication importers see them.
struct RankState {
    // Communication groups of this rank from profiler_metadata.json parallel_group_info:
    // '@' hash (double_hash of the raw group id) -> global ranks sorted ascending (index = local rank).
    std::map<std::string, std::vector<int64_t>> groupRanks;
    // Cluster summary files (cluster_analysis_output) on this rank: ranks whose step and communication figures come
    // from their own per-rank folders instead; the summary importers skip their rows (PlannedRank::summaryReplaced).
    std::set<int64_t> summaryReplaced;
    bool skipsSummaryRank(int64_t rank) const { return summaryReplaced.count(rank) > 0; }
};

// What an importer gets: the writer, the rank and file it is importing, a cancel flag and a way
// to report problems. Problems become parse_issue rows; importers never throw for bad input.
// Used by one thread at a time (the thread running the importer).
class ImportContext {
public:
    ImportContext(
        model::ModelWriter& writer, int64_t rankId, std::string file, const std::atomic<bool>* cancel = nullptr);

    model::ModelWriter& writer() { return m_writer; }
    int64_t rankId() const { return m_rankId; }
    const std::string& file() const { return m_file; }

    // Records a problem with this file. line is 1-based (CSV line) or nullopt when unknown. message is a template
    // marked QT_TRANSLATE_NOOP("ParseIssue", ...) (issueText) with its arguments (file names, numbers, keys verbatim):
    // the parse_issue row keeps its English rendering as message and the tree as message_template for the GUI. After
    // kMaxIssuesPerFile issues further ones are counted and summarised by finish().
    void report(model::Severity severity, std::optional<int64_t> line, TrText message);
    void warning(std::optional<int64_t> line, TrText message)
    {
        report(model::Severity::Warning, line, std::move(message));
    }
    void error(std::optional<int64_t> line, TrText message)
    {
        report(model::Severity::Error, line, std::move(message));
    }
    void info(std::optional<int64_t> line, TrText message) { report(model::Severity::Info, line, std::move(message)); }

    // Writes the "N more problems" summary, if any were suppressed.
    void finish();

    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }
    int issueCount() const { return m_issues; }
    int errorCount() const { return m_errors; }

    // Optional byte progress callback for large files (bytes consumed so far).
    std::function<void(uint64_t)> onBytes;

    // State shared by the importers of this rank; never null.
    RankState& rankState() { return *m_state; }
    void setRankState(std::shared_ptr<RankState> state) { m_state = std::move(state); }

    static constexpr int kMaxIssuesPerFile = 50;

private:
    model::ModelWriter& m_writer;
    int64_t m_rankId;
    std::string m_file;
    const std::atomic<bool>* m_cancel;
    int m_issues = 0;
    int m_errors = 0;
    int m_suppressed = 0;
    std::shared_ptr<RankState> m_state = std::make_shared<RankState>();
};

} // namespace npuscope::io
