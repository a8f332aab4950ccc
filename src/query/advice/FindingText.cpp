// SPDX-License-Identifier: Apache-2.0
#include "npuscope/query/advice/FindingText.h"

namespace npuscope::query::advice {

std::string FindingText::render(const Translate& translate) const
{
    if (!context && args.empty())
        return source;
    std::vector<std::string> filled;
    filled.reserve(args.size());
    for (const auto& a : args)
        filled.push_back(a.render(translate));
    return fill(context ? translate(context, source) : source, filled);
}

std::string FindingText::english() const
{
    return render([](const char*, const std::string& text) { return text; });
}

std::string FindingText::fill(std::string_view tmpl, const std::vector<std::string>& values)
{
    const auto digit = [&tmpl](size_t i) { return i < tmpl.size() && tmpl[i] >= '0' && tmpl[i] <= '9'; };
    std::string out;
    out.reserve(tmpl.size() + 16 * values.size());
    for (size_t i = 0; i < tmpl.size(); ++i) {
        if (tmpl[i] == '%' && digit(i + 1)) {
            const size_t width = digit(i + 2) ? 2 : 1;
            const size_t k = static_cast<size_t>(std::stoi(std::string(tmpl.substr(i + 1, width))));
            if (k >= 1 && k <= values.size()) {
                out += values[k - 1];
                i += width;
                continue;
            }
        }
        out += tmpl[i];
    }
    return out;
}

} // namespace npuscope::query::advice
