// Aligned buffers, slices, BufferBuilder and bit counting.
#include "lance_nd/array/buffer.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <new>
#include <string>

#include "lance_nd/core/internal/big_blocks.h"
#include "lance_nd/core/internal/checked_math.h"
#include "lance_nd/core/internal/huge_pages.h"

namespace lance_nd::array {
namespace {

constexpr std::size_t kAlign = static_cast<std::size_t>(Buffer::kAlignment);
constexpr int64_t kBigThreshold = static_cast<int64_t>(internal::kBigBlockMin);

// The bytes an allocation of `size` really takes: rounded up to a multiple of 64, at least 64
// (so that empty buffers still have a valid aligned pointer).
int64_t PaddedSize(int64_t size) {
  return std::max<int64_t>(AlignUp(std::max<int64_t>(size, 1), Buffer::kAlignment),
                           Buffer::kAlignment);
}

// A zero-filled (or, with !zero_all, zeroed past `size`) 64-byte aligned allocation of
// PaddedSize(size) bytes. Free it with FreeAligned(p, PaddedSize(size)).
std::uint8_t* AllocateAligned(int64_t size, bool zero_all = true) {
  const int64_t padded = PaddedSize(size);
  std::uint8_t* p = nullptr;
  if (padded >= kBigThreshold) {
    // Big buffers (decoded pages, whole columns) are touched once, right away: big blocks of
    // 2 MiB and more are backed by transparent huge pages where the kernel allows it (THP
    // "madvise" mode, Debian's default), which cuts page faults 512-fold, and freed blocks are
    // recycled, so that a repeated or streamed scan does not wait for the kernel to zero fresh
    // pages.
    p = static_cast<std::uint8_t*>(internal::AllocateBigBlock(static_cast<std::size_t>(padded)));
  } else {
    // Small buffers (decoded chunks, one per few kilobytes of a page) come from plain malloc,
    // aligned by hand with the block's address stored just before the data: glibc's
    // aligned_alloc splits blocks, which fragments the heap and made malloc a quarter of a
    // sparse take.
    auto* raw = static_cast<std::uint8_t*>(std::malloc(static_cast<std::size_t>(padded) + kAlign));
    if (raw != nullptr) {
      p = raw + (kAlign - reinterpret_cast<std::uintptr_t>(raw) % kAlign);
      std::memcpy(p - sizeof(void*), &raw, sizeof(void*));
    }
  }
  if (p == nullptr) throw std::bad_alloc();
  const int64_t from = zero_all ? 0 : std::max<int64_t>(size, 0);
  std::memset(p + from, 0, static_cast<std::size_t>(padded - from));
  return p;
}

void FreeAligned(std::uint8_t* p, int64_t padded) {
  if (p == nullptr) return;
  if (padded >= kBigThreshold) {
    internal::FreeBigBlock(p);
    return;
  }
  void* raw = nullptr;
  std::memcpy(&raw, p - sizeof(void*), sizeof(void*));
  std::free(raw);
}

std::shared_ptr<const void> OwnAligned(std::uint8_t* p, int64_t padded) {
  return std::shared_ptr<const void>(p, [padded](const void* q) {
    FreeAligned(static_cast<std::uint8_t*>(const_cast<void*>(q)), padded);
  });
}

}  // namespace

BufferPtr Buffer::AllocateZeroed(int64_t size, std::uint8_t** out_data) {
  if (size < 0) size = 0;
  std::uint8_t* p = AllocateAligned(size);
  if (out_data != nullptr) *out_data = p;
  return std::make_shared<const Buffer>(p, size, OwnAligned(p, PaddedSize(size)));
}

BufferPtr Buffer::AllocateUninitialized(int64_t size, std::uint8_t** out_data) {
  if (size < 0) size = 0;
  std::uint8_t* p = AllocateAligned(size, /*zero_all=*/false);
  if (out_data != nullptr) *out_data = p;
  return std::make_shared<const Buffer>(p, size, OwnAligned(p, PaddedSize(size)));
}

BufferPtr Buffer::Copy(const void* data, int64_t size) {
  std::uint8_t* p = nullptr;
  BufferPtr out = AllocateUninitialized(size, &p);
  if (size > 0) std::memcpy(p, data, static_cast<std::size_t>(size));
  return out;
}

BufferPtr Buffer::FromVector(std::vector<std::uint8_t> bytes) {
  auto owner = std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes));
  return std::make_shared<const Buffer>(owner->data(), static_cast<int64_t>(owner->size()), owner);
}

