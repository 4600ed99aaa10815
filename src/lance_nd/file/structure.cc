#include "lance_nd/file/structure.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "encodings_v2_1.pb.h"

namespace lance_nd::file::internal {
namespace {
namespace pb = ::lance::encodings21;
using array::Buffer;

class BitWriter {
 public:
  /// Room for `capacity` bits, zeroed once: Push never reallocates.
  explicit BitWriter(std::uint64_t capacity = 0) : bytes_((capacity + 7) / 8, 0) {}
  void Push(bool v) {
    bytes_[static_cast<std::size_t>(len_ >> 3)] |=
        static_cast<std::uint8_t>(static_cast<unsigned>(v) << (len_ & 7));
    nulls_ += v ? 0 : 1;
    ++len_;
  }
  /// The low `count` bits of `bits` (1 = valid), 1 <= count <= 64, in one go.
  void PushBits(std::uint64_t bits, unsigned count) {
    nulls_ += static_cast<int64_t>(count) - std::popcount(bits);
    std::uint64_t at = static_cast<std::uint64_t>(len_);
    unsigned done = 0;
    while (done < count) {
      const unsigned shift = static_cast<unsigned>(at & 7);
      const unsigned take = std::min(8 - shift, count - done);
      const auto part = static_cast<unsigned>((bits >> done) & ((1u << take) - 1));
      bytes_[static_cast<std::size_t>(at >> 3)] |= static_cast<std::uint8_t>(part << shift);
      at += take;
      done += take;
    }
    len_ += count;
  }
  int64_t nulls() const { return nulls_; }
  int64_t length() const { return len_; }
  array::BufferPtr Finish() {
    if (nulls_ == 0) return nullptr;
    bytes_.resize(static_cast<std::size_t>((len_ + 7) / 8));
    return Buffer::FromVector(std::move(bytes_));
  }

