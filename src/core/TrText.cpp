// SPDX-License-Identifier: Apache-2.0
#include "npuscope/core/TrText.h"

#include <nlohmann/json.hpp>

namespace npuscope {

namespace {

nlohmann::json toJsonValue(const TrText& t)
{
    if (t.context.empty() && t.args.empty())
        return t.source;
    nlohmann::json out = nlohmann::json::object();
    if (!t.context.empty())
        out["c"] = t.context;
    out["s"] = t.source;
    if (!t.args.empty()) {
        auto& args = out["a"] = nlohmann::json::array();
        for (const auto& a : t.args)
            args.push_back(toJsonValue(a));
    }
    return out;
}

// Depth-limited: a column written elsewhere must not exhaust the stack.
bool fromJsonValue(const nlohmann::json& j, TrText& out, int depth)
{
    if (depth > 64)
        return false;
    if (j.is_string()) {
        out.source = j.get<std::string>();
        return true;
    }
    if (!j.is_object())
        return false;
    const auto s = j.find("s");
    if (s == j.end() || !s->is_string())
        return false;
    out.source = s->get<std::string>();
    if (const auto c = j.find("c"); c != j.end()) {
        if (!c->is_string())
            return false;
        out.context = c->get<std::string>();
    }
    if (const auto a = j.find("a"); a != j.end()) {
        if (!a->is_array())
            return false;
        out.args.reserve(a->size());
        for (const auto& arg : *a) {
            TrText child;
            if (!fromJsonValue(arg, child, depth + 1))
                return false;
            out.args.push_back(std::move(child));
        }
    }
    return true;
}

} // namespace

bool TrText::translatable() const { return !context.empty() || !args.empty(); }

std::string TrText::render(const Translate& translate) const
{
    if (context.empty() && args.empty())
        return source;
    std::vector<std::string> filled;
    filled.reserve(args.size());
    for (const auto& a : args)
        filled.push_back(a.render(translate));
    return fill(context.empty() ? source : translate(context.c_str(), source), filled);
}

std::string TrText::english() const
{
    return render([](const char*, const std::string& text) { return text; });
}

std::string TrText::fill(std::string_view tmpl, const std::vector<std::string>& values)
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

std::string TrText::toJson() const
{
    // Invalid UTF-8 in a verbatim argument (a key of a damaged file) is replaced, never thrown.
    return toJsonValue(*this).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<TrText> TrText::fromJson(std::string_view json)
{
    const auto j = nlohmann::json::parse(json, nullptr, false);
    if (j.is_discarded())
        return std::nullopt;
    TrText out;
    if (!fromJsonValue(j, out, 0))
        return std::nullopt;
    return out;
}

} // namespace npuscope
