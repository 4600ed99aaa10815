// A small thread-safe cache that keeps at most a number of entries and, optionally, a total
// cost (bytes, say), dropping the least recently used entry first. Lookups walk the entries in
// order: the caches that use it hold a handful to a few hundred entries, whose keys are
// compared with care (weak owners, file bytes) rather than hashed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace lance_nd::internal {

template <typename Entry>
class BoundedCache {
 public:
  explicit BoundedCache(std::size_t max_entries,
                        std::uint64_t max_cost = std::numeric_limits<std::uint64_t>::max())
      : max_entries_(max_entries), max_cost_(max_cost) {}

  /// \brief The first entry for which `match(entry)` gives a value (an std::optional), which
  /// is returned; that entry counts as used. nullopt when none does.
  template <typename Match>
  auto Find(Match&& match) -> std::invoke_result_t<Match, Entry&> {
    std::lock_guard lock(mu_);
    for (Slot& s : slots_) {
      auto found = match(s.entry);
      if (!found) continue;
      s.last_use = ++clock_;
      return found;
    }
    return std::nullopt;
  }

  /// \brief Keep `entry`, replacing the entry for which `same_key(old)` is true, then drop the
  /// least recently used entries until both bounds hold. An entry that costs more than the
  /// whole budget is not kept.
  template <typename SameKey>
  void Put(Entry entry, SameKey&& same_key, std::uint64_t cost = 1) {
    std::lock_guard lock(mu_);
    std::erase_if(slots_, [&](Slot& s) {
      if (!same_key(s.entry)) return false;
      total_cost_ -= s.cost;
      return true;
    });
    if (cost > max_cost_ || max_entries_ == 0) return;
    slots_.push_back(Slot{std::move(entry), ++clock_, cost});
    total_cost_ += cost;
    while (slots_.size() > max_entries_ || total_cost_ > max_cost_) DropOldest();
  }

  /// \brief Drop every entry for which `pred(entry)` is true.
  template <typename Pred>
  void EraseIf(Pred&& pred) {
    std::lock_guard lock(mu_);
    std::erase_if(slots_, [&](Slot& s) {
      if (!pred(s.entry)) return false;
      total_cost_ -= s.cost;
      return true;
    });
  }

  /// \brief A new cost budget; entries over it are dropped at once.
  void SetMaxCost(std::uint64_t max_cost) {
    std::lock_guard lock(mu_);
    max_cost_ = max_cost;
    while (!slots_.empty() && total_cost_ > max_cost_) DropOldest();
  }

  void Clear() {
    std::lock_guard lock(mu_);
    slots_.clear();
    total_cost_ = 0;
  }

  std::size_t size() const {
    std::lock_guard lock(mu_);
    return slots_.size();
  }

  std::uint64_t total_cost() const {
    std::lock_guard lock(mu_);
    return total_cost_;
  }

 private:
  struct Slot {
    Entry entry;
    std::uint64_t last_use = 0;
    std::uint64_t cost = 0;
  };

  void DropOldest() {
    auto oldest = std::min_element(slots_.begin(), slots_.end(), [](const Slot& a, const Slot& b) {
      return a.last_use < b.last_use;
    });
    total_cost_ -= oldest->cost;
    slots_.erase(oldest);
  }

  mutable std::mutex mu_;
  std::vector<Slot> slots_;
  std::uint64_t clock_ = 0;
  std::uint64_t total_cost_ = 0;
  std::size_t max_entries_;
  std::uint64_t max_cost_;
};

}  // namespace lance_nd::internal
