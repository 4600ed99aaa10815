#include "lance_nd/core/internal/big_blocks.h"

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#include "lance_nd/core/internal/huge_pages.h"

namespace lance_nd::internal {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

constexpr std::size_t kSmallGrain = std::size_t{64} << 10;
constexpr std::size_t kDefaultCapacity = std::size_t{256} << 20;

std::size_t InitialCapacity() {
  if (const char* mb = std::getenv("LANCE_ND_RECYCLE_MB")) {
    char* end = nullptr;
    const std::uint64_t v = std::strtoull(mb, &end, 10);
    if (end != mb && *end == '\0') return static_cast<std::size_t>(v) << 20;
  }
  return kAddressSanitizer ? 0 : kDefaultCapacity;
}

// Blocks below a huge page are carved from 2 MiB slabs: a slab is one huge page, cut into
// equal power-of-two blocks (64 KiB to 1 MiB; a request above 1 MiB takes a whole slab), so
// filling medium blocks faults a huge page now and then instead of a small page every 4 KiB
// (several microseconds each on a virtual machine). Few block sizes keep few slabs partly used.
constexpr std::size_t kMaxSlabBlocks = 32;  // 64 KiB blocks at the smallest

std::size_t SlabBlockSize(std::size_t blocks) { return kHugePageSize / blocks; }

// Blocks per slab for a request below a huge page.
std::size_t SlabBlocksFor(std::size_t bytes) {
  return std::clamp<std::size_t>(kHugePageSize / std::bit_ceil(bytes), 1, kMaxSlabBlocks);
}

class Recycler {
 public:
  void* Allocate(std::size_t bytes, std::size_t* capacity) {
    if (bytes < kHugePageSize) {
      if (void* block = AllocateFromSlab(bytes, capacity)) return block;
    }
    // Blocks of a huge page or more are whole huge pages; smaller ones (only while recycling
    // is off, when slabs are not used) whole 64 KiB.
    const std::size_t grain = bytes >= kHugePageSize ? kHugePageSize : kSmallGrain;
    const std::size_t rounded = (bytes + grain - 1) & ~(grain - 1);
    {
      std::lock_guard lock(mu_);
      // The smallest kept block that fits, unless it would waste more than a quarter.
      auto it = kept_.lower_bound(rounded);
      if (it != kept_.end() && it->first <= rounded + rounded / 4) {
        void* block = it->second.block;
        const std::size_t size = it->first;
        kept_bytes_ -= size;
        kept_.erase(it);
        live_.emplace(block, Live{size, false});
        if (capacity != nullptr) *capacity = size;
        return block;
      }
    }
    void* block = AlignedAlloc(grain, rounded);
    if (rounded >= kHugePageSize) ::madvise(block, rounded, MADV_HUGEPAGE);
    {
      std::lock_guard lock(mu_);
      live_.emplace(block, Live{rounded, false});
    }
    if (capacity != nullptr) *capacity = rounded;
    return block;
  }

  void Free(void* block) noexcept {
    if (block == nullptr) return;
    std::lock_guard lock(mu_);
    const auto it = live_.find(block);
    if (it == live_.end()) {  // not ours (another copy of the library allocated it)
      std::free(block);
      return;
    }
    const Live live = it->second;
    live_.erase(it);
    if (live.in_slab) {
      Slab& slab = slabs_.at(SlabBase(block));
      ++slab.free;
      free_blocks_[slab.blocks].push_back(block);
      kept_bytes_ += live.size;
      TrimLocked();
      return;
    }
    if (live.size > capacity_) {
      std::free(block);
      return;
    }
    kept_.emplace(live.size, Kept{block, next_++});
    kept_bytes_ += live.size;
    TrimLocked();
  }

  void ReleaseKept() {
    std::lock_guard lock(mu_);
    for (const auto& entry : kept_) std::free(entry.second.block);
    kept_bytes_ -= BytesOf(kept_);
    kept_.clear();
    ReleaseFreeSlabsLocked();
  }

  void SetCapacity(std::size_t bytes) {
    std::lock_guard lock(mu_);
    capacity_ = bytes;
    TrimLocked();
  }

  std::size_t capacity() {
    std::lock_guard lock(mu_);
    return capacity_;
  }

  std::size_t kept_bytes() {
    std::lock_guard lock(mu_);
    return kept_bytes_;
  }

 private:
  struct Kept {
    void* block;
    std::uint64_t order;  // when it was freed: the oldest goes first
  };
  struct Live {
    std::size_t size;
    bool in_slab;
  };
  struct Slab {
    void* memory;        // the huge page
    std::size_t blocks;  // equal blocks of SlabBlockSize(blocks) bytes
    std::size_t free;    // how many of them are in free_blocks_
  };

