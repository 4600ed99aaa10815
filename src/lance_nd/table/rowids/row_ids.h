// Stable row ids (reader flag 2, lance-table-format.md §9): decoding a fragment's RowIdSequence
// into one row id per physical row.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/manifest.h"

namespace lance_nd::table::internal {

/// \brief Decode a serialised RowIdSequence of fragment `fragment_id` that must hold exactly
/// `physical_rows` ids. Every length and bound is checked; a bad sequence is Corrupt naming the
/// fragment.
Result<std::vector<std::uint64_t>> DecodeRowIdSequence(std::string_view bytes,
                                                       std::uint64_t fragment_id,
                                                       std::uint64_t physical_rows);

/// \brief The stable row ids of `fragment` (inline bytes or external file under `table_path`),
/// one per physical row; std::nullopt-like empty result with `present` false when the fragment
/// carries none.
struct FragmentRowIds {
  bool present = false;
  std::vector<std::uint64_t> ids;
};
Result<FragmentRowIds> ReadFragmentRowIds(const TableLocation& location, const Fragment& fragment);

}  // namespace lance_nd::table::internal
