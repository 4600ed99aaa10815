// Turning the selectors of a region read into index ranges: by index (negative from the end)
// or by coordinate value (nearest, or a closed value range).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "lance_nd/api/region.h"
#include "lance_nd/core/result.h"
#include "lance_nd/nd/nd_array.h"

namespace lance_nd::api_internal {

/// \brief The indices [start, stop) kept of one dimension; `drop` when it was a single index.
struct DimRange {
  std::uint64_t start = 0;
  std::uint64_t stop = 0;
  bool drop = false;
  std::uint64_t size() const { return stop - start; }
};

bool IsValueSelector(const DimSelector& s);

/// \brief InvalidArgument when a dimension is named twice or a name is empty.
Status CheckSelectionNames(const RegionSelection& selection);

/// \brief An index selector (kRange, kIndex) over dimension `dim` of `size`.
Result<DimRange> ResolveIndexSelector(const DimSelector& s, std::string_view dim,
                                      std::uint64_t size);

/// \brief A value selector (kNearest, kValueRange) against the coordinate of `dim` (nullopt
/// for null or NaN entries, which never match).
Result<DimRange> ResolveValueSelector(const DimSelector& s, std::string_view dim,
                                      const std::vector<std::optional<double>>& coordinate);

/// \brief The values of a coordinate variable as numbers (integers, floats, dates, timestamps
/// and durations by their stored number). InvalidArgument for a coordinate that is not 1-D
/// over `dim` or not numeric.
Result<std::vector<std::optional<double>>> CoordinateNumbers(const nd::NdArrowArray& coordinate,
                                                             std::string_view dim);

}  // namespace lance_nd::api_internal
