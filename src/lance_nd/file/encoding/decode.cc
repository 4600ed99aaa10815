// Decoders of the three contexts (block, mini-block, per-value) for every compressive encoding.
#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "encodings_v2_1.pb.h"
#include "lance_nd/core/internal/endian.h"
#include "lance_nd/file/encoding/compressive.h"
#include "lance_nd/file/encoding/fastlanes.h"
#include "lance_nd/file/encoding/fsst.h"
#include "lance_nd/file/encoding/general.h"
#include "lance_nd/file/encoding/util.h"
#include "lance_nd/file/encoding/variable_util.h"

namespace lance_nd::file::internal::encoding {
namespace {

using Case = pb::CompressiveEncoding::CompressionCase;
using detail::Corrupt;
using detail::Size;

Status Unsupported(const pb::CompressiveEncoding& ce, std::string_view context) {
  if (ce.compression_case() == Case::COMPRESSION_NOT_SET) {
    return Status::NotImplemented(detail::Cat(
        "compressive encoding is unset or unknown in the ", context,
        " context (written by a newer Lance version?); this reader supports Lance 2.1/2.2"));
  }
  return Status::NotImplemented(
      detail::Cat("encoding ", EncodingName(ce), " is not supported in the ", context, " context"));
}

Result<GeneralScheme> SchemeOf(const pb::BufferCompression& c) {
  switch (c.scheme()) {
    case pb::COMPRESSION_ALGORITHM_LZ4:
      return GeneralScheme::kLz4;
    case pb::COMPRESSION_ALGORITHM_ZSTD:
      return GeneralScheme::kZstd;
    default:
      return Status::NotImplemented(detail::Cat("general: compression scheme ",
                                                static_cast<int>(c.scheme()),
                                                " is not supported (expected LZ4 or ZSTD)"));
  }
}

Status CheckCount(std::string_view encoding, std::uint64_t n) {
  if (n >= detail::kMaxDecodedValues) {
    return Corrupt(encoding, "implausible value count ", n);
  }
  return Status::OK();
}

bool IsWordWidth(std::uint64_t bits) { return bits == 8 || bits == 16 || bits == 32 || bits == 64; }

// ---- flat --------------------------------------------------------------------------------

Result<DataBlock> DecodeFlat(const pb::Flat& flat, const BufferPtr& bytes, std::uint64_t n) {
  if (flat.has_data()) {
    return Status::NotImplemented("flat with buffer compression is not supported");
  }
  const std::uint64_t bits = flat.bits_per_value();
  LND_RETURN_NOT_OK(CheckCount("flat", n));
  const auto need = detail::BytesForBitsChecked(n, bits);
  if (!need || *need > Size(bytes)) {
    return Corrupt("flat", n, " values of ", bits, " bits need ",
                   need ? detail::Cat(*need) : std::string("too many"), " bytes, have ",
                   Size(bytes));
  }
  return DataBlock::Fixed(bits, n, detail::SliceUnchecked(bytes, 0, *need));
}

// ---- bitpacking --------------------------------------------------------------------------

// Unpack n inline-bitpacked values into `out` (room for n values of T; any alignment).
template <typename T>
Status UnpackInlineInto(const BufferPtr& bytes, std::uint64_t n, std::uint8_t* out) {
  constexpr std::uint64_t kBits = sizeof(T) * 8;
  const std::uint64_t size = Size(bytes);
  // Each block costs at least one width word: bound n by the bytes available.
  if (n > (size / sizeof(T)) * kFastLanesBlock) {
    return Corrupt("inline bitpacking", n, " values need at least ",
                   (n + kFastLanesBlock - 1) / kFastLanesBlock, " blocks of ", kBits,
                   "-bit words, have ", size, " bytes");
  }
  alignas(64) std::array<T, kFastLanesBlock> packed;
  alignas(64) std::array<T, kFastLanesBlock> unpacked;
  std::uint64_t pos = 0;
  std::uint64_t produced = 0;
  for (std::uint64_t block = 0; produced < n; ++block) {
    if (pos + sizeof(T) > size) {
      return Corrupt("inline bitpacking", "block ", block, " needs a ", sizeof(T),
                     "-byte width word at byte ", pos, ", have ", size, " bytes");
    }
    const std::uint64_t width = LoadLE<T>(bytes->data() + pos);
    pos += sizeof(T);
    if (width > kBits) {
      return Corrupt("inline bitpacking", "block ", block, " has width ", width, ", more than the ",
                     kBits, "-bit values");
    }
    const std::uint64_t need = FastLanesPackedWords<T>(width) * sizeof(T);
    if (pos + need > size) {
      return Corrupt("inline bitpacking", "chunk of 1024 values at width ", width, " needs ", need,
                     " bytes, have ", size - pos);
    }
    std::memcpy(packed.data(), bytes->data() + pos, need);
    pos += need;
    const std::uint64_t take = std::min<std::uint64_t>(kFastLanesBlock, n - produced);
    std::uint8_t* dst = out + produced * sizeof(T);
    if (take == kFastLanesBlock && reinterpret_cast<std::uintptr_t>(dst) % alignof(T) == 0) {
      // A whole block: unpack straight into the output.
      FastLanesUnpack<T>(packed.data(), width, reinterpret_cast<T*>(dst));
    } else {
      FastLanesUnpack<T>(packed.data(), width, unpacked.data());
      std::memcpy(dst, unpacked.data(), take * sizeof(T));
    }
    produced += take;
  }
  return Status::OK();
}

template <typename T>
Result<DataBlock> UnpackInlineT(const BufferPtr& bytes, std::uint64_t n) {
  constexpr std::uint64_t kBits = sizeof(T) * 8;
  if (n > (Size(bytes) / sizeof(T)) * kFastLanesBlock) {
    return UnpackInlineInto<T>(bytes, n, nullptr);  // reports the error, writes nothing
  }
  std::uint8_t* out = nullptr;
  // Every value is written: no zero-fill.
  auto buffer = array::Buffer::AllocateUninitialized(static_cast<int64_t>(n * sizeof(T)), &out);
  LND_RETURN_NOT_OK(UnpackInlineInto<T>(bytes, n, out));
  return DataBlock::Fixed(kBits, n, std::move(buffer));
}

Result<DataBlock> DecodeInline(const pb::InlineBitpacking& ib, const BufferPtr& bytes,
                               std::uint64_t n) {
  if (ib.has_values()) {
    return Status::NotImplemented("inline bitpacking with buffer compression is not supported");
  }
  LND_RETURN_NOT_OK(CheckCount("inline bitpacking", n));
  switch (ib.uncompressed_bits_per_value()) {
    case 8:
      return UnpackInlineT<std::uint8_t>(bytes, n);
    case 16:
      return UnpackInlineT<std::uint16_t>(bytes, n);
    case 32:
      return UnpackInlineT<std::uint32_t>(bytes, n);
    case 64:
      return UnpackInlineT<std::uint64_t>(bytes, n);
    default:
      return Corrupt("inline bitpacking", "uncompressed width ", ib.uncompressed_bits_per_value(),
                     " bits (expected 8, 16, 32 or 64)");
  }
}

template <typename T>
Result<DataBlock> UnpackOutOfLineT(const BufferPtr& bytes, std::uint64_t n, std::uint64_t width) {
  constexpr std::uint64_t kBits = sizeof(T) * 8;
  constexpr std::string_view kName = "out-of-line bitpacking";
  if (width > kBits) {
    return Corrupt(kName, "width ", width, " is more than the ", kBits, "-bit values");
  }
  const std::uint64_t size = Size(bytes);
  if (size % sizeof(T) != 0) {
    return Corrupt(kName, "buffer of ", size, " bytes is not a whole number of ", kBits,
                   "-bit words");
  }
  const std::uint64_t words = size / sizeof(T);
  const std::uint64_t wpc = FastLanesPackedWords<T>(width);
  const std::uint64_t full = n / kFastLanesBlock;
  const std::uint64_t tail = n % kFastLanesBlock;
  const std::uint64_t full_words = full * wpc;
  const bool raw_tail = tail > 0 && words == full_words + tail;
  const std::uint64_t need_words = full_words + (tail == 0 ? 0 : (raw_tail ? tail : wpc));
  if (words < need_words) {
    return Corrupt(kName, n, " values at width ", width, " need ", need_words * sizeof(T),
                   " bytes (or ", (full_words + tail) * sizeof(T), " with a raw tail), have ",
                   size);
  }
  std::uint8_t* out = nullptr;
  auto buffer = detail::Allocate(n * sizeof(T), &out);
  std::array<T, kFastLanesBlock> packed{};
  std::array<T, kFastLanesBlock> unpacked{};
  const std::uint8_t* src = bytes->data();
  for (std::uint64_t b = 0; b < full + (tail > 0 && !raw_tail ? 1 : 0); ++b) {
    std::memcpy(packed.data(), src + b * wpc * sizeof(T), wpc * sizeof(T));
    FastLanesUnpack<T>(packed.data(), width, unpacked.data());
    const std::uint64_t take = b < full ? kFastLanesBlock : tail;
    std::memcpy(out + b * kFastLanesBlock * sizeof(T), unpacked.data(), take * sizeof(T));
  }
  if (raw_tail) {
    std::memcpy(out + full * kFastLanesBlock * sizeof(T), src + full_words * sizeof(T),
                tail * sizeof(T));
  }
  return DataBlock::Fixed(kBits, n, std::move(buffer));
}

Result<DataBlock> DecodeOutOfLine(const pb::OutOfLineBitpacking& ob, const BufferPtr& bytes,
                                  std::uint64_t n) {
  if (ob.values().compression_case() != Case::kFlat || ob.values().flat().has_data()) {
    return Status::NotImplemented(detail::Cat("out-of-line bitpacking: packed values encoded as ",
                                              EncodingName(ob.values()),
                                              " (only flat(width) is supported)"));
  }
  LND_RETURN_NOT_OK(CheckCount("out-of-line bitpacking", n));
  const std::uint64_t width = ob.values().flat().bits_per_value();
  switch (ob.uncompressed_bits_per_value()) {
    case 8:
      return UnpackOutOfLineT<std::uint8_t>(bytes, n, width);
    case 16:
      return UnpackOutOfLineT<std::uint16_t>(bytes, n, width);
    case 32:
      return UnpackOutOfLineT<std::uint32_t>(bytes, n, width);
    case 64:
      return UnpackOutOfLineT<std::uint64_t>(bytes, n, width);
    default:
      return Corrupt("out-of-line bitpacking", "uncompressed width ",
                     ob.uncompressed_bits_per_value(), " bits (expected 8, 16, 32 or 64)");
  }
}

// ---- RLE ---------------------------------------------------------------------------------

Result<std::uint64_t> RleValueWidth(const pb::Rle& rle) {
  if (rle.values().compression_case() != Case::kFlat || rle.values().flat().has_data() ||
      !IsWordWidth(rle.values().flat().bits_per_value())) {
    return Corrupt("rle", "values must be flat(8|16|32|64), found ", EncodingName(rle.values()));
  }
  if (rle.run_lengths().compression_case() != Case::kFlat ||
      rle.run_lengths().flat().bits_per_value() != 8 || rle.run_lengths().flat().has_data()) {
    return Corrupt("rle", "run lengths must be flat(8), found ", EncodingName(rle.run_lengths()));
  }
  return rle.values().flat().bits_per_value() / 8;
}

// Writes each run's value `length` times (typed fills vectorise; a per-value memcpy of a
// runtime width did not). Returns the number of values produced, at most n.
template <typename T>
std::uint64_t FillRuns(const std::uint8_t* values, const std::uint8_t* lengths, std::uint64_t runs,
                       std::uint64_t n, std::uint8_t* out) {
  T* dst = reinterpret_cast<T*>(out);
  std::uint64_t produced = 0;
  for (std::uint64_t r = 0; r < runs && produced < n; ++r) {
    const std::uint64_t take = std::min<std::uint64_t>(lengths[r], n - produced);
    T value;
    std::memcpy(&value, values + r * sizeof(T), sizeof(T));
    std::fill_n(dst + produced, take, value);
    produced += take;
  }
  return produced;
}

Result<DataBlock> ExpandRuns(const std::uint8_t* values, std::uint64_t values_size,
                             const std::uint8_t* lengths, std::uint64_t lengths_size,
                             std::uint64_t width, std::uint64_t n) {
  if (values_size % width != 0) {
    return Corrupt("rle", "values buffer of ", values_size, " bytes is not a multiple of ", width,
                   "-byte values");
  }
  const std::uint64_t runs = values_size / width;
  if (runs != lengths_size) {
    return Corrupt("rle", runs, " run values but ", lengths_size, " run lengths");
  }
  LND_RETURN_NOT_OK(CheckCount("rle", n));
  if (n > runs * 255) {
    return Corrupt("rle", runs, " runs cannot hold ", n, " values");
  }
  // Uninitialised: the runs fill all n values, or the block is refused below.
  std::uint8_t* out = nullptr;
  auto buffer = array::Buffer::AllocateUninitialized(static_cast<int64_t>(n * width), &out);
  std::uint64_t produced = 0;
  switch (width) {
    case 1:
      produced = FillRuns<std::uint8_t>(values, lengths, runs, n, out);
      break;
    case 2:
      produced = FillRuns<std::uint16_t>(values, lengths, runs, n, out);
      break;
    case 4:
      produced = FillRuns<std::uint32_t>(values, lengths, runs, n, out);
      break;
    default:
      produced = FillRuns<std::uint64_t>(values, lengths, runs, n, out);
      break;
  }
  if (produced < n) {
    return Corrupt("rle", "runs cover ", produced, " values, expected ", n);
  }
  return DataBlock::Fixed(width * 8, n, std::move(buffer));
}

// ---- variable ----------------------------------------------------------------------------

Result<std::uint32_t> OffsetWidth(const pb::Variable& v) {
  if (v.has_values()) {
    return Status::NotImplemented("variable with buffer compression is not supported");
  }
  if (v.offsets().compression_case() != Case::kFlat ||
      (v.offsets().flat().bits_per_value() != 32 && v.offsets().flat().bits_per_value() != 64)) {
    return Status::NotImplemented(detail::Cat("variable: offsets encoded as ",
                                              EncodingName(v.offsets()),
                                              " (only flat(32) or flat(64) is supported)"));
  }
  return static_cast<std::uint32_t>(v.offsets().flat().bits_per_value());
}

Result<DataBlock> DecodeVariableMiniBlock(const pb::Variable& v, const BufferPtr& bytes,
                                          std::uint64_t n) {
  LND_ASSIGN_OR_RETURN(const std::uint32_t width, OffsetWidth(v));
  LND_RETURN_NOT_OK(CheckCount("variable", n));
  const std::uint64_t need = (n + 1) * (width / 8);
  if (need > Size(bytes)) {
    return Corrupt("variable", n, " values need ", need, " bytes of ", width, "-bit offsets, have ",
                   Size(bytes));
  }
  DataBlock out = DataBlock::Variable(width, n, detail::SliceUnchecked(bytes, 0, need), bytes);
  LND_RETURN_NOT_OK(detail::ValidateVariable(out, "variable"));
  if (detail::OffsetAt(out, 0) < need) {
    return Corrupt("variable", "first offset ", detail::OffsetAt(out, 0),
                   " points into the offsets (", need, " bytes)");
  }
  return out;
}

Result<DataBlock> DecodeVariableBlock(const BufferPtr& bytes, std::uint64_t n) {
  constexpr std::string_view kName = "variable (block)";
  LND_RETURN_NOT_OK(CheckCount(kName, n));
  const std::uint64_t size = Size(bytes);
  if (size < 8) return Corrupt(kName, "buffer of ", size, " bytes is shorter than its header");
  const std::uint8_t* p = bytes->data();
  std::uint32_t width = 0;
  std::uint64_t data_start = 0;
  std::uint64_t offsets_start = 0;
  const bool old_scheme = p[1] != 0 || p[2] != 0 || p[3] != 0;
  if (old_scheme) {
    width = p[0];
    if (width == 32) {
      if (size < 9) return Corrupt(kName, "buffer of ", size, " bytes is shorter than its header");
      data_start = LoadLE<std::uint32_t>(p + 5);
      offsets_start = 9;
    } else if (width == 64) {
      if (size < 17) return Corrupt(kName, "buffer of ", size, " bytes is shorter than its header");
      data_start = LoadLE<std::uint64_t>(p + 9);
      offsets_start = 17;
    }
  } else {
    width = LoadLE<std::uint32_t>(p);
    if (width == 32) {
      data_start = LoadLE<std::uint32_t>(p + 4);
      offsets_start = 8;
    } else if (width == 64) {
      if (size < 16) return Corrupt(kName, "buffer of ", size, " bytes is shorter than its header");
      data_start = LoadLE<std::uint64_t>(p + 8);
      offsets_start = 16;
    }
  }
  if (width != 32 && width != 64) {
    return Corrupt(kName, "offset width ", width, " (expected 32 or 64)");
  }
  const std::uint64_t need = (n + 1) * (width / 8);
  if (data_start < offsets_start || data_start > size || data_start - offsets_start != need) {
    return Corrupt(kName, n, " values need ", need, " bytes of offsets from byte ", offsets_start,
                   ", but the data starts at byte ", data_start, " of ", size);
  }
  DataBlock out = DataBlock::Variable(width, n, detail::SliceUnchecked(bytes, offsets_start, need),
                                      detail::SliceUnchecked(bytes, data_start, size - data_start));
  LND_RETURN_NOT_OK(detail::ValidateVariable(out, kName));
  return out;
}

// ---- byte stream split -------------------------------------------------------------------

Result<DataBlock> DecodeBss(const pb::ByteStreamSplit& bss, const BufferPtr& bytes,
                            std::uint64_t n) {
  if (bss.values().compression_case() != Case::kFlat || bss.values().flat().has_data()) {
    return Status::NotImplemented(detail::Cat("byte_stream_split: values encoded as ",
                                              EncodingName(bss.values()),
                                              " (only flat is supported)"));
  }
  const std::uint64_t bits = bss.values().flat().bits_per_value();
  if (bits != 16 && bits != 32 && bits != 64) {
    return Corrupt("byte_stream_split", "value width ", bits, " bits (expected 16, 32 or 64)");
  }
  LND_RETURN_NOT_OK(CheckCount("byte_stream_split", n));
  const std::uint64_t w = bits / 8;
  if (n * w > Size(bytes)) {
    return Corrupt("byte_stream_split", n, " values of ", w, " bytes need ", n * w, " bytes, have ",
                   Size(bytes));
  }
  std::uint8_t* out = nullptr;
  auto buffer = detail::Allocate(n * w, &out);
  const std::uint8_t* src = bytes->data();
  for (std::uint64_t j = 0; j < w; ++j) {
    for (std::uint64_t i = 0; i < n; ++i) out[i * w + j] = src[j * n + i];
  }
  return DataBlock::Fixed(bits, n, std::move(buffer));
}

// ---- fixed-size list ---------------------------------------------------------------------

struct FslShape {
  struct Layer {
    std::uint64_t dimension;
    bool has_validity;
    std::uint64_t cum_dim;
  };
  std::vector<Layer> layers;
  std::uint64_t cum_dim = 1;
  std::uint64_t item_bits = 0;
  std::uint64_t validity_layers = 0;
  std::uint64_t validity_bytes_per_row = 0;  // per-value layout
  bool inner_all_null = false;
};

Result<FslShape> ShapeOf(const pb::FixedSizeList& top) {
  FslShape s;
  const pb::FixedSizeList* fsl = &top;
  while (true) {
    if (fsl->items_per_value() == 0) {
      return Corrupt("fixed_size_list", "items_per_value is 0");
    }
    const auto cum = CheckedMul(s.cum_dim, fsl->items_per_value());
    if (!cum || *cum >= detail::kMaxDecodedValues) {
      return Corrupt("fixed_size_list", "implausible dimension ", fsl->items_per_value());
    }
    s.cum_dim = *cum;
    s.layers.push_back({fsl->items_per_value(), fsl->has_validity(), s.cum_dim});
    if (fsl->has_validity()) {
      ++s.validity_layers;
      s.validity_bytes_per_row += (s.cum_dim + 7) / 8;
    }
    const auto& inner = fsl->values();
    if (inner.compression_case() == Case::kFixedSizeList) {
      fsl = &inner.fixed_size_list();
      continue;
    }
    if (inner.compression_case() == Case::kFlat && !inner.flat().has_data()) {
      s.item_bits = inner.flat().bits_per_value();
      return s;
    }
    if (inner.compression_case() == Case::kConstant && !inner.constant().has_value()) {
      s.inner_all_null = true;  // every item null: no item bytes (Lance 12, full-zip pages)
      return s;
    }
    return Status::NotImplemented(detail::Cat("fixed_size_list: items encoded as ",
                                              EncodingName(inner),
                                              " (only flat or nested fixed_size_list)"));
  }
}

Result<DataBlock> DecodeFslMiniBlock(const pb::FixedSizeList& fsl,
                                     std::span<const BufferPtr> buffers, std::uint64_t n) {
  LND_ASSIGN_OR_RETURN(FslShape s, ShapeOf(fsl));
  LND_RETURN_NOT_OK(CheckCount("fixed_size_list", n));
  if (s.inner_all_null) {
    return Status::NotImplemented("fixed_size_list: mini-block items encoded as constant(null)");
  }
  if (buffers.size() != s.validity_layers + 1) {
    return Corrupt("fixed_size_list", "chunk has ", buffers.size(), " buffers, expected ",
                   s.validity_layers + 1, " (one per validity layer plus the items)");
  }
  const auto items = CheckedMul(n, s.cum_dim);
  const auto data_need = items ? detail::BytesForBitsChecked(*items, s.item_bits) : std::nullopt;
  if (!items || *items >= detail::kMaxDecodedValues || !data_need) {
    return Corrupt("fixed_size_list", "implausible item count for ", n, " rows");
  }
  std::vector<FslLayer> layers;
  std::size_t bi = 0;
  for (const auto& layer : s.layers) {
    layers.push_back({layer.dimension, nullptr});
    if (!layer.has_validity) continue;
    const std::uint64_t need = (n * layer.cum_dim + 7) / 8;
    if (Size(buffers[bi]) < need) {
      return Corrupt("fixed_size_list", "validity of ", n * layer.cum_dim, " items needs ", need,
                     " bytes, have ", Size(buffers[bi]));
    }
    layers.back().validity = detail::SliceUnchecked(buffers[bi], 0, need);
    ++bi;
  }
  const BufferPtr& data = buffers.back();
  if (Size(data) < *data_need) {
    return Corrupt("fixed_size_list", n, " rows of ", s.cum_dim, " items of ", s.item_bits,
                   " bits need ", *data_need, " bytes, have ", Size(data));
  }
  DataBlock out =
      DataBlock::Fixed(s.item_bits * s.cum_dim, n, detail::SliceUnchecked(data, 0, *data_need));
  out.items_per_value = s.cum_dim;
  out.fsl = std::move(layers);
  return out;
}

Result<DataBlock> DecodeFslPerValue(const pb::FixedSizeList& fsl, const BufferPtr& bytes,
                                    std::uint64_t n, std::uint64_t bits_per_value) {
  LND_ASSIGN_OR_RETURN(FslShape s, ShapeOf(fsl));
  LND_RETURN_NOT_OK(CheckCount("fixed_size_list", n));
  if (s.validity_layers > 0 && s.item_bits % 8 != 0) {
    return Status::NotImplemented(
        "fixed_size_list: per-value items with validity must be whole bytes");
  }
  const std::uint64_t data_bits_per_row = s.item_bits * s.cum_dim;
  const std::uint64_t row_bits = s.validity_bytes_per_row * 8 + data_bits_per_row;
  if (row_bits != bits_per_value) {
    return Corrupt("fixed_size_list", "rows of ", bits_per_value,
                   " bits do not match the encoding (", row_bits, " bits per row)");
  }
  const auto need = detail::BytesForBitsChecked(n, row_bits);
  if (!need || *need > Size(bytes)) {
    return Corrupt("fixed_size_list", n, " rows of ", row_bits, " bits need ",
                   need ? detail::Cat(*need) : std::string("too many"), " bytes, have ",
                   Size(bytes));
  }
  DataBlock out;
  std::vector<FslLayer> layers;
  for (const auto& layer : s.layers) layers.push_back({layer.dimension, nullptr});
  if (s.validity_layers == 0) {
    out = DataBlock::Fixed(row_bits, n, detail::SliceUnchecked(bytes, 0, *need));
  } else {
    const std::uint64_t row_bytes = row_bits / 8;
    const std::uint64_t data_row_bytes = data_bits_per_row / 8;
    std::uint8_t* data = nullptr;
    auto data_buf = detail::Allocate(n * data_row_bytes, &data);
    std::vector<std::uint8_t*> bitmaps;
    for (std::size_t li = 0; li < s.layers.size(); ++li) {
      if (!s.layers[li].has_validity) continue;
      std::uint8_t* bm = nullptr;
      layers[li].validity = detail::Allocate((n * s.layers[li].cum_dim + 7) / 8, &bm);
      bitmaps.push_back(bm);
    }
    const std::uint8_t* src = bytes->data();
    for (std::uint64_t r = 0; r < n; ++r) {
      const std::uint8_t* row = src + r * row_bytes;
      std::size_t vi = 0;
      for (const auto& layer : s.layers) {
        if (!layer.has_validity) continue;
        for (std::uint64_t j = 0; j < layer.cum_dim; ++j) {
          if (array::GetBit(row, static_cast<int64_t>(j))) {
            array::SetBit(bitmaps[vi], static_cast<int64_t>(r * layer.cum_dim + j));
          }
        }
        row += (layer.cum_dim + 7) / 8;
        ++vi;
      }
      std::memcpy(data + r * data_row_bytes, row, data_row_bytes);
    }
    out = DataBlock::Fixed(data_bits_per_row, n, std::move(data_buf));
  }
  out.bits_per_value = data_bits_per_row;
  out.items_per_value = s.cum_dim;
  out.fsl = std::move(layers);
  return out;
}

DataBlock DecodeConstant(const pb::Constant& c, std::uint64_t n) {
  if (c.has_value())
    return DataBlock::Constant(
        n, array::Buffer::Copy(c.value().data(), static_cast<int64_t>(c.value().size())));
  return DataBlock::AllNull(n);
}

}  // namespace

// ---- block context -----------------------------------------------------------------------

Result<DataBlock> DecodeBlock(const pb::CompressiveEncoding& ce, const BufferPtr& bytes_in,
                              std::uint64_t n) {
  const BufferPtr bytes = bytes_in ? bytes_in : array::Buffer::Empty();
  switch (ce.compression_case()) {
    case Case::kFlat:
      return DecodeFlat(ce.flat(), bytes, n);
    case Case::kVariable:
      return DecodeVariableBlock(bytes, n);
    case Case::kConstant:
      return DecodeConstant(ce.constant(), n);
    case Case::kInlineBitpacking:
      return DecodeInline(ce.inline_bitpacking(), bytes, n);
    case Case::kOutOfLineBitpacking:
      return DecodeOutOfLine(ce.out_of_line_bitpacking(), bytes, n);
    case Case::kRle: {
      LND_ASSIGN_OR_RETURN(const std::uint64_t width, RleValueWidth(ce.rle()));
      if (Size(bytes) < 8) {
        return Corrupt("rle (block)", "buffer of ", Size(bytes),
                       " bytes is shorter than its 8-byte size header");
      }
      const std::uint64_t values_size = LoadLE<std::uint64_t>(bytes->data());
      if (values_size > Size(bytes) - 8) {
        return Corrupt("rle (block)", "values of ", values_size, " bytes overrun the ", Size(bytes),
                       "-byte buffer");
      }
      return ExpandRuns(bytes->data() + 8, values_size, bytes->data() + 8 + values_size,
                        Size(bytes) - 8 - values_size, width, n);
    }
    case Case::kGeneral: {
      LND_ASSIGN_OR_RETURN(const GeneralScheme scheme, SchemeOf(ce.general().compression()));
      LND_ASSIGN_OR_RETURN(BufferPtr raw, GeneralDecompress(scheme, bytes->span()));
      return DecodeBlock(ce.general().values(), raw, n);
    }
    case Case::kFixedSizeList: {
      LND_ASSIGN_OR_RETURN(FslShape s, ShapeOf(ce.fixed_size_list()));
      if (s.validity_layers > 0) {
        return Status::NotImplemented("fixed_size_list with validity in the block context");
      }
      std::vector<BufferPtr> one{bytes};
      return DecodeFslMiniBlock(ce.fixed_size_list(), one, n);
    }
    default:
      return Unsupported(ce, "block");
  }
}

// ---- mini-block context ------------------------------------------------------------------

Result<DataBlock> DecodeMiniBlock(const pb::CompressiveEncoding& ce,
                                  std::span<const BufferPtr> buffers, std::uint64_t n) {
  auto one = [&](std::string_view name) -> Result<BufferPtr> {
    if (buffers.size() != 1) {
      return Corrupt(name, "chunk has ", buffers.size(), " value buffers, expected 1");
    }
    return buffers[0] ? buffers[0] : array::Buffer::Empty();
  };
  switch (ce.compression_case()) {
    case Case::kFlat: {
      LND_ASSIGN_OR_RETURN(BufferPtr b, one("flat"));
      return DecodeFlat(ce.flat(), b, n);
    }
    case Case::kInlineBitpacking: {
      LND_ASSIGN_OR_RETURN(BufferPtr b, one("inline bitpacking"));
      return DecodeInline(ce.inline_bitpacking(), b, n);
    }
    case Case::kVariable: {
      LND_ASSIGN_OR_RETURN(BufferPtr b, one("variable"));
      return DecodeVariableMiniBlock(ce.variable(), b, n);
    }
    case Case::kFsst: {
      LND_ASSIGN_OR_RETURN(
          FsstTable table,
          ParseFsstTable(std::span<const std::uint8_t>(
              reinterpret_cast<const std::uint8_t*>(ce.fsst().symbol_table().data()),
              ce.fsst().symbol_table().size())));
      LND_ASSIGN_OR_RETURN(DataBlock inner, DecodeMiniBlock(ce.fsst().values(), buffers, n));
      return FsstDecompress(table, inner);
    }
    case Case::kRle: {
      LND_ASSIGN_OR_RETURN(const std::uint64_t width, RleValueWidth(ce.rle()));
      if (buffers.size() != 2) {
        return Corrupt("rle", "chunk has ", buffers.size(), " value buffers, expected 2");
      }
      if (n == 0) return DataBlock::Fixed(width * 8, 0, nullptr);
      const BufferPtr v = buffers[0] ? buffers[0] : array::Buffer::Empty();
      const BufferPtr l = buffers[1] ? buffers[1] : array::Buffer::Empty();
      return ExpandRuns(v->data(), Size(v), l->data(), Size(l), width, n);
    }
    case Case::kByteStreamSplit: {
      LND_ASSIGN_OR_RETURN(BufferPtr b, one("byte_stream_split"));
      return DecodeBss(ce.byte_stream_split(), b, n);
    }
    case Case::kGeneral: {
      if (buffers.empty()) return Corrupt("general", "chunk has no value buffers");
      LND_ASSIGN_OR_RETURN(const GeneralScheme scheme, SchemeOf(ce.general().compression()));
      const BufferPtr first = buffers[0] ? buffers[0] : array::Buffer::Empty();
      LND_ASSIGN_OR_RETURN(BufferPtr raw, GeneralDecompress(scheme, first->span()));
      std::vector<BufferPtr> replaced(buffers.begin(), buffers.end());
      replaced[0] = std::move(raw);
      return DecodeMiniBlock(ce.general().values(), replaced, n);
    }
    case Case::kFixedSizeList:
      return DecodeFslMiniBlock(ce.fixed_size_list(), buffers, n);
    case Case::kPackedStruct: {
      std::uint64_t total = 0;
      for (std::uint64_t b : ce.packed_struct().bits_per_value()) {
        if (b % 8 != 0 || b > (std::uint64_t{1} << 20)) {
          return Corrupt("packed_struct", "child width ", b, " bits (expected whole bytes)");
        }
        total += b;
      }
      LND_ASSIGN_OR_RETURN(DataBlock rows,
                           DecodeMiniBlock(ce.packed_struct().values(), buffers, n));
      if (rows.kind != DataBlock::Kind::kFixedWidth || rows.bits_per_value != total) {
        return Corrupt("packed_struct", "rows of ", rows.bits_per_value,
                       " bits do not match the children's total of ", total, " bits");
      }
      return rows;
    }
    case Case::kConstant:
      return DecodeConstant(ce.constant(), n);
    default:
      return Unsupported(ce, "mini-block");
  }
}

std::uint64_t MiniBlockIntoBits(const pb::CompressiveEncoding& ce) {
  switch (ce.compression_case()) {
    case Case::kFlat:
      return !ce.flat().has_data() && IsWordWidth(ce.flat().bits_per_value())
                 ? ce.flat().bits_per_value()
                 : 0;
    case Case::kInlineBitpacking:
      return !ce.inline_bitpacking().has_values() &&
                     IsWordWidth(ce.inline_bitpacking().uncompressed_bits_per_value())
                 ? ce.inline_bitpacking().uncompressed_bits_per_value()
                 : 0;
    case Case::kByteStreamSplit: {
      const auto& v = ce.byte_stream_split().values();
      if (v.compression_case() != Case::kFlat || v.flat().has_data()) return 0;
      const std::uint64_t bits = v.flat().bits_per_value();
      return bits == 16 || bits == 32 || bits == 64 ? bits : 0;
    }
    case Case::kGeneral: {
      const auto scheme = ce.general().compression().scheme();
      if (scheme != pb::COMPRESSION_ALGORITHM_LZ4 && scheme != pb::COMPRESSION_ALGORITHM_ZSTD)
        return 0;
      const auto inner = ce.general().values().compression_case();
      if (inner != Case::kFlat && inner != Case::kInlineBitpacking &&
          inner != Case::kByteStreamSplit) {
        return 0;
      }
      return MiniBlockIntoBits(ce.general().values());
    }
    default:
      return 0;
  }
}

// Byte-stream-split of n values of W bytes: stream j holds byte j of every value.
template <std::size_t W>
void UnsplitInto(const std::uint8_t* src, std::uint64_t n, std::uint8_t* out) {
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint8_t v[W];
    for (std::size_t j = 0; j < W; ++j) v[j] = src[j * n + i];
    std::memcpy(out + i * W, v, W);
  }
}

