// Per-row min/max stats columns (`__stats__:<variable>`, docs/FORMAT.md "Stats columns").
#pragma once

#include <span>
#include <string_view>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/nd/record_batch.h"

namespace lance_nd::internal {

/// \brief The stats of `variable` for each row, as a Struct{min: T, max: T} array of
/// `rows.size()` rows typed like `stats_type` (the table's stats column type): a null struct
/// where the row lacks the variable; otherwise the smallest and largest value, nulls and NaN
/// skipped (both null when no value counts). SchemaMismatch when a row's value type differs from
/// the stats type.
Result<array::ArrayPtr> StatsArray(std::span<const nd::NdRecordBatch> rows,
                                   std::string_view variable, const array::DataTypePtr& stats_type);

/// \brief `encoded` (rows encoded without stats columns, nd::EncodeRowsAs) completed to the
/// table schema `table`: every `__stats__:<var>` column of `table` computed from `rows`, in the
/// table's column order.
Result<array::RecordBatchPtr> WithStatsColumns(const array::RecordBatch& encoded,
                                               std::span<const nd::NdRecordBatch> rows,
                                               const array::SchemaPtr& table);

/// \brief As WithStatsColumns, for rows given in the nd encoding (checked with
/// nd::RowDecoder::ValidateRows) whose columns are the table's non-stats columns: each stats
/// column computed from the values lists, without decoding rows.
Result<array::RecordBatchPtr> WithStatsColumnsOfEncoded(const array::RecordBatch& encoded,
                                                        const array::SchemaPtr& table);

}  // namespace lance_nd::internal
