#include "lance_nd/file/writer/page_encoder.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstring>
#include <optional>
#include <string>

#include "lance_nd/core/internal/endian.h"
#include "lance_nd/file/writer/mini_block_page.h"
#include "lance_nd/file/writer/page_layout.h"
#include "lance_nd/file/writer/value_codec.h"

namespace lance_nd::file::internal::writer {
namespace {

using array::Buffer;
using array::BufferPtr;

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

BufferPtr RawLevels(std::span<const std::uint16_t> levels) {
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
    out.buffers.push_back(page.has_def ? RawLevels(AllDefLevels(page)) : Buffer::Empty());
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
  if (options.version != FileVersion::kV2_2 || options.plain_encodings) return std::nullopt;
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
    const std::uint16_t d = page.has_def ? page.DefAt(e) : 0;
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
  if (!page.has_rep || !page.has_def || page.def_zero) return false;
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

Result<ColumnOptions> ColumnOptions::FromField(const array::Field& field, FileVersion version) {
  ColumnOptions out;
  out.version = version;
  out.field_metadata = &field.metadata();
  LND_ASSIGN_OR_RETURN(out.request,
                       encoding::EncodingRequest::FromFieldMetadata(field.metadata(), version));
  const array::Metadata& md = field.metadata();
  if (auto v = md.Get("lance-encoding:structural-encoding")) {
    const std::string s = Lower(*v);
    if (s == "miniblock") {
      out.structural = Structural::kMiniBlock;
    } else if (s == "fullzip") {
      out.structural = Structural::kFullZip;
    } else {
      return Status::InvalidArgument("field '", field.name(),
                                     "': lance-encoding:structural-encoding is '", *v,
                                     "'; expected 'miniblock' or 'fullzip'");
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
      return Status::InvalidArgument("field '", field.name(), "': lance-encoding:compression is '",
                                     *v, "'; expected zstd, lz4, fsst or none");
    }
  }
  if (auto v = md.Get("lance-encoding:compression-level")) {
    std::int32_t level = 0;
    const auto res = std::from_chars(v->data(), v->data() + v->size(), level);
    if (res.ec == std::errc() && res.ptr == v->data() + v->size()) {
      out.compression_level = level;
    } else {
      return Status::InvalidArgument("field '", field.name(),
                                     "': lance-encoding:compression-level is '", *v,
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
  // A requested full-zip is honoured where Lance 12 reads it back correctly.
  if (options.structural == ColumnOptions::Structural::kFullZip) {
    full_zip = !FullZipMisreadByLance12(page);
  }
  if (v.kind == LeafKind::kBool) full_zip = false;
  if (!full_zip) {
    LND_ASSIGN_OR_RETURN(std::optional<EncodedPage> mini_block, EncodeMiniBlockPage(page, options));
    if (mini_block) return std::move(*mini_block);
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
