// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/io/parse/ImportContext.h"

namespace npuscope::io {

// analysis.db of a torch_npu / MindSpore db export (one per rank, read-only): StepTraceTime -> step_trace (µs),
// CommAnalyzerTime -> comm_op (start µs, rest ms), CommAnalyzerBandwidth -> comm_bandwidth + comm_packet (one
// row per op, transport and package size in the db), CommAnalyzerMatrix -> comm_link (group-local ranks, as
// communication_matrix.json). Tables and columns are located with PRAGMA table_info; a missing table is an
// info issue (Level0 exports hold StepTraceTime only). The db has no "Total Op Info" rows and no wait/sync
// ratios: the ratios are computed as the text export does (Wait/(Wait+Transit), 4 decimals).
// A file holding several devices (StepTraceTime.deviceId, one process driving several NPUs) is planned once per
// device with rank id = device id (io::Detector); each run imports the rows of the device equal to its rank id.
class AnalysisDbImporter {
public:
    static bool run(ImportContext& ctx);
};

} // namespace npuscope::io
