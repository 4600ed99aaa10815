// The selections of `lance-nd slice`: "--isel t=0,x=10:20" (indices) and "--sel lat=-10:10,
// time=1990" (coordinate values) as a RegionSelection.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/api/region.h"
#include "lance_nd/core/result.h"

namespace lance_nd::cli {

/// \brief "dim=SPEC,dim=SPEC" with SPEC an index `i` or a range `a:b` (either end may be left
/// out; negative counts from the end). InvalidArgument naming the part that does not parse.
Result<RegionSelection> ParseIndexSelection(std::string_view text);

/// \brief "dim=SPEC,dim=SPEC" with SPEC a value `v` (the nearest coordinate) or a closed range
/// `A:B` (either end may be left out).
Result<RegionSelection> ParseValueSelection(std::string_view text);

}  // namespace lance_nd::cli
