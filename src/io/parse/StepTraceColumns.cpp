// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/parse/StepTraceColumns.h"

namespace npuscope::io {

StepTraceColumns::StepTraceColumns(const CsvImport& csv)
    : m_step(csv.column({ "Step" }))
    , m_computing(csv.column({ "Computing" }))
    , m_notOverlapped(csv.column({ "Communication(Not Overlapped)" }))
    , m_overlapped(csv.column({ "Overlapped" }))
    , m_communication(csv.column({ "Communication" }))
    , m_free(csv.column({ "Free" }))
    , m_stage(csv.column({ "Stage" }))
    , m_bubble(csv.column({ "Bubble" }))
    , m_excludeReceive(csv.column({ "Communication(Not Overlapped and Exclude Receive)" }))
    , m_preparing(csv.column({ "Preparing" }))
{
}

} // namespace npuscope::io
