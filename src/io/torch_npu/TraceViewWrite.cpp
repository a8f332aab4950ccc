// SPDX-License-Identifier: Apache-2.0
// The end of the trace_view.json import: Importer::finish() writes the merged data once the file is parsed; the
// processes, then each (pid, tid) track's thread row and its slices, sorted and nested, in multi-row inserts while a
// second thread sorts the flow points (written by TraceViewFlows.cpp), and the notes on events that were not imported.
#include "TraceViewParts.h"

#include "npuscope/core/ThreadPriority.h"
#include "npuscope/core/TranslationMarker.h"
#include "npuscope/io/parse/SliceTracker.h"

#include <filesystem>
#include <system_error>

namespace npuscope::io::trace_view {

bool Importer::finish(const std::optional<FileStamp>& stamp, const std::optional<FileStamp>& stampAfter)
{
    model::OptInt argsFile;
    if (stamp && stampAfter && *stamp == *stampAfter) {
        std::error_code ec;
        const auto path = std::filesystem::absolute(m_ctx.file(), ec);
        argsFile = m_writer.addSourceFile(
            m_ctx.rankId(), ec ? m_ctx.file() : path.string(), stamp->sizeBytes, stamp->mtimeNs);
    } else if (m_slicesWithArgs > 0) {
        m_ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue",
                          "file changed while it was imported (or is not a regular file): the args of %1 slices are "
                          "not kept"),
                { std::to_string(m_slicesWithArgs) }));
    }

    writeProcesses();

    // Flows: group by (cat, id), each group in time order. Sorting them needs nothing the slice
    // inserts produce, so it runs on a second thread while the slices go to SQLite.
    std::vector<FlowKey> keys(m_flows.size());
    std::vector<uint32_t> order(m_tracks.size());
    for (uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return std::pair(m_tracks[a].pid, m_tracks[a].tid) < std::pair(m_tracks[b].pid, m_tracks[b].tid);
    });

    std::thread flowSorter;
    try {
        flowSorter = std::thread([this, &keys] {
            enterBackground();
            sortFlowKeys(keys);
        });
    } catch (const std::system_error&) {
        sortFlowKeys(keys);
    }
    struct Joiner {
        std::thread& t;
        ~Joiner()
        {
            if (t.joinable())
                t.join();
        }
    } joiner { flowSorter };

    if (!writeSlices(order, argsFile))
        return false;

    if (flowSorter.joinable())
        flowSorter.join();
    if (!writeFlows(keys))
        return false;

    reportSkippedEvents();
    return true;
}

void Importer::writeProcesses()
{
    for (const auto& [pid, p] : m_processes) {
        model::ProcessRow row;
        row.rankId = m_ctx.rankId();
        row.pid = pid;
        row.name = p.name;
        if (!row.name && m_options.processName)
            row.name = m_options.processName(pid);
        row.label = p.label;
        row.sortIndex = p.sortIndex;
        m_writer.upsertProcess(row);
    }
}

// Each track's thread row and its slices, in (pid, tid) order; the slices sorted, nested and inserted in batches. What
// binding flow points needs is kept (Track::starts, ends, parents, the ids). Returns false when cancelled.
bool Importer::writeSlices(const std::vector<uint32_t>& order, const model::OptInt& argsFile)
{
    model::ThreadRow threadRow;
    threadRow.rankId = m_ctx.rankId();
    constexpr std::size_t kRowsPerBatch = 4096;
    std::vector<model::SliceRow> rows(kRowsPerBatch);
    std::vector<int64_t> ids(kRowsPerBatch);
    for (auto& row : rows)
        row.rankId = m_ctx.rankId();
    SliceTracker nesting;
    for (uint32_t index : order) {
        Track& t = m_tracks[index];
        threadRow.pid = t.pid;
        threadRow.tid = t.tid;
        threadRow.name = t.name ? t.name : t.textTid;
        if (!threadRow.name && m_options.threadName)
            threadRow.name = m_options.threadName(t.pid, t.tid);
        threadRow.sortIndex = t.sortIndex;
        m_writer.upsertThread(threadRow);

        auto& s = t.slices;
        SliceTracker::sort(s.begin(), s.end());
        t.starts.resize(s.size());
        t.ends.resize(s.size());
        t.parents.resize(s.size());
        nesting.reset();
        for (std::size_t begin = 0; begin < s.size(); begin += kRowsPerBatch) {
            if (begin > 0 && m_ctx.cancelled()) {
                m_cancelled = true;
                return false;
            }
            const std::size_t n = std::min(kRowsPerBatch, s.size() - begin);
            for (std::size_t k = 0; k < n; ++k) {
                const std::size_t i = begin + k;
                Slice& x = s[i];
                const SliceTracker::Placement placed = nesting.place(x.ts, x.dur);
                model::SliceRow& row = rows[k];
                row.pid = t.pid;
                row.tid = t.tid;
                row.ts = x.ts;
                row.dur = x.dur;
                row.depth = placed.depth;
                row.nameId = m_strings.dbId(x.name, m_writer);
                if (x.cat != Slice::kNoCat)
                    row.catId = m_strings.dbId(x.cat, m_writer);
                else
                    row.catId.reset();
                if (x.argsLen > 0 && argsFile) {
                    row.argsFileId = argsFile;
                    row.argsOffset = static_cast<int64_t>(x.argsOffset);
                    row.argsLen = static_cast<int64_t>(x.argsLen);
                } else {
                    row.argsFileId.reset();
                    row.argsOffset.reset();
                    row.argsLen.reset();
                }
                t.starts[i] = x.ts;
                t.ends[i] = x.ts + x.dur;
                t.parents[i] = placed.parent;
            }
            m_writer.addSlices(rows.data(), n, ids.data());
            for (std::size_t k = 0; k < n; ++k) {
                const std::size_t i = begin + k;
                const int64_t id = ids[k];
                if (i == 0)
                    t.firstId = id;
                if (t.sliceIds.empty() && id != t.firstId + static_cast<int64_t>(i)) {
                    t.sliceIds.resize(s.size());
                    for (std::size_t j = 0; j < i; ++j)
                        t.sliceIds[j] = t.firstId + static_cast<int64_t>(j);
                }
                if (!t.sliceIds.empty())
                    t.sliceIds[i] = id;
            }
        }
        std::vector<Slice>().swap(s);
    }
    return true;
}

void Importer::reportSkippedEvents()
{
    for (const auto& [kind, count] : m_ignored)
        m_ctx.info(std::nullopt,
            issueText(QT_TRANSLATE_NOOP(
                          "ParseIssue", "%1 events with ph \"%2\" are not imported (only X, C, M, s, t, f are)"),
                { std::to_string(count), kind }));
    if (m_nonObjectEvents)
        m_ctx.warning(std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1 entries of the event array are not objects"),
                { std::to_string(m_nonObjectEvents) }));
}

} // namespace npuscope::io::trace_view
