// SPDX-License-Identifier: Apache-2.0
// communication_matrix.json (CommunicationMatrixImporter, full and lean): the op and link fields of a matrix row, a
// simdjson pass (FastMatrix) that keeps the links of a file of the usual shape and writes them in file order, and
// nlohmann's SAX (MatrixSax), which writes links as it reads them, with its warnings and diagnostics for any other
// file. communication.json is read by CommunicationImporter.cpp.
#include "npuscope/io/torch_npu/CommunicationImporter.h"

#include "npuscope/core/TranslationMarker.h"

#include "npuscope/core/Decimal.h"
#include "npuscope/io/parse/FastJsonSax.h"
#include "npuscope/io/parse/JsonFile.h"
#include "npuscope/io/parse/SimdjsonSupport.h"

#include <algorithm>
#include <cctype>

namespace npuscope::io {

namespace {

namespace od = simdjson::ondemand;

// The op's fields of a matrix link row (step, kind, op key parsed); the link's own fields are left to
// startMatrixLink. Returns the group's global ranks when this rank's profiler_metadata.json lists them.
const std::vector<int64_t>* startMatrixOp(ImportContext& ctx, model::CommLinkRow& op, std::optional<int64_t> step,
    const std::string& kind, const std::string& opKey)
{
    const OpKey parsed = parseOpKey(opKey);
    op = {};
    op.rankId = ctx.rankId();
    op.step = step;
    op.kind = kind;
    op.groupHash = parsed.groupHash;
    setMatrixOp(op, opKey, parsed);
    if (op.groupHash) {
        const auto& groups = ctx.rankState().groupRanks;
        if (auto g = groups.find(*op.groupHash); g != groups.end())
            return &g->second;
    }
    return nullptr;
}

// Resets the link's own fields of row and reads its "src-dst" key; false when the key is not one.
bool startMatrixLink(model::CommLinkRow& row, std::string_view linkKey, const std::vector<int64_t>* members)
{
    row.localSrc = row.localDst = row.src = row.dst = row.timeNs = std::nullopt;
    row.transport = row.opName = std::nullopt;
    row.sizeMb = row.bandwidthGbps = std::nullopt;
    const auto sep = linkKey.find_first_of("-_");
    row.localSrc = sep == std::string_view::npos ? std::nullopt : parseInt(linkKey.substr(0, sep));
    row.localDst = sep == std::string_view::npos ? std::nullopt : parseInt(linkKey.substr(sep + 1));
    if (!row.localSrc || !row.localDst)
        return false;
    // Global ranks from this rank's own profiler_metadata.json when it describes the group
    // (PostLoad fills the rest from other ranks' metadata or self-links).
    if (members) {
        if (*row.localSrc >= 0 && static_cast<size_t>(*row.localSrc) < members->size())
            row.src = (*members)[static_cast<size_t>(*row.localSrc)];
        if (*row.localDst >= 0 && static_cast<size_t>(*row.localDst) < members->size())
            row.dst = (*members)[static_cast<size_t>(*row.localDst)];
    }
    return true;
}

// A link row that lean mode (CommunicationMatrixImporter::runLean) leaves out.
bool leanDrops(const model::CommLinkRow& op) { return op.slot && *op.slot != "total"; }

// A link's numeric field (MatrixSax::number).
void setMatrixNumber(model::CommLinkRow& row, std::string_view field, double v)
{
    if (field == "Transit Size(MB)")
        row.sizeMb = v;
    else if (field == "Transit Time(ms)")
        row.timeNs = doubleToNs(v, 1.0e6);
    else if (field == "Bandwidth(GB/s)")
        row.bandwidthGbps = v;
}

// Streams communication_matrix.json: step -> kind -> op -> "src-dst" -> link fields. The file is
// the largest per-rank summary file of a cluster (tens to hundreds of KB), so links are written as
// they are read instead of going through a DOM.
class MatrixSax : public nlohmann::json_sax<nlohmann::json> {
public:
    MatrixSax(ImportContext& ctx, bool lean)
        : m_ctx(ctx)
        , m_lean(lean)
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
        if (m_depth == 5 && m_linkValid && !(m_lean && leanDrops(m_row)))
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
        setMatrixNumber(m_row, m_field, v);
        return true;
    }
    void warnNotObject()
    {
        switch (m_depth) {
        case 1:
            m_ctx.warning(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "\"%1\" is not an object; skipped"), { m_stepKey }));
            break;
        case 2:
            m_ctx.warning(std::nullopt,
                issueText(
                    QT_TRANSLATE_NOOP("ParseIssue", "\"%1.%2\" is not an object; skipped"), { m_stepKey, m_kind }));
            break;
        case 3:
            m_ctx.warning(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "op \"%1\" is not an object; skipped"), { m_opKey }));
            break;
        default:
            m_ctx.warning(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "op \"%1\": link key \"%2\" is not \"src-dst\""),
                    { m_opKey, m_linkKey }));
            break;
        }
    }

    void startOp() { m_members = startMatrixOp(m_ctx, m_row, m_step, m_kind, m_opKey); }

    void startLink()
    {
        m_linkValid = startMatrixLink(m_row, m_linkKey, m_members);
        if (!m_linkValid)
            m_ctx.warning(std::nullopt,
                issueText(QT_TRANSLATE_NOOP("ParseIssue", "op \"%1\": link key \"%2\" is not \"src-dst\""),
                    { m_opKey, m_linkKey }));
    }

    ImportContext& m_ctx;
    bool m_lean;
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

