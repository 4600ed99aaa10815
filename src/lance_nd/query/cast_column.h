// Value conversions between Columns: CAST, and the coercions comparisons need.
#pragma once

#include "lance_nd/core/result.h"
#include "lance_nd/query/column.h"

namespace lance_nd::query {

/// \brief A column of `length` rows of kind KindOf(type), every row null (vectors sized).
std::shared_ptr<Column> AllNull(const array::DataTypePtr& type, std::int64_t length);

/// \brief `c` converted to `to` (CanCastType must hold). A value that does not fit or does not
/// parse is an InvalidArgument error naming it and the target type (as DataFusion's CAST).
Result<ColumnPtr> CastColumn(const ColumnPtr& c, const array::DataTypePtr& to);

}  // namespace lance_nd::query
