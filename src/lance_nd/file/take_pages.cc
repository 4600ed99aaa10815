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

// Whole-page decoding is preferred when the parts would cover more than this share of the page
// (mini-block: of its rows; full-zip: of its bytes).
constexpr std::uint64_t kMaxShareNum = 1, kMaxShareDen = 2;

Result<BufferPtr> Read(const io::RandomAccessFile& file, std::uint64_t pos, std::uint64_t len,
                       const std::string& what) {
  if (len == 0) return Buffer::Empty();
  return ReadFileBytes(file, pos, len, what);
}

// A run of chunks [a, b] and the requested rows it holds whole.
struct Span {
  std::uint64_t a = 0, b = 0;
  Ranges rows;
};

// The chunk runs holding the rows of `ranges`: a holds the first level of row r0, b the last
// level of row r1 - 1. Rows are long in nd columns (thousands of values), so almost every chunk
// boundary lies inside a row: the partial rows at both ends of a run are dropped while
// decoding (keep_rows.h). std::nullopt when the ranges do not fit the chunks.
std::optional<std::vector<Span>> ChunkSpans(const std::vector<std::uint64_t>& first_row,
                                            const std::vector<bool>& continues,
                                            const Ranges& ranges, std::uint64_t num_rows) {
  const std::uint64_t num_chunks = continues.size();
  auto chunk_of = [&](std::uint64_t row) {
    auto it = std::upper_bound(first_row.begin(), first_row.end() - 1, row);
    return static_cast<std::uint64_t>(it - first_row.begin()) - 1;
  };
  std::vector<Span> spans;
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
    if (!spans.empty() && a <= spans.back().b + 1) {
      spans.back().b = std::max(spans.back().b, b);
    } else {
      spans.push_back(Span{a, b, {}});
    }
    spans.back().rows.emplace_back(r0, r1);
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

  // Most of the page wanted: it is decoded whole (and cached for later reads).
  std::uint64_t wanted = 0;
  for (const auto& [r0, r1] : ranges) wanted += r1 - r0;
  if (wanted * kMaxShareDen > meta.num_rows * kMaxShareNum) return Parts{};
  const auto spans = ChunkSpans(first_row, continues, ranges, meta.num_rows);
  if (!spans) return Parts{};

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
  for (const Span& span : *spans) {
    const std::uint64_t a = span.a, b = span.b;
    const std::string pw = where + " chunks " + std::to_string(a) + ".." + std::to_string(b);
    std::uint64_t items = 0;
    for (std::uint64_t c = a; c <= b; ++c) items += vals[c];
    // Chunk a may start with the tail of row first_row[a] (begun in chunk a - 1) and chunk b
    // may end with the head of row first_row[b + 1] (going on in chunk b + 1): neither is kept.
    KeepRows keep;
    keep.lead = lists && a > 0 && continues[a - 1];
    keep.trail = lists && continues[b];
    keep.first_row = first_row[a] + (keep.lead ? 1 : 0);
    keep.rows = span.rows;
    PageInput in;
    in.layout = &meta.layout;
    in.num_items = items;
    in.dictionary = decoded_dictionary;
    in.num_rows = 0;
    for (const auto& [r0, r1] : span.rows) in.num_rows += r1 - r0;
    in.is_v2_2 = is_v2_2;
    in.where = pw;
    in.keep = &keep;
    in.buffers.push_back(
        Buffer::Copy(words->data() + a * word, static_cast<int64_t>((b + 1 - a) * word)));
    LND_ASSIGN_OR_RETURN(BufferPtr data, Read(file, dr.position + off[a], off[b + 1] - off[a], pw));
    in.buffers.push_back(std::move(data));
    if (dictionary) in.buffers.push_back(dictionary);
    if (has_rep_index) in.buffers.push_back(Buffer::Empty());  // not used by the decoder
    auto page = DecodePage(in);
    if (!page.ok()) return Parts{};  // the whole page's decoding reports any corruption
    parts.push_back(PagePart{span.rows, std::move(page).value()});
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
    LND_ASSIGN_OR_RETURN(DecodedPage page, DecodePage(in));
    parts.push_back(PagePart{Ranges{ranges[i]}, std::move(page)});
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