// One simdjson pass over a communication_matrix.json of the usual shape: objects down to the links, scalar
// link fields, "src-dst" link keys, numbers within a double. read() keeps the links (op fields once per op key,
// strings as views into the parser's buffers, which live as long as this object) and returns true; write() then
// hands them to the model in file order. read() returns false, with nothing to write, for anything else (a syntax
// error, another shape, a BOM, cancel): MatrixSax then reads the file with its warnings and diagnostics, so the
// rows are those it would write.
class FastMatrix {
public:
    FastMatrix(ImportContext& ctx, bool lean)
        : m_ctx(ctx)
        , m_lean(lean)
    {
    }

    bool read(const std::string& text)
    {
        if (text.starts_with("\xef\xbb\xbf"))
            return false;
        try {
            m_padded = simdjson::padded_string(text.data(), text.size());
            od::document doc = m_parser.iterate(m_padded);
            od::object root;
            if (doc.get_object().get(root) != simdjson::SUCCESS)
                return false;
            for (auto stepField : root) {
                const std::string stepKey(stepField.unescaped_key().value());
                const auto step = stepFromKey(stepKey);
                od::object kinds;
                if (stepField.value().get_object().get(kinds) != simdjson::SUCCESS)
                    return false;
                for (auto kindField : kinds) {
                    const std::string kind(kindField.unescaped_key().value());
                    od::object ops;
                    if (kindField.value().get_object().get(ops) != simdjson::SUCCESS)
                        return false;
                    for (auto opField : ops) {
                        const std::string opKey(opField.unescaped_key().value());
                        od::object opLinks;
                        if (opField.value().get_object().get(opLinks) != simdjson::SUCCESS)
                            return false;
                        if (!readOp(step, kind, opKey, opLinks))
                            return false;
                    }
                }
            }
            requireEnd(doc);
        } catch (const simdjson::simdjson_error&) {
            return false;
        }
        return true;
    }

    // The links read, in file order (after a read() that returned true).
    void write(model::ModelWriter& writer) const
    {
        model::CommLinkRow row;
        size_t op = m_ops.size();
        auto set = [](model::OptText& field, const std::optional<std::string_view>& value) {
            if (!value)
                field.reset();
            else if (field)
                field->assign(*value);
            else
                field.emplace(*value);
        };
        for (const Link& l : m_links) {
            if (l.op != op) {
                op = l.op;
                row = m_ops[op];
            }
            row.localSrc = l.localSrc;
            row.localDst = l.localDst;
            row.src = l.src;
            row.dst = l.dst;
            row.sizeMb = l.sizeMb;
            row.timeNs = l.timeNs;
            row.bandwidthGbps = l.bandwidthGbps;
            set(row.transport, l.transport);
            set(row.opName, l.opName);
            writer.addCommLink(row);
        }
    }

private:
    struct Link {
        size_t op; // index into m_ops
        model::OptInt localSrc, localDst, src, dst, timeNs;
        model::OptReal sizeMb, bandwidthGbps;
        std::optional<std::string_view> transport, opName; // into m_parser's string buffer
    };

