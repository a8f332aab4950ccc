// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the tests share: sample paths, scratch folders, running the CLI, opening a model from folders or a plan,
// one-value queries, plan inspection and writing small files. Header-only; included by the core and GUI tests.

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"
#include "npuscope/model/Database.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace npuscope::test {

inline std::filesystem::path dataDir() { return std::filesystem::path(NPUSCOPE_TEST_DATA); }

// A fresh folder under the system temp dir, removed when the object dies.
class ScratchDir {
public:
    ScratchDir()
    {
        std::random_device rd;
        m_path = std::filesystem::temp_directory_path() / ("npuscope-test-" + std::to_string(rd()));
        std::filesystem::create_directories(m_path);
    }
    ~ScratchDir()
    {
        std::error_code ec;
        std::filesystem::permissions(m_path, std::filesystem::perms::owner_all, ec);
        std::filesystem::remove_all(m_path, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

#ifdef NPUSCOPE_CLI
struct CliRun {
    int status = -1; // exit code, -1 when it did not exit normally
    std::string out; // stdout (and stderr with withStderr)
};

// Runs npuscope-cli with args (already shell-quoted where needed) and captures its output.
inline CliRun runCli(const std::string& args, bool withStderr = false)
{
    CliRun r;
    // Appended rather than a chain of operator+ temporaries, which gcc 12 at -O1 flags with false -Wstringop-overflow.
    std::string cmd = NPUSCOPE_CLI;
    cmd += ' ';
    cmd += args;
    cmd += withStderr ? " 2>&1" : " 2>/dev/null";
    FILE* pipe = popen(cmd.c_str(), "r");
    if (!pipe)
        return r;
    std::array<char, 4096> buf {};
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0)
        r.out.append(buf.data(), n);
    const int status = pclose(pipe);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}
#endif

// A model of a detected plan; without timelines unless asked (the per-rank detail files stay deferred).
inline std::unique_ptr<model::Database> openPlan(const io::LoadPlan& plan, bool timelines = false, int threads = 0)
{
    load::LoadOptions options;
    options.loadTimelines = timelines;
    options.threads = threads;
    return load::Loader::load(plan, options);
}

// Detects the given folders and loads them as the app does.
inline std::unique_ptr<model::Database> openModel(
    const std::vector<std::string>& paths, bool timelines = false, int threads = 0)
{
    return openPlan(io::Detector::detect(paths), timelines, threads);
}

inline std::unique_ptr<model::Database> openFolder(
    const std::filesystem::path& path, bool timelines = false, int threads = 0)
{
    return openModel(std::vector<std::string> { path.string() }, timelines, threads);
}

// The first column of the first row as an integer, or -1 when there is none.
inline int64_t count(model::Database& db, const std::string& sql) { return db.scalarInt(sql).value_or(-1); }

// The first column of the first row as a double, or -1 when there is none or it is NULL.
inline double real(model::Database& db, const std::string& sql)
{
    auto st = db.prepare(sql);
    return st.step() && !st.isNull(0) ? st.real(0) : -1.0;
}

// The first column of the first row as text, or "<none>".
inline std::string text(model::Database& db, const std::string& sql)
{
    auto st = db.prepare(sql);
    return st.step() ? st.text(0) : std::string("<none>");
}

// Every row of a query as "a|b|NULL", in the order returned.
inline std::vector<std::string> rows(model::Database& db, const std::string& sql)
{
    std::vector<std::string> out;
    auto st = db.prepare(sql);
    while (st.step()) {
        std::string r;
        for (int c = 0; c < st.columnCount(); ++c)
            r += (c ? "|" : "") + st.optText(c).value_or("NULL");
        out.push_back(std::move(r));
    }
    return out;
}

// Every row of a query as text, one line each: a fingerprint of the content for comparing two models (independent
// of row and string ids when the query selects values, not ids).
inline std::string dump(model::Database& db, const std::string& sql)
{
    std::string out;
    for (const auto& r : rows(db, sql))
        out += r + "\n";
    return out;
}

// The same as a multiset, for comparisons that do not depend on row order.
inline std::multiset<std::string> rowSet(model::Database& db, const std::string& sql)
{
    const auto r = rows(db, sql);
    return { r.begin(), r.end() };
}

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

inline void writeFile(const std::filesystem::path& p, const std::string& content)
{
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
}

inline std::string readFile(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace npuscope::test
