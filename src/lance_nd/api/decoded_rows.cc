#include "lance_nd/api/decoded_rows.h"

#include <functional>
#include <list>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace lance_nd::api_internal {
namespace {

// 64 MiB: the decoded chunks of a few variables of a typical climatology, or four times
// libnetcdf's default chunk cache of one variable.
constexpr std::uint64_t kDefaultBudget = std::uint64_t{64} << 20;

struct Key {
  const DatasetIndex* index = nullptr;  // found only while `owner` still holds it
  std::uint64_t row = 0;
  std::string variable;
  bool operator==(const Key&) const = default;
};

struct KeyHash {
  std::size_t operator()(const Key& k) const {
    std::size_t h = std::hash<const void*>()(k.index);
    h = h * 31 + std::hash<std::uint64_t>()(k.row);
    return h * 31 + std::hash<std::string>()(k.variable);
  }
};

struct Node {
  Key key;
  std::weak_ptr<const DatasetIndex> owner;
  DecodedRow batch;
  std::uint64_t cost = 0;
};

// The bytes an array's buffers hold, children included. Rows of one take may share an
// allocation; counting each row's part over-counts, never under-counts, what is kept alive.
std::uint64_t BufferBytes(const array::ArrayData& a) {
  std::uint64_t n = 0;
  for (const auto& b : a.buffers) n += b ? static_cast<std::uint64_t>(b->size()) : 0;
  for (const auto& c : a.children) n += c ? BufferBytes(*c) : 0;
  return n;
}

std::uint64_t Cost(const DecodedRow& batch) {
  std::uint64_t n = 256;  // the row's own bookkeeping
  if (!batch) return n;
  for (const nd::NdArrowArray& column : batch->columns()) n += BufferBytes(*column.values());
  return n;
}

class Cache {
 public:
  DecodedRow Find(const std::shared_ptr<const DatasetIndex>& index, std::uint64_t row,
                  const std::string& variable) {
    std::lock_guard lock(mu_);
    auto it = map_.find(Key{index.get(), row, variable});
    if (it == map_.end()) return nullptr;
    if (it->second->owner.lock() != index) {  // a new index at a dead one's address
      Erase(it);
      return nullptr;
    }
    lru_.splice(lru_.begin(), lru_, it->second);
    return it->second->batch;
  }

  void Keep(const std::shared_ptr<const DatasetIndex>& index, std::uint64_t row,
            const std::string& variable, DecodedRow batch) {
    std::lock_guard lock(mu_);
    Key key{index.get(), row, variable};
    if (auto it = map_.find(key); it != map_.end()) Erase(it);
    const std::uint64_t cost = Cost(batch);
    if (cost > budget_) return;
    lru_.push_front(Node{key, index, std::move(batch), cost});
    map_.emplace(std::move(key), lru_.begin());
    bytes_ += cost;
    Shrink();
  }

  std::uint64_t bytes() {
    std::lock_guard lock(mu_);
    return bytes_;
  }

  void Clear() {
    std::lock_guard lock(mu_);
    map_.clear();
    lru_.clear();
    bytes_ = 0;
  }

  void SetBudget(std::uint64_t bytes) {
    std::lock_guard lock(mu_);
    budget_ = bytes;
    Shrink();
  }

 private:
  using Map = std::unordered_map<Key, std::list<Node>::iterator, KeyHash>;

  void Erase(Map::iterator it) {
    bytes_ -= it->second->cost;
    lru_.erase(it->second);
    map_.erase(it);
  }

  void Shrink() {
    while (bytes_ > budget_ && !lru_.empty()) Erase(map_.find(lru_.back().key));
  }

  std::mutex mu_;
  std::list<Node> lru_;  // most recently used first
  Map map_;
  std::uint64_t bytes_ = 0;
  std::uint64_t budget_ = kDefaultBudget;
};

Cache& TheCache() {
  static Cache* cache = new Cache();  // never destroyed: usable during static destruction
  return *cache;
}

}  // namespace

DecodedRow FindDecoded(const std::shared_ptr<const DatasetIndex>& index, std::uint64_t row,
                       const std::string& variable) {
  return TheCache().Find(index, row, variable);
}

void KeepDecoded(const std::shared_ptr<const DatasetIndex>& index, std::uint64_t row,
                 const std::string& variable, DecodedRow batch) {
  TheCache().Keep(index, row, variable, std::move(batch));
}

std::uint64_t DecodedBytes() { return TheCache().bytes(); }

void ForgetDecoded() { TheCache().Clear(); }

void SetDecodedBudget(std::uint64_t bytes) { TheCache().SetBudget(bytes); }

}  // namespace lance_nd::api_internal
