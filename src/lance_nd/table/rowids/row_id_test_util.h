// Helpers shared by the row-id tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lance_nd::table::internal::rowid_testing {

/// \brief The little-endian bytes of `v`, `width` bytes per value (as protobuf bytes fields of
/// Lance's EncodedU64Array hold them).
inline std::string Le(const std::vector<std::uint64_t>& v, std::size_t width) {
  std::string out;
  for (std::uint64_t x : v) {
    for (std::size_t b = 0; b < width; ++b) out.push_back(static_cast<char>((x >> (8 * b)) & 0xff));
  }
  return out;
}

}  // namespace lance_nd::table::internal::rowid_testing
