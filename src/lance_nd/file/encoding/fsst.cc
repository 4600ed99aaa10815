// FSST: symbol-table (de)serialization, decompression, and a compact trainer/compressor.
#include "lance_nd/file/encoding/fsst.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "lance_nd/core/internal/endian.h"
#include "lance_nd/file/encoding/encode_internal.h"
#include "lance_nd/file/encoding/variable_util.h"

namespace lance_nd::file::internal::encoding {
namespace {

using detail::Corrupt;

constexpr std::uint64_t kFsstMagic = 0x46535354ull << 32;
constexpr std::uint64_t kFsstMinInput = 32 * 1024;  // Lance: below this, strings stay raw

}  // namespace

Result<FsstTable> ParseFsstTable(std::span<const std::uint8_t> bytes) {
  if (bytes.size() != kFsstTableSize) {
    return Corrupt("fsst", "symbol table of ", bytes.size(), " bytes (expected ", kFsstTableSize,
                   ")");
  }
  const std::uint64_t info = LoadLE<std::uint64_t>(bytes.data());
  if ((info & 0xFFFFFFFF00000000ull) != kFsstMagic) {
    return Corrupt("fsst", "symbol table header 0x", std::hex, info, " lacks the FSST magic");
  }
  FsstTable t;
  t.enabled = (info & (1ull << 24)) != 0;
  t.num_symbols = static_cast<std::uint32_t>(info & 0xFF);
  if (t.num_symbols > 255) return Corrupt("fsst", "more than 255 symbols");
  std::size_t pos = 8;
  for (std::uint32_t i = 0; i < t.num_symbols; ++i, pos += 8) {
    t.symbols[i] = LoadLE<std::uint64_t>(bytes.data() + pos);
  }
  for (std::uint32_t i = 0; i < t.num_symbols; ++i, ++pos) {
    t.lengths[i] = bytes[pos];
    if (t.enabled && (t.lengths[i] == 0 || t.lengths[i] > 8)) {
      return Corrupt("fsst", "symbol ", i, " has length ", static_cast<int>(t.lengths[i]),
                     " (expected 1..8)");
    }
  }
  return t;
}

array::BufferPtr SerializeFsstTable(const FsstTable& table) {
  std::uint8_t* out = nullptr;
  auto buffer = detail::Allocate(kFsstTableSize, &out);
  // Header: magic | switch | suffix limit (unused by decoders) | terminator (0) | n.
  const std::uint64_t info = kFsstMagic | (table.enabled ? (1ull << 24) : 0) |
                             ((static_cast<std::uint64_t>(table.num_symbols) & 255) << 16) |
                             (static_cast<std::uint64_t>(table.num_symbols) & 255);
  StoreLE(out, info);
  std::size_t pos = 8;
  for (std::uint32_t i = 0; i < table.num_symbols; ++i, pos += 8) {
    StoreLE(out + pos, table.symbols[i]);
  }
  for (std::uint32_t i = 0; i < table.num_symbols; ++i) out[pos++] = table.lengths[i];
  return buffer;
}

Result<DataBlock> FsstDecompress(const FsstTable& table, const DataBlock& compressed) {
  LND_RETURN_NOT_OK(detail::ValidateVariable(compressed, "fsst"));
  if (!table.enabled) return compressed;
  const std::uint8_t* data = compressed.data->data();
  detail::VariableBuilder out(compressed.bits_per_offset);
  const std::uint64_t first = detail::OffsetAt(compressed, 0);
  const std::uint64_t last = detail::OffsetAt(compressed, compressed.num_values);
  out.Reserve(compressed.num_values, (last - first) * 3);
  auto& bytes = out.data();
  std::uint8_t sym[8];
  for (std::uint64_t v = 0; v < compressed.num_values; ++v) {
    const std::uint64_t end = detail::OffsetAt(compressed, v + 1);
    for (std::uint64_t i = detail::OffsetAt(compressed, v); i < end; ++i) {
      const std::uint8_t code = data[i];
      if (code == kFsstEscape) {
        if (i + 1 >= end) {
          return Corrupt("fsst", "value ", v, " ends with an escape code and no literal byte");
        }
        bytes.push_back(data[++i]);
      } else {
        if (code >= table.num_symbols) {
          return Corrupt("fsst", "value ", v, " uses code ", static_cast<int>(code),
                         " but the table has ", table.num_symbols, " symbols");
        }
        StoreLE(sym, table.symbols[code]);
        bytes.insert(bytes.end(), sym, sym + table.lengths[code]);
      }
    }
    out.Close();
  }
  return out.Finish();
}

// ---------------------------------------------------------------------------------------------
// Compression: a compact version of the FSST training loop (several rounds of greedy encoding
// of a sample, counting symbol and symbol-pair frequencies, keeping the 255 best by gain).
// Any table is valid for Lance's decoder; the output is not byte-identical to Lance's.
// ---------------------------------------------------------------------------------------------
namespace {

struct Sym {
  std::uint64_t val = 0;
  std::uint8_t len = 0;
};

class Table {
 public:
  // Symbols of three or more bytes are grouped by their first three bytes (longest first) in a
  // small hash table, two-byte and one-byte symbols have a direct code: a match looks only at
  // the symbols that can start at p. The result is the longest matching symbol, as a scan of
  // every symbol would give.
  explicit Table(std::vector<Sym> syms) : syms_(std::move(syms)) {
    single_.fill(-1);
    std::vector<std::pair<std::uint32_t, Candidate>> longer;  // (three-byte key, candidate)
    for (std::size_t i = 0; i < syms_.size(); ++i) {
      const Sym& sym = syms_[i];
      const int code = static_cast<int>(i);
      if (sym.len == 1) {
        single_[sym.val & 0xFF] = code;
      } else if (sym.len == 2) {
        pair_[sym.val & 0xFFFF] = static_cast<std::int16_t>(code);
      } else {
        longer.emplace_back(static_cast<std::uint32_t>(sym.val & 0xFFFFFF),
                            Candidate{sym.val, LengthMask(sym.len), sym.len, code});
      }
    }
    std::stable_sort(longer.begin(), longer.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second.len > b.second.len;
    });
    for (const auto& [key, c] : longer) {
      Slot& slot = SlotOf(key);
      if (slot.key != key) slot = Slot{key, static_cast<std::uint16_t>(long_.size()), 0};
      ++slot.count;
      long_.push_back(c);
    }
  }
  // Longest symbol matching at p (n >= 1 bytes left, readable memory up to `end`); -1 if none.
  // The next 8 bytes are loaded once and each candidate is compared under its length mask:
  // this runs for every input byte. A word may reach past the value into readable bytes that
  // no candidate of at most n bytes looks at; only at the end of the memory are fewer copied.
  int Match(const std::uint8_t* p, std::size_t n, const std::uint8_t* end) const {
    if (n >= 2) {
      std::uint64_t word = 0;
      if (n >= 8 || end - p >= 8) {
        word = LoadLE<std::uint64_t>(p);
      } else {
        std::uint8_t buf[8] = {};
        std::memcpy(buf, p, n);
        word = LoadLE<std::uint64_t>(buf);
      }
      if (n >= 3 && !long_.empty()) {
        const Slot& slot = SlotOf(static_cast<std::uint32_t>(word & 0xFFFFFF));
        for (std::uint32_t k = slot.begin; k < std::uint32_t{slot.begin} + slot.count; ++k) {
          const Candidate& c = long_[k];
          if (c.len <= n && (word & c.mask) == c.val) return c.code;
        }
      }
      const int two = pair_[word & 0xFFFF];
      if (two >= 0) return two;
    }
    return single_[p[0]];
  }
  const std::vector<Sym>& syms() const { return syms_; }

