// Small helpers shared by the encoding sources: errors, buffer allocation, typed copies.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lance_nd/array/buffer.h"
#include "lance_nd/core/internal/checked_math.h"
#include "lance_nd/core/internal/huge_pages.h"
#include "lance_nd/core/result.h"

namespace lance_nd::file::internal::encoding::detail {

using array::Buffer;
using array::BufferPtr;

/// Upper bound on the number of values one decode may materialise (protects against forged
/// counts that would allocate unbounded memory).
inline constexpr std::uint64_t kMaxDecodedValues = std::uint64_t{1} << 32;

/// \brief Corrupt error "<encoding>: <details>" (untrusted input that does not add up).
template <typename... Pieces>
Status Corrupt(std::string_view encoding, const Pieces&... pieces) {
  return Status::Corrupt(encoding, ": ", pieces...);
}

/// \brief InvalidArgument "<encoding>: <details>" (values an encoder cannot take).
template <typename... Pieces>
Status InvalidInput(std::string_view encoding, const Pieces&... pieces) {
  return Status::InvalidArgument(encoding, ": ", pieces...);
}

/// \brief Corrupt when a decoder is asked for an implausible number of values.
inline Status CheckCount(std::string_view encoding, std::uint64_t n) {
  if (n >= kMaxDecodedValues) return Corrupt(encoding, "implausible value count ", n);
  return Status::OK();
}

inline bool IsWordWidth(std::uint64_t bits) {
  return bits == 8 || bits == 16 || bits == 32 || bits == 64;
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

// A vector for the megabytes a page's encoding builds (indices, offsets, compressed bytes): from
// 64 KiB on it is a recycled big block backed by huge pages (huge_pages.h).
template <typename T>
using BigVector = std::vector<T, HugePageAllocator<T>>;

template <typename T, typename Alloc>
BufferPtr BufferFromValues(const std::vector<T, Alloc>& values) {
  return Buffer::Copy(values.data(), static_cast<int64_t>(values.size() * sizeof(T)));
}

// Takes the vector over without copying (aligned as the vector is).
template <typename T, typename Alloc>
BufferPtr BufferFromValues(std::vector<T, Alloc>&& values) {
  auto owner = std::make_shared<const std::vector<T, Alloc>>(std::move(values));
  return std::make_shared<const Buffer>(reinterpret_cast<const std::uint8_t*>(owner->data()),
                                        static_cast<int64_t>(owner->size() * sizeof(T)), owner);
}

}  // namespace lance_nd::file::internal::encoding::detail
