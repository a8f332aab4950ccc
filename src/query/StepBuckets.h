// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace npuscope::query {

// Each step's [begin, end) in an index's array, by ascending step.
using StepRanges = std::vector<std::pair<int64_t, std::pair<size_t, size_t>>>;

// Reorders items by step, keeping the order within a step (a counting sort: a job has a handful of steps, and a
// 1,024-rank index holds hundreds of thousands of rows, which std::stable_sort moved through a buffer of the same
// size log n times). Items without a step (hasStep(item) false) go first and get no range: they are only part of
// "every step". Vector is a std::vector of a default-constructible type (any allocator).
template <typename Vector, typename HasStep, typename Step>
StepRanges bucketBySteps(Vector& items, HasStep hasStep, Step step)
{
    using T = typename Vector::value_type;
    std::vector<int64_t> steps;
    size_t withoutStep = 0;
    for (const T& item : items) {
        if (!hasStep(item)) {
            ++withoutStep;
            continue;
        }
        const int64_t s = step(item);
        if (std::find(steps.begin(), steps.end(), s) == steps.end())
            steps.push_back(s);
    }
    std::sort(steps.begin(), steps.end());
    std::vector<size_t> counts(steps.size(), 0);
    auto slot = [&](int64_t s) {
        return static_cast<size_t>(std::lower_bound(steps.begin(), steps.end(), s) - steps.begin());
    };
    for (const T& item : items) {
        if (hasStep(item))
            ++counts[slot(step(item))];
    }
    StepRanges ranges;
    std::vector<size_t> next(steps.size());
    size_t at = withoutStep;
    for (size_t i = 0; i < steps.size(); ++i) {
        next[i] = at;
        ranges.push_back({ steps[i], { at, at + counts[i] } });
        at += counts[i];
    }
    if (!steps.empty()) {
        Vector out(items.size());
        size_t none = 0;
        for (T& item : items)
            out[hasStep(item) ? next[slot(step(item))]++ : none++] = std::move(item);
        items.swap(out);
    }
    return ranges;
}

// Index of an integer id among dense ids (SQLite INTEGER PRIMARY KEYs of one table): a vector over [min, max] when
// the range is at most a few times the count, else a hash map. Ids not added map to npos.
class DenseIdMap {
public:
    static constexpr size_t npos = static_cast<size_t>(-1);
    DenseIdMap(int64_t minId, int64_t maxId, size_t count)
    {
        if (count > 0 && maxId >= minId
            && static_cast<uint64_t>(maxId - minId) < 4 * static_cast<uint64_t>(count) + 64) {
            m_min = minId;
            m_dense.assign(static_cast<size_t>(maxId - minId) + 1, npos);
        }
    }
    void add(int64_t id, size_t value)
    {
        if (!m_dense.empty() && id >= m_min && id - m_min < static_cast<int64_t>(m_dense.size()))
            m_dense[static_cast<size_t>(id - m_min)] = value;
        else
            m_sparse.emplace_back(id, value);
    }
    // After the last add, before the first find.
    void seal() { std::sort(m_sparse.begin(), m_sparse.end()); }
    size_t find(int64_t id) const
    {
        if (!m_dense.empty() && id >= m_min && id - m_min < static_cast<int64_t>(m_dense.size()))
            return m_dense[static_cast<size_t>(id - m_min)];
        const auto it = std::lower_bound(m_sparse.begin(), m_sparse.end(), std::pair(id, size_t(0)));
        return it != m_sparse.end() && it->first == id ? it->second : npos;
    }

private:
    int64_t m_min = 0;
    std::vector<size_t> m_dense;
    std::vector<std::pair<int64_t, size_t>> m_sparse;
};

} // namespace npuscope::query
