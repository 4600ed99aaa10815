// Evaluates a bound tree over a record batch, column by column.
#pragma once

#include "lance_nd/array/array_data.h"
#include "lance_nd/query/bound.h"
#include "lance_nd/query/column.h"

namespace lance_nd::query {

/// \brief The value of `root` for every row of `batch` (a Column of root->type).
/// \brief `root` on `batch`; errors of an operation point into `sql`, the filter's text.
Result<ColumnPtr> EvaluateTree(const BoundNode& root, const array::RecordBatch& batch,
                               std::string_view sql);

}  // namespace lance_nd::query
