// SPDX-License-Identifier: Apache-2.0
#include "FuzzTarget.h"

#include "CacheEntryFuzzer.h"
#include "FolderDescription.h"
#include "FuzzScratch.h"

#include "npuscope/core/CsvReader.h"
#include "npuscope/io/detect/Detector.h"
#include "npuscope/io/detect/FileKinds.h"
#include "npuscope/io/torch_npu/ProfilerInfoImporter.h"
#include "npuscope/load/Loader.h"
#include "npuscope/model/Database.h"
#include "npuscope/model/ModelWriter.h"

#include <sqlite3.h>

#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace npuscope::fuzz {

namespace {

// Small inputs: each exec costs about its size (the comparison tracing of libFuzzer on every byte loop), and the
// bugs of a parser show on a few KB; 64 KB gave 40-160 execs per CPU second, 8 KB several times more.
constexpr size_t kTextMaxLen = 8 * 1024;
constexpr size_t kFolderMaxLen = 16 * 1024;
constexpr size_t kDbMaxLen = 1024 * 1024;

using Importer = std::function<bool(io::ImportContext&)>;

// The model every importing target writes into: created once per process (the schema costs more than most inputs),
// and each input's rows are rolled back, so every input starts from the same empty model a fresh one would give.
model::Database& scratchModel()
{
    static const auto db = model::Database::createModel();
    return *db;
}

// Runs importers over data written as fileName, into the empty scratch model, the way the loader does: an exception
// is caught and reported (Loader's importFile does the same), so only crashes, sanitizer reports and hangs are
// findings. The importers of one call share the rank's state, as a rank's importers do. The transaction is this
// function's (the writer never begins one) and is rolled back at the end, whatever happened.
void importAs(const std::string& fileName, const uint8_t* data, size_t size, const std::vector<Importer>& importers)
{
    const std::string path = FuzzScratch::instance().write(fileName, data, size);
    auto& db = scratchModel();
    db.exec("BEGIN");
    // Rolled back however the import ends (SQLite may have rolled back already after an error of its own).
    const std::unique_ptr<model::Database, void (*)(model::Database*)> rollback(&db, [](model::Database* d) {
        if (!sqlite3_get_autocommit(d->handle()))
            d->exec("ROLLBACK");
    });
    {
        model::ModelWriter writer(db);
        const auto state = std::make_shared<io::RankState>();
        for (const auto& importer : importers) {
            io::ImportContext ctx(writer, 0, path);
            ctx.setRankState(state);
            try {
                importer(ctx);
            } catch (const std::exception& e) {
                ctx.error(std::nullopt, std::string("import failed: ") + e.what());
            }
            ctx.finish();
        }
    }
}

void csvReader(const uint8_t* data, size_t size)
{
    const std::string path = FuzzScratch::instance().write("reader.csv", data, size);
    for (const size_t limit : { CsvReader::kMaxRecordBytes, size_t(64) }) {
        CsvReader reader;
        std::string error;
        if (!reader.open(path, error))
            return;
        reader.setMaxRecordBytes(limit);
        std::vector<std::string> fields;
        while (reader.next(fields)) { }
    }
    CsvReader text;
    text.openText(std::string(reinterpret_cast<const char*>(data), size));
    std::vector<std::string> fields;
    while (text.next(fields)) { }
}

// The fixed files a kind's fuzzed file is read with (FuzzPrelude), written before it; for ProfilerMetadata the
// metadata importer that reads it, to run first.
std::vector<Importer> prelude(io::FuzzPrelude which)
{
    switch (which) {
    case io::FuzzPrelude::None:
        return {};
    case io::FuzzPrelude::ProfilerMetadata: {
        // The rank's groups map a communication file's local ranks: a fixed metadata file, so the fuzzed bytes go to
        // the communication importer.
        const std::string metadata = FuzzScratch::instance().write("profiler_metadata.json",
            R"({"parallel_group_info":{"10":{"group_name":"dp","group_rank":0,"global_ranks":[0,1]}},)"
            R"("distributed_args":{"world_size":2,"rank":0}})");
        return { [metadata](io::ImportContext& ctx) {
            io::ImportContext meta(ctx.writer(), 0, metadata);
            meta.setRankState(std::shared_ptr<io::RankState>(&ctx.rankState(), [](io::RankState*) {}));
            return io::MetadataImporter::run(meta);
        } };
    }
    case io::FuzzPrelude::CannStartInfo:
        // CANN timeline files sit in device_<n>/timeline/ and are placed on the epoch clock with
        // device_<n>/start_info.<n>.
        FuzzScratch::instance().write("device_0/start_info.0",
            R"({"collectionDateBegin":"2023-08-18 14:27:04.324979","collectionTimeBegin":"1692340024324979",)"
            R"("clockMonotonicRaw":"56579931060630"})");
        return {};
    }
    return {};
}

// Detection, then the whole load (summary, deferred files, group resolution, indexes) of root on one thread.
void loadRoot(const std::filesystem::path& root)
{
    const auto plan = io::Detector::detect({ root.string() });
    load::LoadOptions options;
    options.threads = 1;
    load::Loader::load(plan, options);
}

// A file kind's target (its FileKinds entry's fuzz spec): the bytes as the kind's file, read by its importer and the
// entry points that read the same file, after the prelude; or, for a kind without an importer, as the only file of a
// folder that is detected and loaded.
void fuzzKind(const io::FileKindSpec& spec, const uint8_t* data, size_t size)
{
    if (spec.fuzz.viaLoad) {
        const auto root = FuzzScratch::instance().freshFolder("kind");
        FuzzScratch::instance().write("kind/" + std::string(spec.fuzz.fileName), data, size);
        loadRoot(root);
        return;
    }
    auto importers = prelude(spec.fuzz.prelude);
    importers.emplace_back(spec.importer);
    for (const io::ImporterFn also : spec.fuzz.alsoRun)
        importers.emplace_back(also);
    importAs(spec.fuzz.fileName, data, size, importers);
}

void detect(const uint8_t* data, size_t size)
{
    const auto root = FuzzScratch::instance().freshFolder("detect");
    FolderDescription::materialise(data, size, root);
    io::Detector::detect({ root.string() });
}

// Detection, then the whole load (summary, deferred files, group resolution, indexes) on one thread.
void loadFolder(const uint8_t* data, size_t size)
{
    const auto root = FuzzScratch::instance().freshFolder("load");
    FolderDescription::materialise(data, size, root);
    loadRoot(root);
}

void parseCache(const uint8_t* data, size_t size) { CacheEntryFuzzer::instance().run(data, size); }

size_t maxLenOf(const io::FileKindSpec& spec) { return spec.format == io::FileFormat::Sqlite ? kDbMaxLen : kTextMaxLen; }

// The targets: the CSV reader, one per file kind that has a target of its own (FileKinds, in table order), then
// detection, whole loads and the parse cache; kinds added to the table later are appended when the list is next asked
// for. A deque, so the references findFuzzTarget hands out stay valid when it grows.
struct Targets {
    std::mutex mutex;
    std::deque<FuzzTarget> list;
    size_t kindsSeen = 0;

