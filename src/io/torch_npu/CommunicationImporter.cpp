// SPDX-License-Identifier: Apache-2.0
// communication.json (CommunicationImporter) and the op key parser it shares with the matrix: a simdjson pass
// (FastCommunication, typed or through CommOpInfoBuilder's events) for files of the usual shape, nlohmann's SAX
// (CommunicationSax) with its warnings and diagnostics for any other, then one comm_op row per op.
// communication_matrix.json is read by CommunicationMatrixImporter.cpp.
#include "npuscope/io/torch_npu/CommunicationImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/io/parse/CommOpInfoWriter.h"
#include "npuscope/io/parse/FastJsonSax.h"
#include "npuscope/io/parse/JsonFile.h"
#include "npuscope/io/parse/SimdjsonSupport.h"

#include <algorithm>
#include <map>

namespace npuscope::io {

OpKey parseOpKey(const std::string& key)
{
    OpKey k;
    const auto at = key.rfind('@');
    k.name = at == std::string::npos ? key : key.substr(0, at);
    if (at != std::string::npos && at + 1 < key.size())
        k.groupHash = key.substr(at + 1);
    if (k.name.rfind("hcom_", 0) == 0) {
        const auto end = k.name.find('_', 5);
        k.type = k.name.substr(5, end == std::string::npos ? std::string::npos : end - 5);
    }
    return k;
}

void setOpKey(model::CommOpRow& row, const std::string& op)
{
    row.opKey = row.groupHash ? op + "@" + *row.groupHash : op;
    const OpKey parsed = parseOpKey(row.opKey);
    row.opName = parsed.name;
    row.opType = parsed.type;
}

void setMatrixOp(model::CommLinkRow& row, const std::string& opKey, const OpKey& parsed)
{
    row.matrixOp = parsed.name;
    if (parsed.type) {
        // 2023 builds key the matrix by the real op name.
        row.opType = *parsed.type;
        std::transform(row.opType->begin(), row.opType->end(), row.opType->begin(),
            [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    } else if (const auto dash = parsed.name.rfind('-'); dash != std::string::npos) {
        row.opType = parsed.name.substr(0, dash);
        row.slot = parsed.name.substr(dash + 1);
    } else if (opKey == "Total Op Info") {
        row.slot = "total";
    }
}

namespace {

// Streams communication.json: step -> "p2p"|"collective" -> op key -> OPINFO object. Each op object
// goes through CommOpInfoBuilder as it is read; no DOM of the file is built. The ops are kept
// ordered by key (steps, kinds, ops, as a JSON DOM orders them, a repeated key keeping its last
// value) and written once the whole file parsed, so a syntax error leaves no rows behind.
struct CommOp {
    bool isObject = false;
    CommOpInfo info;
};
struct CommKind {
    bool isObject = false;
    std::map<std::string, CommOp> ops;
};
struct CommStep {
    bool isObject = false;
    std::map<std::string, CommKind> kinds;
};
using CommSteps = std::map<std::string, CommStep>;

class CommunicationSax : public nlohmann::json_sax<nlohmann::json> {
public:
    using Op = CommOp;
    using Kind = CommKind;
    using Step = CommStep;

    bool start_object(std::size_t) override
    {
        if (m_opDepth > 0) {
            ++m_opDepth;
            m_builder.startObject();
            return true;
        }
        if (m_skip > 0) {
            ++m_skip;
            return true;
        }
        switch (m_depth) {
        case 0:
            m_sawRoot = true;
            break;
        case 1:
            m_step = &(m_steps[m_key] = Step { true, {} });
            break;
        case 2:
            m_kind = &(m_step->kinds[m_key] = Kind { true, {} });
            break;
        default:
            m_op = &(m_kind->ops[m_key] = Op { true, {} });
            m_builder.reset();
            m_builder.startObject();
            m_opDepth = 1;
            return true;
        }
        ++m_depth;
        return true;
    }

    bool end_object() override
    {
        if (m_opDepth > 0) {
            m_builder.endObject();
            if (--m_opDepth == 0)
                m_op->info = std::move(m_builder.info());
            return true;
        }
        if (m_skip > 0)
            --m_skip;
        else
            --m_depth;
        return true;
    }

    bool start_array(std::size_t) override
    {
        if (m_opDepth > 0) {
            ++m_opDepth;
            m_builder.startArray();
            return true;
        }
        if (m_skip == 0)
            notObject();
        ++m_skip;
        return true;
    }

    bool end_array() override
    {
        if (m_opDepth > 0) {
            --m_opDepth;
            m_builder.endArray();
            return true;
        }
        --m_skip;
        return true;
    }

    bool key(string_t& key) override
    {
        if (m_opDepth > 0)
            m_builder.key(key);
        else if (m_skip == 0)
            m_key = key;
        return true;
    }

    bool null() override
    {
        if (m_opDepth > 0)
            m_builder.other();
        else
            scalar();
        return true;
    }
    bool boolean(bool) override { return null(); }
    bool binary(binary_t&) override { return null(); }
    bool number_integer(number_integer_t v) override
    {
        if (m_opDepth > 0)
            m_builder.integer(v);
        else
            scalar();
        return true;
    }
    bool number_unsigned(number_unsigned_t v) override
    {
        if (m_opDepth > 0)
            m_builder.unsignedInteger(v);
        else
            scalar();
        return true;
    }
    bool number_float(number_float_t v, const string_t& text) override
    {
        if (m_opDepth > 0)
            m_builder.floating(v, text);
        else
            scalar();
        return true;
    }
    bool string(string_t& v) override
    {
        if (m_opDepth > 0)
            m_builder.string(v);
        else
            scalar();
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override
    {
        m_errorByte = position > 0 ? position - 1 : 0;
        m_error = e.what();
        return false;
    }

    bool rootIsObject() const { return m_sawRoot && !m_rootNotObject; }
    const std::optional<std::string>& error() const { return m_error; }
    size_t errorByte() const { return m_errorByte; }
    const std::map<std::string, Step>& steps() const { return m_steps; }

private:
    void scalar()
    {
        if (m_skip == 0)
            notObject();
    }
    // A value that is not an object where a step, kind or op object belongs.
    void notObject()
    {
        switch (m_depth) {
        case 0:
            m_rootNotObject = true;
            break;
        case 1:
            m_steps[m_key] = Step {};
            break;
        case 2:
            m_step->kinds[m_key] = Kind {};
            break;
        default:
            m_kind->ops[m_key] = Op {};
            break;
        }
    }

    std::map<std::string, Step> m_steps;
    Step* m_step = nullptr;
    Kind* m_kind = nullptr;
    Op* m_op = nullptr;
    CommOpInfoBuilder m_builder;
    std::string m_key;
    int m_depth = 0; // 1 inside the root object, 2 inside a step, 3 inside a kind
    int m_opDepth = 0; // nesting inside the current op object (events go to m_builder)
    int m_skip = 0; // nesting inside a skipped array
    bool m_sawRoot = false;
    bool m_rootNotObject = false;
    std::optional<std::string> m_error;
    size_t m_errorByte = 0;
};

namespace od = simdjson::ondemand;

// One simdjson pass over a communication.json of the usual shape (objects down to the ops): the op objects' values
// go straight to CommOpInfoBuilder, as CommunicationSax sends them after saxParse's checks, so the steps are those
// it would build. Returns false, with steps unusable, for anything else (a syntax error, a step, kind or op that is
// not an object, a number beyond a double, a BOM, cancel): CommunicationSax then reads the file with its warnings
// and diagnostics. saxParse walks a file three times (validate, range check, events); this walks it once.
class FastCommunication {
public:
    // typed: read each op with readOp (the usual shape only) instead of sending its events to CommOpInfoBuilder.
    FastCommunication(ImportContext& ctx, bool typed)
        : m_ctx(ctx)
        , m_typed(typed)
    {
    }

    bool read(const std::string& text, CommSteps& steps)
    {
        if (text.starts_with("\xef\xbb\xbf"))
            return false;
        try {
            const simdjson::padded_string padded(text.data(), text.size());
            od::parser parser;
            od::document doc = parser.iterate(padded);
            od::object root;
            if (doc.get_object().get(root) != simdjson::SUCCESS)
                return false;
            for (auto stepField : root) {
                if (m_ctx.cancelled())
                    return false;
                od::object kinds;
                CommStep& step = steps[std::string(stepField.unescaped_key().value())] = CommStep { true, {} };
                if (stepField.value().get_object().get(kinds) != simdjson::SUCCESS)
                    return false;
                for (auto kindField : kinds) {
                    od::object ops;
                    CommKind& kind = step.kinds[std::string(kindField.unescaped_key().value())] = CommKind { true, {} };
                    if (kindField.value().get_object().get(ops) != simdjson::SUCCESS)
                        return false;
                    for (auto opField : ops) {
                        CommOp& op = kind.ops[std::string(opField.unescaped_key().value())] = CommOp { true, {} };
                        od::value v = opField.value();
                        if (v.type().value() != od::json_type::object)
                            return false;
                        if (m_typed) {
                            if (!readOp(v, op.info))
                                return false;
                            continue;
                        }
                        m_builder.reset();
                        if (!feed(v))
                            return false;
                        op.info = std::move(m_builder.info());
                    }
                }
            }
            requireEnd(doc);
        } catch (const simdjson::simdjson_error&) {
            return false;
        }
        return true;
    }

private:
    // A JSON number as CommOpInfoBuilder gets it from feed(): its value, its text (an integer printed again, a
    // float's token) and its int64 conversion. False for anything else (readOp then gives up on the file).
    struct Number {
        double value = 0;
        int64_t asInt = 0;
    };
    bool number(od::value v, Number& out, std::string* text = nullptr)
    {
        if (v.type().value() != od::json_type::number)
            return false;
        const std::string_view token = v.raw_json_token();
        const auto n = readJsonNumber(token);
        if (!n)
            return false;
        out.value = n->value;
        switch (n->kind) {
        case JsonNumber::Kind::Integer:
            out.asInt = n->integer;
            if (text)
                *text = std::to_string(n->integer);
            break;
        case JsonNumber::Kind::Unsigned:
            out.asInt = static_cast<int64_t>(n->unsignedInteger);
            if (text)
                *text = std::to_string(n->unsignedInteger);
            break;
        case JsonNumber::Kind::Float:
            out.asInt = static_cast<int64_t>(n->value);
            if (text)
                text->assign(trimToken(token));
            break;
        }
        return true;
    }

    // Fills info from an op object of the usual shape, as CommOpInfoBuilder would from its events: sections and
    // transports objects, every known field a JSON number, packets arrays of numbers. False for anything else
    // (another key, a numeric string, a null, a repeated section, ...): the builder's rules then decide.
    bool readOp(od::value& v, CommOpInfo& info)
    {
        info = {};
        bool sawTime = false, sawBandwidth = false;
        for (auto section : v.get_object()) {
            const std::string_view name = section.unescaped_key().value();
            od::object members;
            if (section.value().get_object().get(members) != simdjson::SUCCESS)
                return false;
            if (name == "Communication Time Info") {
                if (sawTime || sawBandwidth)
                    return false; // the builder's reset order
                sawTime = info.hasTimeInfo = true;
                if (!readTime(members, info))
                    return false;
            } else if (name == "Communication Bandwidth Info") {
                if (sawBandwidth)
                    return false;
                sawBandwidth = true;
                if (!readBandwidth(members, info))
                    return false;
            } else {
                return false;
            }
        }
        return true;
    }

    bool readTime(od::object& members, CommOpInfo& info)
    {
        static constexpr std::pair<std::string_view, std::optional<double> CommOpInfo::*> kFields[] = {
            { "Elapse Time(ms)", &CommOpInfo::elapseMs },
            { "Transit Time(ms)", &CommOpInfo::transitMs },
            { "Wait Time(ms)", &CommOpInfo::waitMs },
            { "Synchronization Time(ms)", &CommOpInfo::syncMs },
            { "Idle Time(ms)", &CommOpInfo::idleMs },
            { "Idel Time(ms)", &CommOpInfo::idelMs },
            { "Wait Time Ratio", &CommOpInfo::waitRatio },
            { "Synchronization Time Ratio", &CommOpInfo::syncRatio },
        };
        for (auto field : members) {
            const std::string_view key = field.unescaped_key().value();
            Number n;
            if (key == "Start Timestamp(us)") {
                if (!number(field.value(), n, &m_text))
                    return false;
                info.start.value = n.value;
                info.start.text = m_text;
                continue;
            }
            const auto* f = std::find_if(
                std::begin(kFields), std::end(kFields), [&](const auto& known) { return known.first == key; });
            if (f == std::end(kFields) || !number(field.value(), n))
                return false;
            info.*(f->second) = n.value;
        }
        return true;
    }

    bool readBandwidth(od::object& transports, CommOpInfo& info)
    {
        static constexpr std::pair<std::string_view, std::optional<double> CommOpInfo::Transport::*> kFields[] = {
            { "Transit Size(MB)", &CommOpInfo::Transport::sizeMb },
            { "Transit Time(ms)", &CommOpInfo::Transport::transitMs },
            { "Bandwidth(GB/s)", &CommOpInfo::Transport::bandwidthGbps },
            { "Large Packet Ratio", &CommOpInfo::Transport::largePacketRatio },
        };
        for (auto transportField : transports) {
            od::object members;
            CommOpInfo::Transport& t = info.bandwidth[std::string(transportField.unescaped_key().value())];
            t = {};
            t.isObject = true;
            if (transportField.value().get_object().get(members) != simdjson::SUCCESS)
                return false;
            for (auto field : members) {
                const std::string_view key = field.unescaped_key().value();
                if (key == "Size Distribution") {
                    od::object sizes;
                    if (field.value().get_object().get(sizes) != simdjson::SUCCESS)
                        return false;
                    t.sizeDistribution.clear();
                    for (auto size : sizes) {
                        CommOpInfo::Packet& p = t.sizeDistribution[std::string(size.unescaped_key().value())];
                        p = {};
                        od::array elements;
                        if (size.value().get_array().get(elements) != simdjson::SUCCESS)
                            return false;
                        int index = 0;
                        std::optional<int64_t> count;
                        std::optional<double> totalMs;
                        for (auto element : elements) {
                            Number n;
                            if (!number(element.value(), n))
                                return false;
                            if (index == 0)
                                count = n.asInt;
                            else if (index == 1)
                                totalMs = n.value;
                            ++index;
                        }
                        p.valid = index >= 2;
                        if (p.valid) {
                            p.count = *count;
                            p.totalMs = *totalMs;
                        }
                    }
                    continue;
                }
                const auto* f = std::find_if(
                    std::begin(kFields), std::end(kFields), [&](const auto& known) { return known.first == key; });
                Number n;
                if (f == std::end(kFields) || !number(field.value(), n))
                    return false;
                t.*(f->second) = n.value;
            }
        }
        return true;
    }

    // The value's events, as saxParse's walk would send them to the builder (nlohmann's number split: a
    // non-negative integer within uint64 is unsigned, a negative one within int64 an integer, else a float with
    // its text). False for a number saxParse would refuse.
    bool feed(od::value& v, int depth = 1)
    {
        // An op object is a few levels deep; deeper nesting (hostile input) goes to the SAX path, whose checks bound
        // their recursion, rather than deepening this one.
        constexpr int kMaxDepth = 32;
        if (depth > kMaxDepth)
            return false;
        switch (v.type().value()) {
        case od::json_type::object:
            m_builder.startObject();
            for (auto field : v.get_object()) {
                m_key.assign(field.unescaped_key().value());
                m_builder.key(m_key);
                od::value member = field.value();
                if (!feed(member, depth + 1))
                    return false;
            }
            m_builder.endObject();
            return true;
        case od::json_type::array:
            m_builder.startArray();
            for (auto element : v.get_array()) {
                od::value item = element.value();
                if (!feed(item, depth + 1))
                    return false;
            }
            m_builder.endArray();
            return true;
        case od::json_type::string:
            m_text.assign(v.get_string().value());
            m_builder.string(m_text);
            return true;
        case od::json_type::boolean:
            if (v.get_bool().error() != simdjson::SUCCESS)
                return false;
            m_builder.other();
            return true;
        case od::json_type::null: {
            bool isNull = false;
            if (v.is_null().get(isNull) != simdjson::SUCCESS || !isNull)
                return false;
            m_builder.other();
            return true;
        }
        case od::json_type::number:
            break;
        }
        const std::string_view token = v.raw_json_token();
        const auto n = readJsonNumber(token);
        if (!n)
            return false; // beyond a double: the SAX path decides
        switch (n->kind) {
        case JsonNumber::Kind::Integer:
            m_builder.integer(n->integer);
            break;
        case JsonNumber::Kind::Unsigned:
            m_builder.unsignedInteger(n->unsignedInteger);
            break;
        case JsonNumber::Kind::Float:
            m_text.assign(trimToken(token));
            m_builder.floating(n->value, m_text);
            break;
        }
        return true;
    }

    ImportContext& m_ctx;
    bool m_typed = false;
    CommOpInfoBuilder m_builder;
    std::string m_key;
    std::string m_text;
};

} // namespace

bool CommunicationImporter::run(ImportContext& ctx)
{
    std::string text;
    if (!readTextFile(ctx, text))
        return false;
    // Ops of the usual shape read directly, any other shape through CommOpInfoBuilder's events, a file simdjson
    // refuses through nlohmann's SAX (its diagnostics): each path fills the same CommSteps.
    CommSteps fastSteps;
    bool fast = FastCommunication(ctx, true).read(text, fastSteps);
    if (!fast) {
        fastSteps.clear();
        fast = FastCommunication(ctx, false).read(text, fastSteps);
    }
    CommunicationSax sax;
    if (!fast) {
        if (!saxParse(text, &sax) && sax.error()) {
            reportJsonError(ctx, text, sax.errorByte(), *sax.error());
            return false;
        }
        if (!sax.rootIsObject()) {
            ctx.error(
                std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "expected a JSON object at the top level")));
            return false;
        }
    }
    int ops = 0;
    CommOpInfoWriter writer(ctx);
    for (const auto& [stepKey, step] : fast ? fastSteps : sax.steps()) {
        if (ctx.cancelled())
            break;
        if (!step.isObject) {
            ctx.warning(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "\"%1\" is not an object; skipped"), { stepKey }));
            continue;
        }
        const auto stepNumber = stepFromKey(stepKey);
        for (const auto& [kindKey, kind] : step.kinds) {
            if (!kind.isObject) {
                ctx.warning(std::nullopt,
                    issueText(
                        QT_TRANSLATE_NOOP("ParseIssue", "\"%1.%2\" is not an object; skipped"), { stepKey, kindKey }));
                continue;
            }
            for (const auto& [opKey, op] : kind.ops) {
                if (!op.isObject) {
                    ctx.warning(std::nullopt,
                        issueText(QT_TRANSLATE_NOOP("ParseIssue", "op \"%1\" is not an object; skipped"), { opKey }));
                    continue;
                }
                writer.add(ctx.rankId(), stepNumber, kindKey, opKey, op.info);
                ++ops;
            }
        }
    }
    writer.flush();
    if (ops == 0)
        ctx.info(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "no communication ops in this file")));
    ctx.finish();
    return true;
}

} // namespace npuscope::io