static Status UnsplitBytesInto(std::span<const std::uint8_t> bytes, std::uint64_t w,
                               std::uint64_t n, std::uint8_t* out) {
  if (n * w > bytes.size()) {
    return Corrupt("byte_stream_split", n, " values of ", w, " bytes need ", n * w, " bytes, have ",
                   bytes.size());
  }
  if (w == 2) UnsplitInto<2>(bytes.data(), n, out);
  if (w == 4) UnsplitInto<4>(bytes.data(), n, out);
  if (w == 8) UnsplitInto<8>(bytes.data(), n, out);
  return Status::OK();
}

Status DecodeMiniBlockInto(const pb::CompressiveEncoding& ce, std::span<const BufferPtr> buffers,
                           std::uint64_t n, std::uint8_t* out) {
  const std::uint64_t bits = MiniBlockIntoBits(ce);
  if (bits == 0) return Unsupported(ce, "mini-block (into)");
  if (buffers.size() != 1) {
    return Corrupt(EncodingName(ce), "chunk has ", buffers.size(), " value buffers, expected 1");
  }
  const BufferPtr bytes = buffers[0] ? buffers[0] : array::Buffer::Empty();
  if (n >= detail::kMaxDecodedValues) {  // (the name is built only for the error: hot path)
    LND_RETURN_NOT_OK(CheckCount(EncodingName(ce), n));
  }
  switch (ce.compression_case()) {
    case Case::kFlat: {
      const std::uint64_t need = n * (bits / 8);
      if (need > Size(bytes)) {
        return Corrupt("flat", n, " values of ", bits, " bits need ", need, " bytes, have ",
                       Size(bytes));
      }
      if (need > 0) std::memcpy(out, bytes->data(), need);
      return Status::OK();
    }
    case Case::kInlineBitpacking:
      switch (bits) {
        case 8:
          return UnpackInlineInto<std::uint8_t>(bytes, n, out);
        case 16:
          return UnpackInlineInto<std::uint16_t>(bytes, n, out);
        case 32:
          return UnpackInlineInto<std::uint32_t>(bytes, n, out);
        default:
          return UnpackInlineInto<std::uint64_t>(bytes, n, out);
      }
    case Case::kByteStreamSplit:
      return UnsplitBytesInto(bytes->span(), bits / 8, n, out);
    case Case::kGeneral: {
      LND_ASSIGN_OR_RETURN(const GeneralScheme scheme, SchemeOf(ce.general().compression()));
      const pb::CompressiveEncoding& inner = ce.general().values();
      if (inner.compression_case() == Case::kByteStreamSplit) {
        // Decompressed into the thread's scratch (hot in cache, no buffer per chunk), then
        // un-split into the destination.
        thread_local std::vector<std::uint8_t> scratch;
        auto raw = GeneralDecompressToScratch(scheme, bytes->span(), &scratch);
        if (raw.ok()) return UnsplitBytesInto(*raw, bits / 8, n, out);
        if (raw.status().code() != StatusCode::kNotImplemented) return raw.status();
      }
      if (inner.compression_case() == Case::kFlat) {
        // Plain values: decompress straight into the destination.
        const std::span<std::uint8_t> dest(out, static_cast<std::size_t>(n * (bits / 8)));
        const Status st = GeneralDecompressInto(scheme, bytes->span(), dest);
        if (st.code() != StatusCode::kNotImplemented) return st;
      }
      LND_ASSIGN_OR_RETURN(BufferPtr raw, GeneralDecompress(scheme, bytes->span()));
      const BufferPtr one[1] = {raw};
      return DecodeMiniBlockInto(inner, one, n, out);
    }
    default:
      return Unsupported(ce, "mini-block (into)");
  }
}

