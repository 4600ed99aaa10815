// Open data files kept across reads: a take of a few rows would otherwise spend most of its
// time reading and parsing the file's footer, schema and column metadata again.
#pragma once

#include <memory>
#include <string>

#include "lance_nd/core/result.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/io/file.h"
#include "lance_nd/io/file_system.h"

namespace lance_nd::table::internal {

/// \brief A reader of the data file at `path` of `fs`, just opened as `opened`, with an empty
/// page cache (FileReader::Open's errors). The parsed metadata of a recently read file is
/// reused when `opened` has the same size and the same tail (footer and metadata tables):
/// data files are immutable, and the caller opens the file each time, so a missing file fails
/// as before. Thread-safe; a bounded number of files is kept.
Result<file::FileReader> ReadDataFile(const std::shared_ptr<io::FileSystem>& fs,
                                      const std::string& path,
                                      std::shared_ptr<io::RandomAccessFile> opened);

/// \brief Forget every kept file (tests; memory).
void ForgetDataFiles();

}  // namespace lance_nd::table::internal
