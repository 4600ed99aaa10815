// Internal: give an array a structurally equal type (e.g. one with different field metadata).
#pragma once

#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"

namespace lance_nd::nd::internal {

/// \brief `array` with type `type`, applied recursively to its children. The types must have
/// the same shape (ids and child counts); otherwise Corrupt. Shares the buffers.
Result<array::ArrayPtr> Retype(const array::ArrayPtr& array, const array::DataTypePtr& type);

}  // namespace lance_nd::nd::internal