 private:
  std::vector<std::uint8_t> bytes_;
  int64_t len_ = 0;
  int64_t nulls_ = 0;
};

}  // namespace

LevelScheme::LevelScheme(std::vector<PathLayer> path) : path_(std::move(path)) {
  null_.assign(path_.size(), 0);
  empty_.assign(path_.size(), 0);
  std::uint16_t next = 1;
  bool seen_list = false;
  for (std::size_t i = path_.size(); i-- > 0;) {
    null_[i] = next++;
    if (path_[i].is_list()) {
      empty_[i] = next++;
      ++num_lists_;
      seen_list = true;
    }
    if (!seen_list) max_visible_ = static_cast<std::uint16_t>(next - 1);
  }
  max_level_ = static_cast<std::uint16_t>(next - 1);
  if (num_lists_ == 0) max_visible_ = std::numeric_limits<std::uint16_t>::max();
}

Status LevelScheme::Normalize(DecodedPage* page, const std::string& where) const {
  const std::vector<int>& layers = page->layers;  // innermost first
  if (layers.size() != path_.size()) {
    return Status::Corrupt(where, " has ", layers.size(),
                           " rep/def layers, but the field "
                           "path has ",
                           path_.size(), " levels");
  }
  // Map page def level -> canonical level.
  std::vector<std::uint16_t> map{0};
  for (std::size_t k = 0; k < layers.size(); ++k) {
    const std::size_t j = path_.size() - 1 - k;  // path index (outermost first)
    const int l = layers[k];
    if (IsListLayer(l) != path_[j].is_list()) {
      return Status::Corrupt(where, ": rep/def layer ", k, " is ", LayerName(l),
                             ", but the schema has a ",
                             (path_[j].is_list() ? "list" : "struct/leaf"), " there");
    }
    switch (l) {
      case pb::REPDEF_NULLABLE_ITEM:
      case pb::REPDEF_NULLABLE_LIST:
        map.push_back(null_[j]);
        break;
      case pb::REPDEF_EMPTYABLE_LIST:
        map.push_back(empty_[j]);
        break;
      case pb::REPDEF_NULL_AND_EMPTY_LIST:
        map.push_back(null_[j]);
        map.push_back(empty_[j]);
        break;
      default:
        break;
    }
  }
  // A page without def levels, or whose stored levels are all 0, holds only valid values:
  // stored level 0 is canonical level 0 (map[0] == 0).
  if (!page->has_def || page->stored_def_zero) {
    page->def.clear();
    page->def_zero = true;
  } else {
    if (page->def.size() != page->num_entries) {
      return Status::Corrupt(where, ": ", page->def.size(), " def levels for ", page->num_entries,
                             " entries");
    }
    bool identity = true;
    for (std::size_t i = 0; i < map.size(); ++i) identity &= map[i] == i;
    const auto max_def = static_cast<std::uint16_t>(map.size() - 1);
    std::uint16_t* d = page->def.data();
    const std::size_t n = page->def.size();
    // Block-wise: find the largest level first (vectorisable), map only when needed.
    std::uint16_t any = 0, top = 0;
    for (std::size_t i = 0; i < n; ++i) {
      any = static_cast<std::uint16_t>(any | d[i]);
      top = std::max(top, d[i]);
    }
    if (top > max_def) {
      for (std::size_t i = 0; i < n; ++i) {
        if (d[i] > max_def) {
          return Status::Corrupt(where, ": def level ", d[i], " exceeds the page's maximum ",
                                 max_def);
        }
      }
    }
    if (any == 0) {
      LevelVector().swap(page->def);
      page->def_zero = true;
    } else {
      page->def_zero = false;
      if (!identity) {
        for (std::size_t i = 0; i < n; ++i) d[i] = map[d[i]];
      }
    }
  }
  page->has_def = true;
  if (num_lists_ > 0) {
    if (!page->has_rep) {
      page->rep.assign(page->num_entries, static_cast<std::uint16_t>(num_lists_));
      page->has_rep = true;
    }
    if (page->rep.size() != page->num_entries) {
      return Status::Corrupt(where, ": ", page->rep.size(), " rep levels for ", page->num_entries,
                             " entries");
    }
  } else if (page->has_rep) {
    return Status::Corrupt(where, " has repetition levels but the field has no list");
  }
  return Status::OK();
}

namespace {

// The row starts among entries [0, n) (rep level R), into idx->entry; with kValues, also each
// row's first value slot into idx->value, counting the visible entries (def <= maxvis) before
// it. *values ends as the number of value slots. Blocks of entries without a row start (most
// of a long list) are only counted.
template <bool kValues>
Status IndexRows(const std::uint16_t* rep, const std::uint16_t* def, std::uint64_t n,
                 std::uint16_t R, std::uint16_t maxvis, const std::string& where, RowIndex* idx,
                 std::uint64_t* values) {
  constexpr std::uint64_t kBlock = 64;
  std::uint64_t v = 0;
  auto one = [&](std::uint64_t e) -> Status {
    if (rep[e] > R) return Status::Corrupt(where, ": rep level ", rep[e], " exceeds ", R);
    if (rep[e] == R) {
      idx->entry.push_back(e);
      if constexpr (kValues) idx->value.push_back(v);
    }
    if constexpr (kValues) v += def[e] <= maxvis ? 1 : 0;
    return Status::OK();
  };
  std::uint64_t e = 0;
  for (; e + kBlock <= n; e += kBlock) {
    std::uint16_t hit = 0;
    std::uint64_t visible = 0;
    for (std::uint64_t i = 0; i < kBlock; ++i) {
      hit |= static_cast<std::uint16_t>(rep[e + i] >= R);
      if constexpr (kValues) visible += def[e + i] <= maxvis ? 1 : 0;
    }
    if (hit == 0) {
      v += visible;
      continue;
    }
    for (std::uint64_t i = e; i < e + kBlock; ++i) LND_RETURN_NOT_OK(one(i));
  }
  for (; e < n; ++e) LND_RETURN_NOT_OK(one(e));
  *values = kValues ? v : n;
  return Status::OK();
}

}  // namespace

Result<RowIndex> BuildRowIndex(const DecodedPage& page, const LevelScheme& scheme,
                               const std::string& where) {
  const std::uint64_t n = page.num_entries;
  const auto R = static_cast<std::uint16_t>(scheme.num_lists());
  const bool lists = R > 0;
  RowIndex idx;
  if (!lists) {
    if (n != page.num_rows) {
      return Status::Corrupt(where, " has ", n, " level entries for ", page.num_rows,
                             " rows (expected one per row for a field without lists)");
    }
    if (page.num_values != n) {
      return Status::Corrupt(where, " has ", page.num_values, " values for ", n,
                             " rows (expected one per row for a field without lists)");
    }
    idx.identity = true;
    return idx;
  }
  if (page.rep.size() != n || (!page.def_zero && page.def.size() != n)) {
    return Status::Corrupt(where, ": ", page.rep.size(), " rep and ", page.def.size(),
                           " def levels for ", n, " entries");
  }
  if (n > 0 && page.rep[0] != R) {
    return Status::Corrupt(where, ": the first rep level is ", page.rep[0], ", expected ", R,
                           " (the start of a row)");
  }
  // num_rows comes from the file; never reserve more than the decoded entries justify.
  idx.entry.reserve(std::min<std::uint64_t>(page.num_rows, n) + 1);
  const std::uint16_t* rep = page.rep.data();
  std::uint64_t v = 0;
  if (page.def_zero) {
    LND_RETURN_NOT_OK(IndexRows<false>(rep, nullptr, n, R, 0, where, &idx, &v));
  } else {
    idx.value.reserve(std::min<std::uint64_t>(page.num_rows, n) + 1);
    LND_RETURN_NOT_OK(
        IndexRows<true>(rep, page.def.data(), n, R, scheme.max_visible(), where, &idx, &v));
    idx.value.push_back(v);
  }
  idx.entry.push_back(n);
  if (idx.entry.size() != page.num_rows + 1) {
    return Status::Corrupt(where, " holds ", idx.entry.size() - 1,
                           " rows, but the page "
                           "metadata says ",
                           page.num_rows);
  }
  if (v != page.num_values) {
    return Status::Corrupt(where, ": levels use ", v, " value slots, the page decoded ",
                           page.num_values);
  }
  return idx;
}

void AppendRowLevels(const DecodedPage& page, const RowIndex& index, std::uint64_t row_begin,
                     std::uint64_t row_end, bool has_lists, LeafLevels* levels) {
  const std::uint64_t b = index.Entry(row_begin);
  const std::uint64_t e = index.Entry(row_end);
  if (has_lists) {
    levels->rep.insert(levels->rep.end(), page.rep.begin() + static_cast<std::ptrdiff_t>(b),
                       page.rep.begin() + static_cast<std::ptrdiff_t>(e));
  }
  if (page.def_zero) {
    levels->def.resize(levels->def.size() + (e - b), 0);
  } else {
    levels->def.insert(levels->def.end(), page.def.begin() + static_cast<std::ptrdiff_t>(b),
                       page.def.begin() + static_cast<std::ptrdiff_t>(e));
  }
  levels->num_rows += row_end - row_begin;
}

namespace {

// Offsets buffer of a list layer from 64-bit offsets (int32 for list, int64 for large list).
Result<array::BufferPtr> OffsetsBuffer(const std::vector<int64_t>& o, PathLayer::Kind kind,
                                       const std::string& where) {
  std::uint8_t* p = nullptr;
  if (kind == PathLayer::Kind::kLargeList) {
    auto b = Buffer::AllocateUninitialized(static_cast<int64_t>(o.size() * 8), &p);
    if (!o.empty()) std::memcpy(p, o.data(), o.size() * 8);
    return b;
  }
  if (!o.empty() && o.back() > std::numeric_limits<int32_t>::max()) {
    return Status::NotImplemented(where, ": list holds more than 2^31 items; read fewer rows");
  }
  auto b = Buffer::AllocateUninitialized(static_cast<int64_t>(o.size() * 4), &p);
  for (std::size_t i = 0; i < o.size(); ++i) {
    const auto v = static_cast<int32_t>(o[i]);
    std::memcpy(p + i * 4, &v, 4);
  }
  return b;
}

// The path layer owning each canonical def level (-1 for level 0, "valid").
std::vector<int> LevelOwners(const LevelScheme& scheme) {
  std::vector<int> owner(scheme.max_level() + 1u, -1);
  for (std::size_t j = 0; j < scheme.path().size(); ++j) {
    owner[scheme.null_level(j)] = static_cast<int>(j);
    if (scheme.empty_level(j) != 0) owner[scheme.empty_level(j)] = static_cast<int>(j);
  }
  return owner;
}

// [r] = path index of the list whose rep level is r (the outermost list has the highest).
std::vector<std::size_t> ListsByRepLevel(const LevelScheme& scheme) {
  const int R = scheme.num_lists();
  std::vector<std::size_t> list_at_level(static_cast<std::size_t>(R) + 2, 0);
  int lvl = R;
  for (std::size_t j = 0; j < scheme.path().size(); ++j) {
    if (scheme.path()[j].is_list()) list_at_level[static_cast<std::size_t>(lvl--)] = j;
  }
  return list_at_level;
}

// From entry `e`, the entries that continue the innermost list (rep 0) and whose def level is
// 0 or the leaf's own, at most `room` of them: their validity pushed to `leaf`. Returns the
// first entry not taken (the general loop checks and reports whatever stopped the run).
std::uint64_t ContinueInnerList(const LevelScheme& scheme, const std::vector<int>& owner,
                                const LeafLevels& levels, std::uint64_t e, std::uint64_t room,
                                BitWriter& leaf, bool blocks) {
  const std::size_t leaf_layer = scheme.path().size() - 1;
  const std::uint16_t null_level = scheme.null_level(leaf_layer);
  const std::uint16_t max_level = scheme.max_level();
  const std::uint64_t end = std::min<std::uint64_t>(levels.def.size(), e + room);
  const std::uint16_t* rep = levels.rep.data();
  const std::uint16_t* def = levels.def.data();
  // Whole blocks of 64 entries that continue the list with def levels 0 (a value) or the
  // leaf's null level (the only one a leaf item owns): their validity bits at once.
  const bool only_null_owned = null_level != 0 && null_level <= max_level &&
                               owner[null_level] == static_cast<int>(leaf_layer);
  constexpr std::uint64_t kBlock = 64;
  std::uint64_t f = e;
  while (blocks && only_null_owned && f + kBlock <= end) {
    std::uint16_t other = 0;
    for (std::uint64_t i = 0; i < kBlock; ++i) {
      const std::uint16_t d = def[f + i];
      other |= static_cast<std::uint16_t>(rep[f + i] | ((d != 0 && d != null_level) ? 1 : 0));
    }
    if (other != 0) break;
    std::uint64_t bits = 0;
    for (std::uint64_t g = 0; g < kBlock; g += 8) {
      unsigned byte = 0;
      for (unsigned j = 0; j < 8; ++j) {
        byte |= static_cast<unsigned>(def[f + g + j] != null_level) << j;
      }
      bits |= static_cast<std::uint64_t>(byte) << g;
    }
    leaf.PushBits(bits, kBlock);
    f += kBlock;
  }
  for (; f < end && rep[f] == 0; ++f) {
    const std::uint16_t d = def[f];
    if (d != 0 && (d > max_level || owner[d] != static_cast<int>(leaf_layer))) break;
    leaf.Push(d == 0 || d != null_level);
  }
  return f;
}

}  // namespace

Result<std::vector<LayerArrays>> UnravelDense(const LevelScheme& scheme,
                                              const std::vector<RepSpan>& spans,
                                              std::uint64_t num_rows, std::uint64_t num_values,
                                              const std::string& where) {
  const auto& path = scheme.path();
  const std::size_t K = path.size();
  const int R = scheme.num_lists();
  std::uint64_t n = 0;
  for (const auto& s : spans) n += s.num_entries;
  if (n != num_values) {
    return Status::Corrupt(where, ": levels use ", n, " values, but ", num_values, " were decoded");
  }
  std::vector<LayerArrays> out(K);
  if (R == 0) {
    if (n != num_rows) {
      return Status::Corrupt(where, ": ", n, " entries, ", num_values, " values, ", num_rows,
                             " rows; expected all equal");
    }
    for (auto& l : out) l.length = static_cast<int64_t>(n);
    return out;
  }
  // Every entry opens a new instance of every layer inside the list it continues: with rep r,
  // the list at level L (outermost R, innermost 1) starts a new instance when r >= L and a new
  // element when r >= L - 1.
  std::uint64_t rows = 0;
  int level = R;
  for (std::size_t j = 0; j < K; ++j) {
    if (!path[j].is_list()) {
      continue;  // lengths filled below
    }
    const auto L = static_cast<std::uint16_t>(level--);
    const auto L1 = static_cast<std::uint16_t>(L - 1);
    std::vector<int64_t> offsets;
    offsets.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(n, num_rows * 4 + 16)) + 1);
    int64_t count = 0;
    std::uint64_t starts = 0;
    constexpr std::uint64_t kBlock = 64;
    for (const auto& s : spans) {
      const std::uint16_t* rep = s.rep;
      const std::uint64_t m = s.num_entries;
      if (m > 0 && rep[0] != R) {
        return Status::Corrupt(where, ": a row does not start with rep level ",
                               static_cast<std::uint64_t>(R));
      }
      std::uint64_t e = 0;
      for (; e + kBlock <= m; e += kBlock) {
        std::uint16_t hit = 0;
        std::uint32_t elems = 0;
        for (std::uint64_t i = 0; i < kBlock; ++i) {
          hit |= static_cast<std::uint16_t>(rep[e + i] >= L);
          elems += static_cast<std::uint32_t>(rep[e + i] >= L1);
        }
        if (hit == 0) {
          count += elems;
          continue;
        }
        for (std::uint64_t i = e; i < e + kBlock; ++i) {
          if (rep[i] > R)
            return Status::Corrupt(where, ": rep level ", rep[i], " exceeds ",
                                   static_cast<std::uint64_t>(R));
          if (rep[i] >= L) {
            offsets.push_back(count);
            ++starts;
            if (rep[i] == R && L == R) ++rows;
          }
          if (rep[i] >= L1) ++count;
        }
      }
      for (; e < m; ++e) {
        if (rep[e] > R)
          return Status::Corrupt(where, ": rep level ", rep[e], " exceeds ",
                                 static_cast<std::uint64_t>(R));
        if (rep[e] >= L) {
          offsets.push_back(count);
          ++starts;
          if (rep[e] == R && L == R) ++rows;
        }
        if (rep[e] >= L1) ++count;
      }
    }
    offsets.push_back(count);
    LayerArrays& la = out[j];
    la.length = static_cast<int64_t>(starts);
    LND_ASSIGN_OR_RETURN(la.offsets, OffsetsBuffer(offsets, path[j].kind, where));
    // Item layers between the previous list (or the top) and this one have as many instances
    // as this list.
    for (std::size_t k = j; k-- > 0 && !path[k].is_list();) out[k].length = la.length;
  }
  if (rows != num_rows) {
    return Status::Corrupt(where, ": levels hold ", rows, " rows, expected ", num_rows);
  }
  // Layers inside the innermost list: one instance per entry.
  for (std::size_t k = K; k-- > 0 && !path[k].is_list();) out[k].length = static_cast<int64_t>(n);
  return out;
}

