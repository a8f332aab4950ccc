// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <streambuf>
#include <string>

namespace npuscope::io {

// A read-only std::streambuf over a file that may be gzip-compressed (zlib's gzread reads plain files through
// unchanged), so a *.json.gz trace is parsed as a stream without ever holding its decompressed text. Owned by the
// reader; one thread at a time.
class GzipStreamBuf : public std::streambuf {
public:
    explicit GzipStreamBuf(const std::string& path);
    ~GzipStreamBuf() override;
    GzipStreamBuf(const GzipStreamBuf&) = delete;
    GzipStreamBuf& operator=(const GzipStreamBuf&) = delete;

    bool isOpen() const { return m_file != nullptr; }
    // zlib's message after a read failed (a truncated or damaged gzip member), empty when none.
    const std::string& error() const { return m_error; }
    // Decompressed bytes delivered so far.
    unsigned long long consumed() const { return m_consumed; }

protected:
    int_type underflow() override;

private:
    void* m_file = nullptr; // gzFile
    std::array<char, 1 << 16> m_buffer {};
    std::string m_error;
    unsigned long long m_consumed = 0;
};

} // namespace npuscope::io
