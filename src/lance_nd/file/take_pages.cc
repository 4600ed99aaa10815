#include "lance_nd/file/take_pages.h"

#include <algorithm>
#include <cstring>

#include "lance_nd/core/endian.h"

namespace lance_nd::file::internal {
namespace {

namespace pb = ::lance::encodings21;
using array::Buffer;
using array::BufferPtr;
using Ranges = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
using Parts = std::optional<std::vector<PagePart>>;

std::string N(std::uint64_t v) { return std::to_string(v); }

// Whole-page decoding is preferred when the parts would cover more than this share of the data.
constexpr std::uint64_t kMaxShareNum = 1, kMaxShareDen = 2;

Result<BufferPtr> Read(const io::RandomAccessFile& file, std::uint64_t pos, std::uint64_t len,
                       const std::string& what) {
  if (len == 0) return Buffer::Empty();
  if (pos > file.Size() || len > file.Size() - pos) {
    // Out of range: let ReadAt report it (checked before any allocation).
    Status st = file.ReadAt(pos, len).status();
    if (st.ok()) st = Status::IOError("read beyond the end of '" + file.path() + "'");
    return st.WithContext(what);
  }
  // Straight into an uninitialised buffer (no zero-fill, no copy).
  std::uint8_t* p = nullptr;
  BufferPtr out = Buffer::AllocateUninitialized(static_cast<int64_t>(len), &p);
  LND_RETURN_NOT_OK_CTX(file.ReadInto(pos, std::span<std::uint8_t>(p, len)), what);
  return out;
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
  const std::uint64_t word = large ? 4 : 2;
  if (mr.size == 0 || mr.size % word != 0) return Parts{};
  const std::uint64_t num_chunks = mr.size / word;
  LND_ASSIGN_OR_RETURN(BufferPtr words,
                       Read(file, mr.position, mr.size, where + " chunk metadata"));
  // Chunk byte offsets and value counts.
  std::vector<std::uint64_t> off(num_chunks + 1, 0), vals(num_chunks, 0);
  std::uint64_t seen = 0;
  for (std::uint64_t c = 0; c < num_chunks; ++c) {
    const std::uint64_t w = large ? LoadLE<std::uint32_t>(words->data() + c * 4)
                                  : LoadLE<std::uint16_t>(words->data() + c * 2);
    off[c + 1] = off[c] + ((w >> 4) + 1) * 8;
    if (c + 1 < num_chunks) {
      vals[c] = std::uint64_t{1} << (w & 0xF);
    } else {
      if (seen > l.num_items()) return Parts{};
      vals[c] = l.num_items() - seen;
    }
    seen += vals[c];
  }
  if (off[num_chunks] != dr.size) return Parts{};
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

  auto chunk_of = [&](std::uint64_t row) {
    auto it = std::upper_bound(first_row.begin(), first_row.end() - 1, row);
    return static_cast<std::uint64_t>(it - first_row.begin()) - 1;
  };
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;  // chunk intervals [a, b]
  for (const auto& [r0, r1] : ranges) {
    if (r0 >= r1 || r1 > meta.num_rows) return Parts{};
    std::uint64_t a = chunk_of(r0), b = chunk_of(r1 - 1);
    while (a > 0 && continues[a - 1]) --a;
    while (b + 1 < num_chunks && continues[b]) ++b;
    if (!spans.empty() && a <= spans.back().second + 1) {
      spans.back().second = std::max(spans.back().second, b);
    } else {
      spans.emplace_back(a, b);
    }
  }
  std::uint64_t bytes = 0;
  for (const auto& [a, b] : spans) bytes += off[b + 1] - off[a];
  if (bytes * kMaxShareDen > dr.size * kMaxShareNum) return Parts{};

  BufferPtr dictionary;
  if (l.has_dictionary()) {
    const BufferRange& br = meta.buffers[2];
    LND_ASSIGN_OR_RETURN(dictionary, Read(file, br.position, br.size, where + " dictionary"));
  }
  std::vector<PagePart> parts;
  for (const auto& [a, b] : spans) {
    const std::string pw = where + " chunks " + N(a) + ".." + N(b);
    pb::PageLayout layout = meta.layout;
    std::uint64_t items = 0;
    for (std::uint64_t c = a; c <= b; ++c) items += vals[c];
    layout.mutable_mini_block_layout()->set_num_items(items);
    PageInput in;
    in.layout = &layout;
    in.num_rows = first_row[b + 1] - first_row[a];
    in.is_v2_2 = is_v2_2;
    in.where = pw;
    in.buffers.push_back(
        Buffer::Copy(words->data() + a * word, static_cast<int64_t>((b + 1 - a) * word)));
    LND_ASSIGN_OR_RETURN(BufferPtr data, Read(file, dr.position + off[a], off[b + 1] - off[a], pw));
    in.buffers.push_back(std::move(data));
    if (dictionary) in.buffers.push_back(dictionary);
    if (has_rep_index) in.buffers.push_back(Buffer::Empty());  // not used by the decoder
    PagePart part;
    part.row_begin = first_row[a];
    part.row_end = first_row[b + 1];
    LND_ASSIGN_OR_RETURN(part.page, DecodePage(in));
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
    const std::string pw = where + " rows " + N(ranges[i].first) + ".." + N(ranges[i].second);
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