Result<std::uint64_t> MiniBlockBufferCount(const pb::CompressiveEncoding& ce) {
  switch (ce.compression_case()) {
    case Case::kFlat:
    case Case::kInlineBitpacking:
    case Case::kVariable:
    case Case::kByteStreamSplit:
      return 1;
    case Case::kFsst:
      return MiniBlockBufferCount(ce.fsst().values());
    case Case::kRle:
      return 2;
    case Case::kGeneral:
      return MiniBlockBufferCount(ce.general().values());
    case Case::kPackedStruct:
      return MiniBlockBufferCount(ce.packed_struct().values());
    case Case::kFixedSizeList: {
      LND_ASSIGN_OR_RETURN(FslShape s, ShapeOf(ce.fixed_size_list()));
      return s.validity_layers + 1;
    }
    case Case::kConstant:
      return 0;
    default:
      return Unsupported(ce, "mini-block");
  }
}

// ---- per-value context -------------------------------------------------------------------

Result<DataBlock> DecodePerValueFixed(const pb::CompressiveEncoding& ce, const BufferPtr& bytes_in,
                                      std::uint64_t n, std::uint64_t bits_per_value) {
  const BufferPtr bytes = bytes_in ? bytes_in : array::Buffer::Empty();
  switch (ce.compression_case()) {
    case Case::kFlat:
      if (ce.flat().bits_per_value() != bits_per_value) {
        return Corrupt("flat", "page declares ", bits_per_value, " bits per value, encoding ",
                       ce.flat().bits_per_value());
      }
      return DecodeFlat(ce.flat(), bytes, n);
    case Case::kFixedSizeList:
      return DecodeFslPerValue(ce.fixed_size_list(), bytes, n, bits_per_value);
    case Case::kConstant:
      return DecodeConstant(ce.constant(), n);
    default:
      return Unsupported(ce, "per-value (fixed)");
  }
}

