// SPDX-License-Identifier: Apache-2.0
// Cutting trace_view.json into blocks and parsing them: the file's layout (a bare events array or
// {"traceEvents": [...]}), the block spans cut at guessed element boundaries, each block's text loaded with its
// synthetic opening and closing, and the parse of the blocks on every core, merged into the Importer in file order.
#include "TraceViewParts.h"

#include "npuscope/core/RunOnThreads.h"

#include <atomic>
#include <cerrno>

#include <unistd.h>

namespace npuscope::io::trace_view {

bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Reads len bytes at offset; false with errno set on a read error or a short file.
bool readAt(int fd, uint64_t offset, char* dst, std::size_t len)
{
    while (len > 0) {
        const ssize_t n = ::pread(fd, dst, len, static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return false;
        }
        dst += n;
        offset += static_cast<uint64_t>(n);
        len -= static_cast<std::size_t>(n);
    }
    return true;
}

// Recognises the two shapes that can be split: [ events ] and {"traceEvents": [ events ] ...}.
Layout detectLayout(int fd, uint64_t size)
{
    Layout l;
    l.size = size;
    std::string head(static_cast<std::size_t>(std::min<uint64_t>(size, 4096)), '\0');
    if (!readAt(fd, 0, head.data(), head.size()))
        return l;
    std::size_t i = 0;
    if (head.starts_with("\xef\xbb\xbf"))
        i = l.bom = 3;
    auto skipSpace = [&] {
        while (i < head.size() && isSpace(head[i]))
            ++i;
    };
    skipSpace();
    if (i < head.size() && head[i] == '[') {
        l.eventsStart = i + 1;
        l.close = "]";
        l.splittable = true;
        return l;
    }
    if (i >= head.size() || head[i] != '{')
        return l;
    ++i;
    skipSpace();
    constexpr std::string_view kKey = "\"traceEvents\"";
    if (head.compare(i, kKey.size(), kKey) != 0)
        return l;
    i += kKey.size();
    skipSpace();
    if (i >= head.size() || head[i] != ':')
        return l;
    ++i;
    skipSpace();
    if (i >= head.size() || head[i] != '[')
        return l;
    l.eventsStart = i + 1;
    l.open = "{\"traceEvents\":[";
    l.close = "]}";
    l.splittable = true;
    return l;
}

// Block spans: one for the whole file unless it is large and splittable.
std::vector<Span> splitBlocks(int fd, const Layout& l, std::size_t blockBytes)
{
    std::vector<Span> spans { { l.bom, l.size } };
    if (!l.splittable)
        return spans;
    constexpr std::size_t kWindow = 1 << 16;
    std::string window(kWindow, '\0');
    blockBytes = std::max<std::size_t>(blockBytes, 64);
    for (uint64_t nominal = l.eventsStart + blockBytes; nominal + blockBytes / 4 < l.size; nominal += blockBytes) {
        if (nominal <= spans.back().begin)
            continue;
        const auto len = static_cast<std::size_t>(std::min<uint64_t>(kWindow, l.size - nominal));
        if (!readAt(fd, nominal, window.data(), len))
            break; // the parse reports the read error
        for (std::size_t i = 0; i < len; ++i) {
            if (window[i] != '}')
                continue;
            std::size_t j = i + 1;
            while (j < len && isSpace(window[j]))
                ++j;
            if (j >= len || window[j] != ',')
                continue;
            ++j;
            while (j < len && isSpace(window[j]))
                ++j;
            if (j >= len || window[j] != '{')
                continue;
            spans.back().end = nominal + i + 1;
            spans.push_back({ nominal + j, l.size });
            break;
        }
    }
    return spans;
}

// Loads block k of spans; false with errno set on a read error. cut: parse only the block's bytes
// before this file offset (and close the events there).
bool BlockText::load(
    int fd, const Layout& l, const std::vector<Span>& spans, std::size_t k, std::optional<uint64_t> cut)
{
    const Span& s = spans[k];
    const bool last = k + 1 == spans.size() && !cut;
    const std::string_view prefix = k == 0 ? std::string_view() : last ? std::string_view(l.open) : "[";
    const std::string_view suffix = last ? std::string_view() : k == 0 ? std::string_view(l.close) : "]";
    const uint64_t end = cut ? *cut : s.end;
    const auto bytes = static_cast<std::size_t>(end - s.begin);
    m_size = prefix.size() + bytes + suffix.size();
    if (m_capacity < m_size + simdjson::SIMDJSON_PADDING) {
        m_capacity = m_size + simdjson::SIMDJSON_PADDING;
        m_buffer.reset(new char[m_capacity]);
    }
    // An empty prefix or suffix is a view with no data (nullptr): memcpy from a null pointer is undefined even
    // for 0 bytes (UBSan, fuzz target trace_view).
    if (!prefix.empty())
        std::memcpy(m_buffer.get(), prefix.data(), prefix.size());
    if (!readAt(fd, s.begin, m_buffer.get() + prefix.size(), bytes))
        return false;
    if (!suffix.empty())
        std::memcpy(m_buffer.get() + prefix.size() + bytes, suffix.data(), suffix.size());
    std::memset(m_buffer.get() + m_size, 0, simdjson::SIMDJSON_PADDING);
    m_delta = static_cast<int64_t>(s.begin) - static_cast<int64_t>(prefix.size());
    m_realEnd = prefix.size() + bytes;
    return true;
}

// Parses spans [from, end) on every core and merges them into importer in file order. Returns the
// index of the first block that did not parse (its outcome in failed), or spans.size().
std::size_t parseBlocks(int fd, const Layout& layout, const std::vector<Span>& spans, std::size_t from,
    ImportContext& ctx, const TraceViewImporter::Options& options, Importer& importer, BlockOutcome& failed)
{
    const std::size_t count = spans.size() - from;
    std::vector<std::unique_ptr<BlockOutcome>> done(count);
    std::mutex mutex;
    std::size_t nextMerge = 0;
    std::size_t stoppedAt = spans.size();
    std::atomic<std::size_t> next { 0 };
    std::atomic<bool> stop { false };
    runOnThreads(std::min(count, options.threads ? options.threads : hardwareThreads()), [&](std::size_t) {
        od::parser parser;
        BlockText text;
        for (;;) {
            const std::size_t i = next.fetch_add(1);
            if (i >= count || stop.load())
                return;
            auto outcome = std::make_unique<BlockOutcome>();
            if (!text.load(fd, layout, spans, from + i)) {
                outcome->readError = true;
                outcome->readErrno = errno;
                outcome->errorOffset = spans[from + i].begin;
            } else if (ctx.cancelled()) {
                outcome->stop = BlockStop::Cancelled;
            } else {
                parseText(parser, text, ctx, options, *outcome);
            }
            std::lock_guard lock(mutex);
            done[i] = std::move(outcome);
            while (nextMerge < count && done[nextMerge] && stoppedAt == spans.size()) {
                BlockOutcome& o = *done[nextMerge];
                if (o.readError || o.stop != BlockStop::None) {
                    if (o.stop == BlockStop::Cancelled && ctx.onBytes)
                        ctx.onBytes(spans[from + nextMerge].end); // read, as a progress bar expects
                    stoppedAt = from + nextMerge;
                    failed = std::move(o);
                    stop = true;
                    break;
                }
                importer.merge(o.result);
                done[nextMerge].reset();
                if (ctx.onBytes)
                    ctx.onBytes(spans[from + nextMerge].end);
                ++nextMerge;
            }
        }
    });
    return stoppedAt;
}

} // namespace npuscope::io::trace_view
