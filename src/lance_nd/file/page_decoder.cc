#include "lance_nd/file/page_decoder.h"

#include <cstring>
#include <limits>
#include <span>
#include <type_traits>

#include "lance_nd/core/checked_math.h"
#include "lance_nd/core/endian.h"
#include "lance_nd/core/huge_pages.h"
#include "lance_nd/file/encoding/chunk_table.h"

namespace lance_nd::file::internal {
namespace {

namespace pb = ::lance::encodings21;
using array::Buffer;
using array::BufferPtr;

std::string N(std::uint64_t v) { return std::to_string(v); }
std::uint64_t Pad8(std::uint64_t v) { return (v + 7) & ~std::uint64_t{7}; }

std::vector<int> Layers(const google::protobuf::RepeatedField<int>& layers) {
  return {layers.begin(), layers.end()};
}

Status CheckLayers(const std::vector<int>& layers, const std::string& where) {
  if (layers.empty()) return Status::Corrupt(where + " lists no rep/def layers");
  for (int l : layers) {
    if (l < pb::REPDEF_ALL_VALID_ITEM || l > pb::REPDEF_NULL_AND_EMPTY_LIST) {
      return Status::Corrupt(where + " has unknown rep/def layer value " + std::to_string(l));
    }
  }
  if (IsListLayer(layers[0])) {
    return Status::Corrupt(where + ": the innermost rep/def layer is a list; expected an item");
  }
  return Status::OK();
}

// Append `n` u16 levels decoded from a block to `out`.
// `what` is a string or a callable returning one (built only on error).
template <typename What>
Status AppendLevels(const DataBlock& block, std::uint64_t n, std::vector<std::uint16_t>* out,
                    const What& what_in) {
  auto what = [&]() -> std::string {
    if constexpr (std::is_invocable_v<What>) {
      return what_in();
    } else {
      return std::string(what_in);
    }
  };
  if (block.num_values != n) {
    return Status::Corrupt(what() + " decoded to " + N(block.num_values) + " levels, expected " +
                           N(n));
  }
  if (block.kind == DataBlock::Kind::kFixedWidth && block.bits_per_value == 16) {
    if (!block.data || static_cast<std::uint64_t>(block.data->size()) < n * 2) {
      return Status::Corrupt(what() + " holds fewer bytes than " + N(n) + " u16 levels");
    }
    const std::uint8_t* src = block.data->data();
    if (reinterpret_cast<std::uintptr_t>(src) % alignof(std::uint16_t) == 0) {
      // aligned (the usual case): copied once, without zero-filling the new levels first
      const auto* levels = reinterpret_cast<const std::uint16_t*>(src);
      out->insert(out->end(), levels, levels + n);
    } else {
      const std::size_t old = out->size();
      out->resize(old + n);
      if (n > 0) std::memcpy(out->data() + old, src, n * 2);
    }
    return Status::OK();
  }
  if (block.kind == DataBlock::Kind::kFixedWidth && block.bits_per_value == 0) {
    out->resize(out->size() + n, 0);
    return Status::OK();
  }
  if (block.kind == DataBlock::Kind::kConstant && block.data && block.data->size() == 2) {
    out->resize(out->size() + n, LoadLE<std::uint16_t>(block.data->data()));
    return Status::OK();
  }
  return Status::Corrupt(what() + " did not decode to 16-bit levels");
}

Status AppendRawLevels(const BufferPtr& buf, std::vector<std::uint16_t>* out,
                       const std::string& what) {
  if (buf->size() % 2 != 0) {
    return Status::Corrupt(what + " has " + N(static_cast<std::uint64_t>(buf->size())) +
                           " bytes, not a whole number of u16 levels");
  }
  const std::size_t n = static_cast<std::size_t>(buf->size()) / 2;
  const std::size_t old = out->size();
  out->resize(old + n);
  if (n > 0) std::memcpy(out->data() + old, buf->data(), n * 2);
  return Status::OK();
}

Result<BufferPtr> Sub(const BufferPtr& buf, std::uint64_t offset, std::uint64_t length,
                      const std::string& what) {
  if (offset > static_cast<std::uint64_t>(buf->size()) ||
      length > static_cast<std::uint64_t>(buf->size()) - offset) {
    return Status::Corrupt(what + " (" + N(length) + " bytes at " + N(offset) +
                           ") extends past the end of its buffer (" +
                           N(static_cast<std::uint64_t>(buf->size())) + " bytes)");
  }
  return Buffer::Slice(buf, static_cast<int64_t>(offset), static_cast<int64_t>(length));
}

}  // namespace

std::uint64_t BulkValueBits(const pb::MiniBlockLayout& l) {
  return l.has_value_compression() && !l.has_dictionary() && l.num_buffers() == 1
             ? encoding::MiniBlockIntoBits(l.value_compression())
             : 0;
}

namespace {

Result<DecodedPage> DecodeMiniBlock(const PageInput& in) {
  const pb::MiniBlockLayout& l = in.layout->mini_block_layout();
  const std::string& where = in.where;
  DecodedPage out;
  out.num_rows = in.num_rows;
  out.layers = Layers(l.layers());
  LND_RETURN_NOT_OK(CheckLayers(out.layers, where));
  out.has_rep = l.has_rep_compression();
  out.has_def = l.has_def_compression();
  if (!l.has_value_compression())
    return Status::Corrupt(where + ": mini-block page has no value compression");
  const bool large = l.has_large_chunk();
  if (large && !in.is_v2_2) {
    return Status::Corrupt(where + ": has_large_chunk is set in a 2.1 file (only 2.2 allows it)");
  }
  std::size_t needed = 2 + (l.has_dictionary() ? 1 : 0) + (l.repetition_index_depth() > 0 ? 1 : 0);
  if (in.buffers.size() < needed) {
    return Status::Corrupt(where + ": mini-block page has " + N(in.buffers.size()) +
                           " buffers, expected " + N(needed));
  }
  if (l.num_buffers() > 64) {
    return Status::Corrupt(where + ": num_buffers " + N(l.num_buffers()) + " is implausible");
  }
  const BufferPtr& meta = in.buffers[0];
  const BufferPtr& data = in.buffers[1];
  const std::uint64_t num_items = l.num_items();
  auto parsed = encoding::ParseChunkTable(
      meta->span(), large ? encoding::ChunkWordWidth::k32 : encoding::ChunkWordWidth::k16,
      num_items, static_cast<std::uint64_t>(data->size()));
  if (!parsed.ok()) return parsed.status().WithContext(where);
  const std::vector<encoding::MiniBlockChunk>& chunks = *parsed;
  const std::uint64_t num_chunks = chunks.size();

  std::optional<DataBlock> dictionary;
  if (l.has_dictionary()) {
    LND_ASSIGN_OR_RETURN(DataBlock d, encoding::DecodeBlock(l.dictionary(), in.buffers[2],
                                                            l.num_dictionary_items()));
    dictionary = std::move(d);
  }

  std::uint64_t seen = 0;
  std::vector<BufferPtr> value_bufs;
  std::vector<std::uint64_t> sizes(l.num_buffers());
  // Hints only (num_items is untrusted): bounded by what the chunk bytes could hold.
  const std::uint64_t data_size = static_cast<std::uint64_t>(data->size());
  const std::uint64_t hint = std::min<std::uint64_t>(num_items, data_size * 4 + 1024);
  if (out.has_rep) {
    out.rep.reserve(hint);
    AdviseHugePages(out.rep.data(), out.rep.capacity() * 2);
  }
  if (out.has_def) {
    out.def.reserve(hint);
    AdviseHugePages(out.def.data(), out.def.capacity() * 2);
  }
  out.values.reserve(num_chunks);
  const std::uint8_t* base = data->data();
  // Messages are built only on error.
  auto cw = [&](std::uint64_t ci) { return where + " chunk " + N(ci); };

  // Bulk path: fixed word-width values (flat / inline bitpacking, optionally under general
  // compression) are decoded straight into one buffer for the whole page: no per-chunk
  // allocation, and readers can hand the buffer out without a copy.
  const pb::CompressiveEncoding& vce = l.value_compression();
  const std::uint64_t into_bits = BulkValueBits(l);
  BufferPtr page_values;
  std::uint8_t* page_out = nullptr;
  if (into_bits > 0) {
    // Pre-pass over the chunk sizes: each chunk's value count must be plausible for its bytes,
    // so the single allocation is bounded as the per-chunk decoders bound theirs.
    const std::uint64_t vb = into_bits / 8;
    const auto top = vce.compression_case();
    bool ok = true;
    std::uint64_t total = 0;
    for (std::uint64_t ci = 0; ci < num_chunks && ok; ++ci) {
      const std::uint64_t chunk_bytes = chunks[ci].size;
      const std::uint64_t nvals = chunks[ci].num_values;
      if (top == pb::CompressiveEncoding::kFlat) {
        ok = ok && nvals <= chunk_bytes / vb;
      } else if (top == pb::CompressiveEncoding::kInlineBitpacking) {
        ok = ok && nvals <= (chunk_bytes / vb) * 1024;
      } else {
        ok = ok && nvals <= 65536;
      }
      total += nvals;
    }
    if (ok && total == num_items && num_items > 0) {
      if (in.values_into != nullptr && in.values_into_bytes == num_items * vb) {
        page_out = in.values_into;
        page_values = std::make_shared<const Buffer>(page_out, static_cast<int64_t>(num_items * vb),
                                                     in.values_into_owner);
      } else {
        page_values =
            array::Buffer::AllocateUninitialized(static_cast<int64_t>(num_items * vb), &page_out);
      }
    }
  }
  auto slice = [&](std::uint64_t at, std::uint64_t len) {
    return std::make_shared<const Buffer>(base + at, static_cast<int64_t>(len), data);
  };
  for (std::uint64_t ci = 0; ci < num_chunks; ++ci) {
    // Sizes and value counts were validated by ParseChunkTable.
    const std::uint64_t chunk_bytes = chunks[ci].size;
    const std::uint64_t nvals = chunks[ci].num_values;
    seen += nvals;
    const std::uint64_t chunk_at = chunks[ci].offset;
    const std::uint8_t* c = base + chunk_at;
    std::uint64_t p = 0;
    bool truncated = false;
    auto read_size = [&](std::uint64_t width) -> std::uint64_t {
      if (p + width > chunk_bytes) {
        truncated = true;
        return 0;
      }
      const std::uint64_t v =
          width == 2 ? LoadLE<std::uint16_t>(c + p) : LoadLE<std::uint32_t>(c + p);
      p += width;
      return v;
    };
    const std::uint64_t num_levels = read_size(2);
    const std::uint64_t rep_size = out.has_rep ? read_size(2) : 0;
    const std::uint64_t def_size = out.has_def ? read_size(2) : 0;
    for (auto& sz : sizes) sz = read_size(large ? 4 : 2);
    if (truncated) return Status::Corrupt(cw(ci) + ": chunk header is truncated");
    p = Pad8(p);
    auto part = [&](std::uint64_t len, const char* what) -> Result<BufferPtr> {
      if (p > chunk_bytes || len > chunk_bytes - p) {
        return Status::Corrupt(cw(ci) + " " + what + " (" + N(len) + " bytes at " + N(p) +
                               ") extends past the end of its buffer (" + N(chunk_bytes) +
                               " bytes)");
      }
      return slice(chunk_at + p, len);
    };
    if (out.has_rep) {
      LND_ASSIGN_OR_RETURN(BufferPtr b, part(rep_size, "rep levels"));
      LND_ASSIGN_OR_RETURN(DataBlock lv, encoding::DecodeBlock(l.rep_compression(), b, num_levels));
      LND_RETURN_NOT_OK(
          AppendLevels(lv, num_levels, &out.rep, [&] { return cw(ci) + " rep levels"; }));
      p = Pad8(p + rep_size);
    }
    if (out.has_def) {
      LND_ASSIGN_OR_RETURN(BufferPtr b, part(def_size, "def levels"));
      LND_ASSIGN_OR_RETURN(DataBlock lv, encoding::DecodeBlock(l.def_compression(), b, num_levels));
      LND_RETURN_NOT_OK(
          AppendLevels(lv, num_levels, &out.def, [&] { return cw(ci) + " def levels"; }));
      p = Pad8(p + def_size);
    }
    value_bufs.clear();
    for (std::uint64_t sz : sizes) {
      LND_ASSIGN_OR_RETURN(BufferPtr b, part(sz, "value buffer"));
      value_bufs.push_back(std::move(b));
      p = Pad8(p + sz);
    }
    if (p > chunk_bytes) return Status::Corrupt(cw(ci) + ": buffers overrun the chunk");
    if (page_out != nullptr) {
      // seen (after this chunk) <= num_items was established by the pre-pass.
      LND_RETURN_NOT_OK_CTX(
          encoding::DecodeMiniBlockInto(vce, value_bufs, nvals,
                                        page_out + (seen - nvals) * (into_bits / 8)),
          cw(ci));
      out.num_values += nvals;
      continue;
    }
    auto decoded = encoding::DecodeMiniBlock(l.value_compression(), value_bufs, nvals);
    if (!decoded.ok()) return std::move(decoded).status().WithContext(cw(ci));
    DataBlock vals = std::move(*decoded);
    if (vals.num_values != nvals) {
      return Status::Corrupt(cw(ci) + ": decoded " + N(vals.num_values) + " values, expected " +
                             N(nvals));
    }
    if (dictionary) {
      auto gathered = encoding::GatherDictionary(*dictionary, vals);
      if (!gathered.ok()) return std::move(gathered).status().WithContext(cw(ci) + " dictionary");
      vals = std::move(*gathered);
    }
    out.num_values += nvals;
    out.values.push_back(std::move(vals));
  }
  if (page_out != nullptr)
    out.values.push_back(DataBlock::Fixed(into_bits, num_items, page_values));
  if (out.has_rep && out.has_def && out.rep.size() != out.def.size()) {
    return Status::Corrupt(where + ": " + N(out.rep.size()) + " rep levels but " +
                           N(out.def.size()) + " def levels");
  }
  out.num_entries = out.has_rep ? out.rep.size() : out.has_def ? out.def.size() : num_items;
  return out;
}

Result<DecodedPage> DecodeFullZip(const PageInput& in) {
  const pb::FullZipLayout& l = in.layout->full_zip_layout();
  const std::string& where = in.where;
  DecodedPage out;
  out.num_rows = in.num_rows;
  out.layers = Layers(l.layers());
  LND_RETURN_NOT_OK(CheckLayers(out.layers, where));
  if (in.buffers.empty()) return Status::Corrupt(where + ": full-zip page has no buffers");
  if (l.bits_rep() > 16 || l.bits_def() > 16) {
    return Status::Corrupt(where + ": full-zip bits_rep " + N(l.bits_rep()) + " / bits_def " +
                           N(l.bits_def()) + " exceed 16");
  }
  const std::uint32_t total_bits = l.bits_rep() + l.bits_def();
  const std::uint64_t cw = total_bits == 0 ? 0 : total_bits <= 8 ? 1 : total_bits <= 16 ? 2 : 4;
  out.has_rep = l.bits_rep() > 0;
  out.has_def = l.bits_def() > 0;
  const bool lists = HasListLayer(out.layers);
  const std::uint32_t maxvis = MaxVisibleLevel(out.layers);
  const bool fixed = l.details_case() == pb::FullZipLayout::kBitsPerValue;
  if (!fixed && l.details_case() != pb::FullZipLayout::kBitsPerOffset) {
    return Status::Corrupt(where +
                           ": full-zip layout gives neither bits_per_value nor bits_per_offset");
  }
  std::uint64_t value_bytes = 0, len_bytes = 0;
  if (fixed) {
    if (l.bits_per_value() == 0 || l.bits_per_value() % 8 != 0) {
      return Status::NotImplemented(where + ": full-zip bits_per_value " + N(l.bits_per_value()) +
                                    " is not a whole number of bytes");
    }
    value_bytes = l.bits_per_value() / 8;
  } else {
    if (l.bits_per_offset() != 32 && l.bits_per_offset() != 64) {
      return Status::Corrupt(where + ": full-zip bits_per_offset " + N(l.bits_per_offset()) +
                             ", expected 32 or 64");
    }
    len_bytes = l.bits_per_offset() / 8;
  }
  if (!l.has_value_compression())
    return Status::Corrupt(where + ": full-zip page has no value compression");
  const BufferPtr& data = in.buffers[0];
  const std::uint8_t* d = data->data();
  const std::uint64_t size = static_cast<std::uint64_t>(data->size());
  const std::uint64_t n = in.entries_from_data ? UINT64_MAX : l.num_items();
  if (!in.entries_from_data && ((cw == 0 && n > size) || (cw > 0 && n > size / cw))) {
    return Status::Corrupt(where + ": num_items " + N(n) + " cannot fit in " + N(size) + " bytes");
  }
  std::vector<std::uint8_t> fixed_bytes;
  std::vector<std::uint64_t> offsets{0};
  std::vector<std::uint8_t> var_bytes;
  std::uint64_t p = 0;
  std::uint64_t visible = 0;
  const std::uint32_t def_mask = (1u << l.bits_def()) - 1;
  std::uint64_t entries = 0;
  for (std::uint64_t i = 0; i < n && (!in.entries_from_data || p < size); ++i, ++entries) {
    std::uint32_t def = 0;
    if (cw > 0) {
      if (p + cw > size) return Status::Corrupt(where + ": zipped data ends inside entry " + N(i));
      std::uint32_t word = cw == 1   ? d[p]
                           : cw == 2 ? LoadLE<std::uint16_t>(d + p)
                                     : LoadLE<std::uint32_t>(d + p);
      p += cw;
      if (out.has_rep) out.rep.push_back(static_cast<std::uint16_t>(word >> l.bits_def()));
      def = word & def_mask;
      if (out.has_def) out.def.push_back(static_cast<std::uint16_t>(def));
    }
    if (lists && def > maxvis) continue;
    ++visible;
    if (fixed) {
      if (value_bytes > size - p)
        return Status::Corrupt(where + ": zipped data ends inside value " + N(i));
      fixed_bytes.insert(fixed_bytes.end(), d + p, d + p + value_bytes);
      p += value_bytes;
    } else {
      if (def == 0) {
        if (len_bytes > size - p)
          return Status::Corrupt(where + ": zipped data ends inside length " + N(i));
        const std::uint64_t len =
            len_bytes == 4 ? LoadLE<std::uint32_t>(d + p) : LoadLE<std::uint64_t>(d + p);
        p += len_bytes;
        if (len > size - p) {
          return Status::Corrupt(where + ": value " + N(i) + " of " + N(len) +
                                 " bytes extends past the zipped data");
        }
        var_bytes.insert(var_bytes.end(), d + p, d + p + len);
        p += len;
      }
      offsets.push_back(var_bytes.size());
    }
  }
  if (p != size) {
    return Status::Corrupt(where + ": " + N(n) + " zipped entries cover " + N(p) + " of " +
                           N(size) + " bytes");
  }
  if (!in.entries_from_data && visible != l.num_visible_items() && l.num_visible_items() != 0) {
    return Status::Corrupt(where + ": found " + N(visible) + " visible values, layout says " +
                           N(l.num_visible_items()));
  }
  DataBlock vals;
  if (fixed) {
    auto r = encoding::DecodePerValueFixed(l.value_compression(),
                                           Buffer::FromVector(std::move(fixed_bytes)), visible,
                                           l.bits_per_value());
    if (!r.ok()) return std::move(r).status().WithContext(where);
    vals = std::move(*r);
  } else {
    BufferPtr off_buf;
    if (len_bytes == 4 && var_bytes.size() <= std::numeric_limits<std::uint32_t>::max()) {
      std::vector<std::uint8_t> ob(offsets.size() * 4);
      for (std::size_t i = 0; i < offsets.size(); ++i) {
        StoreLE<std::uint32_t>(ob.data() + i * 4, static_cast<std::uint32_t>(offsets[i]));
      }
      off_buf = Buffer::FromVector(std::move(ob));
    } else {
      std::vector<std::uint8_t> ob(offsets.size() * 8);
      std::memcpy(ob.data(), offsets.data(), ob.size());
      off_buf = Buffer::FromVector(std::move(ob));
      len_bytes = 8;
    }
    DataBlock encoded =
        DataBlock::Variable(static_cast<std::uint32_t>(len_bytes * 8), visible, std::move(off_buf),
                            Buffer::FromVector(std::move(var_bytes)));
    auto r = encoding::DecodePerValueVariable(l.value_compression(), encoded);
    if (!r.ok()) return std::move(r).status().WithContext(where);
    vals = std::move(*r);
  }
  out.num_values = visible;
  out.values.push_back(std::move(vals));
  out.num_entries = cw > 0 ? entries : visible;
  return out;
}

Result<BufferPtr> ParseConstantValueBuffer(const BufferPtr& buf, const std::string& where) {
  const std::uint8_t* p = buf->data();
  const auto size = static_cast<std::uint64_t>(buf->size());
  const std::string what = where + ": constant value buffer";
  if (size < 4) return Status::Corrupt(what + " is shorter than its header");
  const std::uint64_t n = LoadLE<std::uint32_t>(p);
  if (n == 0 || n > 2 || size < 4 + 4 * n) {
    return Status::Corrupt(what + " names " + N(n) + " buffers; expected 1 or 2");
  }
  std::uint64_t sizes[2] = {0, 0};
  std::uint64_t total = 4 + 4 * n;
  for (std::uint64_t i = 0; i < n; ++i) {
    sizes[i] = LoadLE<std::uint32_t>(p + 4 + 4 * i);
    total += sizes[i];
  }
  if (total > size) return Status::Corrupt(what + " is truncated");
  const std::uint64_t start = 4 + 4 * n;
  if (n == 1) return Sub(buf, start, sizes[0], what);
  // Variable width: two offsets (u32 or u64), then the bytes.
  std::uint64_t o0, o1;
  if (sizes[0] == 8) {
    o0 = LoadLE<std::uint32_t>(p + start);
    o1 = LoadLE<std::uint32_t>(p + start + 4);
  } else if (sizes[0] == 16) {
    o0 = LoadLE<std::uint64_t>(p + start);
    o1 = LoadLE<std::uint64_t>(p + start + 8);
  } else {
    return Status::Corrupt(what + " has a " + N(sizes[0]) +
                           "-byte offsets buffer; expected 8 or 16");
  }
  if (o0 > o1 || o1 > sizes[1]) return Status::Corrupt(what + " has offsets outside its data");
  return Sub(buf, start + sizes[0] + o0, o1 - o0, what);
}

// Levels of a constant page: block-compressed when the layout names a compression (2.2), else
// raw u16 values.
Status DecodeConstantLevels(bool compressed, const pb::CompressiveEncoding& compression,
                            std::uint64_t num_values, const BufferPtr& buf,
                            std::vector<std::uint16_t>* out, const std::string& what) {
  if (!compressed) return AppendRawLevels(buf, out, what);
  if (num_values == 0) return Status::OK();
  LND_ASSIGN_OR_RETURN(DataBlock b, encoding::DecodeBlock(compression, buf, num_values));
  return AppendLevels(b, num_values, out, what);
}

}  // namespace

Result<ConstantBuffers> ConstantBufferRoles(std::size_t num_buffers, bool is_v2_2,
                                            const std::string& where) {
  // 0: no levels, no value buffer; 1: the value; 2: rep + def levels; 3: the value, then rep and
  // def levels. A value buffer holds a constant too large to inline (2.2 only), e.g. a string.
  switch (num_buffers) {
    case 0:
      return ConstantBuffers{};
    case 2:
      return ConstantBuffers{-1, 0, 1};
    case 1:
    case 3:
      if (!is_v2_2) {
        return Status::Corrupt(where + ": constant page with " + N(num_buffers) +
                               " buffers in a 2.1 file; a value buffer exists only in 2.2, "
                               "expected 0 or 2 buffers");
      }
      return num_buffers == 1 ? ConstantBuffers{0, -1, -1} : ConstantBuffers{0, 1, 2};
    default:
      return Status::Corrupt(where + ": constant page has " + N(num_buffers) +
                             " buffers; expected 0 to 3 (value, rep levels, def levels)");
  }
}

namespace {

Result<DecodedPage> DecodeConstant(const PageInput& in) {
  const pb::ConstantLayout& l = in.layout->constant_layout();
  const std::string& where = in.where;
  DecodedPage out;
  out.num_rows = in.num_rows;
  out.layers = Layers(l.layers());
  LND_RETURN_NOT_OK(CheckLayers(out.layers, where));
  if (!in.is_v2_2 && (l.has_inline_value() || l.has_rep_compression() || l.has_def_compression())) {
    return Status::Corrupt(where + ": constant layout uses 2.2-only fields in a 2.1 file");
  }
  LND_ASSIGN_OR_RETURN(const ConstantBuffers roles,
                       ConstantBufferRoles(in.buffers.size(), in.is_v2_2, where));
  BufferPtr constant_value;
  if (l.has_inline_value()) {
    constant_value =
        Buffer::Copy(l.inline_value().data(), static_cast<int64_t>(l.inline_value().size()));
  }
  if (roles.value >= 0) {
    if (constant_value) {
      return Status::Corrupt(where +
                             ": constant page has both an inline value and a value "
                             "buffer; expected one of them");
    }
    LND_ASSIGN_OR_RETURN(constant_value,
                         ParseConstantValueBuffer(in.buffers[std::size_t(roles.value)], where));
  }
  if (roles.rep >= 0) {
    LND_RETURN_NOT_OK(DecodeConstantLevels(l.has_rep_compression(), l.rep_compression(),
                                           l.num_rep_values(), in.buffers[std::size_t(roles.rep)],
                                           &out.rep, where + " rep levels"));
    LND_RETURN_NOT_OK(DecodeConstantLevels(l.has_def_compression(), l.def_compression(),
                                           l.num_def_values(), in.buffers[std::size_t(roles.def)],
                                           &out.def, where + " def levels"));
  }
  out.has_rep = !out.rep.empty();
  out.has_def = !out.def.empty();
  if (out.has_rep && out.has_def && out.rep.size() != out.def.size()) {
    return Status::Corrupt(where + ": " + N(out.rep.size()) + " rep levels but " +
                           N(out.def.size()) + " def levels");
  }
  out.num_entries = out.has_rep ? out.rep.size() : out.has_def ? out.def.size() : in.num_rows;
  if (!out.has_def && !constant_value && out.layers[0] == pb::REPDEF_NULLABLE_ITEM) {
    // "Simple all-null": every entry is a null leaf value.
    out.def.assign(out.num_entries, 1);
    out.has_def = true;
  }
  const bool lists = HasListLayer(out.layers);
  const std::uint32_t maxvis = MaxVisibleLevel(out.layers);
  std::uint64_t visible = out.num_entries;
  if (lists && out.has_def) {
    visible = 0;
    for (std::uint16_t d : out.def) visible += d <= maxvis ? 1 : 0;
  }
  out.num_values = visible;
  if (constant_value) {
    out.values.push_back(DataBlock::Constant(visible, std::move(constant_value)));
  } else {
    out.values.push_back(DataBlock::AllNull(visible));
  }
  return out;
}

}  // namespace

bool IsListLayer(int layer) {
  return layer == pb::REPDEF_ALL_VALID_LIST || layer == pb::REPDEF_NULLABLE_LIST ||
         layer == pb::REPDEF_EMPTYABLE_LIST || layer == pb::REPDEF_NULL_AND_EMPTY_LIST;
}

bool HasListLayer(const std::vector<int>& layers) {
  for (int l : layers) {
    if (IsListLayer(l)) return true;
  }
  return false;
}

std::uint32_t MaxVisibleLevel(const std::vector<int>& layers) {
  std::uint32_t m = 0;
  for (int l : layers) {
    if (IsListLayer(l)) return m;
    if (l == pb::REPDEF_NULLABLE_ITEM) ++m;
  }
  return std::numeric_limits<std::uint16_t>::max();
}

Result<DecodedPage> DecodePage(const PageInput& in) {
  switch (in.layout->layout_case()) {
    case pb::PageLayout::kMiniBlockLayout:
      return DecodeMiniBlock(in);
    case pb::PageLayout::kFullZipLayout:
      return DecodeFullZip(in);
    case pb::PageLayout::kConstantLayout:
      return DecodeConstant(in);
    case pb::PageLayout::kBlobLayout:
      return Status::NotImplemented(in.where +
                                    " uses the blob layout, which lance-nd does not read");
    default:
      break;
  }
  return Status::Corrupt(in.where + " has no known page layout");
}

std::string LayerName(int layer) {
  switch (layer) {
    case pb::REPDEF_ALL_VALID_ITEM:
      return "ALL_VALID_ITEM";
    case pb::REPDEF_ALL_VALID_LIST:
      return "ALL_VALID_LIST";
    case pb::REPDEF_NULLABLE_ITEM:
      return "NULLABLE_ITEM";
    case pb::REPDEF_NULLABLE_LIST:
      return "NULLABLE_LIST";
    case pb::REPDEF_EMPTYABLE_LIST:
      return "EMPTYABLE_LIST";
    case pb::REPDEF_NULL_AND_EMPTY_LIST:
      return "NULL_AND_EMPTY_LIST";
    default:
      return "UNKNOWN(" + std::to_string(layer) + ")";
  }
}

std::string DescribeEncoding(const pb::CompressiveEncoding& ce) {
  using C = pb::CompressiveEncoding;
  auto scheme = [](const pb::BufferCompression& b) {
    std::string s = b.scheme() == pb::COMPRESSION_ALGORITHM_LZ4    ? "lz4"
                    : b.scheme() == pb::COMPRESSION_ALGORITHM_ZSTD ? "zstd"
                                                                   : "unspecified";
    if (b.has_level()) s += ":" + std::to_string(b.level());
    return s;
  };
  switch (ce.compression_case()) {
    case C::kFlat:
      return "flat(" + N(ce.flat().bits_per_value()) +
             (ce.flat().has_data() ? ", " + scheme(ce.flat().data()) : "") + ")";
    case C::kVariable:
      return "variable(" + DescribeEncoding(ce.variable().offsets()) + ")";
    case C::kConstant:
      return ce.constant().has_value() ? "constant(" + N(ce.constant().value().size()) + " bytes)"
                                       : "constant(null)";
    case C::kOutOfLineBitpacking:
      return "out_of_line_bitpacking(" +
             N(ce.out_of_line_bitpacking().uncompressed_bits_per_value()) + ", " +
             DescribeEncoding(ce.out_of_line_bitpacking().values()) + ")";
    case C::kInlineBitpacking:
      return "inline_bitpacking(" + N(ce.inline_bitpacking().uncompressed_bits_per_value()) + ")";
    case C::kFsst:
      return "fsst(" + DescribeEncoding(ce.fsst().values()) + ")";
    case C::kDictionary:
      return "dictionary(" + DescribeEncoding(ce.dictionary().indices()) + ", " +
             DescribeEncoding(ce.dictionary().items()) + ")";
    case C::kRle:
      return "rle(" + DescribeEncoding(ce.rle().values()) + ", " +
             DescribeEncoding(ce.rle().run_lengths()) + ")";
    case C::kByteStreamSplit:
      return "byte_stream_split(" + DescribeEncoding(ce.byte_stream_split().values()) + ")";
    case C::kGeneral:
      return "general(" + scheme(ce.general().compression()) + ", " +
             DescribeEncoding(ce.general().values()) + ")";
    case C::kFixedSizeList:
      return "fixed_size_list(" + N(ce.fixed_size_list().items_per_value()) +
             (ce.fixed_size_list().has_validity() ? ", validity" : "") + ", " +
             DescribeEncoding(ce.fixed_size_list().values()) + ")";
    case C::kPackedStruct:
      return "packed_struct(" + DescribeEncoding(ce.packed_struct().values()) + ")";
    case C::kVariablePackedStruct:
      return "variable_packed_struct(" +
             N(static_cast<std::uint64_t>(ce.variable_packed_struct().fields_size())) + " fields)";
    default:
      return "none";
  }
}

std::string DescribeLayout(const pb::PageLayout& layout, std::size_t num_buffers) {
  auto layers = [](const google::protobuf::RepeatedField<int>& ls) {
    std::string s = "[";
    for (int i = 0; i < ls.size(); ++i) s += (i ? ", " : "") + LayerName(ls[i]);
    return s + "]";
  };
  switch (layout.layout_case()) {
    case pb::PageLayout::kMiniBlockLayout: {
      const auto& l = layout.mini_block_layout();
      std::string s = "mini-block layers=" + layers(l.layers());
      if (l.has_rep_compression()) s += " rep=" + DescribeEncoding(l.rep_compression());
      if (l.has_def_compression()) s += " def=" + DescribeEncoding(l.def_compression());
      s += " values=" + DescribeEncoding(l.value_compression());
      if (l.has_dictionary())
        s += " dictionary[" + N(l.num_dictionary_items()) + "]=" + DescribeEncoding(l.dictionary());
      s += " items=" + N(l.num_items()) + " buffers/chunk=" + N(l.num_buffers());
      if (l.repetition_index_depth() > 0) s += " rep_index_depth=" + N(l.repetition_index_depth());
      if (l.has_large_chunk()) s += " large_chunks";
      return s;
    }
    case pb::PageLayout::kFullZipLayout: {
      const auto& l = layout.full_zip_layout();
      std::string s = "full-zip layers=" + layers(l.layers()) + " bits_rep=" + N(l.bits_rep()) +
                      " bits_def=" + N(l.bits_def());
      if (l.details_case() == pb::FullZipLayout::kBitsPerValue)
        s += " bits_per_value=" + N(l.bits_per_value());
      else
        s += " bits_per_offset=" + N(l.bits_per_offset());
      s += " values=" + DescribeEncoding(l.value_compression()) + " items=" + N(l.num_items()) +
           " visible=" + N(l.num_visible_items());
      return s;
    }
    case pb::PageLayout::kConstantLayout: {
      const auto& l = layout.constant_layout();
      std::string s = "constant layers=" + layers(l.layers());
      if (l.has_inline_value()) {
        s += " value=" + N(l.inline_value().size()) + " bytes";
      } else if (num_buffers == 1 || num_buffers == 3) {
        s += " value=buffer 0";
      } else {
        s += " all-null";
      }
      if (l.has_rep_compression())
        s += " rep=" + DescribeEncoding(l.rep_compression()) + "x" + N(l.num_rep_values());
      if (l.has_def_compression())
        s += " def=" + DescribeEncoding(l.def_compression()) + "x" + N(l.num_def_values());
      return s;
    }
    case pb::PageLayout::kBlobLayout:
      return "blob";
    default:
      return "unknown";
  }
}

}  // namespace lance_nd::file::internal
