// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/detect/LoadPlan.h"
#include "npuscope/model/Database.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace npuscope::load {

// What was imported from a set of input files, kept as a SQLite file in the user's cache folder
// (never in the profile folder) so reopening skips parsing. An entry is keyed by the model schema
// and the path, size and modification time of every input file, so a changed input misses and is
// rebuilt. The folder is capped in size; the least recently used entries are removed first.
// Thread-safe for concurrent lookups and stores of different keys.
class ParseCache {
public:
    struct Options {
        std::string dir; // empty: defaultDir()
        uint64_t maxBytes = 4ull << 30; // size cap of the folder
    };

    ParseCache();
    explicit ParseCache(Options options);

    // $XDG_CACHE_HOME/npuscope/parse, else $HOME/.cache/npuscope/parse.
    static std::string defaultDir();

    // What makes an entry (or an imported rank file) readable by this build: a hash of the model schema and the
    // importer version. Two builds with equal values write identical models from identical inputs.
    static std::string schemaHash();
    static int importerVersion();

    // Key of an entry holding what `scope` (e.g. "timeline") imported from files.
    std::string keyFor(const std::string& scope, const std::vector<io::PlannedFile>& files) const;

    // Path of the entry for key when it exists (and marks it used), else nullopt.
    std::optional<std::string> lookup(const std::string& key) const;

    // Saves model under key (written to a temporary file, then renamed), then enforces the cap. The folder is
    // created readable by the user only (0700) and so is each entry (0600): entries hold paths and names of the
    // user's profiles. Returns false (and leaves no partial file) when the folder cannot be written (read-only,
    // full, not a folder); the reason is logged.
    bool store(model::Database& model, const std::string& key) const;

    // Removes one entry (a damaged one the loader refused).
    void remove(const std::string& key) const;
    // Removes every entry; returns the bytes freed.
    uint64_t clear() const;
    // Bytes used by the entries.
    uint64_t sizeBytes() const;
    const std::string& dir() const { return m_options.dir; }

private:
    // The folder's size as this object last knew it: scanned once, then kept up to date by the stores, so a cold
    // open that stores one entry per rank does not walk and stat the whole folder after every store (that grew with
    // the square of the ranks). The folder is scanned again, and the oldest entries removed, only when the known
    // size passes the cap. Other processes' stores are seen at the next scan. Shared by copies.
    struct SizeState {
        std::mutex mutex;
        std::optional<uint64_t> bytes;
    };
    void evict(uint64_t storedBytes) const;
    Options m_options;
    std::shared_ptr<SizeState> m_size = std::make_shared<SizeState>();
};

} // namespace npuscope::load
