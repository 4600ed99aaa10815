// One chunk row of a netCDF group: every variable's hyperslab in the chunk's region, with the
// chunk convention's global attributes (FORMAT.md §3.6).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/api/chunking.h"
#include "lance_nd/core/result.h"
#include "lance_nd/nd/record_batch.h"
#include "lance_nd/netcdf/nc_model.h"

namespace lance_nd::netcdf::internal {

/// \brief The chunk grid of `group` as dataset `id`: the chunk sizes whose dimension the group
/// has (others are ignored). InvalidArgument when a chunk would split the character dimension
/// of a char variable.
Result<ChunkGrid> GroupGrid(const NcGroup& group, const std::string& id,
                            std::span<const std::pair<std::string, std::uint64_t>> chunks);

/// \brief Row `index` of the grid: the variables that have a split dimension, read over the
/// chunk's region, and (in chunk 0 only) the others, whole. `values_read` grows by the number
/// of values read.
Result<nd::NdRecordBatch> ReadChunkRow(const NcGroup& group, const ChunkGrid& grid,
                                       std::uint64_t index, std::uint64_t* values_read);

}  // namespace lance_nd::netcdf::internal
