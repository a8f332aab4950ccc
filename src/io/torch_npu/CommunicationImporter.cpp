// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/torch_npu/CommunicationImporter.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/parse/CommOpInfoWriter.h"
#include "npuscope/io/parse/FastJsonSax.h"
#include "npuscope/io/parse/JsonFile.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace npuscope::io {

namespace {

constexpr const char* kTotalOp = "Total Op Info";

} // namespace

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

namespace {

// Streams communication.json: step -> "p2p"|"collective" -> op key -> OPINFO object. Each op object
// goes through CommOpInfoBuilder as it is read; no DOM of the file is built. The ops are kept
// ordered by key (steps, kinds, ops, as a JSON DOM orders them, a repeated key keeping its last
// value) and written once the whole file parsed, so a syntax error leaves no rows behind.
class CommunicationSax : public nlohmann::json_sax<nlohmann::json> {
public:
    struct Op {
        bool isObject = false;
        CommOpInfo info;
    };
    struct Kind {
        bool isObject = false;
        std::map<std::string, Op> ops;
    };
    struct Step {
        bool isObject = false;
        std::map<std::string, Kind> kinds;
    };

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

} // namespace

bool CommunicationImporter::run(ImportContext& ctx)
{
    std::string text;
    if (!readTextFile(ctx, text))
        return false;
    CommunicationSax sax;
    if (!saxParse(text, &sax) && sax.error()) {
        reportJsonError(ctx, text, sax.errorByte(), *sax.error());
        return false;
    }
    if (!sax.rootIsObject()) {
        ctx.error(std::nullopt, "expected a JSON object at the top level");
        return false;
    }
    int ops = 0;
    for (const auto& [stepKey, step] : sax.steps()) {
        if (ctx.cancelled())
            break;
        if (!step.isObject) {
            ctx.warning(std::nullopt, "\"" + stepKey + "\" is not an object; skipped");
            continue;
        }
        const auto stepNumber = stepFromKey(stepKey);
        for (const auto& [kindKey, kind] : step.kinds) {
            if (!kind.isObject) {
                ctx.warning(std::nullopt, "\"" + stepKey + "." + kindKey + "\" is not an object; skipped");
                continue;
            }
            for (const auto& [opKey, op] : kind.ops) {
                if (!op.isObject) {
                    ctx.warning(std::nullopt, "op \"" + opKey + "\" is not an object; skipped");
                    continue;
                }
                CommOpInfoWriter::write(ctx, ctx.rankId(), stepNumber, kindKey, opKey, op.info);
                ++ops;
            }
        }
    }
    if (ops == 0)
        ctx.info(std::nullopt, "no communication ops in this file");
    ctx.finish();
    return true;
}

namespace {

// Streams communication_matrix.json: step -> kind -> op -> "src-dst" -> link fields. The file is
// the largest per-rank summary file of a cluster (tens to hundreds of KB), so links are written as
// they are read instead of going through a DOM.
class MatrixSax : public nlohmann::json_sax<nlohmann::json> {
public:
    explicit MatrixSax(ImportContext& ctx)
        : m_ctx(ctx)
    {
    }

    bool start_object(std::size_t) override
    {
        if (m_skip > 0) {
            ++m_skip;
            return true;
        }
        ++m_depth;
        switch (m_depth) {
        case 1:
            m_sawRoot = true;
            break;
        case 4:
            startOp();
            break;
        case 5:
            startLink();
            break;
        default:
            break;
        }
        return true;
    }

    bool end_object() override
    {
        if (m_skip > 0) {
            --m_skip;
            return true;
        }
        if (m_depth == 5 && m_linkValid)
            m_ctx.writer().addCommLink(m_row);
        --m_depth;
        return !m_ctx.cancelled();
    }

    bool key(string_t& key) override
    {
        if (m_skip > 0)
            return true;
        switch (m_depth) {
        case 1:
            m_step = stepFromKey(key);
            m_stepKey = key;
            break;
        case 2:
            m_kind = key;
            break;
        case 3:
            m_opKey = key;
            break;
        case 4:
            m_linkKey = key;
            break;
        default:
            m_field = key;
            break;
        }
        return true;
    }

    bool start_array(std::size_t) override { return skipValue(); }
    bool end_array() override
    {
        --m_skip;
        return true;
    }
    bool null() override { return scalar(); }
    bool boolean(bool) override { return scalar(); }
    bool number_integer(number_integer_t v) override { return number(static_cast<double>(v)); }
    bool number_unsigned(number_unsigned_t v) override { return number(static_cast<double>(v)); }
    bool number_float(number_float_t v, const string_t&) override { return number(v); }
    bool string(string_t& v) override
    {
        if (m_skip > 0 || !inLink())
            return scalar();
        if (m_field == "Transport Type")
            m_row.transport = v;
        else if (m_field == "Op Name" || m_field == "op_name")
            m_row.opName = v;
        else if (auto d = parseDouble(v))
            return number(*d);
        return true;
    }
    bool binary(binary_t&) override { return scalar(); }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override
    {
        m_errorByte = position > 0 ? position - 1 : 0;
        m_error = e.what();
        return false;
    }

