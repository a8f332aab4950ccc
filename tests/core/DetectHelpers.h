// SPDX-License-Identifier: Apache-2.0
#pragma once

// Helpers of the detection tests: plan issues and kinds, loading a plan, one-value queries, writing small files.

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace npuscope::test {

inline bool hasIssue(const io::LoadPlan& plan, const std::string& text, const std::string& severity = {})
{
    return std::any_of(plan.issues.begin(), plan.issues.end(), [&](const io::PlanIssue& i) {
        return i.message.find(text) != std::string::npos && (severity.empty() || i.severity == severity);
    });
}

inline std::vector<io::FileKind> kindsOf(const io::PlannedRank& r)
{
    std::vector<io::FileKind> out;
    for (const auto& f : r.files)
        out.push_back(f.kind);
    return out;
}

inline std::unique_ptr<model::Database> openModel(const io::LoadPlan& plan, bool timelines = false)
{
    load::LoadOptions options;
    options.loadTimelines = timelines;
    return load::Loader::load(plan, options);
}

inline int64_t count(model::Database& db, const std::string& sql) { return db.scalarInt(sql).value_or(-1); }

inline std::string text(model::Database& db, const std::string& sql)
{
    auto st = db.prepare(sql);
    return st.step() ? st.text(0) : std::string("<none>");
}

inline void writeFile(const std::filesystem::path& p, const std::string& content)
{
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
}

} // namespace npuscope::test
