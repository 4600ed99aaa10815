// Reading rows of one fragment: its data files mapped to the projected table fields by field id,
// missing fields as nulls, deleted rows skipped.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/deletion.h"
#include "lance_nd/table/scan/plan.h"

namespace lance_nd::table::internal {

/// \brief Where one projected field comes from in a fragment: file index and the field's path
/// of names in that file (file -1 = all null).
struct NodeSource {
  int file = -1;
  std::vector<std::string> path;
  std::vector<NodeSource> children;  // splittable structs
};

/// \brief Physical rows to read: [start, start + count) when `offsets` is empty, else `offsets`.
struct RowSelection {
  std::uint64_t start = 0;
  std::uint64_t count = 0;
  std::vector<std::uint64_t> offsets;
  std::uint64_t size() const { return offsets.empty() ? count : offsets.size(); }
};

/// \brief An opened fragment: readers of the data files it needs, the field sources, its
/// deletion vector, and a position for sequential reads.
struct FragmentCursor {
  const Fragment* fragment = nullptr;
  std::uint64_t physical_rows = 0;
  std::vector<std::optional<file::FileReader>> readers;  // per data file (unused: empty)
  std::vector<std::vector<std::string>> projections;     // per data file; empty = not read
  std::vector<NodeSource> columns;                       // per projected top-level field
  DeletionVector deletions;
  std::uint64_t position = 0;      // next physical row for sequential reads
  std::size_t deletion_index = 0;  // first deleted offset >= position
  /// Stable row id per physical row (read only when the plan asks for "_rowid" and the
  /// fragment carries them; otherwise "_rowid" is the row address).
  std::vector<std::uint64_t> row_ids;
  bool has_row_ids = false;

  /// \brief Up to `max_rows` live rows from `position` (empty at the end); advances.
  RowSelection NextSelection(std::uint64_t max_rows);
  /// \brief The physical offset of the `k`-th live row.
  std::uint64_t PhysicalOffset(std::uint64_t k) const;
  std::uint64_t live_rows() const { return physical_rows - deletions.size(); }
};

Result<std::unique_ptr<FragmentCursor>> OpenFragment(const Dataset& ds, const ScanPlan& plan,
                                                     const Fragment& fragment);

/// \brief The selected rows as a batch of the plan's schema.
Result<array::RecordBatchPtr> ReadSelection(const ScanPlan& plan, const FragmentCursor& cursor,
                                            const RowSelection& rows);

/// \brief Concatenate batches of `schema` (no batches: an empty batch).
Result<array::RecordBatchPtr> ConcatenateBatches(const array::SchemaPtr& schema,
                                                 const std::vector<array::RecordBatchPtr>& batches);

}  // namespace lance_nd::table::internal
