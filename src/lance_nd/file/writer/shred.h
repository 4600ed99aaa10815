// Shredding: top-level arrays -> one leaf column's layers, rep/def levels and value slots
// (docs/lance-file-format.md §2). Struct nulls are pushed down and garbage below null lists is
// dropped, as Lance does.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/buffer.h"
#include "lance_nd/core/internal/huge_pages.h"
#include "lance_nd/core/result.h"
#include "lance_nd/file/writer/leaf_plan.h"

namespace lance_nd::file::internal::writer {

/// \brief lance.encodings21.RepDefLayer values.
enum class Layer : std::uint8_t {
  kAllValidItem = 1,
  kAllValidList = 2,
  kNullableItem = 3,
  kNullableList = 4,
  kEmptyableList = 5,
  kNullAndEmptyList = 6,
};

/// \brief The visible value slots of a page (nulls hold zero bytes / empty values).
struct SlotValues {
  LeafKind kind = LeafKind::kFixed;
  std::uint64_t num_slots = 0;
  std::uint64_t num_valid = 0;  // slots whose leaf value is defined
  // kFixed / kFixedList: slot_bytes per slot. kBool: LSB-first bitmap. Read them with data():
  // a kFixed page whose values are one contiguous run of an input buffer views that buffer
  // (`external`) instead of copying it into `bytes`.
  std::int64_t slot_bytes = 0;
  std::vector<std::uint8_t, HugePageAllocator<std::uint8_t>> bytes;
  array::BufferPtr external;
  std::span<const std::uint8_t> data() const {
    if (external) return external->span();
    return {bytes.data(), bytes.size()};
  }
  // kVariable: num_slots + 1 offsets into `bytes`.
  std::vector<std::uint64_t, HugePageAllocator<std::uint64_t>> offsets;
  std::uint32_t bits_per_offset = 32;
  std::uint64_t max_value_bytes = 0;  // largest slot (fixed: slot_bytes)
  // kFixedList: item validity per nested layer (outermost first), LSB-first; `any_null` tells
  // whether the layer needs its bitmap.
  struct FslLayer {
    std::int64_t items_per_value = 0;
    std::vector<std::uint8_t> bitmap;
    std::uint64_t num_bits = 0;
    bool any_null = false;
  };
  std::vector<FslLayer> fsl_layers;
  std::int64_t fsl_items = 1;
  std::int64_t fsl_item_bytes = 0;
};

/// \brief One page of one leaf column, shredded.
struct ShreddedPage {
  std::vector<Layer> layers;  // innermost first
  bool has_rep = false;
  bool has_def = false;
  // A large page's levels are megabytes, filled at once: they get huge pages.
  std::vector<std::uint16_t, HugePageAllocator<std::uint16_t>> rep;
  std::vector<std::uint16_t, HugePageAllocator<std::uint16_t>> def;
  // has_def, and every def level is 0: the page's only nullable layers are the ones Lance 12
  // makes nullable without nulls, so `def` is left empty (read levels with DefAt / DefLevels).
  bool def_zero = false;
  std::uint64_t num_levels = 0;  // entries when has_rep || has_def, else 0
  std::uint16_t max_rep = 0;     // number of list layers
  std::uint16_t max_visible_def = 0;
  std::uint64_t num_rows = 0;
  SlotValues values;
  /// True if every layer is a plain nullable item without lists (one layer only).
  bool simple_validity() const { return layers.size() == 1 && layers[0] == Layer::kNullableItem; }
  bool IsVisible(std::uint16_t d) const { return max_rep == 0 || d <= max_visible_def; }
  /// The def level of entry e (has_def).
  std::uint16_t DefAt(std::uint64_t e) const { return def_zero ? 0 : def[e]; }
};

/// \brief The most def levels DefLevels gives of a def_zero page at once.
inline constexpr std::uint64_t kMaxZeroDefLevels = 0x10000;

/// \brief Def levels [begin, begin + count) of a page with def levels (count <= kMaxZeroDefLevels
/// when def_zero).
std::span<const std::uint16_t> DefLevels(const ShreddedPage& page, std::uint64_t begin,
                                         std::uint64_t count);

/// \brief All def levels of the page, materialised (for the layouts that store them raw).
std::vector<std::uint16_t, HugePageAllocator<std::uint16_t>> AllDefLevels(const ShreddedPage& page);

/// \brief How ShredLeaf walks the leaf values: kBulk handles runs of leaf values below a list
/// (or a flat column) at once; kPerValue visits every value (the reference; tests compare both).
enum class ShredMode : std::uint8_t { kBulk, kPerValue };

/// \brief Shred rows of `arrays` (top-level arrays of the leaf's field, in order) for `leaf`.
Result<ShreddedPage> ShredLeaf(const LeafColumn& leaf, std::span<const array::ArrayPtr> arrays,
                               ShredMode mode = ShredMode::kBulk);

/// \brief For every value slot, the index of its level entry (empty without levels). A slot's
/// entry is the level whose def is visible (page.IsVisible), in order.
std::vector<std::uint64_t> SlotLevelIndices(const ShreddedPage& page);

/// \brief An estimate of the bytes the leaf's data occupies in `array` (for page accumulation).
std::uint64_t EstimateLeafBytes(const LeafColumn& leaf, const array::ArrayData& array);

}  // namespace lance_nd::file::internal::writer
