// Options of lance-nd table writes: mode, grouping, casting, stats and column encodings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/io/file_system.h"

namespace lance_nd {

/// \brief How Table::Write treats an existing table (Append ignores it). A table that is there
/// must be a lance-nd table (InvalidTable otherwise) for kAppend and kOverwrite.
enum class WriteMode : std::uint8_t {
  kCreate,     // a new table; TableExists (kAlreadyExists) when one is there
  kAppend,     // add rows; creates the table when missing
  kOverwrite,  // replace the rows (and schema) at commit; creates the table when missing
};

/// \brief How a value or attribute type that differs from the table's is handled (numpy's
/// `casting=`). The table's type wins; only kPromote changes the table.
enum class Casting : std::uint8_t {
  kNo,        // any difference rejects the write
  kSafe,      // casts where no value can change (float32 -> float64, uint16 -> int32)
  kSameKind,  // also within a kind or to a later one (bool < unsigned < signed < float);
              // integers that do not fit fail the write
  kPromote,   // widen the table's variable (and its stats) to hold both, then cast;
              // attributes follow kSafe
};

/// \brief "no", "safe", "same_kind", "promote".
LANCE_ND_EXPORT std::string_view CastingName(Casting casting);
/// \brief Parse a CastingName; InvalidArgument listing the accepted names otherwise.
LANCE_ND_EXPORT Result<Casting> ParseCasting(std::string_view name);

enum class Compression : std::uint8_t { kNone, kLz4, kZstd, kFsst };
enum class ByteStreamSplit : std::uint8_t { kOn, kOff, kAuto };
enum class StructuralEncoding : std::uint8_t { kMiniBlock, kFullZip };

/// \brief Encoding choices for a column, stored as `lance-encoding:*` field metadata (the
/// structural encoding on the top-level field, the rest on each leaf) so that Lance and later
/// appends use them. An unset choice is left to the writer.
struct LANCE_ND_EXPORT ColumnOptions {
  std::optional<Compression> compression;
  std::optional<int> compression_level;  // zstd level
  std::optional<ByteStreamSplit> byte_stream_split;
  std::optional<double> rle_threshold;  // 0.0 - 1.0
  std::optional<StructuralEncoding> structural_encoding;
  bool operator==(const ColumnOptions&) const = default;
};

struct LANCE_ND_EXPORT WriteOptions {
  WriteMode mode = WriteMode::kCreate;
  /// The most rows encoded as one Arrow group (one EncodeRows call).
  std::size_t max_rows_per_group = 1024;
  /// The most nd values per group; a group closes after the row that reaches it.
  std::size_t max_values_per_group = std::size_t{1} << 24;
  /// Encoding defaults of a NEW table, stored in its schema metadata
  /// (`lance_nd.column_defaults.*`) and applied to every column a later write adds. For an
  /// existing table: unset, or equal to the stored defaults (InvalidArgument otherwise).
  std::optional<ColumnOptions> column_defaults;
  /// Per-column options on top of the defaults, applied when this write adds the column.
  std::map<std::string, ColumnOptions, std::less<>> column_options;
  /// Per-row min/max stats columns (`__stats__:<var>`). Read by create and overwrite only; an
  /// append writes stats exactly when the table has them.
  bool stats = false;
  Casting casting = Casting::kNo;
  /// Bytes on disk after which buffered rows are written as one fragment.
  std::size_t target_fragment_bytes = std::size_t{128} << 20;
  /// Fragments written at once in the background.
  std::size_t write_parallelism = 4;
  /// Where the table lives; null = the local disk (the uri is a path).
  std::shared_ptr<io::FileSystem> file_system;
};

}  // namespace lance_nd
