// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/advice/Finding.h"

namespace npuscope::query::advice {

Finding Finding::ofRule(
    std::string id, std::string category, Severity severity, double threshold, FindingText thresholdText)
{
    Finding f;
    f.id = std::move(id);
    f.category = std::move(category);
    f.severity = severity;
    f.threshold = threshold;
    f.setThreshold(std::move(thresholdText));
    return f;
}

void Finding::setThreshold(FindingText text)
{
    thresholdText = text.english();
    thresholdForm = std::move(text);
}

void Finding::setMessage(FindingText text)
{
    message = text.english();
    messageForm = std::move(text);
}

void Finding::setSuggestion(FindingText text)
{
    suggestion = text.english();
    suggestionForm = std::move(text);
}

} // namespace npuscope::query::advice
