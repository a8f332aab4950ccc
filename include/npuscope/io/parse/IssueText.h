// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/core/TrText.h"

#include <string>
#include <vector>

namespace npuscope::io {

// The translation context of every import problem's template: importers, the detector and the loader mark them
// QT_TRANSLATE_NOOP("ParseIssue", ...) (npuscope/core/TranslationMarker.h) and scripts/update-translations.sh collects
// them from src/io and src/load.
inline constexpr const char* kIssueContext = "ParseIssue";

// A template of an import problem and its arguments (numbers, file names, keys verbatim; clauses as templates):
// issueText(QT_TRANSLATE_NOOP("ParseIssue", "row has %1 fields"), { std::to_string(n) }).
inline TrText issueText(const char* source, std::vector<TrText> args = {})
{
    return TrText(kIssueContext, source, std::move(args));
}

// Clauses in a row, each translated on its own (a message assembled from a few fixed clauses).
inline TrText clauses(std::vector<TrText> parts)
{
    std::string tmpl;
    for (size_t i = 1; i <= parts.size(); ++i)
        tmpl += "%" + std::to_string(i);
    return TrText(nullptr, std::move(tmpl), std::move(parts));
}

} // namespace npuscope::io
