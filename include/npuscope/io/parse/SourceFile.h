// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

namespace npuscope::io {

// Size and modification time of an input file, recorded at import (table source_file) so that
// later reads into it (slice args kept by reference) can tell that the file is still the same.
struct FileStamp {
    int64_t sizeBytes = 0;
    int64_t mtimeNs = 0; // st_mtim as ns since the Unix epoch

    friend bool operator==(const FileStamp&, const FileStamp&) = default;
};

// Byte-range access to an immutable input file. Thread-safe (no shared state).
class SourceFile {
public:
    static std::optional<FileStamp> stamp(const std::string& path);
    static std::optional<FileStamp> stamp(std::FILE* file);

    // The bytes [offset, offset + length) of path, or nullopt when the file is missing, cannot be
    // read, or its stamp differs from expected (it changed since the import).
    static std::optional<std::string> readRange(
        const std::string& path, const FileStamp& expected, uint64_t offset, uint64_t length);
};

} // namespace npuscope::io
