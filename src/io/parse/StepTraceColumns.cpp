// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/parse/StepTraceColumns.h"

namespace npuscope::io {

StepTraceColumns::StepTraceColumns(const CsvImport& csv)
    : m_step(csv.column({ "Step" }))
{
    for (int i = 0; i < model::kStepTraceFileColumnCount; ++i)
        m_columns[static_cast<size_t>(i)] = csv.column({ model::kStepColumns[static_cast<size_t>(i)].title });
}

} // namespace npuscope::io