BufferPtr Buffer::Empty() {
  alignas(64) static const std::uint8_t kZeros[64] = {};
  static const BufferPtr kEmpty = std::make_shared<const Buffer>(kZeros, 0, nullptr);
  return kEmpty;
}

Result<BufferPtr> Buffer::Slice(const BufferPtr& buffer, int64_t offset, int64_t length) {
  if (!buffer) return Status::InvalidArgument("cannot slice a null buffer");
  const auto end = CheckedAdd(offset, length);
  if (offset < 0 || length < 0 || !end || *end > buffer->size()) {
    return Status::InvalidArgument("buffer slice [" + std::to_string(offset) + ", +" +
                                   std::to_string(length) + ") is outside the buffer of " +
                                   std::to_string(buffer->size()) + " bytes");
  }
  return std::make_shared<const Buffer>(buffer->data() + offset, length, buffer);
}

// ---- BufferBuilder ----

BufferBuilder::BufferBuilder(BufferBuilder&& other) noexcept
    : data_(other.data_), size_(other.size_), capacity_(other.capacity_) {
  other.data_ = nullptr;
  other.size_ = 0;
  other.capacity_ = 0;
}

BufferBuilder& BufferBuilder::operator=(BufferBuilder&& other) noexcept {
  if (this != &other) {
    FreeAligned(data_, capacity_);
    data_ = other.data_;
    size_ = other.size_;
    capacity_ = other.capacity_;
    other.data_ = nullptr;
    other.size_ = 0;
    other.capacity_ = 0;
  }
  return *this;
}

BufferBuilder::~BufferBuilder() { FreeAligned(data_, capacity_); }

void BufferBuilder::Reserve(int64_t capacity) {
  if (capacity <= capacity_) return;
  const int64_t new_capacity = AlignUp(
      std::max<int64_t>(capacity, std::max<int64_t>(capacity_ * 2, 64)), Buffer::kAlignment);
  std::uint8_t* p = AllocateAligned(new_capacity);
  if (size_ > 0) std::memcpy(p, data_, static_cast<std::size_t>(size_));
  FreeAligned(data_, capacity_);
  data_ = p;
  capacity_ = new_capacity;
}

void BufferBuilder::Resize(int64_t size) {
  if (size < 0) size = 0;
  Reserve(size);
  if (size > size_) {
    std::memset(data_ + size_, 0, static_cast<std::size_t>(size - size_));
  }
  size_ = size;
}

void BufferBuilder::Append(const void* data, int64_t size) {
  if (size <= 0) return;
  Reserve(size_ + size);
  std::memcpy(data_ + size_, data, static_cast<std::size_t>(size));
  size_ += size;
}

void BufferBuilder::AppendZeros(int64_t size) {
  if (size <= 0) return;
  Resize(size_ + size);
}

BufferPtr BufferBuilder::Finish() {
  if (data_ == nullptr) {
    std::uint8_t* p = nullptr;
    return Buffer::AllocateZeroed(0, &p);
  }
  // Zero the tail so that padding bytes never leak stale data.
  if (capacity_ > size_) {
    std::memset(data_ + size_, 0, static_cast<std::size_t>(capacity_ - size_));
  }
  BufferPtr out = std::make_shared<const Buffer>(data_, size_, OwnAligned(data_, capacity_));
  data_ = nullptr;
  size_ = 0;
  capacity_ = 0;
  return out;
}

int64_t CountSetBits(const std::uint8_t* bits, int64_t offset, int64_t length) {
  if (length <= 0 || bits == nullptr) return 0;
  int64_t count = 0;
  int64_t i = offset;
  const int64_t end = offset + length;
  // Leading bits up to a byte boundary.
  while (i < end && (i & 7) != 0) {
    count += GetBit(bits, i) ? 1 : 0;
    ++i;
  }
  // Whole 64-bit words.
  while (i + 64 <= end) {
    std::uint64_t word;
    std::memcpy(&word, bits + (i >> 3), sizeof(word));
    count += std::popcount(word);
    i += 64;
  }
  // Whole bytes.
  while (i + 8 <= end) {
    count += std::popcount(static_cast<unsigned>(bits[i >> 3]));
    i += 8;
  }
  while (i < end) {
    count += GetBit(bits, i) ? 1 : 0;
    ++i;
  }
  return count;
}

}  // namespace lance_nd::array
