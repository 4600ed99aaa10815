// The chunk sizes of one netCDF group: those --chunks names, or, when it names none of the
// group's dimensions, sizes chosen automatically for rows of a target size (docs/netcdf.md).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/netcdf/nc_model.h"

namespace lance_nd::netcdf::internal {

struct ChunkChoice {
  /// Chunk size per split dimension (dimensions not listed stay whole).
  std::vector<std::pair<std::string, std::uint64_t>> sizes;
  /// True when the sizes were chosen automatically (and split something).
  bool automatic = false;
  /// For an automatic choice: the uncompressed bytes of the largest variable in a full row.
  std::uint64_t row_bytes = 0;
};

/// \brief The sizes of `named` that the group has; when it has none of them, the automatic
/// choice for `target_bytes` (0: none, one row). Automatic: when the largest variable (by
/// uncompressed bytes) is larger than the target, its dimensions are split outermost first
/// (the dimensions inside whole) so that a row of it holds about target_bytes, in whole
/// multiples of its netCDF-4 chunk sizes where it has them; character dimensions stay whole.
ChunkChoice ChooseChunks(const NcGroup& group,
                         std::span<const std::pair<std::string, std::uint64_t>> named,
                         std::uint64_t target_bytes);

}  // namespace lance_nd::netcdf::internal
