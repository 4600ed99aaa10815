#include "lance_nd/table/deletion/roaring_portable.h"

#include <roaring/roaring.h>

#include <memory>

namespace lance_nd::table::internal {
namespace {

constexpr std::uint32_t kCookieNoRuns = 12346;
constexpr std::uint32_t kCookieRuns = 12347;
constexpr std::uint32_t kNoOffsetThreshold = 4;
constexpr std::uint32_t kMaxArrayCardinality = 4096;
constexpr std::size_t kBitmapBytes = 8192;

class Cursor {
 public:
  Cursor(std::span<const std::uint8_t> bytes, const std::string& name)
      : bytes_(bytes), name_(name) {}

  Status Need(std::size_t n, const char* what) const {
    if (bytes_.size() - pos_ < n) {
      return Status::Corrupt("Roaring deletion file '" + name_ + "' is truncated: " + what +
                             " needs " + std::to_string(n) + " bytes at offset " +
                             std::to_string(pos_) + " but the file has " +
                             std::to_string(bytes_.size()) + " bytes");
    }
    return Status::OK();
  }
  std::uint16_t U16() {
    const std::uint16_t v = static_cast<std::uint16_t>(bytes_[pos_] | (bytes_[pos_ + 1] << 8));
    pos_ += 2;
    return v;
  }
  std::uint32_t U32() {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | bytes_[pos_ + static_cast<std::size_t>(i)];
    pos_ += 4;
    return v;
  }
  void Skip(std::size_t n) { pos_ += n; }
  const std::uint8_t* here() const { return bytes_.data() + pos_; }
  std::size_t pos() const { return pos_; }
  std::size_t size() const { return bytes_.size(); }

