// The distinct values of a page, found for a dictionary trial: each value's index into them, in
// order of first occurrence, or nothing once the dictionary cannot pay.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "lance_nd/file/encoding/compressive.h"
#include "lance_nd/file/encoding/util.h"

namespace lance_nd::file::internal::encoding::detail {

/// \brief When a dictionary gives up, counted in bytes as the trial grows.
struct DistinctLimits {
  std::uint64_t max_unique = 0;    // more distinct values than this: no dictionary
  double size_limit = 0;           // indices + distinct bytes + their offsets must stay below
  std::uint64_t offset_bytes = 0;  // bytes per dictionary offset (0 for fixed-width values)
};

struct DistinctValues {
  BigVector<std::uint32_t> indices;  // one per value
  std::vector<std::uint64_t> first;  // the first position of each distinct value
  std::uint64_t distinct_bytes = 0;  // bytes of the distinct values together
};

/// \brief The distinct values of `values`, a validated kVariable block or a kFixedWidth block of
/// 64-bit values; nullopt when the limits are passed. A large page whose sample of runs of
/// neighbouring values holds no repeat gives up before the full pass: such pages (ids, names,
/// free text) are nearly all distinct, and a full trial would cost them as much as a success.
std::optional<DistinctValues> FindDistinctValues(const DataBlock& values,
                                                 const DistinctLimits& limits);

}  // namespace lance_nd::file::internal::encoding::detail
