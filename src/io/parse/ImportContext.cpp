// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/parse/ImportContext.h"

#include "npuscope/core/TranslationMarker.h"

namespace npuscope::io {

ImportContext::ImportContext(
    model::ModelWriter& writer, int64_t rankId, std::string file, const std::atomic<bool>* cancel)
    : m_writer(writer)
    , m_rankId(rankId)
    , m_file(std::move(file))
    , m_cancel(cancel)
{
}

void ImportContext::report(model::Severity severity, std::optional<int64_t> line, TrText message)
{
    ++m_issues;
    if (severity == model::Severity::Error)
        ++m_errors;
    if (m_issues > kMaxIssuesPerFile) {
        ++m_suppressed;
        return;
    }
    m_writer.addIssue({ severity, m_rankId, m_file, line, std::move(message) });
}

void ImportContext::finish()
{
    if (m_suppressed > 0) {
        m_writer.addIssue({ model::Severity::Warning, m_rankId, m_file, std::nullopt,
            issueText(QT_TRANSLATE_NOOP("ParseIssue", "%1 more problems in this file were not listed"),
                { std::to_string(m_suppressed) }) });
        m_suppressed = 0;
    }
}

} // namespace npuscope::io