Result<DataBlock> DecodePerValueVariable(const pb::CompressiveEncoding& ce,
                                         const DataBlock& encoded) {
  switch (ce.compression_case()) {
    case Case::kVariable: {
      LND_RETURN_NOT_OK(detail::ValidateVariable(encoded, "variable"));
      return encoded;
    }
    case Case::kFsst: {
      LND_ASSIGN_OR_RETURN(
          FsstTable table,
          ParseFsstTable(std::span<const std::uint8_t>(
              reinterpret_cast<const std::uint8_t*>(ce.fsst().symbol_table().data()),
              ce.fsst().symbol_table().size())));
      LND_ASSIGN_OR_RETURN(DataBlock inner, DecodePerValueVariable(ce.fsst().values(), encoded));
      return FsstDecompress(table, inner);
    }
    case Case::kGeneral: {
      LND_RETURN_NOT_OK(detail::ValidateVariable(encoded, "general"));
      LND_ASSIGN_OR_RETURN(const GeneralScheme scheme, SchemeOf(ce.general().compression()));
      detail::VariableBuilder out(encoded.bits_per_offset);
      for (std::uint64_t i = 0; i < encoded.num_values; ++i) {
        const std::uint64_t b = detail::OffsetAt(encoded, i);
        const std::uint64_t e = detail::OffsetAt(encoded, i + 1);
        if (b == e) {  // empty values (and nulls) carry no bytes
          out.Append(nullptr, 0);
          continue;
        }
        LND_ASSIGN_OR_RETURN(BufferPtr raw,
                             GeneralDecompress(scheme, encoded.data->span().subspan(b, e - b)));
        out.Append(raw->data(), Size(raw));
      }
      LND_ASSIGN_OR_RETURN(DataBlock values, out.Finish());
      return DecodePerValueVariable(ce.general().values(), values);
    }
    default:
      return Unsupported(ce, "per-value (variable)");
  }
}

