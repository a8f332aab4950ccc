// SPDX-License-Identifier: Apache-2.0
#include "npuscope/io/parse/SourceFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace npuscope::io {

namespace {

FileStamp fromStat(const struct stat& st)
{
    return { static_cast<int64_t>(st.st_size),
        static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + static_cast<int64_t>(st.st_mtim.tv_nsec) };
}

class Fd {
public:
    explicit Fd(int fd)
        : m_fd(fd)
    {
    }
    ~Fd()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return m_fd; }

private:
    int m_fd;
};

} // namespace

std::optional<FileStamp> SourceFile::stamp(const std::string& path)
{
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return std::nullopt;
    return fromStat(st);
}

std::optional<FileStamp> SourceFile::stamp(std::FILE* file)
{
    struct stat st { };
    if (!file || ::fstat(::fileno(file), &st) != 0 || !S_ISREG(st.st_mode))
        return std::nullopt;
    return fromStat(st);
}

std::optional<std::string> SourceFile::readRange(
    const std::string& path, const FileStamp& expected, uint64_t offset, uint64_t length)
{
    const Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0)
        return std::nullopt;
    // The stamp is checked on the descriptor that is read, so a replaced file cannot slip in between.
    struct stat st { };
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || !(fromStat(st) == expected))
        return std::nullopt;
    if (offset > static_cast<uint64_t>(expected.sizeBytes)
        || length > static_cast<uint64_t>(expected.sizeBytes) - offset)
        return std::nullopt;
    std::string out(static_cast<std::size_t>(length), '\0');
    std::size_t done = 0;
    while (done < out.size()) {
        const auto n = ::pread(fd.get(), out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
        if (n <= 0)
            return std::nullopt;
        done += static_cast<std::size_t>(n);
    }
    return out;
}

} // namespace npuscope::io