 private:
  struct Candidate {
    std::uint64_t val;
    std::uint64_t mask;
    std::size_t len;
    int code;
  };
  struct Slot {
    std::uint32_t key = kNoKey;          // first three bytes, or kNoKey
    std::uint16_t begin = 0, count = 0;  // into long_ (at most 255 symbols)
  };
  static constexpr std::uint32_t kNoKey = 0xFFFFFFFFu;  // keys have 24 bits
  static constexpr std::size_t kSlots = 1024;           // >= 4x the 255 symbols: short probes
  static std::uint64_t LengthMask(std::size_t len) {
    return len >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * len)) - 1;
  }
  // The slot holding `key`, or the empty slot where it belongs (linear probing).
  std::size_t SlotIndex(std::uint32_t key) const {
    std::size_t h = (key * 0x9E3779B1u) >> 22;  // 10 bits
    while (slots_[h].key != kNoKey && slots_[h].key != key) h = (h + 1) % kSlots;
    return h;
  }
  const Slot& SlotOf(std::uint32_t key) const { return slots_[SlotIndex(key)]; }
  Slot& SlotOf(std::uint32_t key) { return slots_[SlotIndex(key)]; }

  std::vector<Sym> syms_;
  std::array<int, 256> single_{};
  // Tables of 128 KiB and more, built for every trained page: recycled blocks (BigVector).
  detail::BigVector<std::int16_t> pair_ = detail::BigVector<std::int16_t>(65536, -1);
  detail::BigVector<Slot> slots_ = detail::BigVector<Slot>(kSlots);
  std::vector<Candidate> long_;
};

