// Region reads of datasets stored as chunk rows (docs/FORMAT.md §3.6): a hyperslab of one
// variable, a whole dataset reassembled, and the list of a table's datasets. The rows of a
// dataset are found from the global-attributes column alone; only the chosen rows' variable
// is then read.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lance_nd/api/chunking.h"
#include "lance_nd/api/table.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/nd/nd_array.h"
#include "lance_nd/nd/record_batch.h"
#include "lance_nd/nd/row_encoding.h"

namespace lance_nd {

/// \brief What to keep of one dimension, by index (xarray `isel`) or by coordinate value
/// (xarray `sel`). A range keeps the dimension; a single index or value drops it.
struct LANCE_ND_EXPORT DimSelector {
  enum class Kind {
    kRange,       // indices [start, stop): either end may be absent; negative counts from the end
    kIndex,       // one index; negative counts from the end
    kNearest,     // the index whose coordinate is nearest to `value`
    kValueRange,  // the indices whose coordinate lies in [low, high] (either end may be absent)
  };
  Kind kind = Kind::kRange;
  std::optional<std::int64_t> start;
  std::optional<std::int64_t> stop;
  std::int64_t index = 0;
  double value = 0;
  std::optional<double> low;
  std::optional<double> high;

  static DimSelector Range(std::optional<std::int64_t> start, std::optional<std::int64_t> stop);
  static DimSelector Index(std::int64_t index);
  static DimSelector Nearest(double value);
  static DimSelector ValueRange(std::optional<double> low, std::optional<double> high);
  /// \brief "2:5", ":", "-1", "~12.5", "~10:20" (values marked by "~"), for messages.
  std::string ToString() const;
};

/// \brief Selectors by dimension name; a dimension not named is kept whole. A name may appear
/// once.
using RegionSelection = std::vector<std::pair<std::string, DimSelector>>;

/// \brief What a region read touched, so that callers (and tests) can see that only the rows
/// overlapping the region were read.
struct LANCE_ND_EXPORT RegionReadStats {
  std::uint64_t table_rows = 0;    // rows whose global attributes were scanned
  std::uint64_t dataset_rows = 0;  // rows of the dataset (its id)
  std::uint64_t rows_read = 0;     // rows whose variable column the region needed
  std::uint64_t rows_decoded = 0;  // of those, rows taken from storage (not kept from before)
};

/// \brief A hyperslab of `variable` of the dataset `id`: the variable's dimensions in their
/// order, minus those selected by a single index or value, sized by the selection. Values
/// are in C order; positions no row covers are null; the array's attributes are kept.
///
/// The dataset is the chunk rows whose global `id` is `id` (§3.6), or the one row with that
/// `id` and no chunk keys. Coordinates for value selectors are the 1-D variables named like
/// their dimension. Errors: NotFound for an unknown id (naming the ids there are) or a
/// variable the dataset lacks; InvalidArgument naming the dimension, its size and the request
/// for a dimension the variable lacks, an index out of range ([-n, n) for an index, [-n, n]
/// for a range end), a range whose start is after its stop, a value selector without a
/// numeric 1-D coordinate, or a dimension named twice; InvalidArgument for chunk rows that do
/// not agree on the layout or repeat a chunk index.
LANCE_ND_EXPORT Result<nd::NdArrowArray> ReadRegion(const Table& table, std::string_view id,
                                                    std::string_view variable,
                                                    const RegionSelection& selection,
                                                    RegionReadStats* stats = nullptr);

/// \brief The dataset `id` reassembled: every variable at its full size, with the global
/// attributes of its first chunk row minus the chunk keys (`id` stays). InvalidArgument when a
/// chunk row is missing (`chunk_count` rows with indices 0..count-1 are expected), naming the
/// missing indices.
LANCE_ND_EXPORT Result<nd::NdRecordBatch> ReadDataset(const Table& table, std::string_view id);

/// \brief One dataset of a table, as its global attributes describe it.
struct LANCE_ND_EXPORT DatasetInfo {
  std::string id;
  /// nullopt for a dataset of one plain row (an `id`, no chunk keys).
  std::optional<DatasetLayout> layout;
  std::uint64_t chunk_count = 1;  // as the rows say
  std::uint64_t rows = 0;         // rows found with this id
  /// The table row (logical index) of chunk 0, or of the plain row; nullopt when chunk 0 is
  /// missing.
  std::optional<std::uint64_t> first_row;
};

/// \brief Region reads keep what they learn of a table version in memory, shared by every
/// `Table` of the process: the version's global attributes and datasets, and the decoded
/// chunk rows they read, up to a budget of bytes (64 MiB at start; 0 keeps none), dropping the
/// least recently used first. A version never changes, so nothing kept goes stale.
LANCE_ND_EXPORT void SetRegionCacheCapacity(std::uint64_t bytes);

/// \brief Drop everything reads keep in memory across calls: parsed manifests and data-file
/// metadata (table::ClearManifestCache), dataset indexes and decoded chunk rows. Reads after
/// it read and decode everything again: for cold-read benchmarks, or to release memory.
LANCE_ND_EXPORT void ClearReadCaches();

/// \brief The datasets of `table` in order of their first row, read from the global-attributes
/// column alone. Rows without an `id` belong to no dataset and are not listed. InvalidArgument
/// for malformed chunk keys (naming the row).
LANCE_ND_EXPORT Result<std::vector<DatasetInfo>> ListDatasets(const Table& table);

/// \brief Row `row` (a logical index, as Scanner::Take takes) without the values of its
/// arrays: each array's name, dimensions, value type and attributes, and the row's global
/// attributes. Only those parts of the columns are read, so a reader learns a dataset's
/// variables from its chunk 0 without decoding a chunk of values. InvalidArgument for a row
/// out of range.
LANCE_ND_EXPORT Result<nd::NdRowLayout> ReadRowLayout(const Table& table, std::uint64_t row);
/// \brief ReadRowLayout of each of `rows` (in the order given), read in one take.
LANCE_ND_EXPORT Result<std::vector<nd::NdRowLayout>> ReadRowLayouts(
    const Table& table, std::span<const std::uint64_t> rows);

}  // namespace lance_nd
