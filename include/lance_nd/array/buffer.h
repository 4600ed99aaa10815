// Immutable, 64-byte-aligned byte buffers with zero-copy slices, and a growable builder.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/export.h"

namespace lance_nd::array {

class Buffer;
using BufferPtr = std::shared_ptr<const Buffer>;

/// \brief Immutable bytes plus whatever keeps them alive (an owned allocation, a parent buffer,
/// a memory map, an imported Arrow C array). Never mutated after construction.
class LANCE_ND_EXPORT Buffer {
 public:
  static constexpr int64_t kAlignment = 64;

  /// \brief Wrap memory owned by `owner` (may be null for static memory).
  Buffer(const std::uint8_t* data, int64_t size, std::shared_ptr<const void> owner)
      : data_(data), size_(size), owner_(std::move(owner)) {}

  /// \brief A new zero-filled, 64-byte-aligned buffer of `size` bytes (padded to a multiple of
  /// 64 internally). Returns the writable pointer through `out_data` for initialisation.
  static BufferPtr AllocateZeroed(int64_t size, std::uint8_t** out_data);
  /// \brief Like AllocateZeroed, but the first `size` bytes are left uninitialised (only the
  /// padding after them is zeroed): for buffers the caller overwrites completely at once.
  static BufferPtr AllocateUninitialized(int64_t size, std::uint8_t** out_data);
  /// \brief Copy bytes into a new aligned buffer.
  static BufferPtr Copy(const void* data, int64_t size);
  static BufferPtr Copy(std::span<const std::uint8_t> bytes) {
    return Copy(bytes.data(), static_cast<int64_t>(bytes.size()));
  }
  /// \brief Take ownership of a vector without copying (alignment is that of the vector).
  static BufferPtr FromVector(std::vector<std::uint8_t> bytes);
  /// \brief A shared empty buffer.
  static BufferPtr Empty();

  const std::uint8_t* data() const { return data_; }
  int64_t size() const { return size_; }
  template <typename T>
  const T* data_as() const {
    return reinterpret_cast<const T*>(data_);
  }
  std::span<const std::uint8_t> span() const { return {data_, static_cast<std::size_t>(size_)}; }
  const std::shared_ptr<const void>& owner() const { return owner_; }

  /// \brief Zero-copy view of [offset, offset + length); the slice keeps this buffer alive.
  /// Out-of-range arguments return InvalidArgument.
  static Result<BufferPtr> Slice(const BufferPtr& buffer, int64_t offset, int64_t length);

  bool Equals(const Buffer& other) const {
    return size_ == other.size_ &&
           (size_ == 0 || std::memcmp(data_, other.data_, static_cast<std::size_t>(size_)) == 0);
  }

 private:
  const std::uint8_t* data_;
  int64_t size_;
  std::shared_ptr<const void> owner_;
};

/// \brief A growable, 64-byte-aligned byte buffer; Finish() hands the bytes over without a copy.
class LANCE_ND_EXPORT BufferBuilder {
 public:
  BufferBuilder() = default;
  BufferBuilder(const BufferBuilder&) = delete;
  BufferBuilder& operator=(const BufferBuilder&) = delete;
  BufferBuilder(BufferBuilder&& other) noexcept;
  BufferBuilder& operator=(BufferBuilder&& other) noexcept;
  ~BufferBuilder();

  void Reserve(int64_t capacity);
  void Resize(int64_t size);  // new bytes are zero
  void Append(const void* data, int64_t size);
  template <typename T>
  void AppendValue(const T& v) {
    Append(&v, static_cast<int64_t>(sizeof(T)));
  }
  void AppendZeros(int64_t size);
  std::uint8_t* mutable_data() { return data_; }
  const std::uint8_t* data() const { return data_; }
  int64_t size() const { return size_; }
  int64_t capacity() const { return capacity_; }
  /// \brief The bytes so far as an immutable buffer; the builder is reset to empty.
  BufferPtr Finish();

 private:
  std::uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t capacity_ = 0;
};

// Bitmap helpers (LSB-first bit order, as Arrow).
inline bool GetBit(const std::uint8_t* bits, int64_t i) {
  return ((bits[i >> 3] >> (i & 7)) & 1) != 0;
}
inline void SetBit(std::uint8_t* bits, int64_t i) {
  bits[i >> 3] = static_cast<std::uint8_t>(bits[i >> 3] | (1u << (i & 7)));
}
inline void ClearBit(std::uint8_t* bits, int64_t i) {
  bits[i >> 3] = static_cast<std::uint8_t>(bits[i >> 3] & ~(1u << (i & 7)));
}
inline void SetBitTo(std::uint8_t* bits, int64_t i, bool v) {
  if (v) {
    SetBit(bits, i);
  } else {
    ClearBit(bits, i);
  }
}
inline int64_t BytesForBits(int64_t bits) { return (bits + 7) / 8; }
/// \brief Number of set bits in [offset, offset + length).
LANCE_ND_EXPORT int64_t CountSetBits(const std::uint8_t* bits, int64_t offset, int64_t length);

}  // namespace lance_nd::array