namespace {

Result<std::vector<LayerArrays>> UnravelWith(const LevelScheme& scheme, const LeafLevels& levels,
                                             std::uint64_t num_values, const std::string& where,
                                             bool blocks) {
  const auto& path = scheme.path();
  const std::size_t K = path.size();
  const int R = scheme.num_lists();
  const std::uint64_t n = levels.def.size();
  // Fast path: no lists and no nulls anywhere.
  std::vector<LayerArrays> out(K);
  if (R == 0) {
    bool any = false;
    for (std::uint16_t d : levels.def) any |= d != 0;
    if (!any) {
      if (n != num_values || n != levels.num_rows) {
        return Status::Corrupt(where, ": ", n, " entries, ", num_values, " values, ",
                               levels.num_rows, " rows; expected all equal");
      }
      for (auto& l : out) l.length = static_cast<int64_t>(n);
      return out;
    }
  }
  const std::vector<int> owner = LevelOwners(scheme);
  const std::vector<std::size_t> list_at_level = ListsByRepLevel(scheme);
  // Each entry adds at most one instance to each layer.
  std::vector<BitWriter> valid;
  valid.reserve(K);
  for (std::size_t j = 0; j < K; ++j) valid.emplace_back(n);
  std::vector<std::vector<int64_t>> offsets(K);
  for (std::size_t j = 0; j < K; ++j) {
    if (path[j].is_list()) offsets[j].push_back(0);
  }
  std::vector<char> open(K, 0);
  std::uint64_t vi = 0;
  std::uint64_t rows = 0;
  // Entries that continue the innermost list when the leaf sits right inside it (nd values):
  // taken a run at a time, one validity bit and one value each.
  const std::size_t inner = R > 0 ? list_at_level[1] : K;
  const bool leaf_in_inner = R > 0 && inner + 2 == K && !path[K - 1].is_list();
  for (std::uint64_t e = 0; e < n; ++e) {
    if (leaf_in_inner && levels.rep[e] == 0 && open[inner]) {
      const std::uint64_t f =
          ContinueInnerList(scheme, owner, levels, e, num_values - vi, valid[K - 1], blocks);
      offsets[inner].back() += static_cast<int64_t>(f - e);
      vi += f - e;
      if (f > e) {
        e = f - 1;
        continue;
      }
    }
    const std::uint16_t d = levels.def[e];
    const int r = R > 0 ? levels.rep[e] : 0;
    if (d > scheme.max_level()) {
      return Status::Corrupt(where, ": def level ", d, " at entry ", e, " exceeds ",
                             scheme.max_level());
    }
    std::size_t start = 0;
    if (R == 0 || r == R) {
      ++rows;
    } else {
      if (r > R)
        return Status::Corrupt(where, ": rep level ", static_cast<std::uint64_t>(r), " exceeds ",
                               static_cast<std::uint64_t>(R));
      const std::size_t j = list_at_level[static_cast<std::size_t>(r) + 1];
      if (!open[j]) {
        return Status::Corrupt(where, ": entry ", e, " (rep ", static_cast<std::uint64_t>(r),
                               ") continues a list that is not open");
      }
      offsets[j].back() += 1;
      start = j + 1;
    }
    const int own = d == 0 ? -1 : owner[d];
    if (d != 0 && own < static_cast<int>(start)) {
      return Status::Corrupt(where, ": entry ", e, " has def level ", d,
                             " of a layer it does not start");
    }
    bool null_mode = false;
    std::size_t k = start;
    for (; k < K; ++k) {
      const bool mine = own == static_cast<int>(k);
      const bool is_null = mine && d == scheme.null_level(k);
      const bool is_empty = mine && !is_null;
      if (path[k].is_list()) {
        if (null_mode || is_null || is_empty) {
          offsets[k].push_back(offsets[k].back());
          valid[k].Push(!(null_mode || is_null));
          open[k] = 0;
          break;
        }
        offsets[k].push_back(offsets[k].back() + 1);
        valid[k].Push(true);
        open[k] = 1;
        continue;
      }
      const bool ok = !(null_mode || is_null);
      valid[k].Push(ok);
      if (!ok) null_mode = true;
      if (k + 1 == K) {
        if (vi >= num_values) {
          return Status::Corrupt(where, ": levels need more than the ", num_values,
                                 " decoded values");
        }
        ++vi;
      }
    }
    for (std::size_t m = k + 1; m < K; ++m) open[m] = 0;
  }
  if (vi != num_values) {
    return Status::Corrupt(where, ": levels use ", vi, " values, but ", num_values,
                           " were decoded");
  }
  if (rows != levels.num_rows) {
    return Status::Corrupt(where, ": levels hold ", rows, " rows, expected ", levels.num_rows);
  }
  for (std::size_t j = 0; j < K; ++j) {
    LayerArrays& la = out[j];
    la.length = valid[j].length();
    la.null_count = valid[j].nulls();
    la.validity = valid[j].Finish();
    if (path[j].is_list()) {
      LND_ASSIGN_OR_RETURN(la.offsets, OffsetsBuffer(offsets[j], path[j].kind, where));
    }
  }
  return out;
}

}  // namespace

Result<std::vector<LayerArrays>> Unravel(const LevelScheme& scheme, const LeafLevels& levels,
                                         std::uint64_t num_values, const std::string& where) {
  return UnravelWith(scheme, levels, num_values, where, /*blocks=*/true);
}

Result<std::vector<LayerArrays>> UnravelEntryByEntryForTesting(const LevelScheme& scheme,
                                                               const LeafLevels& levels,
                                                               std::uint64_t num_values,
                                                               const std::string& where) {
  return UnravelWith(scheme, levels, num_values, where, /*blocks=*/false);
}

}  // namespace lance_nd::file::internal
