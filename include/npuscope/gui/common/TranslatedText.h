// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/core/TrText.h"

#include <QString>

#include <optional>
#include <string>

namespace npuscope::query {
struct ParseIssue;
}

namespace npuscope::gui {

// npuscope::TrText in the GUI's language: every template through QCoreApplication::translate (the installed
// translator, e.g. --lang zh_CN), filled with its rendered arguments. Any thread (translate is thread-safe).
QString translatedText(const TrText& text);

// What a parse_issue row says in the GUI's language: its message_template rendered when it has one that parses,
// else its stored English message (rows of older caches, rows written elsewhere).
QString issueMessage(const std::optional<std::string>& messageTemplate, const std::string& message);
QString issueMessage(const query::ParseIssue& issue);

} // namespace npuscope::gui
