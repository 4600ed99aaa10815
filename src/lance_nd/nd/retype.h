// Internal: give an array a structurally equal type (e.g. one with different field metadata).
#pragma once

#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"

namespace lance_nd::nd::internal {

/// \brief `array` with type `type`, applied recursively to its children. The types must be equal
/// but for field metadata, or differ only where `type` makes a nested field nullable that is not
/// nullable in the array's type; otherwise Corrupt. Shares the buffers.
Result<array::ArrayPtr> Retype(const array::ArrayPtr& array, const array::DataTypePtr& type);

/// \brief Whether `a` and `b` are equal but for the nullability of nested fields (list items,
/// struct children), and for field metadata unless `check_metadata`. To a user they are one type.
bool SameUpToNullability(const array::DataType& a, const array::DataType& b,
                         bool check_metadata = false);

/// \brief Of two types that are SameUpToNullability: `a` with every nested field nullable that
/// is nullable in either (a value of `a` or of `b` is a value of it). `a` itself when that is it.
array::DataTypePtr NullableUnion(const array::DataTypePtr& a, const array::DataTypePtr& b);

}  // namespace lance_nd::nd::internal