    void addKinds(std::span<const io::FileKindSpec> kinds)
    {
        for (; kindsSeen < kinds.size(); ++kindsSeen) {
            const io::FileKindSpec& spec = kinds[kindsSeen];
            if (!spec.fuzz.target)
                continue;
            list.push_back({ spec.fuzz.target, [&spec](const uint8_t* data, size_t size) { fuzzKind(spec, data, size); },
                spec.fuzz.seeds ? spec.fuzz.seeds : "", maxLenOf(spec) });
        }
    }

    Targets()
    {
        list.push_back({ "csv_reader", &csvReader, "*.csv", kTextMaxLen });
        addKinds(io::FileKinds::all());
        list.push_back({ "detect", &detect, "@folders", kFolderMaxLen });
        list.push_back({ "load_folder", &loadFolder, "@folders", kFolderMaxLen });
        list.push_back({ "parse_cache", &parseCache, "@cache", kDbMaxLen });
    }
};

Targets& targets()
{
    static Targets t;
    std::lock_guard lock(t.mutex);
    t.addKinds(io::FileKinds::all());
    return t;
}

} // namespace

const std::deque<FuzzTarget>& fuzzTargets() { return targets().list; }

const FuzzTarget* findFuzzTarget(std::string_view name)
{
    for (const auto& t : fuzzTargets()) {
        if (name == t.name)
            return &t;
    }
    return nullptr;
}

} // namespace npuscope::fuzz
