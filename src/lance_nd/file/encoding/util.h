// Small helpers shared by the encoding sources: error text, buffer allocation, typed copies.
#pragma once

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lance_nd/array/buffer.h"
#include "lance_nd/core/internal/checked_math.h"
#include "lance_nd/core/result.h"

namespace lance_nd::file::internal::encoding::detail {

using array::Buffer;
using array::BufferPtr;

/// Upper bound on the number of values one decode may materialise (protects against forged
/// counts that would allocate unbounded memory).
inline constexpr std::uint64_t kMaxDecodedValues = std::uint64_t{1} << 32;

template <typename... Args>
std::string Cat(Args&&... args) {
  std::ostringstream os;
  (os << ... << std::forward<Args>(args));
  return os.str();
}

/// \brief Corrupt error "<encoding>: <details>".
template <typename... Args>
Status Corrupt(std::string_view encoding, Args&&... args) {
  return Status::Corrupt(Cat(encoding, ": ", std::forward<Args>(args)...));
}

/// \brief ceil(bits / 8) with overflow detection.
inline std::optional<std::uint64_t> BytesForBitsChecked(std::uint64_t n, std::uint64_t bits) {
  const auto total = CheckedMul(n, bits);
  if (!total) return std::nullopt;
  return *total / 8 + (*total % 8 != 0 ? 1 : 0);
}

/// \brief A writable zeroed buffer of `size` bytes.
inline BufferPtr Allocate(std::uint64_t size, std::uint8_t** out) {
  return Buffer::AllocateZeroed(static_cast<int64_t>(size), out);
}

/// \brief Zero-copy slice; the caller has validated the range.
inline BufferPtr SliceUnchecked(const BufferPtr& buffer, std::uint64_t offset,
                                std::uint64_t length) {
  return std::make_shared<const Buffer>(buffer->data() + offset, static_cast<int64_t>(length),
                                        buffer);
}

inline std::uint64_t Size(const BufferPtr& b) {
  return b ? static_cast<std::uint64_t>(b->size()) : 0;
}

template <typename T>
BufferPtr BufferFromValues(const std::vector<T>& values) {
  return Buffer::Copy(values.data(), static_cast<int64_t>(values.size() * sizeof(T)));
}

}  // namespace lance_nd::file::internal::encoding::detail
