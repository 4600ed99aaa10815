// Automatic chunk sizes: split the largest variable outermost dimension first, as dask's "auto"
// chunking does, in multiples of the file's own chunks.
#include "lance_nd/netcdf/auto_chunks.h"

#include <algorithm>
#include <limits>

namespace lance_nd::netcdf::internal {
namespace {

std::uint64_t SaturatingMul(std::uint64_t a, std::uint64_t b) {
  return b != 0 && a > std::numeric_limits<std::uint64_t>::max() / b
             ? std::numeric_limits<std::uint64_t>::max()
             : a * b;
}

// Uncompressed bytes of `var` when its dimensions have the sizes `sizes` (by layout index).
std::uint64_t Bytes(const NcVariable& var, const std::vector<std::uint64_t>& sizes) {
  std::uint64_t bytes = var.value_bytes;
  for (std::size_t d : var.dims) bytes = SaturatingMul(bytes, sizes[d]);
  return bytes;
}

const NcVariable* Largest(const NcGroup& group) {
  const NcVariable* largest = nullptr;
  for (const NcVariable& var : group.variables) {
    if (largest == nullptr ||
        Bytes(var, group.layout.dim_sizes) > Bytes(*largest, group.layout.dim_sizes)) {
      largest = &var;
    }
  }
  return largest;
}

bool IsCharDim(const NcGroup& group, std::size_t dim) {
  for (const NcVariable& var : group.variables) {
    if (var.is_char && !var.dims.empty() && var.dims.back() == dim) return true;
  }
  return false;
}

// Bytes of `var` per unit of its dimension at position i, with the dimensions inside it whole.
std::uint64_t InnerBytes(const NcVariable& var, std::size_t i,
                         const std::vector<std::uint64_t>& sizes) {
  std::uint64_t bytes = var.value_bytes;
  for (std::size_t j = i + 1; j < var.dims.size(); ++j) {
    bytes = SaturatingMul(bytes, sizes[var.dims[j]]);
  }
  return bytes;
}

// Chunk sizes (by layout index) for `var`: outermost dimensions take their smallest unit (the
// netCDF-4 chunk size, else 1) until the dimensions inside fit the budget; that dimension then
// takes as many units as fit.
std::vector<std::uint64_t> SplitOutermostFirst(const NcGroup& group, const NcVariable& var,
                                               std::uint64_t target_bytes) {
  const std::vector<std::uint64_t>& whole = group.layout.dim_sizes;
  std::vector<std::uint64_t> chunk = whole;
  std::vector<bool> done(whole.size(), false);
  std::uint64_t budget = target_bytes;
  for (std::size_t i = 0; i < var.array_rank(); ++i) {
    const std::size_t d = var.dims[i];
    if (done[d] || IsCharDim(group, d) || whole[d] == 0) continue;
    done[d] = true;
    const std::uint64_t inner = std::max<std::uint64_t>(InnerBytes(var, i, whole), 1);
    const std::uint64_t stored = var.storage_chunks.empty() ? 1 : var.storage_chunks[i];
    const std::uint64_t unit = std::clamp<std::uint64_t>(stored, 1, whole[d]);
    if (SaturatingMul(inner, unit) <= budget) {
      chunk[d] = std::min(budget / inner / unit * unit, whole[d]);
      break;
    }
    chunk[d] = unit;
    budget = std::max<std::uint64_t>(budget / unit, 1);
  }
  return chunk;
}

ChunkChoice AutoChunks(const NcGroup& group, std::uint64_t target_bytes) {
  const NcVariable* largest = Largest(group);
  if (target_bytes == 0 || largest == nullptr ||
      Bytes(*largest, group.layout.dim_sizes) <= target_bytes) {
    return {};
  }
  const std::vector<std::uint64_t> chunk = SplitOutermostFirst(group, *largest, target_bytes);
  ChunkChoice choice;
  for (std::size_t d : largest->dims) {
    const std::string& name = group.layout.dim_names[d];
    const bool listed = std::any_of(choice.sizes.begin(), choice.sizes.end(),
                                    [&](const auto& s) { return s.first == name; });
    if (chunk[d] < group.layout.dim_sizes[d] && !listed) choice.sizes.emplace_back(name, chunk[d]);
  }
  choice.automatic = !choice.sizes.empty();
  choice.row_bytes = Bytes(*largest, chunk);
  return choice;
}

}  // namespace

ChunkChoice ChooseChunks(const NcGroup& group,
                         std::span<const std::pair<std::string, std::uint64_t>> named,
                         std::uint64_t target_bytes) {
  ChunkChoice choice;
  for (const auto& [name, size] : named) {
    if (group.layout.DimIndex(name) >= 0) choice.sizes.emplace_back(name, size);
  }
  if (!choice.sizes.empty()) return choice;
  return AutoChunks(group, target_bytes);
}

}  // namespace lance_nd::netcdf::internal
