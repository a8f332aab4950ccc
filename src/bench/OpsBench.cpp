// SPDX-License-Identifier: Apache-2.0
// npuscope-bench ops: the operator table (query::OperatorQuery) on a model of many kernel rows. Issue 11's target is a
// regroup or compare switch on 1,000,000 rows in <= 100 ms median; the baseline measured in the same run is SQLite's
// GROUP BY over the same table (what a view would run without the index).
#include "BenchCases.h"

#include "npuscope/model/Database.h"
#include "npuscope/model/ModelWriter.h"
#include "npuscope/model/Rows.h"
#include "npuscope/query/OperatorQuery.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace npuscope::bench {

namespace {

// splitmix64: deterministic row contents without <random>'s per-platform differences.
uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// rows kernels over ranks, ~60 op types, ~600 names, ~3 input shapes per name: the spread of a large model's
// kernel_details.csv.
void fill(model::Database& db, int64_t rows, int ranks)
{
    model::ModelWriter writer(db);
    writer.begin();
    for (int64_t i = 0; i < rows; ++i) {
        const uint64_t h = mix(static_cast<uint64_t>(i));
        const auto type = static_cast<int>(h % 60);
        const auto name = type * 10 + static_cast<int>((h >> 8) % 10);
        model::KernelRow r;
        r.rankId = i % ranks;
        r.name = "Op" + std::to_string(name);
        r.type = "Type" + std::to_string(type);
        r.acceleratorCore = std::string(type % 3 ? "AI_CORE" : "AI_VECTOR_CORE");
        r.ts = i * 1000;
        r.dur = 1000 + static_cast<int64_t>((h >> 16) % 100000);
        r.waitNs = static_cast<int64_t>((h >> 32) % 5000);
        r.inputShapes = std::to_string(1 << ((h >> 40) % 3)) + ",4096";
        writer.addKernel(r);
    }
    writer.commit();
}

template <typename F> std::vector<double> timed(int repeat, F&& f)
{
    std::vector<double> out;
    for (int i = 0; i < repeat; ++i) {
        const auto t0 = Clock::now();
        f();
        out.push_back(msSince(t0));
    }
    return out;
}

} // namespace

int opsTable(const std::vector<std::string>& args)
{
    int64_t rows = 1000000;
    int ranks = 8;
    for (size_t i = 0; i + 1 < args.size(); i += 2) {
        if (args[i] == "--rows")
            rows = std::max<int64_t>(1, std::stoll(args[i + 1]));
        else if (args[i] == "--ranks")
            ranks = std::max(2, std::stoi(args[i + 1]));
        else {
            std::fprintf(stderr, "npuscope-bench ops: unknown option %s\n", args[i].c_str());
            return 2;
        }
    }
    auto db = model::Database::createModel();
    auto t0 = Clock::now();
    fill(*db, rows, ranks);
    print("ops.rows", static_cast<double>(rows), "rows");
    print("ops.fill_ms", msSince(t0), "ms");
    t0 = Clock::now();
    const auto index = query::OperatorQuery::build(*db);
    print("ops.index_build_ms", msSince(t0), "ms");

    constexpr int kRepeat = 9;
    size_t sink = 0;
    for (const auto& grouping : { std::pair { query::OperatorGroupBy::Type, "type" },
             std::pair { query::OperatorGroupBy::Name, "name" }, std::pair { query::OperatorGroupBy::Shape, "shape" } }) {
        const auto by = grouping.first; // not a structured binding: clang 14 cannot capture one in a lambda
        const auto* name = grouping.second;
        const auto all = timed(kRepeat, [&] { sink += index->group(by).size(); });
        print(std::string("ops.regroup.") + name + ".median_ms", percentile(all, 0.5), "ms");
        const auto one = timed(kRepeat, [&] { sink += index->group(by, 0).size(); });
        print(std::string("ops.regroup_one_rank.") + name + ".median_ms", percentile(one, 0.5), "ms");
        const auto cmp = timed(kRepeat, [&] { sink += index->compare(by, 0, 1).size(); });
        print(std::string("ops.compare.") + name + ".median_ms", percentile(cmp, 0.5), "ms");
        // The dock's "All ranks": every rank summed per key.
        const auto sum = timed(kRepeat, [&] { sink += index->aggregate(by).size(); });
        print(std::string("ops.all_ranks.") + name + ".median_ms", percentile(sum, 0.5), "ms");
    }
    // Baseline: the same per-rank, per-type figures from SQLite over the same rows.
    const auto sql = timed(3, [&] {
        auto st = db->prepare("SELECT rank_id, type_id, COUNT(*), SUM(dur), MIN(dur), MAX(dur), SUM(wait_ns) FROM kernel "
                              "GROUP BY rank_id, type_id");
        while (st.step())
            ++sink;
    });
    const auto index1 = timed(kRepeat, [&] { sink += index->group(query::OperatorGroupBy::Type).size(); });
    print("ops.baseline.sql_group_by_type.median_ms", percentile(sql, 0.5), "ms");
    print("ops.ratio.sql_over_index", percentile(sql, 0.5) / std::max(1e-9, percentile(index1, 0.5)), "x");
    print("ops.peak_rss_mb", peakRssMb(), "MB");
    return sink > 0 ? 0 : 1;
}

} // namespace npuscope::bench
