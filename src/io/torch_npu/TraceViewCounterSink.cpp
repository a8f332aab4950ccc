// SPDX-License-Identifier: Apache-2.0
// The trace_view.json import's counter rows: CounterSink batches them on the parse thread and inserts them on a
// second thread while the parse continues (or inline when no thread can be started).
#include "TraceViewParts.h"

#include "npuscope/core/ThreadPriority.h"

#include <system_error>

namespace npuscope::io::trace_view {

CounterSink::CounterSink(model::ModelWriter& writer, int64_t rankId)
    : m_writer(writer)
{
    m_row.rankId = rankId;
    try {
        m_thread = std::thread([this] {
            enterBackground();
            work();
        });
    } catch (const std::system_error&) {
        m_inline = true;
    }
}

CounterSink::~CounterSink()
{
    try {
        close();
    } catch (...) {
        // Only reached while another exception unwinds; that one is reported.
    }
}

void CounterSink::add(int64_t pid, int64_t ts, std::string_view name, std::string_view series, double value)
{
    if (m_inline) {
        insert(pid, ts, name, series, value);
        return;
    }
    Record r { pid, ts, value, static_cast<uint32_t>(m_filling.text.size()), static_cast<uint32_t>(name.size()),
        static_cast<uint32_t>(series.size()) };
    m_filling.text.append(name);
    m_filling.text.append(series);
    m_filling.records.push_back(r);
    if (m_filling.records.size() >= kBatchRecords || m_filling.text.size() >= kBatchText)
        flush();
}

void CounterSink::close()
{
    if (!m_inline && m_thread.joinable()) {
        flush();
        {
            std::lock_guard lock(m_mutex);
            m_done = true;
        }
        m_cv.notify_all();
        m_thread.join();
    }
    if (m_error) {
        auto e = std::exchange(m_error, nullptr);
        std::rethrow_exception(e);
    }
}

void CounterSink::flush()
{
    if (m_filling.records.empty())
        return;
    std::unique_lock lock(m_mutex);
    m_cv.wait(lock, [this] { return m_queue.size() < kMaxQueued; });
    m_queue.push_back(std::move(m_filling));
    m_filling = {};
    if (!m_spare.empty()) {
        m_filling = std::move(m_spare.back());
        m_spare.pop_back();
    }
    lock.unlock();
    m_cv.notify_all();
}

void CounterSink::work()
{
    for (;;) {
        Batch batch;
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait(lock, [this] { return !m_queue.empty() || m_done; });
            if (m_queue.empty())
                return;
            batch = std::move(m_queue.front());
            m_queue.pop_front();
        }
        m_cv.notify_all();
        if (!m_error) {
            try {
                for (const Record& r : batch.records) {
                    const std::string_view text(batch.text.data() + r.textOffset, r.nameLen + r.seriesLen);
                    insert(r.pid, r.ts, text.substr(0, r.nameLen), text.substr(r.nameLen), r.value);
                }
            } catch (...) {
                m_error = std::current_exception();
            }
        }
        batch.records.clear();
        batch.text.clear();
        std::lock_guard lock(m_mutex);
        if (m_spare.size() < kMaxQueued)
            m_spare.push_back(std::move(batch));
    }
}

void CounterSink::insert(int64_t pid, int64_t ts, std::string_view name, std::string_view series, double value)
{
    if (name != m_lastName || m_lastNameId == 0) {
        m_lastName.assign(name);
        m_lastNameId = m_writer.intern(name);
    }
    m_row.pid = pid;
    m_row.ts = ts;
    m_row.nameId = m_lastNameId;
    m_row.series.assign(series);
    m_row.value = value;
    m_writer.addCounter(m_row);
}

} // namespace npuscope::io::trace_view
