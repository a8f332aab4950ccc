// SPDX-License-Identifier: Apache-2.0
#include "npuscope/testgen/TimelineGenerator.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>

namespace npuscope::testgen {

using namespace query;

namespace {

constexpr int kNames = 48;

struct Filler {
    std::mt19937_64 rng;
    SliceTrack* track = nullptr;
    int maxDepth = 0;
    int64_t budget = 0;

    int64_t logUniform(double lo, double hi)
    {
        std::uniform_real_distribution<double> u(std::log(lo), std::log(hi));
        return static_cast<int64_t>(std::exp(u(rng)));
    }

    // Children of [s, e) at depth d: a few slices with gaps, each possibly nested further.
    void fill(int64_t s, int64_t e, int depth)
    {
        if (depth > maxDepth || budget <= 0 || e - s < 4)
            return;
        std::uniform_int_distribution<int> count(1, 6);
        const int n = count(rng);
        const int64_t slot = (e - s) / n;
        for (int k = 0; k < n && budget > 0; ++k) {
            const int64_t a = s + slot * k
                + static_cast<int64_t>(std::uniform_real_distribution<double>(0, 0.2)(rng) * static_cast<double>(slot));
            const int64_t b = std::max(a + 1,
                s + slot * (k + 1)
                    - static_cast<int64_t>(
                        std::uniform_real_distribution<double>(0, 0.3)(rng) * static_cast<double>(slot)));
            add(a, b, depth);
            if (std::uniform_real_distribution<double>(0, 1)(rng) < 0.6)
                fill(a, b, depth + 1);
        }
    }

    void add(int64_t a, int64_t b, int depth)
    {
        if (track->levels.size() <= static_cast<size_t>(depth))
            track->levels.resize(static_cast<size_t>(depth) + 1);
        const int64_t name = std::uniform_int_distribution<int64_t>(1, kNames)(rng);
        track->levels[static_cast<size_t>(depth)].push(a, b, name, 0);
        --budget;
    }
};

} // namespace

RankTimelinePtr TimelineGenerator::generate(int64_t slices, int rows, int maxDepth, uint64_t seed, int64_t origin)
{
    auto tl = std::make_shared<RankTimeline>();
    tl->rank = 0;
    for (int64_t i = 1; i <= kNames; ++i)
        tl->names.emplace(i,
            "kernel_" + std::to_string(i)
                + (i % 3 == 0        ? "_MatMul"
                        : i % 3 == 1 ? "_Add"
                                     : "_AllReduce"));
    const int processes = std::max(1, rows / 8);
    for (int p = 0; p < processes; ++p) {
        TimelineProcess proc;
        proc.pid = 1000 + p;
        proc.name = "Process " + std::to_string(p);
        proc.sortIndex = p;
        tl->processes.push_back(proc);
    }
    Filler filler { std::mt19937_64(seed), nullptr, maxDepth, 0 };
    for (int r = 0; r < rows; ++r) {
        SliceTrack track;
        track.pid = 1000 + r % processes;
        track.tid = r;
        track.name = "Stream " + std::to_string(r);
        track.sortIndex = r;
        tl->tracks.push_back(std::move(track));
        filler.track = &tl->tracks.back();
        filler.budget = slices / rows + (r < slices % rows ? 1 : 0);
        int64_t t = origin;
        while (filler.budget > 0) {
            t += filler.logUniform(50, 200000); // gap
            const int64_t dur = filler.logUniform(100, 3'000'000);
            filler.add(t, t + dur, 0);
            filler.fill(t, t + dur, 1);
            t += dur;
        }
        tl->processes[static_cast<size_t>(r % processes)].tracks.push_back(r);
    }
    tl->finish();
    return tl;
}

} // namespace npuscope::testgen
