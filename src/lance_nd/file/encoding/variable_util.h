// Helpers for kVariable data blocks: validation, offset access, building.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "lance_nd/core/internal/endian.h"
#include "lance_nd/file/encoding/compressive.h"
#include "lance_nd/file/encoding/util.h"

namespace lance_nd::file::internal::encoding::detail {

inline std::uint64_t OffsetAt(const DataBlock& b, std::uint64_t i) {
  return b.bits_per_offset == 64 ? LoadLE<std::uint64_t>(b.offsets->data() + i * 8)
                                 : LoadLE<std::uint32_t>(b.offsets->data() + i * 4);
}

/// \brief Check a kVariable block: width 32/64, num_values + 1 offsets present, non-decreasing,
/// last <= data size.
Status ValidateVariable(const DataBlock& b, std::string_view encoding);

/// \brief Collects values into a kVariable block with offsets starting at 0.
class VariableBuilder {
 public:
  explicit VariableBuilder(std::uint32_t bits_per_offset) : bits_(bits_per_offset) {
    PushOffset(0);
  }
  void Reserve(std::uint64_t values, std::uint64_t bytes) {
    if (bits_ == 32) {
      offsets32_.reserve(values + 1);
    } else {
      offsets64_.reserve(values + 1);
    }
    data_.reserve(bytes);
  }
  void Append(const std::uint8_t* p, std::uint64_t n) {
    data_.insert(data_.end(), p, p + n);
    PushOffset(data_.size());
  }
  /// \brief Appends values stored back to back in [p, p + n): value k ends at ends[k]
  /// (relative to p, non-decreasing, the last <= n).
  void AppendPacked(const std::uint8_t* p, std::uint64_t n, std::span<const std::uint64_t> ends) {
    const std::uint64_t base = data_.size();
    data_.insert(data_.end(), p, p + n);
    if (bits_ == 32) {
      // Truncation past 4 GiB is refused by Finish, which checks the data size.
      for (std::uint64_t e : ends) offsets32_.push_back(static_cast<std::uint32_t>(base + e));
    } else {
      for (std::uint64_t e : ends) offsets64_.push_back(base + e);
    }
  }
  BigVector<std::uint8_t>& data() { return data_; }
  void Close() { PushOffset(data_.size()); }  // after writing into data() directly
  std::uint64_t num_values() const {
    return (bits_ == 32 ? offsets32_.size() : offsets64_.size()) - 1;
  }
  /// \brief InvalidArgument when 32-bit offsets overflow.
  Result<DataBlock> Finish();

 private:
  void PushOffset(std::uint64_t offset) {
    if (bits_ == 32) {
      offsets32_.push_back(static_cast<std::uint32_t>(offset));
    } else {
      offsets64_.push_back(offset);
    }
  }

  std::uint32_t bits_;
  // The offsets at the block's width (only one of them is used).
  BigVector<std::uint32_t> offsets32_;
  BigVector<std::uint64_t> offsets64_;
  BigVector<std::uint8_t> data_;
};

}  // namespace lance_nd::file::internal::encoding::detail
