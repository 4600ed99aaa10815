// The first pass of a filtered scan: read only the columns the filter (and the prune filter)
// need, and give the logical indices of the rows that pass, batch by batch, in table order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/query/filter.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/scan.h"

namespace lance_nd::api_internal {

/// \brief An exact filter and a stats prune filter, bound to a table schema; either may be
/// absent. Rows pass when both hold.
struct RowConditions {
  std::optional<query::BoundFilter> exact;
  std::optional<query::BoundFilter> prune;  // already rewritten onto the stats columns
  bool empty() const { return !exact && !prune; }
  /// \brief The table scan projection the conditions read (FilterColumns).
  std::vector<std::string> Columns(const array::Schema& table_schema) const;
  /// \brief Rows of `batch` (indices, increasing) for which both conditions are TRUE.
  Result<std::vector<std::int64_t>> Select(const array::RecordBatch& batch) const;
};

/// \brief Parse and bind `filter` (exact) and `prune` (rewritten by query::PruneFilter) against
/// `table_schema`; empty strings are absent. Parse and bind errors come back as the query layer
/// gives them (position, column list) with the scan's context.
Result<RowConditions> MakeRowConditions(const array::Schema& table_schema,
                                        const std::string& filter, const std::string& prune);

/// \brief Streams the logical indices (0..CountRows()-1, table order) of the rows that pass.
class RowSelector {
 public:
  static Result<RowSelector> Open(const table::Dataset& ds, RowConditions conditions,
                                  std::int64_t batch_rows);
  /// \brief The passing rows of the next table batch (possibly none); nullopt at the end.
  Result<std::optional<std::vector<std::uint64_t>>> Next();
  /// \brief Table rows read so far (the logical index of the next one).
  std::uint64_t rows_seen() const { return rows_seen_; }

 private:
  RowSelector(RowConditions conditions, table::TableBatchReader reader)
      : conditions_(std::move(conditions)), reader_(std::move(reader)) {}
  RowConditions conditions_;
  table::TableBatchReader reader_;
  std::uint64_t rows_seen_ = 0;
};

}  // namespace lance_nd::api_internal
