// The dataset and chunk convention (docs/FORMAT.md §3.6): grid arithmetic and the global
// attributes that carry a chunk's place.
#include "lance_nd/api/chunking.h"

#include <algorithm>
#include <array>
#include <limits>
#include <string>

#include "chunk_attribute_values.h"
#include "lance_nd/core/status.h"

namespace lance_nd {

namespace {

constexpr std::array<std::string_view, 7> kAllKeys = {
    chunk_keys::kId,        chunk_keys::kDims,  chunk_keys::kOffset, chunk_keys::kShape,
    chunk_keys::kUnlimited, chunk_keys::kIndex, chunk_keys::kCount};

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "(none)" : out;
}

Status CheckLayout(const DatasetLayout& layout) {
  if (layout.dim_names.size() != layout.dim_sizes.size()) {
    return Status::InvalidArgument("dataset layout of '", layout.id, "' has ",
                                   layout.dim_names.size(), " dimension names but ",
                                   layout.dim_sizes.size(), " sizes; give one size per name");
  }
  for (std::size_t i = 0; i < layout.dim_names.size(); ++i) {
    const auto repeats =
        std::count(layout.dim_names.begin(), layout.dim_names.end(), layout.dim_names[i]);
    if (layout.dim_names[i].empty() || repeats > 1) {
      return Status::InvalidArgument("dataset layout of '", layout.id,
                                     "' has an empty or repeated dimension name '",
                                     layout.dim_names[i], "'; names must be unique");
    }
  }
  for (std::uint64_t size : layout.dim_sizes) {
    if (size > static_cast<std::uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Status::InvalidArgument("dimension size ", size, " of dataset '", layout.id,
                                     "' does not fit int64");
    }
  }
  for (const std::string& u : layout.unlimited_dims) {
    if (layout.DimIndex(u) < 0) {
      return Status::InvalidArgument("unlimited dimension '", u, "' of dataset '", layout.id,
                                     "' is not one of its dimensions (",
                                     JoinNames(layout.dim_names), ")");
    }
  }
  return Status::OK();
}

std::uint64_t CeilDiv(std::uint64_t n, std::uint64_t d) { return n == 0 ? 1 : (n + d - 1) / d; }

}  // namespace

bool IsChunkKey(std::string_view key) {
  return std::find(kAllKeys.begin(), kAllKeys.end(), key) != kAllKeys.end();
}

int DatasetLayout::DimIndex(std::string_view name) const {
  const auto it = std::find(dim_names.begin(), dim_names.end(), name);
  return it == dim_names.end() ? -1 : static_cast<int>(it - dim_names.begin());
}

ChunkGrid::ChunkGrid(DatasetLayout layout, std::vector<std::uint64_t> chunk_sizes)
    : layout_(std::move(layout)), chunk_sizes_(std::move(chunk_sizes)) {
  for (std::size_t d = 0; d < chunk_sizes_.size(); ++d) {
    chunks_per_dim_.push_back(CeilDiv(layout_.dim_sizes[d], chunk_sizes_[d]));
    num_chunks_ *= chunks_per_dim_.back();
  }
}

Result<ChunkGrid> ChunkGrid::Make(
    DatasetLayout layout, std::span<const std::pair<std::string, std::uint64_t>> chunk_sizes) {
  LND_RETURN_NOT_OK(CheckLayout(layout));
  std::vector<std::uint64_t> sizes(layout.dim_sizes.begin(), layout.dim_sizes.end());
  std::vector<bool> seen(sizes.size(), false);
  for (const auto& [name, size] : chunk_sizes) {
    const int index = layout.DimIndex(name);
    if (index < 0) {
      return Status::InvalidArgument("cannot chunk dimension '", name, "': dataset '", layout.id,
                                     "' has dimensions ", JoinNames(layout.dim_names));
    }
    const auto d = static_cast<std::size_t>(index);
    if (seen[d]) return Status::InvalidArgument("chunk size of '", name, "' given twice");
    if (size == 0) {
      return Status::InvalidArgument("chunk size of '", name, "' is 0; give a positive size");
    }
    seen[d] = true;
    // A chunk larger than the dimension is the whole dimension (at least 1, so that a size-0
    // dimension still has a well-defined extent).
    sizes[d] = std::max<std::uint64_t>(1, std::min(size, layout.dim_sizes[d]));
  }
  for (std::size_t d = 0; d < sizes.size(); ++d) sizes[d] = std::max<std::uint64_t>(1, sizes[d]);
  const std::uint64_t cap = std::uint64_t{1} << 40;
  std::uint64_t count = 1;
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    count *= CeilDiv(layout.dim_sizes[d], sizes[d]);
    if (count > cap) {
      return Status::InvalidArgument("chunking dataset '", layout.id, "' gives more than ", cap,
                                     " chunks; choose larger chunk sizes");
    }
  }
  return ChunkGrid(std::move(layout), std::move(sizes));
}

bool ChunkGrid::IsSplit(std::size_t dim) const { return chunks_per_dim_.at(dim) > 1; }

ChunkPosition ChunkGrid::Position(std::uint64_t index) const {
  ChunkPosition position;
  position.index = index;
  position.count = num_chunks_;
  position.offset.assign(chunk_sizes_.size(), 0);
  std::uint64_t rest = index;
  for (std::size_t d = chunk_sizes_.size(); d-- > 0;) {
    position.offset[d] = (rest % chunks_per_dim_[d]) * chunk_sizes_[d];
    rest /= chunks_per_dim_[d];
  }
  return position;
}

std::vector<std::uint64_t> ChunkGrid::Extent(std::uint64_t index) const {
  const ChunkPosition position = Position(index);
  std::vector<std::uint64_t> extent(chunk_sizes_.size());
  for (std::size_t d = 0; d < extent.size(); ++d) {
    const std::uint64_t full = layout_.dim_sizes[d];
    extent[d] = std::min(chunk_sizes_[d], full - std::min(full, position.offset[d]));
  }
  return extent;
}

Status SetChunkAttributes(const DatasetLayout& layout, const ChunkPosition& position,
                          nd::Attributes* attributes) {
  LND_RETURN_NOT_OK(CheckLayout(layout));
  LND_RETURN_NOT_OK(internal::CheckPosition(layout, position));
  for (std::string_view key : kAllKeys) attributes->Remove(key);
  return internal::PutChunkValues(layout, position, attributes);
}

Result<std::optional<ChunkAttributes>> ReadChunkAttributes(const nd::Attributes& attributes) {
  if (!attributes.Contains(chunk_keys::kDims)) return std::optional<ChunkAttributes>();
  LND_ASSIGN_OR_RETURN(ChunkAttributes read, internal::GetChunkValues(attributes));
  LND_RETURN_NOT_OK(CheckLayout(read.layout));
  LND_RETURN_NOT_OK(internal::CheckPosition(read.layout, read.position));
  return std::optional<ChunkAttributes>(std::move(read));
}

}  // namespace lance_nd