    bool sawRoot() const { return m_sawRoot; }
    const std::optional<std::string>& error() const { return m_error; }
    size_t errorByte() const { return m_errorByte; }

private:
    bool inLink() const { return m_depth == 5 && m_linkValid; }

    // A value that is not an object where an object belongs: warn once and skip it whole.
    bool skipValue()
    {
        if (m_skip == 0 && m_depth >= 1 && m_depth <= 4)
            warnNotObject();
        ++m_skip;
        return true;
    }
    bool scalar()
    {
        if (m_skip == 0 && m_depth >= 1 && m_depth <= 4)
            warnNotObject();
        return true;
    }
    bool number(double v)
    {
        if (m_skip > 0)
            return true;
        if (!inLink())
            return scalar();
        if (m_field == "Transit Size(MB)")
            m_row.sizeMb = v;
        else if (m_field == "Transit Time(ms)")
            m_row.timeNs = doubleToNs(v, 1.0e6);
        else if (m_field == "Bandwidth(GB/s)")
            m_row.bandwidthGbps = v;
        return true;
    }
    void warnNotObject()
    {
        switch (m_depth) {
        case 1:
            m_ctx.warning(std::nullopt, "\"" + m_stepKey + "\" is not an object; skipped");
            break;
        case 2:
            m_ctx.warning(std::nullopt, "\"" + m_stepKey + "." + m_kind + "\" is not an object; skipped");
            break;
        case 3:
            m_ctx.warning(std::nullopt, "op \"" + m_opKey + "\" is not an object; skipped");
            break;
        default:
            m_ctx.warning(std::nullopt, "op \"" + m_opKey + "\": link key \"" + m_linkKey + "\" is not \"src-dst\"");
            break;
        }
    }

    void startOp()
    {
        const OpKey parsed = parseOpKey(m_opKey);
        auto& op = m_row; // the op's fields; startLink resets only the link's own fields
        op = {};
        op.rankId = m_ctx.rankId();
        op.step = m_step;
        op.kind = m_kind;
        op.matrixOp = parsed.name;
        op.groupHash = parsed.groupHash;
        if (parsed.type) {
            // 2023 builds key the matrix by the real op name.
            op.opType = *parsed.type;
            std::transform(op.opType->begin(), op.opType->end(), op.opType->begin(),
                [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        } else if (const auto dash = parsed.name.rfind('-'); dash != std::string::npos) {
            op.opType = parsed.name.substr(0, dash);
            op.slot = parsed.name.substr(dash + 1);
        } else if (m_opKey == kTotalOp) {
            op.slot = "total";
        }
        m_members = nullptr;
        if (op.groupHash) {
            const auto& groups = m_ctx.rankState().groupRanks;
            if (auto g = groups.find(*op.groupHash); g != groups.end())
                m_members = &g->second;
        }
    }

    void startLink()
    {
        m_row.localSrc = m_row.localDst = m_row.src = m_row.dst = m_row.timeNs = std::nullopt;
        m_row.transport = m_row.opName = std::nullopt;
        m_row.sizeMb = m_row.bandwidthGbps = std::nullopt;
        const auto sep = m_linkKey.find_first_of("-_");
        m_row.localSrc = sep == std::string::npos ? std::nullopt : parseInt(m_linkKey.substr(0, sep));
        m_row.localDst = sep == std::string::npos ? std::nullopt : parseInt(m_linkKey.substr(sep + 1));
        m_linkValid = m_row.localSrc && m_row.localDst;
        if (!m_linkValid) {
            m_ctx.warning(std::nullopt, "op \"" + m_opKey + "\": link key \"" + m_linkKey + "\" is not \"src-dst\"");
            return;
        }
        // Global ranks from this rank's own profiler_metadata.json when it describes the group
        // (PostLoad fills the rest from other ranks' metadata or self-links).
        if (m_members) {
            if (*m_row.localSrc >= 0 && static_cast<size_t>(*m_row.localSrc) < m_members->size())
                m_row.src = (*m_members)[static_cast<size_t>(*m_row.localSrc)];
            if (*m_row.localDst >= 0 && static_cast<size_t>(*m_row.localDst) < m_members->size())
                m_row.dst = (*m_members)[static_cast<size_t>(*m_row.localDst)];
        }
    }

    ImportContext& m_ctx;
    int m_depth = 0;
    int m_skip = 0;
    bool m_sawRoot = false;
    std::optional<int64_t> m_step;
    std::string m_stepKey, m_kind, m_opKey, m_linkKey, m_field;
    model::CommLinkRow m_row; // the current op's fields and the current link's
    bool m_linkValid = false;
    const std::vector<int64_t>* m_members = nullptr;
    std::optional<std::string> m_error;
    size_t m_errorByte = 0;
};

} // namespace

bool CommunicationMatrixImporter::run(ImportContext& ctx)
{
    std::string text;
    if (!readTextFile(ctx, text))
        return false;
    MatrixSax sax(ctx);
    const bool ok = saxParse(text, &sax);
    if (!ok && sax.error()) {
        reportJsonError(ctx, text, sax.errorByte(), *sax.error());
        ctx.finish();
        return false;
    }
    if (!sax.sawRoot()) {
        ctx.error(std::nullopt, "expected a JSON object at the top level");
        return false;
    }
    ctx.finish();
    return ok;
}

} // namespace npuscope::io