 private:
  std::span<const std::uint8_t> bytes_;
  const std::string& name_;
  std::size_t pos_ = 0;
};

}  // namespace

Result<std::vector<std::uint32_t>> ParseRoaringPortable(std::span<const std::uint8_t> bytes,
                                                        const std::string& name,
                                                        std::uint64_t max_values) {
  auto corrupt = [&](const std::string& what) {
    return Status::Corrupt("Roaring deletion file '" + name + "': " + what);
  };
  Cursor c(bytes, name);
  LND_RETURN_NOT_OK(c.Need(4, "the cookie"));
  const std::uint32_t cookie = c.U32();
  std::uint32_t num_containers = 0;
  std::vector<std::uint8_t> run_flags;
  bool has_offsets = true;
  if (cookie == kCookieNoRuns) {
    LND_RETURN_NOT_OK(c.Need(4, "the container count"));
    num_containers = c.U32();
    if (num_containers > 65536) {
      return corrupt("header says " + std::to_string(num_containers) +
                     " containers; a 32-bit Roaring bitmap has at most 65536");
    }
  } else if ((cookie & 0xFFFFu) == kCookieRuns) {
    num_containers = (cookie >> 16) + 1;
    const std::size_t flag_bytes = (num_containers + 7) / 8;
    LND_RETURN_NOT_OK(c.Need(flag_bytes, "the run-container flags"));
    run_flags.assign(c.here(), c.here() + flag_bytes);
    c.Skip(flag_bytes);
    has_offsets = num_containers >= kNoOffsetThreshold;
  } else {
    return corrupt("found cookie " + std::to_string(cookie & 0xFFFFu) +
                   ", expected 12346 or 12347 (portable Roaring format)");
  }
  LND_RETURN_NOT_OK(c.Need(std::size_t{4} * num_containers, "the container headers"));
  std::vector<std::uint16_t> keys(num_containers);
  std::vector<std::uint32_t> cards(num_containers);
  std::uint64_t total = 0;
  for (std::uint32_t i = 0; i < num_containers; ++i) {
    keys[i] = c.U16();
    cards[i] = std::uint32_t{c.U16()} + 1;
    if (i > 0 && keys[i] <= keys[i - 1]) {
      return corrupt("container keys are not strictly increasing (" + std::to_string(keys[i]) +
                     " after " + std::to_string(keys[i - 1]) + ")");
    }
    total += cards[i];
  }
  if (total > max_values) {
    return corrupt("header says " + std::to_string(total) + " values, expected at most " +
                   std::to_string(max_values));
  }
  if (has_offsets) {
    LND_RETURN_NOT_OK(c.Need(std::size_t{4} * num_containers, "the container offsets"));
    c.Skip(std::size_t{4} * num_containers);  // containers are read sequentially
  }
  std::vector<std::uint32_t> out;
  out.reserve(static_cast<std::size_t>(total));
  for (std::uint32_t i = 0; i < num_containers; ++i) {
    const std::uint32_t high = std::uint32_t{keys[i]} << 16;
    const std::string where =
        "container " + std::to_string(i) + " (key " + std::to_string(keys[i]) + ")";
    const bool is_run = !run_flags.empty() && ((run_flags[i / 8] >> (i % 8)) & 1u) != 0;
    if (is_run) {
      LND_RETURN_NOT_OK(c.Need(2, "a run count"));
      const std::uint32_t num_runs = c.U16();
      LND_RETURN_NOT_OK(c.Need(std::size_t{4} * num_runs, "the runs"));
      std::uint64_t count = 0;
      std::int64_t prev_end = -1;
      for (std::uint32_t r = 0; r < num_runs; ++r) {
        const std::uint32_t start = c.U16();
        const std::uint32_t length = c.U16();
        if (start + length > 0xFFFFu) {
          return corrupt(where + ": run " + std::to_string(r) + " [" + std::to_string(start) +
                         ", +" + std::to_string(length) + "] passes 65535");
        }
        if (static_cast<std::int64_t>(start) <= prev_end) {
          return corrupt(where + ": runs are unsorted or overlap at run " + std::to_string(r));
        }
        count += length + 1;
        if (count > cards[i]) break;
        for (std::uint32_t v = start; v <= start + length; ++v) out.push_back(high | v);
        prev_end = start + length;
      }
      if (count != cards[i]) {
        return corrupt(where + ": its runs hold " + std::to_string(count) +
                       " values but its header says " + std::to_string(cards[i]));
      }
    } else if (cards[i] <= kMaxArrayCardinality) {
      LND_RETURN_NOT_OK(c.Need(std::size_t{2} * cards[i], "an array container"));
      std::int64_t prev = -1;
      for (std::uint32_t k = 0; k < cards[i]; ++k) {
        const std::uint16_t v = c.U16();
        if (static_cast<std::int64_t>(v) <= prev) {
          return corrupt(where + ": array values are not strictly increasing (" +
                         std::to_string(v) + " after " + std::to_string(prev) + ")");
        }
        prev = v;
        out.push_back(high | v);
      }
    } else {
      LND_RETURN_NOT_OK(c.Need(kBitmapBytes, "a bitmap container"));
      const std::uint8_t* bits = c.here();
      std::uint32_t count = 0;
      for (std::size_t b = 0; b < kBitmapBytes; ++b) {
        count += static_cast<std::uint32_t>(__builtin_popcount(bits[b]));
      }
      if (count != cards[i]) {
        return corrupt(where + ": its bitmap holds " + std::to_string(count) +
                       " values but its header says " + std::to_string(cards[i]));
      }
      for (std::uint32_t v = 0; v < 65536; ++v) {
        if ((bits[v / 8] >> (v % 8)) & 1u) out.push_back(high | v);
      }
      c.Skip(kBitmapBytes);
    }
  }
  if (c.pos() != c.size()) {
    return corrupt("found " + std::to_string(c.size() - c.pos()) +
                   " trailing bytes after the last container (at offset " +
                   std::to_string(c.pos()) + ")");
  }
  return out;
}

Result<std::vector<std::uint8_t>> SerializeRoaringPortable(std::span<const std::uint32_t> values) {
  std::unique_ptr<roaring_bitmap_t, decltype(&roaring_bitmap_free)> bitmap(
      roaring_bitmap_of_ptr(values.size(), values.data()), &roaring_bitmap_free);
  if (bitmap == nullptr) return Status::IOError("cannot allocate a Roaring bitmap");
  std::vector<std::uint8_t> out(roaring_bitmap_portable_size_in_bytes(bitmap.get()));
  const std::size_t written =
      roaring_bitmap_portable_serialize(bitmap.get(), reinterpret_cast<char*>(out.data()));
  if (written != out.size()) {
    return Status::IOError("CRoaring wrote " + std::to_string(written) + " bytes, expected " +
                           std::to_string(out.size()));
  }
  return out;
}

}  // namespace lance_nd::table::internal
