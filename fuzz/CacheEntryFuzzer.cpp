// SPDX-License-Identifier: Apache-2.0
#include "CacheEntryFuzzer.h"

#include "FuzzScratch.h"

#include "npuscope/io/detect/Detector.h"
#include "npuscope/load/Loader.h"

#include <fstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace npuscope::fuzz {

namespace {

load::ParseCache::Options cacheOptions(const fs::path& dir)
{
    load::ParseCache::Options options;
    options.dir = dir.string();
    return options;
}

} // namespace

CacheEntryFuzzer& CacheEntryFuzzer::instance()
{
    static CacheEntryFuzzer fuzzer;
    return fuzzer;
}

CacheEntryFuzzer::CacheEntryFuzzer()
    : m_cacheDir(FuzzScratch::instance().freshFolder("cache-entry/cache"))
    , m_cache(cacheOptions(m_cacheDir))
{
    auto& scratch = FuzzScratch::instance();
    const std::string rank = "cache-entry/rank_0_ascend_pt/ASCEND_PROFILER_OUTPUT/";
    scratch.write("cache-entry/rank_0_ascend_pt/profiler_info_0.json",
        R"({"config":{"common_config":{"level":"Level1"}},"rank_id":0,"end_info":{"collectionTimeEnd":"1700000000000000"}})");
    scratch.write(rank + "step_trace_time.csv",
        "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,Communication(Not "
        "Overlapped and Exclude Receive),Preparing\n1,100.5,20,5,25,3,0,0,20,1\n");
    scratch.write(rank + "kernel_details.csv",
        "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\n"
        "1,MatMul_1,MatMul,AI_CORE,1700000000000001.250,10.5,0.1,8\n");
    scratch.write(rank + "operator_memory.csv",
        "Name,Size(KB),Allocation Time(us),Release Time(us),Duration(us),Allocation Total Allocated(MB),Allocation "
        "Total Reserved(MB),Release Total Allocated(MB),Release Total Reserved(MB),Device Type\n"
        "aten::empty,4,1700000000000001.0,1700000000000002.0,1.0,1,2,0,2,NPU:0\n");
    m_plan = io::Detector::detect({ (scratch.root() / "cache-entry/rank_0_ascend_pt").string() });
    load::LoadOptions options;
    options.cache = &m_cache;
    options.threads = 1;
    if (!load::Loader::load(m_plan, options))
        throw std::runtime_error("cache-entry fuzzer: the seed folder does not load");
    for (const auto& entry : fs::directory_iterator(m_cacheDir)) {
        if (entry.path().extension() == ".npdb")
            m_entries.push_back(entry.path());
    }
    if (m_entries.empty())
        throw std::runtime_error("cache-entry fuzzer: the load stored no cache entry");
}

void CacheEntryFuzzer::writeSeeds(const fs::path& dir) const
{
    fs::create_directories(dir);
    for (const auto& entry : m_entries)
        fs::copy_file(entry, dir / entry.filename(), fs::copy_options::overwrite_existing);
}

void CacheEntryFuzzer::run(const uint8_t* data, size_t size)
{
    for (const auto& entry : m_entries) {
        std::ofstream out(entry, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    load::LoadOptions options;
    options.cache = &m_cache;
    options.threads = 1;
    // Odd first byte: the whole model at once (the full entry); even: the summary entry, then each deferred group.
    options.loadTimelines = size > 0 && (data[0] & 1) != 0;
    auto db = load::Loader::load(m_plan, options);
    if (db && !options.loadTimelines)
        load::Loader::loadDeferred(*db, 0, io::kAllGroups, {}, nullptr, &m_cache);
}

} // namespace npuscope::fuzz