// The symbol's bytes as a little-endian word, unused high bytes zero (what Match compares).
std::uint64_t LoadPrefix(const std::uint8_t* p, std::size_t len) {
  std::uint8_t buf[8] = {};
  std::memcpy(buf, p, std::min<std::size_t>(len, 8));
  return LoadLE<std::uint64_t>(buf);
}

// Gains of candidate symbols (1..8 bytes, packed as in Sym) in an open-addressing table: the
// trainer adds one entry per symbol use and symbol pair of its sample, every round.
class GainCounter {
 public:
  GainCounter() : entries_(1024) {}

  void Add(const std::uint8_t* p, std::size_t len, std::uint64_t weight) {
    const std::uint64_t val = LoadPrefix(p, len);
    Entry* e = Find(val, static_cast<std::uint8_t>(len));
    if (e->len == 0) {
      *e = Entry{val, 0, static_cast<std::uint8_t>(len)};
      if (++used_ * 2 > entries_.size()) {
        Grow();
        e = Find(val, static_cast<std::uint8_t>(len));
      }
    }
    e->gain += weight;
  }

  // The `n` symbols of highest gain (a longer symbol saves len - 1 bytes per use, a single
  // byte only its escape), ties broken by the symbol's bytes so the table is deterministic.
  std::vector<Sym> Best(std::size_t n) const {
    std::vector<const Entry*> ranked;
    ranked.reserve(used_);
    for (const Entry& e : entries_) {
      if (e.len != 0) ranked.push_back(&e);
    }
    const auto score = [](const Entry* e) { return e->len == 1 ? e->gain : e->gain * 2; };
    const auto better = [&](const Entry* a, const Entry* b) {
      if (score(a) != score(b)) return score(a) > score(b);
      // Byte order: the big-endian word compares the bytes, then the shorter symbol first.
      const std::uint64_t ka = __builtin_bswap64(a->val), kb = __builtin_bswap64(b->val);
      return ka != kb ? ka < kb : a->len < b->len;
    };
    const std::size_t keep = std::min(n, ranked.size());
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(keep),
                      ranked.end(), better);
    std::vector<Sym> syms;
    syms.reserve(keep);
    for (std::size_t i = 0; i < keep; ++i) syms.push_back(Sym{ranked[i]->val, ranked[i]->len});
    return syms;
  }

 private:
  struct Entry {
    std::uint64_t val = 0;
    std::uint64_t gain = 0;
    std::uint8_t len = 0;  // 0: empty
  };
  Entry* Find(std::uint64_t val, std::uint8_t len) {
    const std::size_t mask = entries_.size() - 1;
    std::size_t h = static_cast<std::size_t>(((val ^ len) * 0x9E3779B97F4A7C15ull) >> 20) & mask;
    while (entries_[h].len != 0 && (entries_[h].val != val || entries_[h].len != len)) {
      h = (h + 1) & mask;
    }
    return &entries_[h];
  }
  void Grow() {
    detail::BigVector<Entry> old(entries_.size() * 2);
    old.swap(entries_);
    for (const Entry& e : old) {
      if (e.len != 0) *Find(e.val, e.len) = e;
    }
  }

  detail::BigVector<Entry> entries_;  // a power of two, at most half used
  std::size_t used_ = 0;
};

Table Train(const std::vector<std::pair<const std::uint8_t*, std::size_t>>& sample,
            const std::uint8_t* end) {
  Table table({});
  for (int round = 0; round < 5; ++round) {
    // Count symbols (codes 0..254) and literal bytes, and adjacent pairs, while greedily
    // encoding the sample with the table of the round before.
    GainCounter gain;
    for (const auto& [p, n] : sample) {
      std::size_t i = 0;
      std::size_t prev_start = 0, prev_len = 0;
      while (i < n) {
        const int c = table.Match(p + i, n - i, end);
        const std::size_t len = c >= 0 ? table.syms()[static_cast<std::size_t>(c)].len : 1;
        gain.Add(p + i, len, len);  // gain of the symbol itself
        if (prev_len > 0 && prev_len + len <= 8) {
          gain.Add(p + prev_start, prev_len + len, prev_len + len);
        }
        prev_start = i;
        prev_len = len;
        i += len;
      }
    }
    table = Table(gain.Best(255));
  }
  return table;
}

}  // namespace