    bool readOp(std::optional<int64_t> step, const std::string& kind, const std::string& opKey, od::object& opLinks)
    {
        model::CommLinkRow row;
        const auto* members = startMatrixOp(m_ctx, row, step, kind, opKey);
        const bool dropped = m_lean && leanDrops(row);
        if (!dropped)
            m_ops.push_back(row);
        for (auto linkField : opLinks) {
            if (m_ctx.cancelled())
                return false;
            const std::string_view linkKey = linkField.unescaped_key().value();
            if (!startMatrixLink(row, linkKey, members))
                return false;
            od::object fields;
            if (linkField.value().get_object().get(fields) != simdjson::SUCCESS)
                return false;
            std::optional<std::string_view> transport, opName;
            for (auto field : fields) {
                const std::string_view name = field.unescaped_key().value();
                od::value v = field.value();
                switch (v.type().value()) {
                case od::json_type::string: {
                    const std::string_view s = v.get_string().value();
                    if (name == "Transport Type")
                        transport = s;
                    else if (name == "Op Name" || name == "op_name")
                        opName = s;
                    else if (const auto d = parseDouble(s))
                        setMatrixNumber(row, name, *d);
                    break;
                }
                case od::json_type::number: {
                    const auto d = number(v);
                    if (!d)
                        return false;
                    setMatrixNumber(row, name, *d);
                    break;
                }
                case od::json_type::boolean:
                    if (v.get_bool().error() != simdjson::SUCCESS)
                        return false;
                    break;
                case od::json_type::null: {
                    bool isNull = false;
                    if (v.is_null().get(isNull) != simdjson::SUCCESS || !isNull)
                        return false;
                    break;
                }
                default: // an object or array inside a link
                    return false;
                }
            }
            if (!dropped)
                m_links.push_back({ m_ops.size() - 1, row.localSrc, row.localDst, row.src, row.dst, row.timeNs,
                    row.sizeMb, row.bandwidthGbps, transport, opName });
        }
        return true;
    }

    // A number token as the SAX path gives it to MatrixSax; nullopt (the SAX path then decides) beyond a double.
    static std::optional<double> number(od::value& v)
    {
        const auto n = readJsonNumber(v.raw_json_token());
        return n ? std::optional(n->value) : std::nullopt;
    }

    ImportContext& m_ctx;
    bool m_lean;
    simdjson::padded_string m_padded;
    od::parser m_parser;
    std::vector<model::CommLinkRow> m_ops;
    std::vector<Link> m_links;
};

} // namespace

bool CommunicationMatrixImporter::run(ImportContext& ctx) { return read(ctx, false); }

bool CommunicationMatrixImporter::runLean(ImportContext& ctx) { return read(ctx, true); }

bool CommunicationMatrixImporter::read(ImportContext& ctx, bool lean)
{
    std::string text;
    if (!readTextFile(ctx, text))
        return false;
    {
        FastMatrix fast(ctx, lean);
        if (fast.read(text)) {
            fast.write(ctx.writer());
            ctx.finish();
            return true;
        }
    }
    MatrixSax sax(ctx, lean);
    const bool ok = saxParse(text, &sax);
    if (!ok && sax.error()) {
        reportJsonError(ctx, text, sax.errorByte(), *sax.error());
        ctx.finish();
        return false;
    }
    if (!sax.sawRoot()) {
        ctx.error(std::nullopt, issueText(QT_TRANSLATE_NOOP("ParseIssue", "expected a JSON object at the top level")));
        return false;
    }
    ctx.finish();
    return ok;
}

} // namespace npuscope::io
