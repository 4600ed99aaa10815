// Transparent-huge-page advice for big, freshly allocated buffers.
//
// Decoding a large file touches hundreds of megabytes of new memory once; with 4 KiB pages the
// kernel's page-fault path cost more CPU than the decoding itself. Advising THP on such buffers
// (Debian's default THP mode is "madvise") makes the kernel fault them in 2 MiB at a time.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>

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

}  // namespace lance_nd
