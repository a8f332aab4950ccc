// SPDX-License-Identifier: Apache-2.0
// The simdjson On Demand walk of one block of trace_view.json: BlockBuilder reads the document, each event's known
// fields and its args object (every other member and element only validated) and hands the event to endEvent()
// (TraceViewEvents.cpp); parseText() runs the walk over a block's text and records where a syntax error stopped it.
#include "TraceViewParts.h"

#include "npuscope/io/parse/SimdjsonSupport.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <system_error>

namespace npuscope::io::trace_view {

namespace {

Field fieldOf(std::string_view k)
{
    // Called for every key of every event: compare characters, not strings.
    const char* c = k.data();
    switch (k.size()) {
    case 2:
        if (c[0] == 'p' && c[1] == 'h')
            return FPh;
        if (c[0] == 't' && c[1] == 's')
            return FTs;
        if (c[0] == 'i' && c[1] == 'd')
            return FId;
        if (c[0] == 'b' && c[1] == 'p')
            return FBp;
        break;
    case 3:
        if (c[1] == 'i' && c[2] == 'd')
            return c[0] == 'p' ? FPid : c[0] == 't' ? FTid : FUnknown;
        if (c[0] == 'c' && c[1] == 'a' && c[2] == 't')
            return FCat;
        if (c[0] == 'd' && c[1] == 'u' && c[2] == 'r')
            return FDur;
        break;
    case 4:
        if (std::memcmp(c, "name", 4) == 0)
            return FName;
        if (std::memcmp(c, "args", 4) == 0)
            return FArgs;
        break;
    default:
        break;
    }
    return FUnknown;
}

} // namespace

void BlockBuilder::walkDocument()
{
    const od::json_type type = m_doc.type();
    if (type == od::json_type::array) {
        events(m_doc.get_array());
    } else if (type == od::json_type::object) {
        for (auto field : m_doc.get_object()) {
            std::string_view key = field.unescaped_key();
            od::value v = field.value();
            if (key == "traceEvents" && !m_eventsDone && v.type().value() == od::json_type::array)
                events(v.get_array());
            else
                validateValue(v);
        }
    } else {
        validateDocument(m_doc);
        return;
    }
    requireEnd(m_doc);
}

void BlockBuilder::events(od::array array)
{
    m_r.sawEvents = true;
    for (auto element : array) {
        od::value v = element.value();
        const od::json_type type = v.type();
        if (type == od::json_type::object) {
            event(v);
        } else {
            if (type != od::json_type::array)
                ++m_r.nonObjectEvents;
            validateValue(v);
        }
    }
    m_eventsDone = true;
}

void BlockBuilder::event(od::value v)
{
    m_eventOffset = fileOffset(v.current_location().value()) + 1;
    for (auto& f : m_fields)
        f.kind = Kind::None;
    m_hasArgs = false;
    m_argsSkipped = false;
    m_argCount = 0;
    for (auto field : v.get_object()) {
        std::string_view key = field.unescaped_key();
        const Field f = fieldOf(key);
        od::value value = field.value();
        if (f == FArgs)
            readArgs(value);
        else if (f == FUnknown)
            validateValue(value);
        else
            readValue(value, m_fields[f], false);
    }
    endEvent();
}

void BlockBuilder::readArgs(od::value v)
{
    if (v.type().value() != od::json_type::object)
        return validateValue(v); // not an object: ignored, an earlier args object stays
    const char* start = v.current_location();
    m_hasArgs = true;
    m_argCount = 0;
    m_argsSkipped = phaseIsX();
    if (m_argsSkipped)
        validateValue(v);
    else
        readArgsObject(v.get_object());
    // The document's iterator now stands at the token after the closing '}'.
    const char* end = m_doc.current_location().value();
    while (end > start && end[-1] != '}')
        --end;
    m_argsText = start;
    m_argsOffset = fileOffset(start);
    m_argsLen = static_cast<uint64_t>(end - start);
}

// The top-level members of an args object: key and scalar value; nested values are only marked Compound.
void BlockBuilder::readArgsObject(od::object object)
{
    for (auto field : object) {
        if (m_argCount == m_argList.size())
            m_argList.emplace_back();
        auto& a = m_argList[m_argCount++];
        a.second.kind = Kind::None;
        std::string_view key = field.unescaped_key();
        a.first.assign(key);
        readValue(field.value(), a.second, true);
    }
}

// One value into out, as nlohmann delivers it: integers that fit int64 (negative) or uint64
// (otherwise) are Int/Uint, every other number is Float with its exact text.
void BlockBuilder::readValue(od::value v, RawValue& out, bool wantDouble)
{
    switch (v.type().value()) {
    case od::json_type::string: {
        std::string_view s = v.get_string();
        out.kind = Kind::String;
        out.text.assign(s);
        return;
    }
    case od::json_type::object:
    case od::json_type::array:
        out.kind = Kind::Compound;
        return validateValue(v);
    case od::json_type::boolean: {
        bool b = v.get_bool();
        (void)b;
        out.kind = Kind::Bool;
        return;
    }
    case od::json_type::null:
        if (!v.is_null().value())
            throw simdjson::simdjson_error(simdjson::N_ATOM_ERROR);
        out.kind = Kind::Null;
        return;
    case od::json_type::number:
        break;
    }
    const std::string_view text = trimToken(v.raw_json_token());
    bool integral = false, exponent = false;
    if (!isJsonNumber(text, integral, exponent))
        throw simdjson::simdjson_error(simdjson::NUMBER_ERROR);
    const char* begin = text.data();
    const char* end = begin + text.size();
    if (integral && text.size() <= 19 && *begin != '-') {
        // Up to 19 digits always fit uint64: no overflow check needed (JSON has no leading zeros).
        uint64_t u = 0;
        for (const char* p = begin; p < end; ++p)
            u = u * 10 + static_cast<uint64_t>(*p - '0');
        out.kind = Kind::Uint;
        out.u = u;
        return;
    }
    if (integral) {
        if (*begin == '-') {
            const auto r = std::from_chars(begin, end, out.i);
            if (r.ec == std::errc() && r.ptr == end) {
                out.kind = Kind::Int;
                return;
            }
        } else {
            const auto r = std::from_chars(begin, end, out.u);
            if (r.ec == std::errc() && r.ptr == end) {
                out.kind = Kind::Uint;
                return;
            }
        }
    }
    out.kind = Kind::Float;
    out.text.assign(text);
    out.d = 0;
    // A value beyond a double's range is a syntax error (as nlohmann has it); only an exponent or
    // more than 308 integer digits can get there. Underflow reads as zero.
    if (wantDouble || exponent || text.size() > 308) {
        if (std::from_chars(begin, end, out.d).ec != std::errc()) {
            if (std::isinf(std::strtod(out.text.c_str(), nullptr)))
                throw simdjson::simdjson_error(simdjson::NUMBER_ERROR);
            out.d = *begin == '-' ? -0.0 : 0.0;
        }
    }
}

// An event whose args were skipped because ph was "X" turned out otherwise (a later duplicate "ph"):
// read its args back from the block.
void BlockBuilder::rereadSkippedArgs()
{
    m_argsSkipped = false;
    m_argCount = 0;
    if (!m_argsText || m_argsLen == 0)
        return;
    const simdjson::padded_string text(m_argsText, static_cast<std::size_t>(m_argsLen));
    od::parser parser;
    od::document doc = parser.iterate(text);
    readArgsObject(doc.get_object());
}

// Parses text into out.result.
void parseText(od::parser& parser, const BlockText& text, ImportContext& ctx, const TraceViewImporter::Options& options,
    BlockOutcome& out)
{
    od::document doc;
    try {
        if (const auto error = parser.iterate(text.data(), text.size(), text.capacity()).get(doc)) {
            out.stop = BlockStop::Syntax;
            out.code = error;
            return;
        }
        BlockBuilder builder(out.result, ctx, options, doc, text.data(), text.delta());
        builder.walkDocument();
    } catch (const simdjson::simdjson_error& e) {
        out.stop = BlockStop::Syntax;
        out.code = e.error();
        const char* at = nullptr;
        if (!doc.current_location().get(at) && at >= text.data() && at <= text.data() + text.size())
            out.errorOffset = static_cast<uint64_t>(at - text.data() + text.delta());
    } catch (const BlockBuilder::Cancelled&) {
        out.stop = BlockStop::Cancelled;
    }
}

} // namespace npuscope::io::trace_view
