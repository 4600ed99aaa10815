// Transparent-huge-page advice for big, freshly allocated buffers.
//
// Decoding a large file touches hundreds of megabytes of new memory once; with 4 KiB pages the
// kernel's page-fault path cost more CPU than the decoding itself. Advising THP on such buffers
// (Debian's default THP mode is "madvise") makes the kernel fault them in 2 MiB at a time.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#include "lance_nd/core/internal/big_blocks.h"

namespace lance_nd {

/// Buffers smaller than this are left alone (the advice would cover no whole huge page).
inline constexpr std::size_t kHugePageAdviceMin = std::size_t{4} << 20;
inline constexpr std::size_t kHugePageSize = std::size_t{2} << 20;

/// \brief Advise transparent huge pages for the 2 MiB-aligned interior of [p, p + bytes).
/// Best effort: a kernel without THP just ignores it. Call before the memory is first touched.
inline void AdviseHugePages(void* p, std::size_t bytes) {
  if (p == nullptr || bytes < kHugePageAdviceMin) return;
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t first = (begin + kHugePageSize - 1) & ~(kHugePageSize - 1);
  const std::uintptr_t last = (begin + bytes) & ~(kHugePageSize - 1);
  if (last <= first) return;
  ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

/// \brief A std::allocator stand-in for vectors that are filled right after they are reserved
/// (levels, offsets): an allocation of kBigBlockMin (64 KiB) or more is a big block
/// (big_blocks.h), recycled within the process and backed by huge pages (whole ones from 2 MiB
/// on, a share of a 2 MiB slab below), so filling it faults a few huge pages instead of hundreds
/// of small ones, or none when the block is recycled. Smaller allocations come from malloc.
template <typename T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr std::size_t kMinBytes = internal::kBigBlockMin;

  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>& /*other*/) noexcept {}  // NOLINT: rebinding

  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kMinBytes) return static_cast<T*>(internal::AllocateBigBlock(bytes));
    void* p = std::malloc(bytes == 0 ? 1 : bytes);
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) >= kMinBytes) {
      internal::FreeBigBlock(p);
    } else {
      std::free(p);
    }
  }

  template <typename U>
  bool operator==(const HugePageAllocator<U>& /*other*/) const noexcept {
    return true;
  }
};

}  // namespace lance_nd
