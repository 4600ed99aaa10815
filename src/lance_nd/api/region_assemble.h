// Putting the pieces of one variable (its parts in chunk rows) together over a region.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lance_nd/api/region_selection.h"
#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"
#include "lance_nd/nd/nd_array.h"

namespace lance_nd::api_internal {

/// \brief One chunk row's part of a variable: an array over the variable's dimensions (same
/// names, same order in every piece) whose first element sits at `offset` in the whole.
struct RegionPiece {
  const nd::NdArrowArray* array = nullptr;
  std::vector<std::uint64_t> offset;  // one per dimension
};

/// \brief The values of the region `ranges` (one per dimension of the variable) in C order,
/// of type `type`: each position from the piece that covers it (the last one where pieces
/// overlap), null where none does. InvalidArgument when the region has more elements than an
/// array can hold.
Result<array::ArrayPtr> AssembleRegion(const array::DataTypePtr& type,
                                       std::span<const RegionPiece> pieces,
                                       std::span<const DimRange> ranges);

}  // namespace lance_nd::api_internal
