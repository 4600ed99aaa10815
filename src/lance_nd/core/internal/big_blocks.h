// Big memory blocks (decoded pages, whole columns, level vectors), recycled within the process.
//
// A scan or a write allocates blocks of megabytes, fills each once, and frees it soon after.
// Fresh blocks come from the kernel, which zeroes every page before handing it out: a repeated
// or streamed scan spent a quarter of its time there. A freed block is therefore kept (up to a
// bounded total) and handed out again for a request of about its size.
#pragma once

#include <cstddef>

namespace lance_nd::internal {

/// Requests smaller than this are not big blocks (use malloc).
inline constexpr std::size_t kBigBlockMin = std::size_t{64} << 10;

/// \brief A block of at least `bytes` (>= kBigBlockMin): from 2 MiB on, 2 MiB-aligned, whole
/// huge pages and advised for transparent huge pages; below, a power-of-two share (64 KiB to
/// 2 MiB) of a 2 MiB slab advised the same way, or, while recycling is off, 64 KiB-aligned whole
/// 64 KiB. While recycling is on, a request that no kept block fits is made of the pages of the
/// kept blocks smaller than it (moved, not copied) and new memory for the rest, and a new slab
/// is a kept huge page when there is one. Its contents are unspecified: a recycled block holds
/// old data.
/// `*capacity`, when given, receives the usable size (at least `bytes`). Throws
/// std::bad_alloc when memory is exhausted. Free it with FreeBigBlock.
void* AllocateBigBlock(std::size_t bytes, std::size_t* capacity = nullptr);

/// \brief Gives back a block from AllocateBigBlock: kept for reuse while the kept blocks stay
/// within the recycling capacity, else freed. A slab is freed once none of its blocks is in use
/// and the kept bytes exceed the capacity.
void FreeBigBlock(void* block) noexcept;

/// \brief The most bytes of freed blocks kept for reuse. The default is 256 MiB (0 under
/// AddressSanitizer, whose use-after-free checks need blocks really freed); the environment
/// variable LANCE_ND_RECYCLE_MB overrides it at start. Lowering it frees what no longer fits.
void SetBigBlockRecycling(std::size_t bytes);

/// \brief The recycling capacity now (SetBigBlockRecycling).
std::size_t BigBlockRecycling();

/// \brief The bytes of freed blocks kept for reuse now (with the free blocks of slabs).
std::size_t RecycledBigBlockBytes();

}  // namespace lance_nd::internal
