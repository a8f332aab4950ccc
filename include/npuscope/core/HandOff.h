// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/core/ThreadPriority.h"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace npuscope {

// Two-stage pipeline: the thread that owns a HandOff fills items, a second thread consumes them in the same order
// while the next ones are filled. At most `slots` items exist; they are reused (a vector or string member keeps its
// buffer), so memory stays at slots items whatever the count. An exception in consume stops the pipeline: slot()
// then throws HandOff::Stopped and finish() rethrows the consumer's exception. Destroying a HandOff without finish()
// (the producer threw) stops the consumer after the item it is on and joins it.
template <typename T> class HandOff {
public:
    struct Stopped : std::exception {
        const char* what() const noexcept override { return "HandOff: the consumer stopped"; }
    };

    HandOff(size_t slots, std::function<void(T&)> consume)
        : m_items(slots < 1 ? 1 : slots)
        , m_consume(std::move(consume))
    {
        for (auto& item : m_items)
            m_free.push_back(&item);
        m_thread = std::thread([this] { run(); });
    }
    HandOff(const HandOff&) = delete;
    HandOff& operator=(const HandOff&) = delete;
    ~HandOff()
    {
        if (m_thread.joinable()) {
            {
                std::lock_guard lock(m_mutex);
                m_stop = true;
            }
            m_changed.notify_all();
            m_thread.join();
        }
    }

    // The item to fill next (waits while every item is with the consumer). Its content is what it held when last
    // consumed: the producer resets what it needs.
    T& slot()
    {
        if (!m_current) {
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock, [this] { return !m_free.empty() || m_failed; });
            if (m_failed)
                throw Stopped {};
            m_current = m_free.front();
            m_free.pop_front();
        }
        return *m_current;
    }
    // Passes the item slot() returned to the consumer.
    void hand()
    {
        if (!m_current)
            return;
        {
            std::lock_guard lock(m_mutex);
            m_full.push_back(m_current);
        }
        m_current = nullptr;
        m_changed.notify_all();
    }
    // Waits until every handed item is consumed and the consumer thread ended; rethrows its exception.
    void finish()
    {
        {
            std::lock_guard lock(m_mutex);
            m_done = true;
        }
        m_changed.notify_all();
        m_thread.join();
        if (m_error)
            std::rethrow_exception(m_error);
    }

private:
    void run()
    {
        enterBackground();
        for (;;) {
            T* item = nullptr;
            {
                std::unique_lock lock(m_mutex);
                m_changed.wait(lock, [this] { return !m_full.empty() || m_done || m_stop; });
                if (m_stop || m_full.empty())
                    return;
                item = m_full.front();
                m_full.pop_front();
            }
            try {
                m_consume(*item);
            } catch (...) {
                std::lock_guard lock(m_mutex);
                m_error = std::current_exception();
                m_failed = true;
                m_changed.notify_all();
                return;
            }
            {
                std::lock_guard lock(m_mutex);
                m_free.push_back(item);
            }
            m_changed.notify_all();
        }
    }

    std::vector<T> m_items;
    std::function<void(T&)> m_consume;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<T*> m_free, m_full;
    T* m_current = nullptr; // the producer's item (only the producer touches it)
    bool m_done = false; // no more items will be handed
    bool m_stop = false; // the producer gave up: end now
    bool m_failed = false; // consume threw
    std::exception_ptr m_error;
    std::thread m_thread;
};

} // namespace npuscope
