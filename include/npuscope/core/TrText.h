// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npuscope {

// A text in the form the GUI translates: an English template with %1..%n placeholders and its arguments, each a text
// again: verbatim (a number, a file name, a JSON key, an error text of a library) or a template of its own (a clause
// the code chose). The code marks every template with QT_TRANSLATE_NOOP(context, ...) for lupdate
// (scripts/update-translations.sh). english() is what the CLI and the JSON reports print; the GUI renders the same tree
// with its translations (render), so the two say the same with the same figures. The advice findings
// (query::advice::FindingText) and the import problems (parse_issue.message_template, io::ImportContext) use it.
// toJson()/fromJson() keep a tree in a database column. Plain data; any thread.
struct TrText {
    TrText() = default;
    // Verbatim text (implicit: a formatted figure or a name is an argument as it is).
    TrText(std::string verbatim)
        : source(std::move(verbatim))
    {
    }
    TrText(const char* verbatim)
        : source(verbatim ? verbatim : "")
    {
    }
    // A template marked QT_TRANSLATE_NOOP(context, source) and its arguments; a nullptr (or empty) context fills
    // source without translating it (a list, sentences in a row).
    TrText(const char* templateContext, std::string templateText, std::vector<TrText> arguments = {})
        : context(templateContext ? templateContext : "")
        , source(std::move(templateText))
        , args(std::move(arguments))
    {
    }

    std::string context; // the translation context of source; empty: source is never translated
    std::string source;
    std::vector<TrText> args;

    // A template (a context), or a verbatim text with arguments to fill in: not the same as its english() for every
    // translation.
    bool translatable() const;

    using Translate = std::function<std::string(const char* templateContext, const std::string& templateText)>;
    // Every template replaced by translate(context, source), then filled with its rendered arguments.
    std::string render(const Translate& translate) const;
    std::string english() const;
    // tmpl with every %k (one or two digits, k = 1..values.size()) replaced by values[k - 1] in one pass: "%1" inside a
    // value stays as written, and so does any other %.
    static std::string fill(std::string_view tmpl, const std::vector<std::string>& values);

    // The tree as compact JSON: a verbatim text without arguments is a JSON string; any other node an object
    // {"c": context (omitted when empty), "s": source, "a": [arguments] (omitted when none)}.
    std::string toJson() const;
    // The tree toJson() wrote; nullopt when json is not such a tree.
    static std::optional<TrText> fromJson(std::string_view json);

    bool operator==(const TrText& other) const = default;
};

} // namespace npuscope
