// The dataset and chunk convention (docs/FORMAT.md §3.6): global attributes that say which
// dataset a row belongs to, where the row's chunk sits in each dimension, the dataset's full
// shape, and which dimensions were unlimited. Chunk rows stay ordinary lance-nd rows.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/nd/attributes.h"

namespace lance_nd {

/// \brief Global-attribute keys of the convention and their types.
namespace chunk_keys {
inline constexpr std::string_view kId = "id";                     // utf8
inline constexpr std::string_view kDims = "chunk_dims";           // list<utf8>
inline constexpr std::string_view kOffset = "chunk_offset";       // list<int64>
inline constexpr std::string_view kShape = "dataset_shape";       // list<int64>
inline constexpr std::string_view kUnlimited = "unlimited_dims";  // list<utf8>
inline constexpr std::string_view kIndex = "chunk_index";         // int64
inline constexpr std::string_view kCount = "chunk_count";         // int64
}  // namespace chunk_keys

/// \brief True for the keys above (a source's own attribute of that name must be renamed).
LANCE_ND_EXPORT bool IsChunkKey(std::string_view key);

/// \brief What every row of one dataset carries: its id, its dimensions (all of them, in order,
/// also those no variable of the row uses) with their full sizes, and the unlimited ones.
struct LANCE_ND_EXPORT DatasetLayout {
  std::string id;
  std::vector<std::string> dim_names;
  std::vector<std::uint64_t> dim_sizes;
  std::vector<std::string> unlimited_dims;

  /// \brief Index of dimension `name` in dim_names, or -1.
  int DimIndex(std::string_view name) const;
  bool operator==(const DatasetLayout&) const = default;
};

/// \brief Where one row's chunk sits: its first index along each layout dimension, its ordinal
/// among the dataset's chunks (C order over the chunk grid) and how many chunks there are.
struct LANCE_ND_EXPORT ChunkPosition {
  std::vector<std::uint64_t> offset;
  std::uint64_t index = 0;
  std::uint64_t count = 1;
  bool operator==(const ChunkPosition&) const = default;
};

/// \brief A regular grid of chunks over a layout. Dimensions not named in the chunk sizes are
/// whole in every chunk; edge chunks are shorter. A dimension of size 0 gives one chunk.
class LANCE_ND_EXPORT ChunkGrid {
 public:
  /// \brief InvalidArgument for an unknown dimension name (naming the layout's dimensions), a
  /// repeated one, a chunk size of 0, or a layout whose names and sizes differ in length.
  static Result<ChunkGrid> Make(DatasetLayout layout,
                                std::span<const std::pair<std::string, std::uint64_t>> chunk_sizes);

  const DatasetLayout& layout() const { return layout_; }
  /// \brief The chunk size along each layout dimension (the full size when not chunked).
  const std::vector<std::uint64_t>& chunk_sizes() const { return chunk_sizes_; }
  std::uint64_t num_chunks() const { return num_chunks_; }
  /// \brief True when dimension `dim` (layout index) is split into more than one chunk.
  bool IsSplit(std::size_t dim) const;
  /// \brief The position of chunk `index` (< num_chunks()).
  ChunkPosition Position(std::uint64_t index) const;
  /// \brief The extent of chunk `index` along each layout dimension (edge chunks are shorter).
  std::vector<std::uint64_t> Extent(std::uint64_t index) const;

 private:
  ChunkGrid(DatasetLayout layout, std::vector<std::uint64_t> chunk_sizes);
  DatasetLayout layout_;
  std::vector<std::uint64_t> chunk_sizes_;
  std::vector<std::uint64_t> chunks_per_dim_;
  std::uint64_t num_chunks_ = 1;
};

/// \brief Set the convention's keys in `attributes` (replacing any present). InvalidArgument
/// when the position does not fit the layout.
LANCE_ND_EXPORT Status SetChunkAttributes(const DatasetLayout& layout,
                                          const ChunkPosition& position,
                                          nd::Attributes* attributes);

/// \brief A row's dataset layout and chunk position, read back from its global attributes.
struct LANCE_ND_EXPORT ChunkAttributes {
  DatasetLayout layout;
  ChunkPosition position;
};

/// \brief nullopt when the row carries no `chunk_dims` (it is not a chunk row; it may still
/// have an `id`). InvalidArgument, naming the key, what was found and what is expected, when
/// the keys are present but malformed: wrong types, list lengths that differ, an offset
/// beyond the shape, an index not below the count, or a missing id.
LANCE_ND_EXPORT Result<std::optional<ChunkAttributes>> ReadChunkAttributes(
    const nd::Attributes& attributes);

}  // namespace lance_nd
