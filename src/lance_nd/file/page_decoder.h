// Decoding of one page (mini-block, full-zip or constant layout) into its repetition and
// definition levels (as stored, page numbering) and its visible value slots.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "encodings_v2_1.pb.h"
#include "lance_nd/array/buffer.h"
#include "lance_nd/core/internal/huge_pages.h"
#include "lance_nd/core/result.h"
#include "lance_nd/file/encoding/compressive.h"
#include "lance_nd/file/keep_rows.h"

namespace lance_nd::file::internal {

using encoding::DataBlock;

/// Levels of a page: big ones are recycled blocks (core/internal/big_blocks.h).
using LevelVector = std::vector<std::uint16_t, HugePageAllocator<std::uint16_t>>;

struct DecodedPage {
  std::uint64_t num_rows = 0;
  std::vector<int> layers;  // RepDefLayer values, innermost first
  LevelVector rep;          // empty when has_rep is false
  LevelVector def;          // empty when has_def is false, or def_zero or stored_def_zero
  bool has_rep = false;
  bool has_def = false;
  /// Set by the mini-block decoder: the page has def levels and every one, as stored, is 0, so
  /// `def` is left empty instead of holding num_entries zeros (Normalize then sets def_zero).
  bool stored_def_zero = false;
  /// Set by LevelScheme::Normalize: every (canonical) def level is 0 — no nulls, no empty
  /// lists — and `def` is left empty instead of holding zeros (the fast paths key on it).
  bool def_zero = false;
  std::uint64_t num_entries = 0;  // level entries (== value slots when no levels)
  std::vector<DataBlock> values;  // visible value slots, in order
  std::uint64_t num_values = 0;   // total of values[i].num_values
};

/// \brief Everything needed to decode one page. `buffers` are the page buffers in order.
struct PageInput {
  const lance::encodings21::PageLayout* layout = nullptr;
  std::uint64_t num_rows = 0;
  std::vector<array::BufferPtr> buffers;
  bool is_v2_2 = false;
  std::string where;  // "column 3 page 1" for messages
  /// Full-zip only: the buffer holds a whole-row slice of the page; its entry count is found by
  /// parsing to the end of the data (num_items / num_visible_items of the layout are ignored).
  bool entries_from_data = false;
  /// Optional destination for the page's values (mini-block pages whose values decode in bulk,
  /// see encoding::MiniBlockIntoBits): when it is exactly num_items values long, the values are
  /// decoded there and the page's value block is a slice of `values_into_owner`, so a reader
  /// can hand out one column buffer without copying pages together. Otherwise it is ignored.
  std::uint8_t* values_into = nullptr;
  std::uint64_t values_into_bytes = 0;
  std::shared_ptr<const void> values_into_owner;
  /// Mini-block only: the item count of the chunks in buffers[0] when they are a run of the
  /// page's chunks (a take's part, take_pages.h) rather than all of them (the layout's count).
  std::optional<std::uint64_t> num_items;
  /// Mini-block only: the page's dictionary, already decoded (shared by the parts of a take);
  /// when set, buffers[2] is not decoded again.
  std::shared_ptr<const DataBlock> dictionary;
  /// Mini-block only: keep only these rows of the chunks (a take's sparse decoding,
  /// keep_rows.h): the page then holds just them, back to back, and num_rows counts them.
  const KeepRows* keep = nullptr;
};

Result<DecodedPage> DecodePage(const PageInput& in);

/// \brief Bits per value of a mini-block page whose values decode in bulk straight into one
/// buffer (one value buffer, no dictionary, encoding::MiniBlockIntoBits), or 0. A reader can
/// plan PageInput::values_into from this before decoding.
std::uint64_t BulkValueBits(const lance::encodings21::MiniBlockLayout& layout);

/// \brief The def level limit for visible entries: the number of def levels consumed by layers
/// inner to the first list layer; UINT16_MAX-like "everything" when there are no lists.
std::uint32_t MaxVisibleLevel(const std::vector<int>& layers);
bool HasListLayer(const std::vector<int>& layers);
bool IsListLayer(int layer);

/// \brief Which buffer of a constant page holds what: an index into the page's buffers, or -1
/// when absent. The value buffer (2.2) holds a constant too large to inline, such as a string.
struct ConstantBuffers {
  int value = -1;
  int rep = -1;
  int def = -1;
};
Result<ConstantBuffers> ConstantBufferRoles(std::size_t num_buffers, bool is_v2_2,
                                            const std::string& where);

/// \brief Short human description of a page layout and its encodings (for inspect).
/// `num_buffers` tells a constant page with a value buffer from an all-null one.
std::string DescribeLayout(const lance::encodings21::PageLayout& layout, std::size_t num_buffers);
std::string DescribeEncoding(const lance::encodings21::CompressiveEncoding& ce);
std::string LayerName(int layer);

}  // namespace lance_nd::file::internal
