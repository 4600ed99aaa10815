// Comparisons for the interop checks, with messages that say exactly what differs.
#pragma once

#include <span>
#include <string_view>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/status.h"
#include "lance_nd/nd/record_batch.h"

namespace lance_nd::interop {

/// \brief The same fields in the same order with the same names, types, nullability and
/// metadata (compared as maps: Lance returns metadata keys sorted), recursively through
/// nested fields; and the same schema metadata (as a map). Errors are InvalidArgument naming
/// the first difference, by field path.
Status CompareSchemas(const array::Schema& want, const array::Schema& got);

/// \brief The same number of rows and, column by column, logically equal arrays (types
/// without metadata; CompareSchemas covers metadata).
Status CompareBatches(const array::RecordBatch& want, const array::RecordBatch& got);

/// \brief The same number of rows and, row by row, the same variables (by name) with equal
/// value types, dimensions, values and attributes, equal global attributes, and
/// NdRecordBatch::Equals. `what` names the comparison in messages.
Status CompareRows(std::span<const nd::NdRecordBatch> want, std::span<const nd::NdRecordBatch> got,
                   std::string_view what);

}  // namespace lance_nd::interop