Result<FsstCompressed> FsstCompress(const DataBlock& values, bool force) {
  LND_RETURN_NOT_OK(detail::ValidateVariable(values, "fsst"));
  const std::uint8_t* data = values.data->data();
  const std::uint64_t first = detail::OffsetAt(values, 0);
  const std::uint64_t total = detail::OffsetAt(values, values.num_values) - first;
  FsstCompressed out;
  if (total < kFsstMinInput && !force) {
    // Lance's rule: small inputs keep their bytes; the table says "not compressed".
    detail::VariableBuilder raw(values.bits_per_offset);
    raw.Reserve(values.num_values, total);
    for (std::uint64_t v = 0; v < values.num_values; ++v) {
      const std::uint64_t b = detail::OffsetAt(values, v);
      raw.Append(data + b, detail::OffsetAt(values, v + 1) - b);
    }
    LND_ASSIGN_OR_RETURN(out.values, raw.Finish());
    return out;
  }
  // Sample: whole strings until ~16 KiB, spread over the input.
  std::vector<std::pair<const std::uint8_t*, std::size_t>> sample;
  const std::uint64_t stride = std::max<std::uint64_t>(1, total / (16 * 1024));
  std::uint64_t taken = 0;
  for (std::uint64_t v = 0; v < values.num_values && taken < 16 * 1024; ++v) {
    if (stride > 1 && (v % stride) != 0) continue;
    const std::uint64_t b = detail::OffsetAt(values, v);
    const std::uint64_t n = detail::OffsetAt(values, v + 1) - b;
    sample.emplace_back(data + b, static_cast<std::size_t>(n));
    taken += n;
  }
  const std::uint8_t* const end = data + values.data->size();
  Table table = Train(sample, end);
  out.table.enabled = true;
  out.table.num_symbols = static_cast<std::uint32_t>(table.syms().size());
  for (std::size_t i = 0; i < table.syms().size(); ++i) {
    out.table.symbols[i] = table.syms()[i].val;
    out.table.lengths[i] = table.syms()[i].len;
  }
  // Values are compressed independently: ranges of them on the pool's threads, each into
  // its own bytes, joined in order (the output does not depend on the split).
  struct Part {
    detail::BigVector<std::uint8_t> bytes;
    detail::BigVector<std::uint64_t> ends;  // relative to the part's bytes
  };
  constexpr std::uint64_t kValuesPerPart = 16384;
  std::vector<Part> parts((values.num_values + kValuesPerPart - 1) / kValuesPerPart);
  detail::ParallelFor(parts.size(), 1, [&](std::uint64_t k, std::uint64_t) {
    Part& part = parts[k];
    const std::uint64_t vb = k * kValuesPerPart;
    const std::uint64_t ve = std::min(values.num_values, vb + kValuesPerPart);
    const std::uint64_t in_bytes = detail::OffsetAt(values, ve) - detail::OffsetAt(values, vb);
    part.bytes.resize(2 * in_bytes);  // at most an escape byte per input byte
    part.ends.reserve(ve - vb);
    std::uint8_t* o = part.bytes.data();
    for (std::uint64_t v = vb; v < ve; ++v) {
      const std::uint64_t b = detail::OffsetAt(values, v);
      const std::size_t n = static_cast<std::size_t>(detail::OffsetAt(values, v + 1) - b);
      const std::uint8_t* p = data + b;
      std::size_t i = 0;
      while (i < n) {
        const int c = table.Match(p + i, n - i, end);
        if (c >= 0) {
          *o++ = static_cast<std::uint8_t>(c);
          i += table.syms()[static_cast<std::size_t>(c)].len;
        } else {
          *o++ = kFsstEscape;
          *o++ = p[i];
          ++i;
        }
      }
      part.ends.push_back(static_cast<std::uint64_t>(o - part.bytes.data()));
    }
    part.bytes.resize(static_cast<std::size_t>(o - part.bytes.data()));
  });
  detail::VariableBuilder enc(values.bits_per_offset);
  std::uint64_t out_bytes = 0;
  for (const Part& part : parts) out_bytes += part.bytes.size();
  enc.Reserve(values.num_values, out_bytes);
  for (const Part& part : parts) enc.AppendPacked(part.bytes.data(), part.bytes.size(), part.ends);
  LND_ASSIGN_OR_RETURN(out.values, enc.Finish());
  return out;
}

}  // namespace lance_nd::file::internal::encoding
