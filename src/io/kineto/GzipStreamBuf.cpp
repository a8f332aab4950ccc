// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/kineto/GzipStreamBuf.h"

#include <zlib.h>

namespace npuscope::io {

GzipStreamBuf::GzipStreamBuf(const std::string& path)
{
    gzFile f = gzopen(path.c_str(), "rb");
    if (f) {
        gzbuffer(f, 1 << 17);
        m_file = f;
    }
}

GzipStreamBuf::~GzipStreamBuf()
{
    if (m_file)
        gzclose(static_cast<gzFile>(m_file));
}

GzipStreamBuf::int_type GzipStreamBuf::underflow()
{
    if (gptr() < egptr())
        return traits_type::to_int_type(*gptr());
    if (!m_file)
        return traits_type::eof();
    const int n = gzread(static_cast<gzFile>(m_file), m_buffer.data(), static_cast<unsigned>(m_buffer.size()));
    if (n < 0) {
        int code = 0;
        const char* message = gzerror(static_cast<gzFile>(m_file), &code);
        m_error = message ? message : "gzip read error";
        return traits_type::eof();
    }
    if (n == 0) {
        int code = 0;
        const char* message = gzerror(static_cast<gzFile>(m_file), &code);
        if (code != Z_OK && code != Z_STREAM_END && message)
            m_error = message;
        return traits_type::eof();
    }
    m_consumed += static_cast<unsigned long long>(n);
    setg(m_buffer.data(), m_buffer.data(), m_buffer.data() + n);
    return traits_type::to_int_type(*gptr());
}

} // namespace npuscope::io
