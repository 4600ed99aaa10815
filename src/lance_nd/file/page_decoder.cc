#include "lance_nd/file/page_decoder.h"

#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <type_traits>

#include "lance_nd/core/internal/checked_math.h"
#include "lance_nd/core/internal/endian.h"
#include "lance_nd/core/internal/huge_pages.h"
#include "lance_nd/file/encoding/chunk_table.h"

namespace lance_nd::file::internal {
namespace {

namespace pb = ::lance::encodings21;
using array::Buffer;
using array::BufferPtr;

std::uint64_t Pad8(std::uint64_t v) { return (v + 7) & ~std::uint64_t{7}; }

std::vector<int> Layers(const google::protobuf::RepeatedField<int>& layers) {
  return {layers.begin(), layers.end()};
}

Status CheckLayers(const std::vector<int>& layers, const std::string& where) {
  if (layers.empty()) return Status::Corrupt(where, " lists no rep/def layers");
  for (int l : layers) {
    if (l < pb::REPDEF_ALL_VALID_ITEM || l > pb::REPDEF_NULL_AND_EMPTY_LIST) {
      return Status::Corrupt(where, " has unknown rep/def layer value ", l);
    }
  }
  if (IsListLayer(layers[0])) {
    return Status::Corrupt(where, ": the innermost rep/def layer is a list; expected an item");
  }
  return Status::OK();
}

// Append `n` u16 levels decoded from a block to `out`.
// `what` is a string or a callable returning one (built only on error).
template <typename What>
Status AppendLevels(const DataBlock& block, std::uint64_t n, LevelVector* out,
                    const What& what_in) {
  auto what = [&]() -> std::string {
    if constexpr (std::is_invocable_v<What>) {
      return what_in();
    } else {
      return std::string(what_in);
    }
  };
  if (block.num_values != n) {
    return Status::Corrupt(what(), " decoded to ", block.num_values, " levels, expected ", n);
  }
  if (block.kind == DataBlock::Kind::kFixedWidth && block.bits_per_value == 16) {
    if (!block.data || static_cast<std::uint64_t>(block.data->size()) < n * 2) {
      return Status::Corrupt(what(), " holds fewer bytes than ", n, " u16 levels");
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
  return Status::Corrupt(what(), " did not decode to 16-bit levels");
}

// Whether a decoded level block holds `n` levels that are all 0. False for anything AppendLevels
// would refuse, so that it reports the problem.
bool AllZeroLevels(const DataBlock& block, std::uint64_t n) {
  if (block.num_values != n) return false;
  if (block.kind == DataBlock::Kind::kFixedWidth && block.bits_per_value == 0) return true;
  if (block.kind == DataBlock::Kind::kConstant) {
    return block.data && block.data->size() == 2 && LoadLE<std::uint16_t>(block.data->data()) == 0;
  }
  if (block.kind != DataBlock::Kind::kFixedWidth || block.bits_per_value != 16 || !block.data ||
      static_cast<std::uint64_t>(block.data->size()) < n * 2) {
    return false;
  }
  const std::uint8_t* bytes = block.data->data();
  std::uint8_t any = 0;  // byte-wise, so alignment does not matter; vectorises
  for (std::uint64_t i = 0; i < n * 2; ++i) any = static_cast<std::uint8_t>(any | bytes[i]);
  return any == 0;
}

Status AppendRawLevels(const BufferPtr& buf, LevelVector* out, const std::string& what) {
  if (buf->size() % 2 != 0) {
    return Status::Corrupt(what, " has ", static_cast<std::uint64_t>(buf->size()),
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
    return Status::Corrupt(what, " (", length, " bytes at ", offset,
                           ") extends past the end of its buffer (",
                           static_cast<std::uint64_t>(buf->size()), " bytes)");
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

// The page's dictionary: the one the caller decoded already, else decoded from buffers[2].
Result<std::shared_ptr<const DataBlock>> DecodeDictionary(const pb::MiniBlockLayout& l,
                                                          const PageInput& in) {
  if (in.dictionary) return in.dictionary;
  LND_ASSIGN_OR_RETURN(
      DataBlock d, encoding::DecodeBlock(l.dictionary(), in.buffers[2], l.num_dictionary_items()));
  return std::make_shared<const DataBlock>(std::move(d));
}

// A mini-block page decoded chunk by chunk: Start checks the layout and buffers, then each
// chunk appends its levels and values to the page, and Finish checks the totals.
class MiniBlockDecoder {
 public:
  explicit MiniBlockDecoder(const PageInput& in)
      : in_(in), l_(in.layout->mini_block_layout()), where_(in.where) {}

  Result<DecodedPage> Decode() {
    LND_RETURN_NOT_OK(Start());
    PlanPageValues();
    for (std::uint64_t ci = 0; ci < chunks_.size(); ++ci) LND_RETURN_NOT_OK(DecodeChunk(ci));
    return Finish();
  }

 private:
  Status Start();
  void PlanPageValues();
  Status DecodeChunk(std::uint64_t ci);
  Status AppendDefLevels(std::uint64_t ci, const DataBlock& levels, std::uint64_t n);
  Status DecodeChunkValues(std::uint64_t ci, std::uint64_t nvals);
  Status KeepChunk(std::uint64_t ci, std::uint64_t nvals, std::uint64_t num_levels,
                   std::size_t level_start);
  Result<DecodedPage> Finish();
  // Messages are built only on error.
  std::string ChunkWhere(std::uint64_t ci) const { return where_ + " chunk " + std::to_string(ci); }

  const PageInput& in_;
  const pb::MiniBlockLayout& l_;
  const std::string& where_;
  DecodedPage out_;
  bool large_ = false;
  BufferPtr meta_, data_;
  std::uint64_t num_items_ = 0;
  std::vector<encoding::MiniBlockChunk> chunks_;  // validated by ParseChunkTable
  std::shared_ptr<const DataBlock> dictionary_;
  std::uint64_t seen_ = 0;  // values in the chunks so far
  std::vector<std::uint64_t> sizes_;
  // Def levels of the leading chunks that were all 0 and are not stored (see AppendDefLevels).
  std::uint64_t zero_defs_ = 0;
  std::uint64_t def_hint_ = 0;
  std::vector<BufferPtr> value_bufs_;
  // Bulk path: fixed word-width values decoded straight into one buffer for the whole page.
  std::uint64_t into_bits_ = 0;
  BufferPtr page_values_;
  std::uint8_t* page_out_ = nullptr;
  // Sparse decoding (in_.keep): the rows kept of each chunk.
  std::optional<RowKeeper> keeper_;
};

Status MiniBlockDecoder::Start() {
  out_.num_rows = in_.num_rows;
  out_.layers = Layers(l_.layers());
  LND_RETURN_NOT_OK(CheckLayers(out_.layers, where_));
  out_.has_rep = l_.has_rep_compression();
  out_.has_def = l_.has_def_compression();
  if (!l_.has_value_compression()) {
    return Status::Corrupt(where_, ": mini-block page has no value compression");
  }
  large_ = l_.has_large_chunk();
  if (large_ && !in_.is_v2_2) {
    return Status::Corrupt(where_, ": has_large_chunk is set in a 2.1 file (only 2.2 allows it)");
  }
  std::size_t needed =
      2 + (l_.has_dictionary() ? 1 : 0) + (l_.repetition_index_depth() > 0 ? 1 : 0);
  if (in_.buffers.size() < needed) {
    return Status::Corrupt(where_, ": mini-block page has ", in_.buffers.size(),
                           " buffers, expected ", needed);
  }
  if (l_.num_buffers() > 64) {
    return Status::Corrupt(where_, ": num_buffers ", l_.num_buffers(), " is implausible");
  }
  meta_ = in_.buffers[0];
  data_ = in_.buffers[1];
  num_items_ = in_.num_items.value_or(l_.num_items());
  LND_ASSIGN_OR_RETURN_CTX(
      chunks_,
      encoding::ParseChunkTable(
          meta_->span(), large_ ? encoding::ChunkWordWidth::k32 : encoding::ChunkWordWidth::k16,
          num_items_, static_cast<std::uint64_t>(data_->size())),
      where_);
  if (l_.has_dictionary()) {
    LND_ASSIGN_OR_RETURN(dictionary_, DecodeDictionary(l_, in_));
  }
  sizes_.resize(l_.num_buffers());
  if (in_.keep != nullptr) {
    const bool lists = HasListLayer(out_.layers);
    if (lists != out_.has_rep) {
      return Status::Corrupt(where_, ": the page has ", lists ? "" : "no ", "list layers but ",
                             out_.has_rep ? "" : "no ", "rep levels");
    }
    std::uint16_t list_layers = 0;
    for (int l : out_.layers) {
      list_layers = static_cast<std::uint16_t>(list_layers + IsListLayer(l));
    }
    keeper_.emplace(*in_.keep, lists, list_layers, MaxVisibleLevel(out_.layers));
    return Status::OK();  // no reservations: only the kept rows stay
  }
  // Hints only (num_items is untrusted): bounded by what the chunk bytes could hold.
  const std::uint64_t hint =
      std::min<std::uint64_t>(num_items_, static_cast<std::uint64_t>(data_->size()) * 4 + 1024);
  if (out_.has_rep) {
    out_.rep.reserve(hint);
    AdviseHugePages(out_.rep.data(), out_.rep.capacity() * 2);
  }
  def_hint_ = hint;  // def levels are reserved when a chunk holds one that is not 0
  out_.values.reserve(chunks_.size());
  return Status::OK();
}

// Bulk path: fixed word-width values (flat / inline bitpacking, optionally under general
// compression) are decoded straight into one buffer for the whole page: no per-chunk
// allocation, and readers can hand the buffer out without a copy.
void MiniBlockDecoder::PlanPageValues() {
  into_bits_ = keeper_ ? 0 : BulkValueBits(l_);
  if (into_bits_ == 0) return;
  // Pre-pass over the chunk sizes: each chunk's value count must be plausible for its bytes,
  // so the single allocation is bounded as the per-chunk decoders bound theirs.
  const std::uint64_t vb = into_bits_ / 8;
  const auto top = l_.value_compression().compression_case();
  bool ok = true;
  std::uint64_t total = 0;
  for (std::uint64_t ci = 0; ci < chunks_.size() && ok; ++ci) {
    const std::uint64_t chunk_bytes = chunks_[ci].size;
    const std::uint64_t nvals = chunks_[ci].num_values;
    if (top == pb::CompressiveEncoding::kFlat) {
      ok = ok && nvals <= chunk_bytes / vb;
    } else if (top == pb::CompressiveEncoding::kInlineBitpacking) {
      ok = ok && nvals <= (chunk_bytes / vb) * 1024;
    } else {
      ok = ok && nvals <= 65536;
    }
    total += nvals;
  }
  if (!ok || total != num_items_ || num_items_ == 0) return;
  if (in_.values_into != nullptr && in_.values_into_bytes == num_items_ * vb) {
    page_out_ = in_.values_into;
    page_values_ = std::make_shared<const Buffer>(page_out_, static_cast<int64_t>(num_items_ * vb),
                                                  in_.values_into_owner);
  } else {
    page_values_ =
        array::Buffer::AllocateUninitialized(static_cast<int64_t>(num_items_ * vb), &page_out_);
  }
}

// One chunk: a header of sizes (levels, rep bytes, def bytes, each value buffer), then the rep
// levels, def levels and value buffers, each padded to 8 bytes.
Status MiniBlockDecoder::DecodeChunk(std::uint64_t ci) {
  // Sizes, offsets and value counts were validated by ParseChunkTable.
  const std::uint64_t chunk_bytes = chunks_[ci].size;
  const std::uint64_t nvals = chunks_[ci].num_values;
  seen_ += nvals;
  const std::uint64_t chunk_at = chunks_[ci].offset;
  const std::uint8_t* c = data_->data() + chunk_at;
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
  const std::size_t level_start = out_.has_rep ? out_.rep.size() : out_.def.size();
  const std::uint64_t rep_size = out_.has_rep ? read_size(2) : 0;
  const std::uint64_t def_size = out_.has_def ? read_size(2) : 0;
  for (auto& sz : sizes_) sz = read_size(large_ ? 4 : 2);
  if (truncated) return Status::Corrupt(ChunkWhere(ci), ": chunk header is truncated");
  p = Pad8(p);
  auto part = [&](std::uint64_t len, const char* what) -> Result<BufferPtr> {
    if (p > chunk_bytes || len > chunk_bytes - p) {
      return Status::Corrupt(ChunkWhere(ci), " ", what, " (", len, " bytes at ", p,
                             ") extends past the end of its buffer (", chunk_bytes, " bytes)");
    }
    return std::make_shared<const Buffer>(data_->data() + chunk_at + p, static_cast<int64_t>(len),
                                          data_);
  };
  if (out_.has_rep) {
    LND_ASSIGN_OR_RETURN(BufferPtr b, part(rep_size, "rep levels"));
    LND_ASSIGN_OR_RETURN(DataBlock lv, encoding::DecodeBlock(l_.rep_compression(), b, num_levels));
    LND_RETURN_NOT_OK(
        AppendLevels(lv, num_levels, &out_.rep, [&] { return ChunkWhere(ci) + " rep levels"; }));
    p = Pad8(p + rep_size);
  }
  if (out_.has_def) {
    LND_ASSIGN_OR_RETURN(BufferPtr b, part(def_size, "def levels"));
    LND_ASSIGN_OR_RETURN(DataBlock lv, encoding::DecodeBlock(l_.def_compression(), b, num_levels));
    LND_RETURN_NOT_OK(AppendDefLevels(ci, lv, num_levels));
    p = Pad8(p + def_size);
  }
  value_bufs_.clear();
  for (std::uint64_t sz : sizes_) {
    LND_ASSIGN_OR_RETURN(BufferPtr b, part(sz, "value buffer"));
    value_bufs_.push_back(std::move(b));
    p = Pad8(p + sz);
  }
  if (p > chunk_bytes) return Status::Corrupt(ChunkWhere(ci), ": buffers overrun the chunk");
  if (keeper_) return KeepChunk(ci, nvals, num_levels, level_start);
  return DecodeChunkValues(ci, nvals);
}

// Pages without nulls (the common case) store def levels that are all 0. Such chunks are only
// counted while every chunk so far was like them, so those pages hold no def vector at all; the
// first chunk with another level writes the zeros counted before it.
Status MiniBlockDecoder::AppendDefLevels(std::uint64_t ci, const DataBlock& levels,
                                         std::uint64_t n) {
  if (!keeper_ && out_.def.empty() && AllZeroLevels(levels, n)) {
    zero_defs_ += n;
    return Status::OK();
  }
  if (out_.def.empty()) {
    out_.def.reserve(def_hint_);
    AdviseHugePages(out_.def.data(), out_.def.capacity() * 2);
    out_.def.resize(zero_defs_, 0);
    zero_defs_ = 0;
  }
  return AppendLevels(levels, n, &out_.def, [&] { return ChunkWhere(ci) + " def levels"; });
}

// Sparse decoding: the chunk's levels (appended from `level_start`) cut down to the kept rows,
// and only their values decoded (dictionary items gathered, FSST strings expanded).
Status MiniBlockDecoder::KeepChunk(std::uint64_t ci, std::uint64_t nvals, std::uint64_t num_levels,
                                   std::size_t level_start) {
  const bool levels = out_.has_rep || out_.has_def;
  const std::uint16_t* rep = out_.has_rep ? out_.rep.data() + level_start : nullptr;
  const std::uint16_t* def = out_.has_def ? out_.def.data() + level_start : nullptr;
  LND_RETURN_NOT_OK_CTX(keeper_->Chunk(rep, def, levels ? num_levels : nvals, nvals),
                        ChunkWhere(ci));
  auto cut = [&](LevelVector* v) {
    std::size_t at = level_start;
    for (const auto& [b, e] : keeper_->entries()) {
      std::memmove(v->data() + at, v->data() + level_start + b, (e - b) * 2);
      at += e - b;
    }
    v->resize(at);
  };
  if (out_.has_rep) cut(&out_.rep);
  if (out_.has_def) cut(&out_.def);
  const RowRanges& keep = keeper_->values();
  if (keep.empty()) return Status::OK();
  std::uint64_t total = 0;
  for (const auto& [b, e] : keep) total += e - b;
  auto decoded = encoding::DecodeMiniBlockRanges(l_.value_compression(), value_bufs_, nvals, keep);
  if (!decoded.ok()) return std::move(decoded).status().WithContext(ChunkWhere(ci));
  DataBlock vals = std::move(*decoded);
  if (vals.num_values != total) {
    return Status::Corrupt(ChunkWhere(ci), ": decoded ", vals.num_values, " values, expected ",
                           total);
  }
  if (dictionary_) {
    auto gathered = encoding::GatherDictionary(*dictionary_, vals);
    if (!gathered.ok()) {
      return std::move(gathered).status().WithContext(ChunkWhere(ci), " dictionary");
    }
    vals = std::move(*gathered);
  }
  out_.num_values += total;
  out_.values.push_back(std::move(vals));
  return Status::OK();
}

// The chunk's `nvals` values from value_bufs_: into the page buffer on the bulk path, else as
// their own block (dictionary indices gathered into values).
Status MiniBlockDecoder::DecodeChunkValues(std::uint64_t ci, std::uint64_t nvals) {
  if (page_out_ != nullptr) {
    // seen (after this chunk) <= num_items was established by the pre-pass.
    LND_RETURN_NOT_OK_CTX(
        encoding::DecodeMiniBlockInto(l_.value_compression(), value_bufs_, nvals,
                                      page_out_ + (seen_ - nvals) * (into_bits_ / 8)),
        ChunkWhere(ci));
    out_.num_values += nvals;
    return Status::OK();
  }
  auto decoded = encoding::DecodeMiniBlock(l_.value_compression(), value_bufs_, nvals);
  if (!decoded.ok()) return std::move(decoded).status().WithContext(ChunkWhere(ci));
  DataBlock vals = std::move(*decoded);
  if (vals.num_values != nvals) {
    return Status::Corrupt(ChunkWhere(ci), ": decoded ", vals.num_values, " values, expected ",
                           nvals);
  }
  if (dictionary_) {
    auto gathered = encoding::GatherDictionary(*dictionary_, vals);
    if (!gathered.ok()) {
      return std::move(gathered).status().WithContext(ChunkWhere(ci), " dictionary");
    }
    vals = std::move(*gathered);
  }
  out_.num_values += nvals;
  out_.values.push_back(std::move(vals));
  return Status::OK();
}

Result<DecodedPage> MiniBlockDecoder::Finish() {
  if (page_out_ != nullptr) {
    out_.values.push_back(DataBlock::Fixed(into_bits_, num_items_, page_values_));
  }
  if (seen_ != num_items_) {
    return Status::Corrupt(where_, ": chunks hold ", seen_, " values, but num_items is ",
                           num_items_);
  }
  out_.stored_def_zero = out_.has_def && !keeper_ && out_.def.empty();
  const std::uint64_t num_defs = out_.stored_def_zero ? zero_defs_ : out_.def.size();
  if (out_.has_rep && out_.has_def && out_.rep.size() != num_defs) {
    return Status::Corrupt(where_, ": ", out_.rep.size(), " rep levels but ", num_defs,
                           " def levels");
  }
  if (keeper_) {
    LND_RETURN_NOT_OK_CTX(keeper_->Finish(), where_);
    out_.num_entries = out_.has_rep   ? out_.rep.size()
                       : out_.has_def ? out_.def.size()
                                      : out_.num_values;
    return std::move(out_);
  }
  out_.num_entries = out_.has_rep ? out_.rep.size() : out_.has_def ? num_defs : num_items_;
  return std::move(out_);
}

Result<DecodedPage> DecodeMiniBlock(const PageInput& in) { return MiniBlockDecoder(in).Decode(); }

// The widths a full-zip page's entries are made of.
struct ZipShape {
  std::uint64_t control_bytes = 0;  // the rep/def word before each entry: 0, 1, 2 or 4
  bool fixed = false;               // fixed-width values, else length-prefixed
  std::uint64_t value_bytes = 0;    // fixed: bytes per value
  std::uint64_t len_bytes = 0;      // variable: bytes of the length prefix
};

Result<ZipShape> CheckFullZip(const pb::FullZipLayout& l, const std::string& where) {
  if (l.bits_rep() > 16 || l.bits_def() > 16) {
    return Status::Corrupt(where, ": full-zip bits_rep ", l.bits_rep(), " / bits_def ",
                           l.bits_def(), " exceed 16");
  }
  ZipShape shape;
  const std::uint32_t total_bits = l.bits_rep() + l.bits_def();
  shape.control_bytes = total_bits == 0 ? 0 : total_bits <= 8 ? 1 : total_bits <= 16 ? 2 : 4;
  shape.fixed = l.details_case() == pb::FullZipLayout::kBitsPerValue;
  if (!shape.fixed && l.details_case() != pb::FullZipLayout::kBitsPerOffset) {
    return Status::Corrupt(where,
                           ": full-zip layout gives neither bits_per_value nor bits_per_offset");
  }
  if (shape.fixed) {
    if (l.bits_per_value() == 0 || l.bits_per_value() % 8 != 0) {
      return Status::NotImplemented(where, ": full-zip bits_per_value ", l.bits_per_value(),
                                    " is not a whole number of bytes");
    }
    shape.value_bytes = l.bits_per_value() / 8;
  } else {
    if (l.bits_per_offset() != 32 && l.bits_per_offset() != 64) {
      return Status::Corrupt(where, ": full-zip bits_per_offset ", l.bits_per_offset(),
                             ", expected 32 or 64");
    }
    shape.len_bytes = l.bits_per_offset() / 8;
  }
  if (!l.has_value_compression()) {
    return Status::Corrupt(where, ": full-zip page has no value compression");
  }
  return shape;
}

// The visible values of a full-zip page, unzipped from their levels (still compressed per
// value).
struct Unzipped {
  std::vector<std::uint8_t> fixed_bytes;
  std::vector<std::uint64_t> offsets{0};
  std::vector<std::uint8_t> var_bytes;
  std::uint64_t visible = 0;
};

Result<DataBlock> DecodeUnzipped(const pb::FullZipLayout& l, ZipShape shape, Unzipped u,
                                 const std::string& where) {
  if (shape.fixed) {
    auto r = encoding::DecodePerValueFixed(l.value_compression(),
                                           Buffer::FromVector(std::move(u.fixed_bytes)), u.visible,
                                           l.bits_per_value());
    if (!r.ok()) return std::move(r).status().WithContext(where);
    return std::move(*r);
  }
  BufferPtr off_buf;
  if (shape.len_bytes == 4 && u.var_bytes.size() <= std::numeric_limits<std::uint32_t>::max()) {
    std::vector<std::uint8_t> ob(u.offsets.size() * 4);
    for (std::size_t i = 0; i < u.offsets.size(); ++i) {
      StoreLE<std::uint32_t>(ob.data() + i * 4, static_cast<std::uint32_t>(u.offsets[i]));
    }
    off_buf = Buffer::FromVector(std::move(ob));
  } else {
    std::vector<std::uint8_t> ob(u.offsets.size() * 8);
    std::memcpy(ob.data(), u.offsets.data(), ob.size());
    off_buf = Buffer::FromVector(std::move(ob));
    shape.len_bytes = 8;
  }
  DataBlock encoded =
      DataBlock::Variable(static_cast<std::uint32_t>(shape.len_bytes * 8), u.visible,
                          std::move(off_buf), Buffer::FromVector(std::move(u.var_bytes)));
  auto r = encoding::DecodePerValueVariable(l.value_compression(), encoded);
  if (!r.ok()) return std::move(r).status().WithContext(where);
  return std::move(*r);
}

Result<DecodedPage> DecodeFullZip(const PageInput& in) {
  const pb::FullZipLayout& l = in.layout->full_zip_layout();
  const std::string& where = in.where;
  DecodedPage out;
  out.num_rows = in.num_rows;
  out.layers = Layers(l.layers());
  LND_RETURN_NOT_OK(CheckLayers(out.layers, where));
  if (in.buffers.empty()) return Status::Corrupt(where, ": full-zip page has no buffers");
  LND_ASSIGN_OR_RETURN(const ZipShape shape, CheckFullZip(l, where));
  const std::uint64_t cw = shape.control_bytes;
  out.has_rep = l.bits_rep() > 0;
  out.has_def = l.bits_def() > 0;
  const bool lists = HasListLayer(out.layers);
  const std::uint32_t maxvis = MaxVisibleLevel(out.layers);
  const BufferPtr& data = in.buffers[0];
  const std::uint8_t* d = data->data();
  const std::uint64_t size = static_cast<std::uint64_t>(data->size());
  const std::uint64_t n = in.entries_from_data ? UINT64_MAX : l.num_items();
  if (!in.entries_from_data && ((cw == 0 && n > size) || (cw > 0 && n > size / cw))) {
    return Status::Corrupt(where, ": num_items ", n, " cannot fit in ", size, " bytes");
  }
  Unzipped u;
  std::uint64_t p = 0;
  const std::uint32_t def_mask = (1u << l.bits_def()) - 1;
  std::uint64_t entries = 0;
  for (std::uint64_t i = 0; i < n && (!in.entries_from_data || p < size); ++i, ++entries) {
    std::uint32_t def = 0;
    if (cw > 0) {
      if (p + cw > size) return Status::Corrupt(where, ": zipped data ends inside entry ", i);
      std::uint32_t word = cw == 1   ? d[p]
                           : cw == 2 ? LoadLE<std::uint16_t>(d + p)
                                     : LoadLE<std::uint32_t>(d + p);
      p += cw;
      if (out.has_rep) out.rep.push_back(static_cast<std::uint16_t>(word >> l.bits_def()));
      def = word & def_mask;
      if (out.has_def) out.def.push_back(static_cast<std::uint16_t>(def));
    }
    if (lists && def > maxvis) continue;
    ++u.visible;
    if (shape.fixed) {
      if (shape.value_bytes > size - p) {
        return Status::Corrupt(where, ": zipped data ends inside value ", i);
      }
      u.fixed_bytes.insert(u.fixed_bytes.end(), d + p, d + p + shape.value_bytes);
      p += shape.value_bytes;
      continue;
    }
    if (def == 0) {
      if (shape.len_bytes > size - p) {
        return Status::Corrupt(where, ": zipped data ends inside length ", i);
      }
      const std::uint64_t len =
          shape.len_bytes == 4 ? LoadLE<std::uint32_t>(d + p) : LoadLE<std::uint64_t>(d + p);
      p += shape.len_bytes;
      if (len > size - p) {
        return Status::Corrupt(where, ": value ", i, " of ", len,
                               " bytes extends past the zipped data");
      }
      u.var_bytes.insert(u.var_bytes.end(), d + p, d + p + len);
      p += len;
    }
    u.offsets.push_back(u.var_bytes.size());
  }
  if (p != size) {
    return Status::Corrupt(where, ": ", n, " zipped entries cover ", p, " of ", size, " bytes");
  }
  if (!in.entries_from_data && u.visible != l.num_visible_items() && l.num_visible_items() != 0) {
    return Status::Corrupt(where, ": found ", u.visible, " visible values, layout says ",
                           l.num_visible_items());
  }
  const std::uint64_t visible = u.visible;
  LND_ASSIGN_OR_RETURN(DataBlock vals, DecodeUnzipped(l, shape, std::move(u), where));
  out.num_values = visible;
  out.values.push_back(std::move(vals));
  out.num_entries = cw > 0 ? entries : visible;
  return out;
}

Result<BufferPtr> ParseConstantValueBuffer(const BufferPtr& buf, const std::string& where) {
  const std::uint8_t* p = buf->data();
  const auto size = static_cast<std::uint64_t>(buf->size());
  const std::string what = where + ": constant value buffer";
  if (size < 4) return Status::Corrupt(what, " is shorter than its header");
  const std::uint64_t n = LoadLE<std::uint32_t>(p);
  if (n == 0 || n > 2 || size < 4 + 4 * n) {
    return Status::Corrupt(what, " names ", n, " buffers; expected 1 or 2");
  }
  std::uint64_t sizes[2] = {0, 0};
  std::uint64_t total = 4 + 4 * n;
  for (std::uint64_t i = 0; i < n; ++i) {
    sizes[i] = LoadLE<std::uint32_t>(p + 4 + 4 * i);
    total += sizes[i];
  }
  if (total > size) return Status::Corrupt(what, " is truncated");
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
    return Status::Corrupt(what, " has a ", sizes[0], "-byte offsets buffer; expected 8 or 16");
  }
  if (o0 > o1 || o1 > sizes[1]) return Status::Corrupt(what, " has offsets outside its data");
  return Sub(buf, start + sizes[0] + o0, o1 - o0, what);
}

// Levels of a constant page: block-compressed when the layout names a compression (2.2), else
// raw u16 values.
Status DecodeConstantLevels(bool compressed, const pb::CompressiveEncoding& compression,
                            std::uint64_t num_values, const BufferPtr& buf, LevelVector* out,
                            const std::string& what) {
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
        return Status::Corrupt(where, ": constant page with ", num_buffers,
                               " buffers in a 2.1 file; a value buffer exists only in 2.2, "
                               "expected 0 or 2 buffers");
      }
      return num_buffers == 1 ? ConstantBuffers{0, -1, -1} : ConstantBuffers{0, 1, 2};
    default:
      return Status::Corrupt(where, ": constant page has ", num_buffers,
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
    return Status::Corrupt(where, ": constant layout uses 2.2-only fields in a 2.1 file");
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
      return Status::Corrupt(where,
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
    return Status::Corrupt(where, ": ", out.rep.size(), " rep levels but ", out.def.size(),
                           " def levels");
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
      return Status::NotImplemented(in.where,
                                    " uses the blob layout, which lance-nd does not read");
    default:
      break;
  }
  return Status::Corrupt(in.where, " has no known page layout");
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
      return "flat(" + std::to_string(ce.flat().bits_per_value()) +
             (ce.flat().has_data() ? ", " + scheme(ce.flat().data()) : "") + ")";
    case C::kVariable:
      return "variable(" + DescribeEncoding(ce.variable().offsets()) + ")";
    case C::kConstant:
      return ce.constant().has_value()
                 ? "constant(" + std::to_string(ce.constant().value().size()) + " bytes)"
                 : "constant(null)";
    case C::kOutOfLineBitpacking:
      return "out_of_line_bitpacking(" +
             std::to_string(ce.out_of_line_bitpacking().uncompressed_bits_per_value()) + ", " +
             DescribeEncoding(ce.out_of_line_bitpacking().values()) + ")";
    case C::kInlineBitpacking:
      return "inline_bitpacking(" +
             std::to_string(ce.inline_bitpacking().uncompressed_bits_per_value()) + ")";
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
      return "fixed_size_list(" + std::to_string(ce.fixed_size_list().items_per_value()) +
             (ce.fixed_size_list().has_validity() ? ", validity" : "") + ", " +
             DescribeEncoding(ce.fixed_size_list().values()) + ")";
    case C::kPackedStruct:
      return "packed_struct(" + DescribeEncoding(ce.packed_struct().values()) + ")";
    case C::kVariablePackedStruct:
      return "variable_packed_struct(" +
             std::to_string(static_cast<std::uint64_t>(ce.variable_packed_struct().fields_size())) +
             " fields)";
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
        s += " dictionary[" + std::to_string(l.num_dictionary_items()) +
             "]=" + DescribeEncoding(l.dictionary());
      s += " items=" + std::to_string(l.num_items()) +
           " buffers/chunk=" + std::to_string(l.num_buffers());
      if (l.repetition_index_depth() > 0)
        s += " rep_index_depth=" + std::to_string(l.repetition_index_depth());
      if (l.has_large_chunk()) s += " large_chunks";
      return s;
    }
    case pb::PageLayout::kFullZipLayout: {
      const auto& l = layout.full_zip_layout();
      std::string s = "full-zip layers=" + layers(l.layers()) +
                      " bits_rep=" + std::to_string(l.bits_rep()) +
                      " bits_def=" + std::to_string(l.bits_def());
      if (l.details_case() == pb::FullZipLayout::kBitsPerValue)
        s += " bits_per_value=" + std::to_string(l.bits_per_value());
      else
        s += " bits_per_offset=" + std::to_string(l.bits_per_offset());
      s += " values=" + DescribeEncoding(l.value_compression()) +
           " items=" + std::to_string(l.num_items()) +
           " visible=" + std::to_string(l.num_visible_items());
      return s;
    }
    case pb::PageLayout::kConstantLayout: {
      const auto& l = layout.constant_layout();
      std::string s = "constant layers=" + layers(l.layers());
      if (l.has_inline_value()) {
        s += " value=" + std::to_string(l.inline_value().size()) + " bytes";
      } else if (num_buffers == 1 || num_buffers == 3) {
        s += " value=buffer 0";
      } else {
        s += " all-null";
      }
      if (l.has_rep_compression())
        s += " rep=" + DescribeEncoding(l.rep_compression()) + "x" +
             std::to_string(l.num_rep_values());
      if (l.has_def_compression())
        s += " def=" + DescribeEncoding(l.def_compression()) + "x" +
             std::to_string(l.num_def_values());
      return s;
    }
    case pb::PageLayout::kBlobLayout:
      return "blob";
    default:
      return "unknown";
  }
}

}  // namespace lance_nd::file::internal
