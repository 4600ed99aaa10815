// Structural decoding: rep/def levels of a leaf column -> Arrow validity and offsets for every
// struct / list / leaf layer on the leaf's path (docs/lance-file-format.md §2).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"
#include "lance_nd/file/page_decoder.h"

namespace lance_nd::file::internal {

/// \brief One layer on a leaf's path, outermost first (struct, list, or the leaf itself).
struct PathLayer {
  enum class Kind : std::uint8_t { kItem, kList, kLargeList };
  Kind kind = Kind::kItem;
  bool is_list() const { return kind != Kind::kItem; }
};

/// \brief The canonical level numbering of a path: every item layer owns one null level and
/// every list layer a null and an empty level, numbered from the leaf outward. Page levels
/// (whose numbering depends on the page's layers) are mapped into it so that pages of one
/// column can be concatenated.
class LevelScheme {
 public:
  explicit LevelScheme(std::vector<PathLayer> path);  // outermost first

  const std::vector<PathLayer>& path() const { return path_; }
  int num_lists() const { return num_lists_; }
  std::uint16_t null_level(std::size_t layer) const { return null_[layer]; }
  std::uint16_t empty_level(std::size_t layer) const { return empty_[layer]; }
  std::uint16_t max_level() const { return max_level_; }
  std::uint16_t max_visible() const { return max_visible_; }

  /// \brief Rewrite `page` levels into canonical numbering (def always materialised, rep when
  /// the path has lists). Errors if the page's layers do not match the path.
  Status Normalize(DecodedPage* page, const std::string& where) const;

 private:
  std::vector<PathLayer> path_;
  std::vector<std::uint16_t> null_, empty_;
  int num_lists_ = 0;
  std::uint16_t max_level_ = 0;
  std::uint16_t max_visible_ = 0;
};

/// \brief Levels and values of one leaf column for a range of rows (canonical levels).
struct LeafLevels {
  std::vector<std::uint16_t> rep;  // empty when the path has no lists
  std::vector<std::uint16_t> def;  // canonical
  std::uint64_t num_rows = 0;
};

/// \brief Where each row of a normalized page starts: entry[r] is the first level entry of row
/// r and value[r] its first value slot; both have num_rows + 1 elements.
struct RowIndex {
  std::vector<std::uint64_t> entry;
  std::vector<std::uint64_t> value;
};

/// \brief Index the rows of a normalized page; checks row and value counts.
Result<RowIndex> BuildRowIndex(const DecodedPage& page, const LevelScheme& scheme,
                               const std::string& where);

/// \brief Append the levels of rows [row_begin, row_end) of a normalized, indexed page.
void AppendRowLevels(const DecodedPage& page, const RowIndex& index, std::uint64_t row_begin,
                     std::uint64_t row_end, bool has_lists, LeafLevels* levels);

/// \brief Validity / offsets of one path layer.
struct LayerArrays {
  int64_t length = 0;
  array::BufferPtr validity;  // null when no nulls
  int64_t null_count = 0;
  array::BufferPtr offsets;   // lists: int32 (list) or int64 (large list)
};

/// \brief Unravel canonical levels into per-layer arrays (outermost first; the last entry is
/// the leaf's validity). Checks that exactly `num_values` value slots are used.
Result<std::vector<LayerArrays>> Unravel(const LevelScheme& scheme, const LeafLevels& levels,
                                         std::uint64_t num_values, const std::string& where);

}  // namespace lance_nd::file::internal
