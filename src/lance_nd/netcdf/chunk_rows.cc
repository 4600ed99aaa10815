// Chunk rows of a netCDF group.
#include "lance_nd/netcdf/chunk_rows.h"

#include "lance_nd/netcdf/nc_read.h"

namespace lance_nd::netcdf::internal {
namespace {

bool HasSplitDim(const NcVariable& var, const ChunkGrid& grid) {
  for (std::size_t d : var.dims) {
    if (grid.IsSplit(d)) return true;
  }
  return false;
}

Result<nd::NdArrowArray> ReadChunkArray(const NcGroup& group, const NcVariable& var,
                                        const ChunkPosition& position,
                                        const std::vector<std::uint64_t>& extent) {
  std::vector<std::size_t> start;
  std::vector<std::size_t> count;
  for (std::size_t d : var.dims) {
    start.push_back(position.offset[d]);
    count.push_back(extent[d]);
  }
  LND_ASSIGN_OR_RETURN(array::ArrayPtr values, ReadSlab(group.ncid, var, start, count));
  std::vector<nd::Dimension> dims;
  for (std::size_t i = 0; i < var.array_rank(); ++i) {
    dims.push_back({group.layout.dim_names[var.dims[i]], count[i]});
  }
  LND_ASSIGN_OR_RETURN(nd::Dimensions dimensions, nd::Dimensions::Make(std::move(dims)));
  return nd::NdArrowArray::Make(std::move(values), std::move(dimensions), var.attributes);
}

}  // namespace

Result<ChunkGrid> GroupGrid(const NcGroup& group, const std::string& id,
                            std::span<const std::pair<std::string, std::uint64_t>> chunks) {
  DatasetLayout layout = group.layout;
  layout.id = id;
  std::vector<std::pair<std::string, std::uint64_t>> sizes;
  for (const auto& [name, size] : chunks) {
    if (layout.DimIndex(name) >= 0) sizes.emplace_back(name, size);
  }
  LND_ASSIGN_OR_RETURN(ChunkGrid grid, ChunkGrid::Make(std::move(layout), sizes));
  for (const NcVariable& var : group.variables) {
    if (var.is_char && !var.dims.empty() && grid.IsSplit(var.dims.back())) {
      return Status::InvalidArgument(
          "--chunks splits dimension ", group.layout.dim_names[var.dims.back()],
          ", the character dimension of char variable ", var.name,
          " (its characters form one string per position); leave it out of --chunks or use a "
          "size of at least ",
          group.layout.dim_sizes[var.dims.back()]);
    }
  }
  return grid;
}

Result<nd::NdRecordBatch> ReadChunkRow(const NcGroup& group, const ChunkGrid& grid,
                                       std::uint64_t index, std::uint64_t* values_read) {
  const ChunkPosition position = grid.Position(index);
  const std::vector<std::uint64_t> extent = grid.Extent(index);
  std::vector<std::pair<std::string, nd::NdArrowArray>> arrays;
  for (const NcVariable& var : group.variables) {
    if (index != 0 && !HasSplitDim(var, grid)) continue;  // stored once, in chunk 0
    LND_ASSIGN_OR_RETURN_CTX(nd::NdArrowArray array, ReadChunkArray(group, var, position, extent),
                             "variable " + var.name);
    *values_read += static_cast<std::uint64_t>(array.num_elements());
    arrays.emplace_back(var.name, std::move(array));
  }
  nd::Attributes attributes = group.attributes;
  LND_RETURN_NOT_OK(SetChunkAttributes(grid.layout(), position, &attributes));
  return nd::NdRecordBatch::FromArrays(std::move(arrays), std::move(attributes));
}

}  // namespace lance_nd::netcdf::internal
