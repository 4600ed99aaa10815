#include "lance_nd/file/writer/page_encoder.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstring>
#include <optional>
#include <string>

#include "lance_nd/core/internal/endian.h"
#include "lance_nd/file/encoding/encode_internal.h"
#include "lance_nd/file/writer/value_codec.h"

namespace lance_nd::file::internal::writer {
namespace {

using array::Buffer;
using array::BufferPtr;

constexpr std::uint8_t kChunkPad = 0xFE;
constexpr std::uint64_t kMaxU16 = 0xFFFF;

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

void AddLayers(const ShreddedPage& page, google::protobuf::RepeatedField<int>* out) {
  for (Layer l : page.layers) out->Add(static_cast<pb21::RepDefLayer>(l));
}

std::string SerializeLayout(const pb21::PageLayout& layout) {
  std::string out;
  layout.SerializeToString(&out);
  return out;
}

BufferPtr RawLevels(const std::vector<std::uint16_t>& levels) {
  return Buffer::Copy(levels.data(), static_cast<int64_t>(levels.size() * 2));
}

// ---- constant (all-null) pages --------------------------------------------------------------

EncodedPage EncodeAllNull(const ShreddedPage& page) {
  EncodedPage out;
  out.num_rows = page.num_rows;
  pb21::PageLayout layout;
  auto* constant = layout.mutable_constant_layout();
  if (page.simple_validity() || (!page.has_rep && !page.has_def)) {
    if (page.layers.empty() || page.simple_validity()) {
      AddLayers(page, constant->mutable_layers());
    } else {
      // data-less leaf without levels (e.g. an empty struct): one nullable layer, as Lance
      constant->add_layers(pb21::REPDEF_NULLABLE_ITEM);
    }
  } else {
    AddLayers(page, constant->mutable_layers());
    out.buffers.push_back(page.has_rep ? RawLevels(page.rep) : Buffer::Empty());
    out.buffers.push_back(page.has_def ? RawLevels(page.def) : Buffer::Empty());
  }
  out.layout = SerializeLayout(layout);
  return out;
}

// ---- 2.2 constant pages with an inline value ---------------------------------------------

constexpr std::int64_t kMaxInlineValueBytes = 32;

// Lance 12 (2.2) stores a page whose values are all valid and equal, fixed width <= 32 bytes,
// as a constant layout with the value inline. Only pages without levels are written this way.
std::optional<EncodedPage> MaybeInlineConstant(const ShreddedPage& page,
                                               const ColumnOptions& options) {
  const SlotValues& v = page.values;
  if (options.version != Version::k2_2 || options.plain_encodings) return std::nullopt;
  if (v.kind != LeafKind::kFixed || page.has_rep || page.has_def) return std::nullopt;
  if (v.slot_bytes > kMaxInlineValueBytes || v.num_valid != v.num_slots || v.num_slots == 0) {
    return std::nullopt;
  }
  const auto w = static_cast<std::size_t>(v.slot_bytes);
  const std::uint8_t* bytes = v.data().data();
  for (std::uint64_t i = 1; i < v.num_slots; ++i) {
    if (std::memcmp(bytes, bytes + i * w, w) != 0) return std::nullopt;
  }
  EncodedPage out;
  out.num_rows = page.num_rows;
  pb21::PageLayout layout;
  auto* constant = layout.mutable_constant_layout();
  AddLayers(page, constant->mutable_layers());
  constant->set_inline_value(std::string(reinterpret_cast<const char*>(bytes), w));
  out.layout = SerializeLayout(layout);
  return out;
}

// ---- mini-block ------------------------------------------------------------------------------

struct LevelRange {
  std::uint64_t begin = 0, end = 0;
};

// Level entries of each chunk: a chunk ends after the level entry of its last value slot (the
// last chunk takes all remaining entries).
std::vector<LevelRange> ChunkLevelRanges(const ShreddedPage& page, const MiniBlockValues& values) {
  std::vector<LevelRange> ranges(values.chunks.size());
  const bool levels = page.has_rep || page.has_def;
  // Without def levels (or without lists) every level entry holds exactly one slot.
  const bool every_level_is_slot = !page.has_def || page.max_rep == 0;
  std::uint64_t slot = 0, lpos = 0, walked = 0, seen = 0;
  for (std::size_t c = 0; c < values.chunks.size(); ++c) {
    slot += values.chunks[c].num_values;
    std::uint64_t lend = 0;
    if (levels) {
      if (c + 1 == values.chunks.size()) {
        lend = page.num_levels;
      } else if (every_level_is_slot) {
        lend = slot;
      } else {
        while (seen < slot && walked < page.num_levels) {
          if (page.IsVisible(page.def[walked])) ++seen;
          ++walked;
        }
        lend = walked;
      }
    }
    ranges[c] = LevelRange{lpos, lend};
    lpos = lend;
  }
  return ranges;
}

constexpr std::uint64_t Pad8(std::uint64_t n) { return (n + 7) / 8 * 8; }

// One chunk's levels and layout, computed before the chunks are laid out.
struct ChunkPlan {
  Status status;  // an encoding error of this chunk's levels
  BufferPtr rep, def;
  std::uint64_t bytes = 0;  // the chunk's size in the data buffer (a multiple of 8)
  // repetition index inputs: rows finishing inside the chunk (entries k >= 1 starting a row),
  // entries after the chunk's last row start, whether entry 0 starts a row
  std::uint64_t rows = 0, leftovers = 0;
  bool starts_row = false;
};

// Work items per parallel range: small enough to balance, large enough to amortize.
constexpr std::uint64_t kChunksPerTask = 64;

// Returns false (ok) when the chunk limits cannot be met with the given cap; `retry_cap` then
// holds the next cap to try (0 = impossible). Chunks are encoded and copied on two threads; the
// output does not depend on the split.
Result<bool> TryMiniBlock(const ShreddedPage& page, const ColumnOptions& options,
                          MiniBlockValueEncoder* encoder, std::uint64_t cap,
                          std::uint64_t* retry_cap, EncodedPage* out) {
  const bool large = options.version == Version::k2_2;
  LND_ASSIGN_OR_RETURN(MiniBlockValues values, encoder->Encode(cap));
  std::uint64_t max_chunk_values = 0;
  for (const auto& c : values.chunks) max_chunk_values = std::max(max_chunk_values, c.num_values);
  *retry_cap = max_chunk_values > 1 ? std::bit_floor(max_chunk_values) / 2 : 0;

  const std::vector<LevelRange> ranges = ChunkLevelRanges(page, values);

  pb21::CompressiveEncoding rep_enc, def_enc;
  if (page.has_rep) {
    LND_ASSIGN_OR_RETURN(rep_enc, ChooseLevelEncoding(page.rep, options));
  }
  if (page.has_def) {
    LND_ASSIGN_OR_RETURN(def_enc, ChooseLevelEncoding(page.def, options));
  }

  const std::size_t num_chunks = values.chunks.size();
  std::vector<ChunkPlan> plans(num_chunks);
  const std::uint64_t size_bytes = large ? 4 : 2;
  encoding::detail::ParallelFor(
      num_chunks, kChunksPerTask, [&](std::uint64_t cb, std::uint64_t ce) {
        for (std::uint64_t c = cb; c < ce; ++c) {
          ChunkPlan& plan = plans[c];
          const ValueChunk& chunk = values.chunks[c];
          const LevelRange r = ranges[c];
          const std::uint64_t nlev = r.end - r.begin;
          if (nlev > kMaxU16) continue;  // reported in order below
          if (page.has_rep) {
            auto rep = EncodeLevels(rep_enc, std::span(page.rep).subspan(r.begin, nlev));
            if (!rep.ok()) {
              plan.status = rep.status();
              continue;
            }
            plan.rep = std::move(*rep);
          }
          if (page.has_def) {
            auto def = EncodeLevels(def_enc, std::span(page.def).subspan(r.begin, nlev));
            if (!def.ok()) {
              plan.status = def.status();
              continue;
            }
            plan.def = std::move(*def);
          }
          std::uint64_t bytes =
              2 + (plan.rep ? 2 : 0) + (plan.def ? 2 : 0) + size_bytes * chunk.buffers.size();
          bytes = Pad8(bytes);
          if (plan.rep) bytes += Pad8(static_cast<std::uint64_t>(plan.rep->size()));
          if (plan.def) bytes += Pad8(static_cast<std::uint64_t>(plan.def->size()));
          for (const auto& b : chunk.buffers) bytes += Pad8(static_cast<std::uint64_t>(b->size()));
          plan.bytes = bytes;
          if (page.has_rep) {
            // Lance's repetition index: rows finishing in the chunk + leftover entries.
            const auto rv = std::span(page.rep).subspan(r.begin, nlev);
            const std::uint16_t max_rep = page.max_rep;  // a local: the count vectorises
            std::uint32_t rows = 0;                      // nlev <= kMaxU16
            for (std::size_t k = 1; k < rv.size(); ++k) rows += rv[k] == max_rep ? 1u : 0u;
            std::uint64_t leftovers = rv.size();
            // No row starts after entry 0: the whole chunk is leftover (long rows: most chunks).
            for (std::size_t k = rows == 0 ? 0 : rv.size(); k-- > 0;) {
              if (rv[k] == max_rep) {
                leftovers = rv.size() - k;
                break;
              }
            }
            plan.rows = rows;
            plan.leftovers = leftovers;
            plan.starts_row = !rv.empty() && rv[0] == page.max_rep;
          }
        }
      });

  // Limits, chunk metadata and the repetition index, in chunk order.
  std::vector<std::uint8_t> meta;
  meta.reserve(num_chunks * (large ? 4 : 2));
  std::vector<std::uint64_t> rep_index;
  if (page.has_rep) rep_index.reserve(num_chunks * 2);
  std::vector<std::uint64_t> offsets(num_chunks + 1, 0);
  for (std::size_t c = 0; c < num_chunks; ++c) {
    const ChunkPlan& plan = plans[c];
    const ValueChunk& chunk = values.chunks[c];
    const std::uint64_t nlev = ranges[c].end - ranges[c].begin;
    if (nlev > kMaxU16) return false;
    LND_RETURN_NOT_OK(plan.status);
    if (plan.rep && static_cast<std::uint64_t>(plan.rep->size()) > kMaxU16) return false;
    if (plan.def && static_cast<std::uint64_t>(plan.def->size()) > kMaxU16) return false;
    for (const auto& b : chunk.buffers) {
      const auto size = static_cast<std::uint64_t>(b->size());
      if (size > (large ? std::uint64_t{0xFFFFFFFFu} : kMaxU16)) return false;
    }
    const std::uint64_t words = plan.bytes / 8 - 1;
    const bool last = c + 1 == num_chunks;
    std::uint64_t log_n = 0;
    if (!last) {
      if (!std::has_single_bit(chunk.num_values) || chunk.num_values > 4096) {
        return Status::Internal("mini-block chunk of " + std::to_string(chunk.num_values) +
                                " values is not a power of two <= 4096");
      }
      log_n = static_cast<std::uint64_t>(std::countr_zero(chunk.num_values));
    }
    if (large) {
      if (words >= (std::uint64_t{1} << 28)) return false;
      const auto word = static_cast<std::uint32_t>((words << 4) | log_n);
      for (int k = 0; k < 4; ++k) meta.push_back(static_cast<std::uint8_t>(word >> (8 * k)));
    } else {
      if (words >= 4096) return false;
      const auto word = static_cast<std::uint16_t>((words << 4) | log_n);
      meta.push_back(static_cast<std::uint8_t>(word & 0xFF));
      meta.push_back(static_cast<std::uint8_t>(word >> 8));
    }
    if (page.has_rep) {
      std::uint64_t rows = plan.rows;
      const std::uint64_t leftovers = last ? 0 : plan.leftovers;
      if (c != 0 && nlev > 0 && plan.starts_row && rep_index.back() != 0) {
        rep_index[rep_index.size() - 2] += 1;
        rep_index.back() = 0;
      }
      if (last) rows += 1;
      rep_index.push_back(rows);
      rep_index.push_back(leftovers);
    }
    offsets[c + 1] = offsets[c] + plan.bytes;
  }

  // The data buffer: chunks copied in place (uninitialised memory, every byte written).
  const std::uint64_t total = offsets[num_chunks];
  std::shared_ptr<std::uint8_t[]> storage(new std::uint8_t[std::max<std::uint64_t>(total, 1)]);
  std::uint8_t* base = storage.get();
  encoding::detail::ParallelFor(
      num_chunks, kChunksPerTask, [&](std::uint64_t cb, std::uint64_t ce) {
        for (std::uint64_t c = cb; c < ce; ++c) {
          const ChunkPlan& plan = plans[c];
          const ValueChunk& chunk = values.chunks[c];
          std::uint8_t* p = base + offsets[c];
          std::uint8_t* const chunk_end = base + offsets[c + 1];
          auto put16 = [&](std::uint64_t v) {
            *p++ = static_cast<std::uint8_t>(v & 0xFF);
            *p++ = static_cast<std::uint8_t>((v >> 8) & 0xFF);
          };
          auto pad = [&](std::uint8_t* from) {
            const std::uint64_t used = static_cast<std::uint64_t>(p - from);
            const std::uint64_t n = Pad8(used) - used;
            std::memset(p, kChunkPad, n);
            p += n;
          };
          std::uint8_t* const start = p;
          put16(ranges[c].end - ranges[c].begin);
          if (plan.rep) put16(static_cast<std::uint64_t>(plan.rep->size()));
          if (plan.def) put16(static_cast<std::uint64_t>(plan.def->size()));
          for (const auto& b : chunk.buffers) {
            const auto size = static_cast<std::uint64_t>(b->size());
            if (large) {
              put16(size & 0xFFFF);
              put16(size >> 16);
            } else {
              put16(size);
            }
          }
          pad(start);
          for (const BufferPtr* b : {&plan.rep, &plan.def}) {
            if (*b) {
              std::uint8_t* const from = p;
              if ((*b)->size() > 0)
                std::memcpy(p, (*b)->data(), static_cast<std::size_t>((*b)->size()));
              p += (*b)->size();
              pad(from);
            }
          }
          for (const auto& b : chunk.buffers) {
            std::uint8_t* const from = p;
            if (b->size() > 0) std::memcpy(p, b->data(), static_cast<std::size_t>(b->size()));
            p += b->size();
            pad(from);
          }
          (void)chunk_end;
        }
      });
  BufferPtr data = std::make_shared<const Buffer>(
      base, static_cast<int64_t>(total), std::shared_ptr<const void>(storage, storage.get()));

  out->num_rows = page.num_rows;
  out->buffers.clear();
  out->buffers.push_back(Buffer::FromVector(std::move(meta)));
  out->buffers.push_back(std::move(data));
  if (values.has_dictionary) out->buffers.push_back(values.dictionary_bytes);
  if (page.has_rep) {
    out->buffers.push_back(
        Buffer::Copy(rep_index.data(), static_cast<int64_t>(rep_index.size() * 8)));
  }
  pb21::PageLayout layout;
  auto* mb = layout.mutable_mini_block_layout();
  if (page.has_rep) *mb->mutable_rep_compression() = rep_enc;
  if (page.has_def) *mb->mutable_def_compression() = def_enc;
  *mb->mutable_value_compression() = values.encoding;
  if (values.has_dictionary) {
    *mb->mutable_dictionary() = values.dictionary_encoding;
    mb->set_num_dictionary_items(values.num_dictionary_items);
  }
  AddLayers(page, mb->mutable_layers());
  mb->set_num_buffers(values.num_buffers);
  if (page.has_rep) mb->set_repetition_index_depth(1);
  mb->set_num_items(page.values.num_slots);
  if (large) mb->set_has_large_chunk(true);
  out->layout = SerializeLayout(layout);
  return true;
}

// ---- full-zip --------------------------------------------------------------------------------

std::uint32_t BitLength(std::uint64_t v) { return static_cast<std::uint32_t>(std::bit_width(v)); }

// The largest definition level the page's layers allow (each nullable or emptyable layer takes
// one level, a null-and-empty list two), used or not: a nullable layer whose rows happen to be
// all valid still gets its definition bits, which Lance 12 needs to read the layer as nullable.
std::uint16_t MaxDefOfLayers(const std::vector<Layer>& layers) {
  std::uint16_t max_def = 0;
  for (Layer layer : layers) {
    if (layer == Layer::kNullAndEmptyList) {
      max_def = static_cast<std::uint16_t>(max_def + 2);
    } else if (layer != Layer::kAllValidItem && layer != Layer::kAllValidList) {
      ++max_def;
    }
  }
  return max_def;
}

Result<EncodedPage> EncodeFullZip(const ShreddedPage& page, const ColumnOptions& options) {
  LND_ASSIGN_OR_RETURN(PerValueValues values, EncodePerValueValues(page.values, options));
  const bool levels = page.has_rep || page.has_def;
  std::uint16_t max_rep = 0;
  for (auto r : page.rep) max_rep = std::max(max_rep, r);
  // Levels are assigned from the layers, so no definition level exceeds the layers' largest.
  const std::uint16_t max_def = MaxDefOfLayers(page.layers);
  const std::uint32_t bits_rep = page.has_rep ? BitLength(max_rep) : 0;
  const std::uint32_t bits_def = page.has_def ? BitLength(max_def) : 0;
  const std::uint32_t bits = bits_rep + bits_def;
  const std::size_t word_bytes = bits == 0 ? 0 : bits <= 8 ? 1 : bits <= 16 ? 2 : 4;
  const std::uint64_t num_items = levels ? page.num_levels : page.values.num_slots;
  const std::uint64_t num_visible = page.values.num_slots;
  if (num_items > 0xFFFFFFFFu) {
    return Status::NotImplemented("a full-zip page of more than 2^32 items; write smaller pages");
  }

  const std::uint64_t value_bytes = values.variable ? values.bits_per_offset / 8 : 0;
  const std::uint64_t fixed_bytes = values.variable ? 0 : values.bits_per_value / 8;
  const std::uint64_t upper = static_cast<std::uint64_t>(values.data->size()) +
                              word_bytes * num_items + value_bytes * num_visible;
  const bool want_index = page.has_rep || values.variable;
  std::vector<std::uint64_t> row_starts;
  std::vector<std::uint8_t> zipped;
  zipped.reserve(upper);
  std::uint64_t slot = 0;
  for (std::uint64_t e = 0; e < num_items; ++e) {
    const std::uint16_t r = page.has_rep ? page.rep[e] : 0;
    const std::uint16_t d = page.has_def ? page.def[e] : 0;
    const bool new_row = !page.has_rep || r == page.max_rep;
    if (new_row && want_index) row_starts.push_back(zipped.size());
    if (word_bytes > 0) {
      const std::uint64_t word = page.has_rep && page.has_def
                                     ? (static_cast<std::uint64_t>(r) << bits_def) | d
                                     : (page.has_rep ? r : d);
      for (std::size_t k = 0; k < word_bytes; ++k) {
        zipped.push_back(static_cast<std::uint8_t>(word >> (8 * k)));
      }
    }
    const bool visible = !levels || page.IsVisible(d);
    if (!visible) continue;
    if (values.variable) {
      if (d == 0) {
        const std::uint64_t b = values.offsets[slot], en = values.offsets[slot + 1];
        const std::uint64_t len = en - b;
        for (std::uint64_t k = 0; k < value_bytes; ++k) {
          zipped.push_back(static_cast<std::uint8_t>(len >> (8 * k)));
        }
        zipped.insert(zipped.end(), values.data->data() + b, values.data->data() + en);
      }
    } else {
      const std::uint8_t* src = values.data->data() + slot * fixed_bytes;
      zipped.insert(zipped.end(), src, src + fixed_bytes);
    }
    ++slot;
  }
  EncodedPage out;
  out.num_rows = page.num_rows;
  const std::uint64_t total = zipped.size();
  out.buffers.push_back(Buffer::FromVector(std::move(zipped)));
  if (want_index) {
    row_starts.push_back(total);
    const std::uint64_t max_index = page.has_rep || values.variable ? upper : 0;
    const std::size_t width = max_index <= 0xFF          ? 1
                              : max_index <= 0xFFFF      ? 2
                              : max_index <= 0xFFFFFFFFu ? 4
                                                         : 8;
    std::vector<std::uint8_t> index(row_starts.size() * width);
    for (std::size_t i = 0; i < row_starts.size(); ++i) {
      for (std::size_t k = 0; k < width; ++k) {
        index[i * width + k] = static_cast<std::uint8_t>(row_starts[i] >> (8 * k));
      }
    }
    out.buffers.push_back(Buffer::FromVector(std::move(index)));
  }
  pb21::PageLayout layout;
  auto* fz = layout.mutable_full_zip_layout();
  fz->set_bits_rep(bits_rep);
  fz->set_bits_def(bits_def);
  if (values.variable) {
    fz->set_bits_per_offset(values.bits_per_offset);
  } else {
    fz->set_bits_per_value(static_cast<std::uint32_t>(values.bits_per_value));
  }
  fz->set_num_items(static_cast<std::uint32_t>(num_items));
  fz->set_num_visible_items(static_cast<std::uint32_t>(num_visible));
  *fz->mutable_value_compression() = values.encoding;
  AddLayers(page, fz->mutable_layers());
  out.layout = SerializeLayout(layout);
  return out;
}

// Lance 12's full-zip reader treats an entry as visible when def <= (def levels of all non-list
// layers), while its writer (and the format) use only the layers inside the innermost list. The
// two differ when a null/empty list sits below a nullable struct: Lance 12 then shifts values
// (it misreads its own files). Such pages are better written as mini-block.
bool FullZipMisreadByLance12(const ShreddedPage& page) {
  if (!page.has_rep || !page.has_def) return false;
  std::uint16_t reader_max = 0;
  for (Layer l : page.layers) {
    if (l == Layer::kNullableItem) ++reader_max;
  }
  if (reader_max <= page.max_visible_def) return false;
  for (std::uint16_t d : page.def) {
    if (d > page.max_visible_def && d <= reader_max) return true;
  }
  return false;
}

}  // namespace

Result<ColumnOptions> ColumnOptions::FromField(const array::Field& field, Version version) {
  ColumnOptions out;
  out.version = version;
  out.field_metadata = &field.metadata();
  LND_ASSIGN_OR_RETURN(
      out.request, encoding::EncodingRequest::FromFieldMetadata(
                       field.metadata(), version == Version::k2_1 ? encoding::FormatVersion::k2_1
                                                                  : encoding::FormatVersion::k2_2));
  const array::Metadata& md = field.metadata();
  if (auto v = md.Get("lance-encoding:structural-encoding")) {
    const std::string s = Lower(*v);
    if (s == "miniblock") {
      out.structural = Structural::kMiniBlock;
    } else if (s == "fullzip") {
      out.structural = Structural::kFullZip;
    } else {
      return Status::InvalidArgument("field '" + field.name() +
                                     "': lance-encoding:structural-encoding is '" +
                                     std::string(*v) + "'; expected 'miniblock' or 'fullzip'");
    }
  }
  if (auto v = md.Get("lance-encoding:compression")) {
    const std::string s = Lower(*v);
    if (s == "zstd") {
      out.compression = Compression::kZstd;
    } else if (s == "lz4") {
      out.compression = Compression::kLz4;
    } else if (s == "none") {
      out.compression = Compression::kNone;
    } else if (s == "fsst") {
      out.compression = Compression::kDefault;
    } else {
      return Status::InvalidArgument("field '" + field.name() +
                                     "': lance-encoding:compression is '" + std::string(*v) +
                                     "'; expected zstd, lz4, fsst or none");
    }
  }
  if (auto v = md.Get("lance-encoding:compression-level")) {
    std::int32_t level = 0;
    const auto res = std::from_chars(v->data(), v->data() + v->size(), level);
    if (res.ec == std::errc() && res.ptr == v->data() + v->size()) {
      out.compression_level = level;
    } else {
      return Status::InvalidArgument("field '" + field.name() +
                                     "': lance-encoding:compression-level is '" + std::string(*v) +
                                     "'; expected an integer");
    }
  }
  return out;
}

Result<EncodedPage> EncodePage(const ShreddedPage& page, const ColumnOptions& options) {
  const SlotValues& v = page.values;
  if (v.kind == LeafKind::kEmptyStruct) {
    if (page.has_rep || page.has_def) {
      return Status::NotImplemented(
          "an empty struct with nulls or inside a list cannot be written (Lance does not "
          "support it either)");
    }
    return EncodeAllNull(page);
  }
  if (v.num_slots == 0 || v.num_valid == 0) return EncodeAllNull(page);
  if (auto constant = MaybeInlineConstant(page, options)) return std::move(*constant);

  bool full_zip = v.max_value_bytes >= kMiniBlockMaxValueBytes && !FullZipMisreadByLance12(page);
  if (options.structural == ColumnOptions::Structural::kMiniBlock) full_zip = false;
  if (options.structural == ColumnOptions::Structural::kFullZip) full_zip = true;
  if (v.kind == LeafKind::kBool) full_zip = false;
  if (!full_zip) {
    std::uint64_t cap = 0;
    MiniBlockValueEncoder encoder(v, options);
    while (true) {
      EncodedPage out;
      std::uint64_t retry = 0;
      LND_ASSIGN_OR_RETURN(bool fits, TryMiniBlock(page, options, &encoder, cap, &retry, &out));
      if (fits) return out;
      if (retry == 0) break;
      cap = retry;
    }
    if (v.kind == LeafKind::kBool) {
      return Status::NotImplemented(
          "a boolean page whose levels do not fit mini-block chunks (a run of more than "
          "32767 null or empty lists); write fewer rows per page");
    }
    // Too many levels or bytes for one chunk: full-zip has no such limits.
  }
  return EncodeFullZip(page, options);
}

}  // namespace lance_nd::file::internal::writer
