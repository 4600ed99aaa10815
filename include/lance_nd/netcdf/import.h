// Import of netCDF files (classic, 64-bit offset, netCDF-4) into a lance-nd table: one dataset
// per group, split into chunk rows by the convention of docs/FORMAT.md §3.6 and stored with the
// netCDF import conventions of §3.9. Part of the optional netcdf layer (libnetcdf), which the
// shared library lance_nd does not contain.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lance_nd/api/options.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"

namespace lance_nd::netcdf {

/// \brief Where an import is, reported after each chunk row is handed to the writer.
struct LANCE_ND_EXPORT ImportProgress {
  std::string file;            // the file being read
  std::size_t file_index = 0;  // 0-based, among the files of the import
  std::size_t file_count = 0;
  std::string dataset_id;         // the dataset (group) being read
  std::uint64_t chunk_index = 0;  // the chunk just written, among chunk_count
  std::uint64_t chunk_count = 0;
  std::uint64_t values_read = 0;  // values read from every file so far
};

/// \brief The default row size of automatic chunking: 64 MiB of the largest variable's values.
inline constexpr std::uint64_t kDefaultChunkTargetBytes = std::uint64_t{64} << 20;

struct LANCE_ND_EXPORT ImportOptions {
  /// The dataset id of the root group; only with a single file. Default: the file's base name
  /// without its extension.
  std::optional<std::string> id;
  /// Chunk size per dimension name, applied to the datasets that have the dimension;
  /// dimensions not named are whole in every chunk. A name that no file of the import has is
  /// an error; so is a dimension that is the trailing char dimension of a char variable.
  std::vector<std::pair<std::string, std::uint64_t>> chunks;
  /// Automatic chunking of the datasets whose dimensions `chunks` does not name: when the
  /// largest variable holds more than this many bytes uncompressed, its dimensions are split
  /// outermost first (in whole multiples of its netCDF-4 chunk sizes where it has them) into
  /// rows of about this size; smaller datasets are one row. 0: no automatic chunking.
  std::uint64_t chunk_target_bytes = kDefaultChunkTargetBytes;
  /// Skip files that cannot be opened, read or converted (listed in ImportResult::skipped)
  /// instead of failing; nothing of a skipped file is committed.
  bool skip_bad = false;
  /// The zstd level (1 to 22) of the columns this import adds: on a new table it is the
  /// column default; on an existing table it applies to the variables the table does not have
  /// yet (columns it has keep their stored options). Unset: 9 on a new table (unless
  /// write.column_defaults is given), the table's defaults otherwise. Higher levels give
  /// smaller tables and slower imports (docs/netcdf.md).
  std::optional<int> compression_level;
  /// Casting and stats of the write. The mode is always append (the table is created when it
  /// is missing); column defaults of a new table are chosen by the import when unset.
  WriteOptions write;
  /// Called after each chunk row; may be empty.
  std::function<void(const ImportProgress&)> progress;
};

struct LANCE_ND_EXPORT SkippedFile {
  std::string path;
  Status error;
};

/// \brief A dataset chunked automatically (ImportOptions::chunk_target_bytes).
struct LANCE_ND_EXPORT AutoChunking {
  std::string dataset_id;
  std::vector<std::pair<std::string, std::uint64_t>> chunks;  // the split dimensions' sizes
  std::uint64_t row_bytes = 0;  // the largest variable's uncompressed bytes in a full row
};

struct LANCE_ND_EXPORT ImportResult {
  std::uint64_t version = 0;   // the committed version (0: nothing committed)
  std::uint64_t rows = 0;      // chunk rows written
  std::uint64_t datasets = 0;  // datasets (groups) written
  std::uint64_t files = 0;     // files imported
  std::vector<SkippedFile> skipped;
  std::vector<AutoChunking> auto_chunked;  // the datasets chunked automatically, in order
};

/// \brief Import `files` into the table at `table_uri` as ONE commit. A file that cannot be
/// read fails the import naming the file (and the variable), and nothing is committed, unless
/// options.skip_bad: then it is skipped and listed. Errors of the options (an unknown chunk
/// dimension, an id with several files) are InvalidArgument.
LANCE_ND_EXPORT Result<ImportResult> ImportNetcdf(std::string_view table_uri,
                                                  std::span<const std::string> files,
                                                  const ImportOptions& options = {});

/// \brief "TIME=1,COADSX=7" -> {{"TIME", 1}, {"COADSX", 7}}; InvalidArgument naming the part
/// that is not `name=positive integer`.
LANCE_ND_EXPORT Result<std::vector<std::pair<std::string, std::uint64_t>>> ParseChunkSizes(
    std::string_view text);

}  // namespace lance_nd::netcdf
