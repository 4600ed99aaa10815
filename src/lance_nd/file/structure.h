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

  /// \brief Rewrite `page` levels into canonical numbering (rep materialised when the path has
  /// lists; def materialised unless every level is 0, then `def_zero` is set and `def` left
  /// empty). Errors if the page's layers do not match the path.
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
  LevelVector rep;  // empty when the path has no lists
  LevelVector def;  // canonical
  std::uint64_t num_rows = 0;
};

/// \brief Where each row of a normalized page starts: Entry(r) is the first level entry of row
/// r and Value(r) its first value slot, for r in [0, num_rows]. Pages without lists have the
/// identity index (one entry and one value per row) and store nothing.
struct RowIndex {
  bool identity = false;
  std::vector<std::uint64_t> entry;  // empty when identity
  std::vector<std::uint64_t> value;  // empty when identity or when equal to `entry`
  std::uint64_t Entry(std::uint64_t r) const { return identity ? r : entry[r]; }
  std::uint64_t Value(std::uint64_t r) const {
    return identity ? r : value.empty() ? entry[r] : value[r];
  }
};

/// \brief Index the rows of a normalized page; checks row and value counts.
Result<RowIndex> BuildRowIndex(const DecodedPage& page, const LevelScheme& scheme,
                               const std::string& where);

/// \brief Append the levels of rows [row_begin, row_end) of a normalized, indexed page
/// (def_zero pages append zeros).
void AppendRowLevels(const DecodedPage& page, const RowIndex& index, std::uint64_t row_begin,
                     std::uint64_t row_end, bool has_lists, LeafLevels* levels);

/// \brief Validity / offsets of one path layer.
struct LayerArrays {
  int64_t length = 0;
  array::BufferPtr validity;  // null when no nulls
  int64_t null_count = 0;
  array::BufferPtr offsets;  // lists: int32 (list) or int64 (large list)
};

/// \brief Unravel canonical levels into per-layer arrays (outermost first; the last entry is
/// the leaf's validity). Checks that exactly `num_values` value slots are used.
Result<std::vector<LayerArrays>> Unravel(const LevelScheme& scheme, const LeafLevels& levels,
                                         std::uint64_t num_values, const std::string& where);

/// \brief The rep levels of some consecutive rows of a normalized page (null when the path has
/// no lists) and their entry count.
struct RepSpan {
  const std::uint16_t* rep = nullptr;
  std::uint64_t num_entries = 0;
};

/// \brief Unravel without its block fast path (runs of 64 list entries at a time), entry by
/// entry: the reference the fast path is tested against.
Result<std::vector<LayerArrays>> UnravelEntryByEntryForTesting(const LevelScheme& scheme,
                                                               const LeafLevels& levels,
                                                               std::uint64_t num_values,
                                                               const std::string& where);

/// \brief Bulk Unravel for the common case where every def level is 0 (no nulls, no empty
/// lists, pages with def_zero): list offsets are computed from the rep levels a block of entries
/// at a time, no layer has validity. `spans` must start at row starts (as AppendRowLevels
/// slices do). Gives the same result as Unravel on the same levels.
Result<std::vector<LayerArrays>> UnravelDense(const LevelScheme& scheme,
                                              const std::vector<RepSpan>& spans,
                                              std::uint64_t num_rows, std::uint64_t num_values,
                                              const std::string& where);

}  // namespace lance_nd::file::internal
