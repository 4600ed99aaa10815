#include "lance_nd/core/internal/big_blocks.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#include <unordered_map>

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

class Recycler {
 public:
  void* Allocate(std::size_t bytes, std::size_t* capacity) {
    // Blocks of a huge page or more are whole huge pages; smaller ones whole 64 KiB.
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
        live_.emplace(block, size);
        if (capacity != nullptr) *capacity = size;
        return block;
      }
    }
    void* block = std::aligned_alloc(grain, rounded);
    if (block == nullptr) {
      // Out of memory: what is kept goes back first, then one more try.
      ReleaseKept();
      block = std::aligned_alloc(grain, rounded);
    }
    if (block == nullptr) throw std::bad_alloc();
    if (rounded >= kHugePageSize) ::madvise(block, rounded, MADV_HUGEPAGE);
    {
      std::lock_guard lock(mu_);
      live_.emplace(block, rounded);
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
    const std::size_t size = it->second;
    live_.erase(it);
    if (size > capacity_) {
      std::free(block);
      return;
    }
    kept_.emplace(size, Kept{block, next_++});
    kept_bytes_ += size;
    TrimLocked();
  }

  void ReleaseKept() {
    std::lock_guard lock(mu_);
    for (const auto& entry : kept_) std::free(entry.second.block);
    kept_.clear();
    kept_bytes_ = 0;
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

  void TrimLocked() {
    while (kept_bytes_ > capacity_) {
      auto oldest = kept_.begin();
      for (auto it = std::next(kept_.begin()); it != kept_.end(); ++it) {
        if (it->second.order < oldest->second.order) oldest = it;
      }
      kept_bytes_ -= oldest->first;
      std::free(oldest->second.block);
      kept_.erase(oldest);
    }
  }

  std::mutex mu_;
  std::size_t capacity_ = InitialCapacity();
  std::size_t kept_bytes_ = 0;
  std::uint64_t next_ = 0;
  std::multimap<std::size_t, Kept> kept_;        // by size
  std::unordered_map<void*, std::size_t> live_;  // handed out: their sizes
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
