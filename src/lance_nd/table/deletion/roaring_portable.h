// The portable 32-bit Roaring serialization (cookies 12346 and 12347), parsed with full
// validation (untrusted input) and written through CRoaring.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lance_nd/core/result.h"

namespace lance_nd::table::internal {

/// \brief The values of a portable Roaring bitmap, ascending. Corrupt (prefixed with `name`) for
/// truncated data, unknown cookies, unsorted keys or values, cardinality mismatches, overlapping
/// runs or trailing bytes. More than `max_values` values is Corrupt too (checked from the
/// header's cardinalities before anything is expanded).
Result<std::vector<std::uint32_t>> ParseRoaringPortable(std::span<const std::uint8_t> bytes,
                                                        const std::string& name,
                                                        std::uint64_t max_values);

/// \brief Serialise sorted unique values in the portable format (CRoaring, no run containers).
Result<std::vector<std::uint8_t>> SerializeRoaringPortable(std::span<const std::uint32_t> values);

}  // namespace lance_nd::table::internal
