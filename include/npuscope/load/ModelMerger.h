// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/model/Database.h"

#include <functional>
#include <string>

namespace npuscope::load {

// Copies everything a worker imported into its own model into the main model, in SQL, so ranks
// can be parsed on several threads (each with its own connection) and written into one model.
// Interned string ids are remapped by value; row ids that other tables reference (comm_op,
// comm_bandwidth, comm_link_op, slice, source_file) are shifted past the main model's ids when they would collide
// with them; a worker whose ids were reserved (reserveIds) never collides, and its tables without strings are then
// copied as stored (SQLite's transfer optimisation) rather than row by row. Call on the main model's thread,
// outside any transaction (it ATTACHes the worker and runs its own transaction); the worker must
// be idle.
class ModelMerger {
public:
    // worker must have been created with Database::createModel(name) (a shared in-memory database).
    static void merge(model::Database& main, const std::string& workerName);
    // Same from a model saved in a SQLite file (the parse cache), opened read-only. With partial, the file may leave
    // out tables it has no rows for (an imported rank file does: each table costs its open a schema parse) and only
    // the tables it has are copied; otherwise a missing table refuses the file. check, when given, runs first with
    // the file attached as schema "w" (e.g. reading a description table) and may throw model::DbError to refuse the
    // file: nothing is merged then.
    static void mergeFile(model::Database& main, const std::string& path,
        const std::function<void(model::Database&)>& check = {}, bool partial = false);

    // Makes the worker's next row ids of the referenced tables start in a block of ids that no other reserved model
    // of this process uses (placeholder rows at the block's start), so merging it needs no shift. Call on a new,
    // empty model before writing into it; call releaseIds(worker, base) once the writing is done, before the model is
    // read or merged (it removes the placeholders).
    static int64_t reserveIds(model::Database& worker);
    static void releaseIds(model::Database& worker, int64_t base);

private:
    static void mergeUri(model::Database& main, const std::string& uri,
        const std::function<void(model::Database&)>& check = {}, bool partial = false);
};

} // namespace npuscope::load