// ---- dictionaries ------------------------------------------------------------------------

Result<DataBlock> GatherDictionary(const DataBlock& dictionary, const DataBlock& indices) {
  constexpr std::string_view kName = "dictionary";
  if (indices.kind != DataBlock::Kind::kFixedWidth || !IsWordWidth(indices.bits_per_value)) {
    return Corrupt(kName, "indices must be 8/16/32/64-bit integers");
  }
  const std::uint64_t iw = indices.bits_per_value / 8;
  if (Size(indices.data) < indices.num_values * iw) {
    return Corrupt(kName, indices.num_values, " indices need ", indices.num_values * iw,
                   " bytes, have ", Size(indices.data));
  }
  auto index_at = [&](std::uint64_t i) -> std::uint64_t {
    const std::uint8_t* p = indices.data->data() + i * iw;
    switch (iw) {
      case 1:
        return *p;
      case 2:
        return LoadLE<std::uint16_t>(p);
      case 4:
        return LoadLE<std::uint32_t>(p);
      default:
        return LoadLE<std::uint64_t>(p);
    }
  };
  const std::uint64_t n = indices.num_values;
  const std::uint64_t items = dictionary.num_values;
  for (std::uint64_t i = 0; i < n; ++i) {
    if (index_at(i) >= items) {
      return Corrupt(kName, "index ", index_at(i), " at position ", i,
                     " is out of range for a dictionary of ", items, " items");
    }
  }
  if (dictionary.kind == DataBlock::Kind::kFixedWidth) {
    if (dictionary.bits_per_value % 8 != 0 || dictionary.bits_per_value == 0) {
      return Status::NotImplemented(detail::Cat("dictionary: items of ", dictionary.bits_per_value,
                                                " bits are not supported"));
    }
    const std::uint64_t w = dictionary.bits_per_value / 8;
    if (Size(dictionary.data) < items * w) {
      return Corrupt(kName, items, " items of ", w, " bytes need ", items * w, " bytes, have ",
                     Size(dictionary.data));
    }
    std::uint8_t* out = nullptr;
    auto buffer = detail::Allocate(n * w, &out);
    for (std::uint64_t i = 0; i < n; ++i) {
      std::memcpy(out + i * w, dictionary.data->data() + index_at(i) * w, w);
    }
    DataBlock result = DataBlock::Fixed(dictionary.bits_per_value, n, std::move(buffer));
    result.items_per_value = dictionary.items_per_value;
    for (const auto& layer : dictionary.fsl) result.fsl.push_back({layer.dimension, nullptr});
    return result;
  }
  if (dictionary.kind == DataBlock::Kind::kVariable) {
    LND_RETURN_NOT_OK(detail::ValidateVariable(dictionary, kName));
    std::uint64_t total = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t k = index_at(i);
      total += detail::OffsetAt(dictionary, k + 1) - detail::OffsetAt(dictionary, k);
    }
    if (total > (dictionary.bits_per_offset == 32 ? 0xFFFFFFFFull : (std::uint64_t{1} << 40))) {
      return Corrupt(kName, n, " indices materialise ", total, " bytes, more than ",
                     dictionary.bits_per_offset, "-bit offsets can address");
    }
    detail::VariableBuilder out(dictionary.bits_per_offset);
    out.Reserve(n, total);
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t k = index_at(i);
      const std::uint64_t b = detail::OffsetAt(dictionary, k);
      out.Append(dictionary.data->data() + b, detail::OffsetAt(dictionary, k + 1) - b);
    }
    auto r = out.Finish();
    if (!r.ok()) return Corrupt(kName, "materialised values exceed 32-bit offsets");
    return r;
  }
  return Status::NotImplemented("dictionary: constant or all-null dictionaries are not supported");
}

}  // namespace lance_nd::file::internal::encoding
