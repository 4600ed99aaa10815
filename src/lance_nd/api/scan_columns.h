// Which table columns a lance-nd scan reads: the output columns of a projection of variables,
// and the (cheapest) columns a filter needs.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/nd/record_batch.h"
#include "lance_nd/query/filter.h"
#include "lance_nd/table/dataset.h"

namespace lance_nd::api_internal {

/// \brief The table columns holding `variables` (all of them when nullopt) and the global
/// attributes, never stats columns, as a table::TableScanOptions projection (top-level names).
/// An empty result means "no columns" (not "every column"). Errors: InvalidArgument for a
/// nested name (`sst.attrs`) or a name that is not a variable (listing the variables).
Result<std::vector<std::string>> OutputColumns(
    const array::Schema& table_schema, const std::optional<std::vector<std::string>>& variables);

/// \brief A table::TableScanOptions projection that holds every column path in `paths`:
/// dotted paths into structs where that is unambiguous, the whole top-level column when a name
/// holds a dot, and for a whole nd column (`depth IS NULL`) only a small child that carries the
/// struct's validity. Always non-empty: "_rowaddr" is listed too (an empty projection would
/// read every column).
std::vector<std::string> FilterColumns(const array::Schema& table_schema,
                                       const std::vector<query::ColumnPath>& paths);

/// \brief `schema` / `batch` without the "_rowaddr" column that keeps an empty projection from
/// meaning "every column" (unchanged when there is none).
array::SchemaPtr WithoutRowAddress(const array::SchemaPtr& schema);
array::RecordBatchPtr WithoutRowAddress(const array::RecordBatchPtr& batch);

/// \brief Rows `rows` (logical indices, any order) of `dataset`, decoded: the table columns
/// `projection` (a table::TableScanOptions projection of whole top-level columns; empty reads
/// none). Rows decoded without the global-attributes column have no global attributes.
Result<std::vector<nd::NdRecordBatch>> TakeDecoded(const table::Dataset& dataset,
                                                   std::span<const std::uint64_t> rows,
                                                   std::vector<std::string> projection);

}  // namespace lance_nd::api_internal
