#include "lance_nd/file/take_pages.h"

#include <algorithm>
#include <cstring>

#include "lance_nd/core/internal/endian.h"
#include "lance_nd/file/encoding/chunk_table.h"
#include "lance_nd/file/page_cache.h"

namespace lance_nd::file::internal {
namespace {

namespace pb = ::lance::encodings21;
using array::Buffer;
using array::BufferPtr;
using encoding::DataBlock;
using Ranges = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
using Parts = std::optional<std::vector<PagePart>>;

// Whole-page decoding is preferred when the parts would cover more than this share of the data.
constexpr std::uint64_t kMaxShareNum = 1, kMaxShareDen = 2;

Result<BufferPtr> Read(const io::RandomAccessFile& file, std::uint64_t pos, std::uint64_t len,
                       const std::string& what) {
  if (len == 0) return Buffer::Empty();
  return ReadFileBytes(file, pos, len, what);
}

// Keeps values [drop, drop + keep) of `block`, zero-copy; false when the block's kind cannot
// be cut on value boundaries this way (bit-packed widths).
bool SliceBlock(DataBlock* block, std::uint64_t drop, std::uint64_t keep) {
  if (drop + keep > block->num_values) return false;
  switch (block->kind) {
    case DataBlock::Kind::kConstant:
    case DataBlock::Kind::kAllNull:
      break;
    case DataBlock::Kind::kFixedWidth: {
      if (block->bits_per_value == 0) break;
      if (block->bits_per_value % 8 != 0 || !block->data) return false;
      const std::uint64_t w = block->bits_per_value / 8;
      auto sliced = Buffer::Slice(block->data, static_cast<int64_t>(drop * w),
                                  static_cast<int64_t>(keep * w));
      if (!sliced.ok()) return false;
      block->data = std::move(*sliced);
      break;
    }
    case DataBlock::Kind::kVariable: {
      if (!block->offsets || (block->bits_per_offset != 32 && block->bits_per_offset != 64))
        return false;
      const std::uint64_t w = block->bits_per_offset / 8;
      auto sliced = Buffer::Slice(block->offsets, static_cast<int64_t>(drop * w),
                                  static_cast<int64_t>((keep + 1) * w));
      if (!sliced.ok()) return false;
      block->offsets = std::move(*sliced);
      break;
    }
  }
  block->num_values = keep;
  return true;
}

// Cuts a decoded run of chunks (levels as stored: a row starts where the rep level equals the
// number of list layers) down to its whole rows: with `lead`, the entries before the first row
// start; with `trail`, the entries from the last row start on. Value slots of the cut visible
// entries are sliced off the value blocks. False when the levels do not allow it (the caller
// then decodes the whole page, which reports any corruption).
bool TrimToRows(DecodedPage* page, bool lead, bool trail) {
  if (!page->has_rep || page->rep.size() != page->num_entries) return false;
  if (page->has_def && page->def.size() != page->num_entries) return false;
  std::uint16_t lists = 0;
  for (int l : page->layers) lists = static_cast<std::uint16_t>(lists + (IsListLayer(l) ? 1 : 0));
  const std::uint32_t maxvis = MaxVisibleLevel(page->layers);
  const std::uint64_t n = page->num_entries;
  const std::uint16_t* rep = page->rep.data();
  std::uint64_t begin = 0, end = n;
  if (lead) {
    while (begin < n && rep[begin] != lists) ++begin;
  }
  if (trail) {
    while (end > begin && rep[end - 1] != lists) --end;
    if (end == begin) return false;  // the partial row must start inside this run
    --end;
  }
  auto visible = [&](std::uint64_t from, std::uint64_t to) {
    if (!page->has_def) return to - from;
    std::uint64_t v = 0;
    for (std::uint64_t i = from; i < to; ++i) v += page->def[i] <= maxvis ? 1 : 0;
    return v;
  };
  const std::uint64_t vlead = visible(0, begin);
  const std::uint64_t vkeep = visible(begin, end);
  if (vlead + vkeep > page->num_values) return false;
  // Slice the value blocks to [vlead, vlead + vkeep).
  std::vector<DataBlock> kept;
  std::uint64_t pos = 0;
  for (DataBlock& block : page->values) {
    const std::uint64_t b0 = pos, b1 = pos + block.num_values;
    pos = b1;
    const std::uint64_t lo = std::max(b0, vlead), hi = std::min(b1, vlead + vkeep);
    if (lo >= hi) continue;
    if (!SliceBlock(&block, lo - b0, hi - lo)) return false;
    kept.push_back(std::move(block));
  }
  page->values = std::move(kept);
  page->num_values = vkeep;
  page->rep.erase(page->rep.begin() + static_cast<std::ptrdiff_t>(end), page->rep.end());
  page->rep.erase(page->rep.begin(), page->rep.begin() + static_cast<std::ptrdiff_t>(begin));
  if (page->has_def) {
    page->def.erase(page->def.begin() + static_cast<std::ptrdiff_t>(end), page->def.end());
    page->def.erase(page->def.begin(), page->def.begin() + static_cast<std::ptrdiff_t>(begin));
  }
  page->num_entries = end - begin;
  return true;
}

// Chunk intervals [a, b] holding the rows of `ranges`: a holds the first level of row r0, b the
// last level of row r1 - 1. Rows are long in nd columns (thousands of values), so almost every
// chunk boundary lies inside a row: the partial rows at both ends of an interval are cut off
// after decoding (TrimToRows) instead of widening the interval to chunk boundaries that fall
// between rows. std::nullopt when the ranges do not fit the chunks.
std::optional<std::vector<std::pair<std::uint64_t, std::uint64_t>>> ChunkSpans(
    const std::vector<std::uint64_t>& first_row, const std::vector<bool>& continues,
    const Ranges& ranges, std::uint64_t num_rows) {
  const std::uint64_t num_chunks = continues.size();
  auto chunk_of = [&](std::uint64_t row) {
    auto it = std::upper_bound(first_row.begin(), first_row.end() - 1, row);
    return static_cast<std::uint64_t>(it - first_row.begin()) - 1;
  };
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
  for (const auto& [r0, r1] : ranges) {
    if (r0 >= r1 || r1 > num_rows) return std::nullopt;
    std::uint64_t a = 0;
    if (r0 > 0) {
      // Row r0 - 1 ends in chunk e; row r0 ends there too, or begins there when e goes on
      // inside a row, or else begins with chunk e + 1.
      const std::uint64_t e = chunk_of(r0 - 1);
      a = r0 < first_row[e + 1] || continues[e] ? e : e + 1;
    }
    const std::uint64_t b = chunk_of(r1 - 1);
    if (a > b || b >= num_chunks) return std::nullopt;
    if (!spans.empty() && a <= spans.back().second + 1) {
      spans.back().second = std::max(spans.back().second, b);
    } else {
      spans.emplace_back(a, b);
    }
  }
  return spans;
}

Result<Parts> MiniBlockParts(const io::RandomAccessFile& file, const PageMeta& meta, bool is_v2_2,
                             const Ranges& ranges, const std::string& where) {
  const pb::MiniBlockLayout& l = meta.layout.mini_block_layout();
  const bool large = l.has_large_chunk();
  if (large && !is_v2_2) return Parts{};
  const std::vector<int> layers(l.layers().begin(), l.layers().end());
  const bool lists = HasListLayer(layers);
  const bool has_rep_index = l.repetition_index_depth() > 0;
  if (lists != has_rep_index || (lists && l.repetition_index_depth() != 1)) return Parts{};
  const std::size_t needed = 2 + (l.has_dictionary() ? 1 : 0) + (has_rep_index ? 1 : 0);
  if (meta.buffers.size() < needed) return Parts{};
  const BufferRange& mr = meta.buffers[0];
  const BufferRange& dr = meta.buffers[1];
  const auto width = large ? encoding::ChunkWordWidth::k32 : encoding::ChunkWordWidth::k16;
  const std::uint64_t word = encoding::WordBytes(width);
  if (mr.size == 0 || mr.size % word != 0) return Parts{};
  const std::uint64_t num_chunks = mr.size / word;
  LND_ASSIGN_OR_RETURN(BufferPtr words,
                       Read(file, mr.position, mr.size, where + " chunk metadata"));
  // Chunk byte offsets and value counts.
  auto chunks = encoding::ParseChunkTable(words->span(), width, l.num_items(), dr.size);
  if (!chunks.ok()) return Parts{};
  std::vector<std::uint64_t> off(num_chunks + 1, 0), vals(num_chunks, 0);
  for (std::uint64_t c = 0; c < num_chunks; ++c) {
    off[c + 1] = (*chunks)[c].offset + (*chunks)[c].size;
    vals[c] = (*chunks)[c].num_values;
  }
  // first_row[c]: rows whose last level lies before chunk c; continues[c]: chunk c ends inside a
  // row that goes on in chunk c + 1.
  std::vector<std::uint64_t> first_row(num_chunks + 1, 0);
  std::vector<bool> continues(num_chunks, false);
  if (lists) {
    const BufferRange& rr = meta.buffers.back();
    if (rr.size != num_chunks * 16) return Parts{};
    LND_ASSIGN_OR_RETURN(BufferPtr ri,
                         Read(file, rr.position, rr.size, where + " repetition index"));
    for (std::uint64_t c = 0; c < num_chunks; ++c) {
      const std::uint64_t ends = LoadLE<std::uint64_t>(ri->data() + c * 16);
      if (ends > meta.num_rows) return Parts{};
      first_row[c + 1] = first_row[c] + ends;
      continues[c] = LoadLE<std::uint64_t>(ri->data() + c * 16 + 8) > 0;
    }
    if (continues[num_chunks - 1]) return Parts{};
  } else {
    for (std::uint64_t c = 0; c < num_chunks; ++c) first_row[c + 1] = first_row[c] + vals[c];
  }
  if (first_row[num_chunks] != meta.num_rows) return Parts{};

  const auto spans = ChunkSpans(first_row, continues, ranges, meta.num_rows);
  if (!spans) return Parts{};
  std::uint64_t bytes = 0;
  for (const auto& [a, b] : *spans) bytes += off[b + 1] - off[a];
  if (bytes * kMaxShareDen > dr.size * kMaxShareNum) return Parts{};

  // The dictionary is read and decoded once for all parts.
  BufferPtr dictionary;
  std::shared_ptr<const DataBlock> decoded_dictionary;
  if (l.has_dictionary()) {
    const BufferRange& br = meta.buffers[2];
    LND_ASSIGN_OR_RETURN(dictionary, Read(file, br.position, br.size, where + " dictionary"));
    auto d = encoding::DecodeBlock(l.dictionary(), dictionary, l.num_dictionary_items());
    if (!d.ok()) return Parts{};  // the whole page's decoding reports it
    decoded_dictionary = std::make_shared<const DataBlock>(std::move(d).value());
  }
  std::vector<PagePart> parts;
  parts.reserve(spans->size());
  for (const auto& [a, b] : *spans) {
    const std::string pw = where + " chunks " + std::to_string(a) + ".." + std::to_string(b);
    std::uint64_t items = 0;
    for (std::uint64_t c = a; c <= b; ++c) items += vals[c];
    PageInput in;
    in.layout = &meta.layout;
    in.num_items = items;
    in.dictionary = decoded_dictionary;
    in.num_rows = first_row[b + 1] - first_row[a];
    in.is_v2_2 = is_v2_2;
    in.where = pw;
    in.buffers.push_back(
        Buffer::Copy(words->data() + a * word, static_cast<int64_t>((b + 1 - a) * word)));
    LND_ASSIGN_OR_RETURN(BufferPtr data, Read(file, dr.position + off[a], off[b + 1] - off[a], pw));
    in.buffers.push_back(std::move(data));
    if (dictionary) in.buffers.push_back(dictionary);
    if (has_rep_index) in.buffers.push_back(Buffer::Empty());  // not used by the decoder
    // Chunk a may start with the tail of row first_row[a] (begun in chunk a - 1) and chunk b
    // may end with the head of row first_row[b + 1] (going on in chunk b + 1): both are cut.
    const bool lead = lists && a > 0 && continues[a - 1];
    const bool trail = lists && continues[b];
    PagePart part;
    part.row_begin = first_row[a] + (lead ? 1 : 0);
    part.row_end = first_row[b + 1];
    if (part.row_begin > part.row_end) return Parts{};
    in.num_rows = part.row_end - part.row_begin + (trail ? 1 : 0);
    LND_ASSIGN_OR_RETURN(part.page, DecodePage(in));
    if (lead || trail) {
      if (!TrimToRows(&part.page, lead, trail)) return Parts{};
      part.page.num_rows = part.row_end - part.row_begin;
    }
    parts.push_back(std::move(part));
  }
  return Parts{std::move(parts)};
}

Result<Parts> FullZipParts(const io::RandomAccessFile& file, const PageMeta& meta, bool is_v2_2,
                           const Ranges& ranges, const std::string& where) {
  const pb::FullZipLayout& l = meta.layout.full_zip_layout();
  if (meta.buffers.empty() || l.bits_rep() > 16 || l.bits_def() > 16) return Parts{};
  const std::vector<int> layers(l.layers().begin(), l.layers().end());
  const bool lists = HasListLayer(layers);
  const BufferRange& dr = meta.buffers[0];
  const std::uint64_t rows = meta.num_rows;
  // Byte offset of each requested range's first row and end.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
  if (meta.buffers.size() >= 2 && meta.buffers[1].size > 0) {
    const BufferRange& rr = meta.buffers[1];
    if (rows == UINT64_MAX || rr.size % (rows + 1) != 0) return Parts{};
    const std::uint64_t w = rr.size / (rows + 1);
    if (w != 1 && w != 2 && w != 4 && w != 8) return Parts{};
    LND_ASSIGN_OR_RETURN(BufferPtr ri,
                         Read(file, rr.position, rr.size, where + " repetition index"));
    auto at = [&](std::uint64_t r) -> std::uint64_t {
      const std::uint8_t* p = ri->data() + r * w;
      return w == 1   ? *p
             : w == 2 ? LoadLE<std::uint16_t>(p)
             : w == 4 ? LoadLE<std::uint32_t>(p)
                      : LoadLE<std::uint64_t>(p);
    };
    if (at(rows) != dr.size) return Parts{};
    for (const auto& [r0, r1] : ranges) {
      if (r0 >= r1 || r1 > rows) return Parts{};
      const std::uint64_t lo = at(r0), hi = at(r1);
      if (lo >= hi || hi > dr.size) return Parts{};
      spans.emplace_back(lo, hi);
    }
  } else {
    if (lists || l.details_case() != pb::FullZipLayout::kBitsPerValue || l.bits_per_value() == 0 ||
        l.bits_per_value() % 8 != 0) {
      return Parts{};
    }
    const std::uint32_t total_bits = l.bits_rep() + l.bits_def();
    const std::uint64_t cw = total_bits == 0 ? 0 : total_bits <= 8 ? 1 : total_bits <= 16 ? 2 : 4;
    const std::uint64_t entry = cw + l.bits_per_value() / 8;
    if (rows == 0 || dr.size / rows != entry || dr.size % rows != 0) return Parts{};
    for (const auto& [r0, r1] : ranges) {
      if (r0 >= r1 || r1 > rows) return Parts{};
      spans.emplace_back(r0 * entry, r1 * entry);
    }
  }
  std::uint64_t bytes = 0;
  for (const auto& [lo, hi] : spans) bytes += hi - lo;
  if (bytes * kMaxShareDen > dr.size * kMaxShareNum) return Parts{};
  std::vector<PagePart> parts;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const std::string pw = where + " rows " + std::to_string(ranges[i].first) + ".." +
                           std::to_string(ranges[i].second);
    PageInput in;
    in.layout = &meta.layout;
    in.num_rows = ranges[i].second - ranges[i].first;
    in.is_v2_2 = is_v2_2;
    in.where = pw;
    in.entries_from_data = true;
    LND_ASSIGN_OR_RETURN(BufferPtr data, Read(file, dr.position + spans[i].first,
                                              spans[i].second - spans[i].first, pw));
    in.buffers.push_back(std::move(data));
    PagePart part;
    part.row_begin = ranges[i].first;
    part.row_end = ranges[i].second;
    LND_ASSIGN_OR_RETURN(part.page, DecodePage(in));
    parts.push_back(std::move(part));
  }
  return Parts{std::move(parts)};
}

}  // namespace

Result<std::optional<std::vector<PagePart>>> DecodePageParts(const io::RandomAccessFile& file,
                                                             const PageMeta& meta, bool is_v2_2,
                                                             const Ranges& ranges,
                                                             const std::string& where) {
  if (ranges.empty()) return Parts{};
  switch (meta.layout.layout_case()) {
    case pb::PageLayout::kMiniBlockLayout:
      return MiniBlockParts(file, meta, is_v2_2, ranges, where);
    case pb::PageLayout::kFullZipLayout:
      return FullZipParts(file, meta, is_v2_2, ranges, where);
    default:
      return Parts{};
  }
}

}  // namespace lance_nd::file::internal
