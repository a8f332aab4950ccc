// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace npuscope::query::advice {

// A sentence of a finding in the form the GUI translates: an English template with %1..%n placeholders and its
// arguments, each a text again: verbatim (a figure as the rule formatted it, a rank list, an op name) or a template
// of its own (a clause the rule chose). The rules mark every template with QT_TRANSLATE_NOOP(context, ...) for
// lupdate (scripts/update-translations.sh). english() is what the CLI, npuscope.advice/1 and the HTML report print;
// the GUI renders the same tree with its translations, so the two say the same with the same figures. Plain data;
// any thread.
struct FindingText {
    static constexpr const char* kContext = "Advice"; // the context of the rules' templates

    FindingText() = default;
    // Verbatim text (implicit: a formatted figure or a name is an argument as it is).
    FindingText(std::string verbatim)
        : source(std::move(verbatim))
    {
    }
    // A template marked QT_TRANSLATE_NOOP(context, source) and its arguments; a nullptr context fills source without
    // translating it (a list, sentences in a row).
    FindingText(const char* templateContext, std::string templateText, std::vector<FindingText> arguments = {})
        : context(templateContext)
        , source(std::move(templateText))
        , args(std::move(arguments))
    {
    }

    const char* context = nullptr; // a string literal; nullptr: source is verbatim, never translated
    std::string source;
    std::vector<FindingText> args;

    using Translate = std::function<std::string(const char* templateContext, const std::string& templateText)>;
    // Every template replaced by translate(context, source), then filled with its rendered arguments.
    std::string render(const Translate& translate) const;
    std::string english() const;
    // tmpl with every %k (one or two digits, k = 1..values.size()) replaced by values[k - 1] in one pass: "%1" inside a
    // value stays as written, and so does any other %.
    static std::string fill(std::string_view tmpl, const std::vector<std::string>& values);
};

} // namespace npuscope::query::advice
