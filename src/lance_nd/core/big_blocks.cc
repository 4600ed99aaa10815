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
#include <set>
#include <unordered_map>
#include <utility>
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
    std::size_t rounded = (bytes + grain - 1) & ~(grain - 1);
    std::unique_lock lock(mu_);
    if (capacity_ == 0) {
      // Not recycling: from malloc, really freed by FreeBigBlock (AddressSanitizer sees it).
      lock.unlock();
      void* block = AlignedAlloc(grain, rounded);
      if (rounded >= kHugePageSize) ::madvise(block, rounded, MADV_HUGEPAGE);
      lock.lock();
      live_.emplace(block, Live{rounded, Kind::kMalloc});
      if (capacity != nullptr) *capacity = rounded;
      return block;
    }
    void* block = TakeKeptLocked(rounded, lock);
    live_.emplace(block, Live{rounded, Kind::kMapped});
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
    switch (live.kind) {
      case Kind::kSlab:
        FreeSlabBlockLocked(block, live.size);
        TrimLocked();
        return;
      case Kind::kMalloc:
        std::free(block);
        return;
      case Kind::kMapped:
        break;
    }
    if (live.size > capacity_) {
      Unmap(block, live.size);
      return;
    }
    kept_.emplace(live.size, Kept{block, next_++});
    kept_bytes_ += live.size;
    TrimLocked();
  }

  void ReleaseKept() {
    std::lock_guard lock(mu_);
    for (const auto& entry : kept_) Unmap(entry.second.block, entry.first);
    kept_bytes_ -= BytesOf(kept_);
    kept_.clear();
    ReleaseEmptySlabsLocked(/*all=*/true);
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
  enum class Kind : std::uint8_t {
    kMapped,  // whole huge pages mapped for this block (or moved into it): kept when freed
    kSlab,    // a share of a slab
    kMalloc,  // from malloc while recycling was off: always freed
  };
  struct Live {
    std::size_t size;
    Kind kind;
  };
  struct Slab {
    void* memory;             // the huge page, at the slab's base address
    std::size_t blocks;       // equal blocks of SlabBlockSize(blocks) bytes
    std::uint32_t free_mask;  // bit k: block k is free
  };

  static std::uintptr_t SlabBase(const void* block) {
    return reinterpret_cast<std::uintptr_t>(block) & ~(kHugePageSize - 1);
  }
  static std::uint32_t AllFree(std::size_t blocks) {
    return blocks >= 32 ? 0xFFFFFFFFu : (std::uint32_t{1} << blocks) - 1;
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

  // `bytes` (whole huge pages) of new memory at a huge-page boundary, advised for huge pages;
  // nullptr when the system has none.
  static void* MapFresh(std::size_t bytes) {
    const std::size_t span = bytes + kHugePageSize;
    void* raw = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return nullptr;
    char* const begin = static_cast<char*>(raw);
    const std::size_t lead =
        (kHugePageSize - reinterpret_cast<std::uintptr_t>(begin) % kHugePageSize) % kHugePageSize;
    if (lead > 0) ::munmap(begin, lead);
    if (kHugePageSize - lead > 0) ::munmap(begin + lead + bytes, kHugePageSize - lead);
    ::madvise(begin + lead, bytes, MADV_HUGEPAGE);
    return begin + lead;
  }

  static void Unmap(void* block, std::size_t bytes) { ::munmap(block, bytes); }

  // Moves the pages of kept block `from` (`bytes`) to `to`, replacing the new memory there:
  // they were faulted in by this process already, so filling them costs no page fault and no
  // zeroing by the kernel. Falls back to leaving new memory at `to` (and freeing `from`).
  static void MovePages(void* from, std::size_t bytes, void* to) {
    if (::mremap(from, bytes, bytes, MREMAP_MAYMOVE | MREMAP_FIXED, to) != MAP_FAILED) return;
    ::munmap(from, bytes);
    ::mmap(to, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    ::madvise(to, bytes, MADV_HUGEPAGE);
  }

  // A block of `rounded` bytes (whole huge pages) while recycling is on, the lock held on entry
  // and on return:
  // - the smallest kept block that fits, unless it would waste more than a quarter (its size
  //   then replaces `rounded` in live_);
  // - else new memory of `rounded` bytes into which the kept blocks smaller than the request
  //   are moved, largest first, as far as they fit. Without this, kept blocks of sizes no
  //   longer asked for sat unused while the process faulted in new memory beside them: the
  //   write's blocks while the scan's 130 MB column was faulted in. New memory is the dearest
  //   kind (a fresh process on a virtual machine pays the host's first touch too: 0.25-1.2
  //   ms/MB against 0.08 for pages the process had freed before).
  void* TakeKeptLocked(std::size_t& rounded, std::unique_lock<std::mutex>& lock) {
    auto fit = kept_.lower_bound(rounded);
    if (fit != kept_.end() && fit->first <= rounded + rounded / 4) {
      void* block = fit->second.block;
      rounded = fit->first;
      kept_bytes_ -= fit->first;
      kept_.erase(fit);
      return block;
    }
    std::vector<std::pair<void*, std::size_t>> moved;
    std::size_t room = rounded;
    for (auto it = std::make_reverse_iterator(fit); it != kept_.rend() && room > 0;) {
      if (it->first > room) {
        ++it;
        continue;
      }
      moved.emplace_back(it->second.block, it->first);
      room -= it->first;
      kept_bytes_ -= it->first;
      it = std::make_reverse_iterator(kept_.erase(std::next(it).base()));
    }
    lock.unlock();
    void* block = MapFresh(rounded);
    if (block == nullptr) {
      ReleaseKept();
      block = MapFresh(rounded);
    }
    if (block == nullptr) {
      for (const auto& [from, bytes] : moved) Unmap(from, bytes);
      lock.lock();
      throw std::bad_alloc();
    }
    std::size_t at = 0;
    for (const auto& [from, bytes] : moved) {
      MovePages(from, bytes, static_cast<char*>(block) + at);
      at += bytes;
    }
    lock.lock();
    return block;
  }

  // A block of a slab, or nullptr while recycling is off (blocks must then really be freed,
  // which AddressSanitizer relies on). The lowest free block of the lowest slab with one: a
  // block just freed is handed out again first when its slab is the only one partly free.
  void* AllocateFromSlab(std::size_t bytes, std::size_t* capacity) {
    const std::size_t blocks = SlabBlocksFor(bytes);
    const std::size_t size = SlabBlockSize(blocks);
    std::unique_lock lock(mu_);
    if (capacity_ == 0) return nullptr;
    std::set<std::uintptr_t>& candidates = with_free_[blocks];
    if (candidates.empty()) {
      // A kept huge page, or a new one.
      std::size_t slab_bytes = kHugePageSize;
      void* memory = TakeKeptLocked(slab_bytes, lock);
      const std::uintptr_t base = SlabBase(memory);
      slabs_.emplace(base, Slab{memory, blocks, AllFree(blocks)});
      candidates.insert(base);
      empty_.insert(base);
      kept_bytes_ += kHugePageSize;
    }
    const std::uintptr_t base = *candidates.begin();
    Slab& slab = slabs_.at(base);
    if (slab.free_mask == AllFree(blocks)) empty_.erase(base);
    const auto k = static_cast<std::size_t>(std::countr_zero(slab.free_mask));
    slab.free_mask &= ~(std::uint32_t{1} << k);
    if (slab.free_mask == 0) candidates.erase(base);
    void* block = static_cast<char*>(slab.memory) + k * size;
    kept_bytes_ -= size;
    live_.emplace(block, Live{size, Kind::kSlab});
    if (capacity != nullptr) *capacity = size;
    return block;
  }

  void FreeSlabBlockLocked(void* block, std::size_t size) {
    const std::uintptr_t base = SlabBase(block);
    Slab& slab = slabs_.at(base);
    const auto offset =
        static_cast<std::size_t>(static_cast<char*>(block) - static_cast<char*>(slab.memory));
    if (slab.free_mask == 0) with_free_[slab.blocks].insert(base);
    slab.free_mask |= std::uint32_t{1} << (offset / size);
    if (slab.free_mask == AllFree(slab.blocks)) empty_.insert(base);
    kept_bytes_ += size;
  }

  // Frees slabs none of whose blocks is in use: all of them, or while more than the capacity is
  // kept.
  void ReleaseEmptySlabsLocked(bool all) {
    while (!empty_.empty() && (all || kept_bytes_ > capacity_)) {
      const std::uintptr_t base = *empty_.begin();
      empty_.erase(empty_.begin());
      const Slab slab = slabs_.at(base);
      with_free_[slab.blocks].erase(base);
      slabs_.erase(base);
      kept_bytes_ -= kHugePageSize;
      Unmap(slab.memory, kHugePageSize);
    }
  }

  void TrimLocked() {
    while (kept_bytes_ > capacity_ && !kept_.empty()) {
      auto oldest = kept_.begin();
      for (auto it = std::next(kept_.begin()); it != kept_.end(); ++it) {
        if (it->second.order < oldest->second.order) oldest = it;
      }
      kept_bytes_ -= oldest->first;
      Unmap(oldest->second.block, oldest->first);
      kept_.erase(oldest);
    }
    ReleaseEmptySlabsLocked(/*all=*/false);
  }

  std::mutex mu_;
  std::size_t capacity_ = InitialCapacity();
  std::size_t kept_bytes_ = 0;  // kept blocks and the free blocks of slabs
  std::uint64_t next_ = 0;
  std::multimap<std::size_t, Kept> kept_;           // by size
  std::unordered_map<void*, Live> live_;            // handed out
  std::unordered_map<std::uintptr_t, Slab> slabs_;  // by base address
  // Slabs with a free block, by blocks per slab; slabs with every block free.
  std::array<std::set<std::uintptr_t>, kMaxSlabBlocks + 1> with_free_;
  std::set<std::uintptr_t> empty_;
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
