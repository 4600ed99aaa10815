#include "lance_nd/file/encoding/distinct_values.h"

#include <cstddef>
#include <cstring>
#include <functional>
#include <string_view>

#include "lance_nd/core/internal/endian.h"

namespace lance_nd::file::internal::encoding::detail {
namespace {

// splitmix64's finaliser: a full-avalanche mix of one word.
std::uint64_t Mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The first `n` (< 8) bytes of a little-endian word.
std::uint64_t LowBytes(std::uint64_t word, std::uint64_t n) {
  return n >= 8 ? word : word & ((std::uint64_t{1} << (8 * n)) - 1);
}

// One value as the table compares it: values of up to 16 bytes by their two words and length
// (no byte loop), longer ones by hash, length and bytes.
struct Key {
  const std::uint8_t* bytes = nullptr;
  std::uint64_t size = 0, lo = 0, hi = 0, hash = 0;
};

constexpr std::uint64_t kShort = 16;

// Reads values of a kVariable block with `Offset` offsets, or of a 64-bit kFixedWidth block.
template <typename Offset>
class ValueReader {
 public:
  explicit ValueReader(const DataBlock& b)
      : fixed_(b.kind == DataBlock::Kind::kFixedWidth),
        offsets_(fixed_ ? nullptr : b.offsets->data()),
        data_(b.data ? b.data->data() : nullptr),
        end_(data_ + (b.data ? b.data->size() : 0)) {}

  Key At(std::uint64_t i) const {
    Key k;
    if (fixed_) {
      k.bytes = data_ + i * 8;
      k.size = 8;
    } else {
      const std::uint64_t b = LoadLE<Offset>(offsets_ + i * sizeof(Offset));
      k.bytes = data_ + b;
      k.size = LoadLE<Offset>(offsets_ + (i + 1) * sizeof(Offset)) - b;
    }
    if (k.size > kShort) {
      k.hash = std::hash<std::string_view>{}(
          {reinterpret_cast<const char*>(k.bytes), static_cast<std::size_t>(k.size)});
      return k;
    }
    if (data_ != nullptr && end_ - k.bytes >= static_cast<std::ptrdiff_t>(kShort)) {
      // whole words, masked to the value
      k.lo = LowBytes(LoadLE<std::uint64_t>(k.bytes), k.size);
      k.hi = k.size > 8 ? LowBytes(LoadLE<std::uint64_t>(k.bytes + 8), k.size - 8) : 0;
    } else {  // near the end of the data: copy what is there
      std::uint8_t word[kShort] = {};
      if (k.size > 0) std::memcpy(word, k.bytes, static_cast<std::size_t>(k.size));
      k.lo = LoadLE<std::uint64_t>(word);
      k.hi = LoadLE<std::uint64_t>(word + 8);
    }
    k.hash = Mix(k.lo ^ Mix(k.hi ^ (k.size << 56)));
    return k;
  }

 private:
  bool fixed_;
  const std::uint8_t* offsets_;
  const std::uint8_t* data_;
  const std::uint8_t* end_;
};

// Open addressing over the distinct keys, doubling at half full.
class DistinctTable {
 public:
  // The id of `k`, and whether it is new.
  std::pair<std::uint32_t, bool> Insert(const Key& k) {
    std::uint64_t pos = k.hash & mask_;
    while (slots_[pos] != kEmpty) {
      const std::uint32_t id = slots_[pos];
      if (Same(keys_[id], k)) return {id, false};
      pos = (pos + 1) & mask_;
    }
    const auto id = static_cast<std::uint32_t>(keys_.size());
    slots_[pos] = id;
    keys_.push_back(k);
    if (keys_.size() * 2 > mask_) Grow();
    return {id, true};
  }
  std::size_t size() const { return keys_.size(); }

 private:
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;

  static bool Same(const Key& a, const Key& b) {
    if (a.hash != b.hash || a.size != b.size) return false;
    if (a.size <= kShort) return a.lo == b.lo && a.hi == b.hi;
    return std::memcmp(a.bytes, b.bytes, static_cast<std::size_t>(a.size)) == 0;
  }

  void Grow() {
    mask_ = mask_ * 2 + 1;
    slots_.assign(mask_ + 1, kEmpty);
    for (std::uint32_t id = 0; id < keys_.size(); ++id) {
      std::uint64_t pos = keys_[id].hash & mask_;
      while (slots_[pos] != kEmpty) pos = (pos + 1) & mask_;
      slots_[pos] = id;
    }
  }

  // Starts small: most pages have few distinct values or give up early.
  std::uint64_t mask_ = 1023;
  std::vector<std::uint32_t> slots_ = std::vector<std::uint32_t>(1024, kEmpty);
  std::vector<Key> keys_;
};

// Runs of neighbouring values spread over the page: a repeat shows up in a run of a sorted or
// clustered page and, by the birthday bound, across runs of a page with fewer distinct values
// than about half the page.
constexpr std::uint64_t kSampleRuns = 16;
constexpr std::uint64_t kSampleRunLength = 64;
constexpr std::uint64_t kMinValuesToSample = 8 * kSampleRuns * kSampleRunLength;

template <typename Offset>
bool SampleRepeats(const ValueReader<Offset>& reader, std::uint64_t n) {
  DistinctTable table;
  for (std::uint64_t r = 0; r < kSampleRuns; ++r) {
    const std::uint64_t start = (n - kSampleRunLength) * r / (kSampleRuns - 1);
    for (std::uint64_t i = start; i < start + kSampleRunLength; ++i) {
      if (!table.Insert(reader.At(i)).second) return true;
    }
  }
  return false;
}

template <typename Offset>
std::optional<DistinctValues> Find(const DataBlock& values, const DistinctLimits& limits) {
  const std::uint64_t n = values.num_values;
  const ValueReader<Offset> reader(values);
  if (n >= kMinValuesToSample && !SampleRepeats(reader, n)) return std::nullopt;
  DistinctValues out;
  out.indices.reserve(n);  // a page that gives up never touches most of it
  DistinctTable table;
  // Indices, distinct bytes and their offsets only grow: a page of mostly distinct values
  // gives up as soon as the dictionary cannot pay any more.
  const std::uint64_t index_bytes = n * 4;
  for (std::uint64_t i = 0; i < n; ++i) {
    const Key k = reader.At(i);
    const auto [id, added] = table.Insert(k);
    if (added) {
      out.first.push_back(i);
      out.distinct_bytes += k.size;
      if (out.first.size() > limits.max_unique) return std::nullopt;
      const std::uint64_t grown =
          index_bytes + out.distinct_bytes + (out.first.size() + 1) * limits.offset_bytes;
      if (static_cast<double>(grown) >= limits.size_limit) return std::nullopt;
    }
    out.indices.push_back(id);
  }
  return out;
}

}  // namespace

std::optional<DistinctValues> FindDistinctValues(const DataBlock& values,
                                                 const DistinctLimits& limits) {
  if (values.kind == DataBlock::Kind::kVariable && values.bits_per_offset == 64) {
    return Find<std::uint64_t>(values, limits);
  }
  return Find<std::uint32_t>(values, limits);
}

}  // namespace lance_nd::file::internal::encoding::detail