  static std::uintptr_t SlabBase(const void* block) {
    return reinterpret_cast<std::uintptr_t>(block) & ~(kHugePageSize - 1);
  }

  static std::size_t BytesOf(const std::multimap<std::size_t, Kept>& kept) {
    std::size_t bytes = 0;
    for (const auto& entry : kept) bytes += entry.first;
    return bytes;
  }

  // Throws std::bad_alloc when memory is exhausted even after what is kept went back.
  void* AlignedAlloc(std::size_t alignment, std::size_t bytes) {
    void* block = std::aligned_alloc(alignment, bytes);
    if (block == nullptr) {
      ReleaseKept();
      block = std::aligned_alloc(alignment, bytes);
    }
    if (block == nullptr) throw std::bad_alloc();
    return block;
  }

  // A block of a slab, or nullptr while recycling is off (blocks must then really be freed,
  // which AddressSanitizer relies on).
  void* AllocateFromSlab(std::size_t bytes, std::size_t* capacity) {
    const std::size_t blocks = SlabBlocksFor(bytes);
    const std::size_t size = SlabBlockSize(blocks);
    std::unique_lock lock(mu_);
    if (capacity_ == 0) return nullptr;
    std::vector<void*>& free = free_blocks_[blocks];
    if (free.empty()) {
      lock.unlock();
      void* slab = AlignedAlloc(kHugePageSize, kHugePageSize);
      ::madvise(slab, kHugePageSize, MADV_HUGEPAGE);
      lock.lock();
      slabs_.emplace(reinterpret_cast<std::uintptr_t>(slab), Slab{slab, blocks, blocks});
      for (std::size_t k = blocks; k-- > 0;) free.push_back(static_cast<char*>(slab) + k * size);
      kept_bytes_ += blocks * size;
    }
    void* block = free.back();
    free.pop_back();
    --slabs_.at(SlabBase(block)).free;
    kept_bytes_ -= size;
    live_.emplace(block, Live{size, true});
    if (capacity != nullptr) *capacity = size;
    return block;
  }

  // Frees the slabs none of whose blocks is in use.
  void ReleaseFreeSlabsLocked() {
    for (auto it = slabs_.begin(); it != slabs_.end();) {
      const Slab slab = it->second;
      if (slab.free != slab.blocks) {
        ++it;
        continue;
      }
      std::vector<void*>& free = free_blocks_[slab.blocks];
      const std::uintptr_t base = it->first;
      std::erase_if(free, [base](void* b) { return SlabBase(b) == base; });
      kept_bytes_ -= slab.blocks * SlabBlockSize(slab.blocks);
      std::free(slab.memory);
      it = slabs_.erase(it);
    }
  }

  void TrimLocked() {
    while (kept_bytes_ > capacity_ && !kept_.empty()) {
      auto oldest = kept_.begin();
      for (auto it = std::next(kept_.begin()); it != kept_.end(); ++it) {
        if (it->second.order < oldest->second.order) oldest = it;
      }
      kept_bytes_ -= oldest->first;
      std::free(oldest->second.block);
      kept_.erase(oldest);
    }
    if (kept_bytes_ > capacity_) ReleaseFreeSlabsLocked();
  }

  std::mutex mu_;
  std::size_t capacity_ = InitialCapacity();
  std::size_t kept_bytes_ = 0;  // kept blocks and the free blocks of slabs
  std::uint64_t next_ = 0;
  std::multimap<std::size_t, Kept> kept_;                           // by size
  std::unordered_map<void*, Live> live_;                            // handed out
  std::unordered_map<std::uintptr_t, Slab> slabs_;                  // by base address
  std::array<std::vector<void*>, kMaxSlabBlocks + 1> free_blocks_;  // by blocks per slab
};

Recycler& TheRecycler() {
  static Recycler* recycler = new Recycler();  // never destroyed: blocks outlive statics
  return *recycler;
}

}  // namespace

void* AllocateBigBlock(std::size_t bytes, std::size_t* capacity) {
  return TheRecycler().Allocate(bytes, capacity);
}

void FreeBigBlock(void* block) noexcept { TheRecycler().Free(block); }

void SetBigBlockRecycling(std::size_t bytes) { TheRecycler().SetCapacity(bytes); }

std::size_t BigBlockRecycling() { return TheRecycler().capacity(); }

std::size_t RecycledBigBlockBytes() { return TheRecycler().kept_bytes(); }

}  // namespace lance_nd::internal
