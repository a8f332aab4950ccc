// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/core/TrText.h"

namespace npuscope::query::advice {

// A sentence of a finding in the form the GUI translates (npuscope::TrText): the rules' templates are marked
// QT_TRANSLATE_NOOP(kFindingContext, ...); arguments are a figure as the rule formatted it, a rank list, an op name,
// or a clause the rule chose. english() is what the CLI, npuscope.advice/1 and the HTML report print.
using FindingText = npuscope::TrText;

inline constexpr const char* kFindingContext = "Advice"; // the context of the rules' templates

} // namespace npuscope::query::advice
