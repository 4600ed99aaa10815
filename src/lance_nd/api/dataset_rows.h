// The rows of one dataset (docs/FORMAT.md §3.6), found from the global-attributes column
// alone: their logical indices, layout and chunk positions.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/api/chunking.h"
#include "lance_nd/api/table.h"
#include "lance_nd/core/result.h"
#include "lance_nd/nd/attributes.h"

namespace lance_nd::api_internal {

/// \brief One table row's global attributes and its logical index (table order).
struct GlobalRow {
  std::uint64_t row = 0;
  nd::Attributes attributes;
};

/// \brief Every row's global attributes (only that column is read), in table order.
Result<std::vector<GlobalRow>> ReadGlobalRows(const Table& table);

/// \brief One row of a dataset.
struct DatasetRow {
  std::uint64_t row = 0;                  // logical index in the table
  std::optional<ChunkPosition> position;  // nullopt: a plain row
  nd::Attributes attributes;              // its global attributes
};

/// \brief The rows with one id. Chunked datasets agree on one layout and chunk count.
struct DatasetRows {
  std::string id;
  std::uint64_t table_rows = 0;  // rows scanned to find these
  std::vector<DatasetRow> rows;  // table order; exactly one when not chunked
  std::optional<DatasetLayout> layout;
  std::uint64_t chunk_count = 1;
  /// The chunk size along each layout dimension, as the offsets show it (the smallest
  /// positive offset; the full size where every offset is 0).
  std::vector<std::uint64_t> chunk_sizes;

  bool chunked() const { return layout.has_value(); }
  /// \brief The row with chunk index `index`, or nullptr.
  const DatasetRow* Chunk(std::uint64_t index) const;
};

/// \brief The dataset `id` of `table` (kept per version, dataset_index.h). NotFound naming the
/// ids the table has when there is no row with that id; InvalidArgument for plain and chunk
/// rows mixed, several plain rows, chunk rows that disagree on the layout or the count, or a
/// chunk index found twice.
Result<std::shared_ptr<const DatasetRows>> FindDataset(const Table& table, std::string_view id);

/// \brief The rows of `dataset` whose chunk overlaps the index ranges [lo, hi) given per layout
/// dimension (all rows of a plain dataset). A range that is the whole dimension overlaps every
/// row.
std::vector<std::uint64_t> OverlappingRows(const DatasetRows& dataset,
                                           const std::vector<std::uint64_t>& lo,
                                           const std::vector<std::uint64_t>& hi);

/// \brief The rows that hold the part of a variable over the layout dimensions `var_dims`
/// (indices) inside the ranges [lo, hi): those overlapping along `var_dims`, and, of the copies
/// along the other dimensions (§3.6 puts a split variable in every row it overlaps), the one at
/// offset 0. A variable without a split dimension is thus read from chunk 0 alone.
std::vector<std::uint64_t> RowsHolding(const DatasetRows& dataset,
                                       const std::vector<std::size_t>& var_dims,
                                       const std::vector<std::uint64_t>& lo,
                                       const std::vector<std::uint64_t>& hi);

}  // namespace lance_nd::api_internal
