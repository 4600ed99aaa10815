// Block encoders (levels, dictionaries), level/dictionary heuristics, per-value encoders and
// the parsing of lance-encoding:* field metadata.
#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "encodings_v2_1.pb.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/internal/endian.h"
#include "lance_nd/file/encoding/compressive.h"
#include "lance_nd/file/encoding/encode_internal.h"
#include "lance_nd/file/encoding/fastlanes.h"
#include "lance_nd/file/encoding/fsst.h"
#include "lance_nd/file/encoding/general.h"
#include "lance_nd/file/encoding/util.h"
#include "lance_nd/file/encoding/variable_util.h"

namespace lance_nd::file::internal::encoding {
namespace {

using Case = pb::CompressiveEncoding::CompressionCase;
using detail::Size;

Status InvalidInput(std::string_view encoding, std::string_view what) {
  return Status::InvalidArgument(detail::Cat(encoding, ": ", what));
}

Status CheckFixedWord(const DataBlock& v, std::string_view encoding, std::uint64_t bits) {
  if (v.kind != DataBlock::Kind::kFixedWidth || v.bits_per_value != bits) {
    return InvalidInput(encoding, detail::Cat("expects fixed-width values of ", bits, " bits"));
  }
  if (Size(v.data) < v.num_values * bits / 8) {
    return InvalidInput(encoding, "the data buffer is smaller than num_values * bits_per_value");
  }
  return Status::OK();
}

template <typename T>
BufferPtr PackInlineBlocks(const std::uint8_t* data, std::uint64_t n) {
  std::vector<T> out;
  std::array<T, kFastLanesBlock> block{};
  std::array<T, kFastLanesBlock> packed{};
  for (std::uint64_t start = 0; start < n; start += kFastLanesBlock) {
    const std::uint64_t k = std::min<std::uint64_t>(kFastLanesBlock, n - start);
    block.fill(0);
    std::memcpy(block.data(), data + start * sizeof(T), k * sizeof(T));
    const std::size_t width = BitWidthOfMax(block.data(), kFastLanesBlock);
    out.push_back(static_cast<T>(width));
    FastLanesPack<T>(block.data(), width, packed.data());
    out.insert(out.end(), packed.begin(),
               packed.begin() + static_cast<std::ptrdiff_t>(FastLanesPackedWords<T>(width)));
  }
  return detail::BufferFromValues(out);
}

template <typename T>
BufferPtr PackOutOfLine(const std::uint8_t* data, std::uint64_t n, std::size_t width) {
  constexpr std::uint64_t kBits = sizeof(T) * 8;
  std::vector<T> out;
  std::array<T, kFastLanesBlock> block{};
  std::array<T, kFastLanesBlock> packed{};
  const std::uint64_t full = n / kFastLanesBlock;
  const std::uint64_t tail = n % kFastLanesBlock;
  const std::size_t wpc = FastLanesPackedWords<T>(width);
  auto pack = [&](std::uint64_t start, std::uint64_t k) {
    block.fill(0);
    std::memcpy(block.data(), data + start * sizeof(T), k * sizeof(T));
    FastLanesPack<T>(block.data(), width, packed.data());
    out.insert(out.end(), packed.begin(), packed.begin() + static_cast<std::ptrdiff_t>(wpc));
  };
  for (std::uint64_t b = 0; b < full; ++b) pack(b * kFastLanesBlock, kFastLanesBlock);
  if (tail > 0) {
    // Pack the tail iff padding costs less than the bits saved (Lance's rule).
    const std::uint64_t padding_cost = width * (kFastLanesBlock - tail);
    const std::uint64_t savings = (kBits - width) * tail;
    if (padding_cost < savings) {
      pack(full * kFastLanesBlock, tail);
    } else {
      const T* src = reinterpret_cast<const T*>(data);  // read via memcpy below
      (void)src;
      for (std::uint64_t i = 0; i < tail; ++i) {
        out.push_back(LoadLE<T>(data + (full * kFastLanesBlock + i) * sizeof(T)));
      }
    }
  }
  return detail::BufferFromValues(out);
}

template <typename F>
Result<BufferPtr> ByWidth(std::uint64_t bits, std::string_view encoding, F&& f) {
  switch (bits) {
    case 8:
      return f(std::uint8_t{});
    case 16:
      return f(std::uint16_t{});
    case 32:
      return f(std::uint32_t{});
    case 64:
      return f(std::uint64_t{});
    default:
      return InvalidInput(encoding, "values must be 8, 16, 32 or 64 bits");
  }
}

}  // namespace

Result<BufferPtr> EncodeBlock(const pb::CompressiveEncoding& ce, const DataBlock& values) {
  switch (ce.compression_case()) {
    case Case::kFlat: {
      const std::uint64_t bits = ce.flat().bits_per_value();
      if (values.kind != DataBlock::Kind::kFixedWidth || values.bits_per_value != bits) {
        return InvalidInput("flat", "encoding width differs from the values' width");
      }
      const auto need = detail::BytesForBitsChecked(values.num_values, bits);
      if (!need || Size(values.data) < *need) {
        return InvalidInput("flat", "the data buffer is too short");
      }
      return detail::SliceUnchecked(values.data, 0, *need);
    }
    case Case::kVariable: {
      LND_RETURN_NOT_OK(detail::ValidateVariable(values, "variable"));
      const std::uint64_t w = values.bits_per_offset / 8;
      const std::uint64_t header = 2 * w;
      const std::uint64_t data_start = header + (values.num_values + 1) * w;
      const std::uint64_t base = detail::OffsetAt(values, 0);
      const std::uint64_t bytes = detail::OffsetAt(values, values.num_values) - base;
      std::vector<std::uint8_t> out(data_start + bytes);
      if (w == 4) {
        StoreLE<std::uint32_t>(out.data(), 32);
        StoreLE<std::uint32_t>(out.data() + 4, static_cast<std::uint32_t>(data_start));
      } else {
        StoreLE<std::uint64_t>(out.data(), 64);
        StoreLE<std::uint64_t>(out.data() + 8, data_start);
      }
      for (std::uint64_t i = 0; i <= values.num_values; ++i) {
        const std::uint64_t off = detail::OffsetAt(values, i) - base;
        if (w == 4) {
          StoreLE(out.data() + header + i * 4, static_cast<std::uint32_t>(off));
        } else {
          StoreLE(out.data() + header + i * 8, off);
        }
      }
      if (bytes > 0) std::memcpy(out.data() + data_start, values.data->data() + base, bytes);
      return array::Buffer::FromVector(std::move(out));
    }
    case Case::kConstant:
      return array::Buffer::Empty();
    case Case::kInlineBitpacking: {
      const std::uint64_t bits = ce.inline_bitpacking().uncompressed_bits_per_value();
      LND_RETURN_NOT_OK(CheckFixedWord(values, "inline bitpacking", bits));
      return ByWidth(bits, "inline bitpacking", [&](auto t) {
        return PackInlineBlocks<decltype(t)>(values.data->data(), values.num_values);
      });
    }
    case Case::kOutOfLineBitpacking: {
      const auto& ob = ce.out_of_line_bitpacking();
      const std::uint64_t bits = ob.uncompressed_bits_per_value();
      LND_RETURN_NOT_OK(CheckFixedWord(values, "out-of-line bitpacking", bits));
      if (ob.values().compression_case() != Case::kFlat ||
          ob.values().flat().bits_per_value() > bits) {
        return InvalidInput("out-of-line bitpacking", "packed width must be flat(w), w <= bits");
      }
      const std::size_t width = static_cast<std::size_t>(ob.values().flat().bits_per_value());
      return ByWidth(bits, "out-of-line bitpacking", [&](auto t) -> BufferPtr {
        using T = decltype(t);
        // Values wider than the packed width would be truncated silently: refuse.
        return PackOutOfLine<T>(values.data->data(), values.num_values, width);
      });
    }
    case Case::kRle: {
      if (ce.rle().values().compression_case() != Case::kFlat) {
        return InvalidInput("rle", "values must be flat");
      }
      const std::uint64_t bits = ce.rle().values().flat().bits_per_value();
      LND_RETURN_NOT_OK(CheckFixedWord(values, "rle", bits));
      const std::uint64_t w = bits / 8;
      if (w != 1 && w != 2 && w != 4 && w != 8) {
        return InvalidInput("rle", "values must be 8, 16, 32 or 64 bits");
      }
      std::vector<std::uint8_t> vals;
      std::vector<std::uint8_t> lens;
      const std::uint8_t* d = values.data->data();
      // Runs of equal values (at most 255 long), compared as words of the value's width.
      auto runs = [&](auto t) {
        using T = decltype(t);
        const std::uint64_t n = values.num_values;
        std::uint64_t i = 0;
        while (i < n) {
          T cur;
          std::memcpy(&cur, d + i * w, sizeof(T));
          std::uint64_t j = i + 1;
          const std::uint64_t limit = std::min<std::uint64_t>(n, i + 255);
          // Long runs (levels are mostly one value): compare 8 bytes at a time first.
          if constexpr (sizeof(T) < 8) {
            std::uint64_t pattern = 0;
            for (std::size_t k = 0; k < 8 / sizeof(T); ++k) {
              pattern |= static_cast<std::uint64_t>(cur) << (8 * sizeof(T) * k);
            }
            while (j + 8 / sizeof(T) <= limit) {
              std::uint64_t word;
              std::memcpy(&word, d + j * w, 8);
              if (word != pattern) break;
              j += 8 / sizeof(T);
            }
          }
          while (j < limit) {
            T next;
            std::memcpy(&next, d + j * w, sizeof(T));
            if (next != cur) break;
            ++j;
          }
          vals.insert(vals.end(), d + i * w, d + (i + 1) * w);
          lens.push_back(static_cast<std::uint8_t>(j - i));
          i = j;
        }
      };
      switch (w) {
        case 1:
          runs(std::uint8_t{});
          break;
        case 2:
          runs(std::uint16_t{});
          break;
        case 4:
          runs(std::uint32_t{});
          break;
        default:
          runs(std::uint64_t{});
          break;
      }
      std::vector<std::uint8_t> out(8 + vals.size() + lens.size());
      StoreLE<std::uint64_t>(out.data(), vals.size());
      if (!vals.empty()) std::memcpy(out.data() + 8, vals.data(), vals.size());
      if (!lens.empty()) std::memcpy(out.data() + 8 + vals.size(), lens.data(), lens.size());
      return array::Buffer::FromVector(std::move(out));
    }
    case Case::kGeneral: {
      LND_ASSIGN_OR_RETURN(BufferPtr inner, EncodeBlock(ce.general().values(), values));
      const auto& c = ce.general().compression();
      const GeneralScheme s =
          c.scheme() == pb::COMPRESSION_ALGORITHM_ZSTD ? GeneralScheme::kZstd : GeneralScheme::kLz4;
      return GeneralCompress(s, inner->span(),
                             c.has_level() ? std::optional<std::int32_t>(c.level()) : std::nullopt);
    }
    case Case::kFixedSizeList: {
      if (values.kind != DataBlock::Kind::kFixedWidth) {
        return InvalidInput("fixed_size_list", "expects fixed-width rows");
      }
      for (const auto& l : values.fsl) {
        if (l.validity) {
          return Status::NotImplemented("fixed_size_list with validity in the block context");
        }
      }
      const auto need = detail::BytesForBitsChecked(values.num_values, values.bits_per_value);
      if (!need || Size(values.data) < *need) {
        return InvalidInput("fixed_size_list", "the data buffer is too short");
      }
      return detail::SliceUnchecked(values.data, 0, *need);
    }
    default:
      return Status::NotImplemented(
          detail::Cat("encoding ", EncodingName(ce), " cannot be written as a block"));
  }
}

Result<BufferPtr> EncodeLevels(const pb::CompressiveEncoding& ce,
                               std::span<const std::uint16_t> levels) {
  if (ce.compression_case() == Case::kFlat && ce.flat().bits_per_value() == 16) {
    // flat levels are the bytes themselves (the block would be a view of them)
    return array::Buffer::Copy(levels.data(), static_cast<int64_t>(levels.size() * 2));
  }
  // A view: every other encoder writes a new buffer (or fails).
  auto data =
      std::make_shared<const array::Buffer>(reinterpret_cast<const std::uint8_t*>(levels.data()),
                                            static_cast<int64_t>(levels.size() * 2), nullptr);
  return EncodeBlock(ce, DataBlock::Fixed(16, levels.size(), std::move(data)));
}

Result<std::shared_ptr<pb::CompressiveEncoding>> ChooseLevelEncoding(
    std::span<const std::uint16_t> levels, FormatVersion version) {
  const std::uint64_t n = levels.size();
  if (n == 0) return detail::Share(MakeFlat(16));
  if (version == FormatVersion::k2_2) {
    std::uint64_t runs = 1;
    for (std::size_t i = 1; i < levels.size(); ++i) runs += levels[i] != levels[i - 1] ? 1 : 0;
    if (static_cast<double>(runs) < 0.5 * static_cast<double>(n)) {
      return detail::Share(MakeRle(16));
    }
  }
  std::uint16_t acc = 0;
  for (std::uint16_t l : levels) acc = static_cast<std::uint16_t>(acc | l);
  std::uint64_t width = 0;
  while (acc != 0) {
    ++width;
    acc = static_cast<std::uint16_t>(acc >> 1);
  }
  const std::uint64_t raw = n * 2;
  if (width < 16) {
    if (n <= kFastLanesBlock) {
      const std::uint64_t packed = 2 + 128 * width;
      if (packed < raw) return detail::Share(MakeInlineBitpacking(16));
    } else {
      const std::uint64_t full = n / kFastLanesBlock;
      const std::uint64_t tail = n % kFastLanesBlock;
      const std::uint64_t tail_bytes =
          tail == 0 ? 0 : std::min<std::uint64_t>(128 * width, tail * 2);
      if (full * 128 * width + tail_bytes < raw) {
        return detail::Share(MakeOutOfLineBitpacking(16, width));
      }
    }
  }
  return detail::Share(MakeFlat(16));
}

// ---- dictionaries ------------------------------------------------------------------------

Result<std::optional<DictionaryEncoded>> MaybeDictionaryEncode(const DataBlock& values,
                                                               const EncodingRequest& request) {
  constexpr std::uint64_t kMinValues = 100;
  const std::uint64_t n = values.num_values;
  if (n < kMinValues) return std::optional<DictionaryEncoded>();
  const bool variable = values.kind == DataBlock::Kind::kVariable;
  const bool fixed64 = values.kind == DataBlock::Kind::kFixedWidth && values.bits_per_value == 64 &&
                       values.fsl.empty() && request.version == FormatVersion::k2_2;
  if (!variable && !fixed64) return std::optional<DictionaryEncoded>();
  if (variable) LND_RETURN_NOT_OK(detail::ValidateVariable(values, "dictionary"));
  if (fixed64 && Size(values.data) < n * 8) {
    return InvalidInput("dictionary", "the data buffer is too short");
  }
  std::uint64_t max_unique = request.dict_max_cardinality;
  if (request.dict_divisor && *request.dict_divisor > 0) {
    max_unique = std::min(max_unique, n / *request.dict_divisor);
  }
  auto value_at = [&](std::uint64_t i) -> std::string_view {
    if (variable) {
      const std::uint64_t b = detail::OffsetAt(values, i);
      return {reinterpret_cast<const char*>(values.data->data() + b),
              static_cast<std::size_t>(detail::OffsetAt(values, i + 1) - b)};
    }
    return {reinterpret_cast<const char*>(values.data->data() + i * 8), 8};
  };
  // Unique values by open addressing in a table sized for max_unique + 1 entries (no
  // allocation per value; most pages give up after max_unique distinct values).
  auto hash_of = [&](std::string_view v) -> std::uint64_t {
    if (variable) return std::hash<std::string_view>{}(v);
    std::uint64_t x = 0;  // splitmix64 of the 8 bytes
    std::memcpy(&x, v.data(), 8);
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
  };
  constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
  const std::uint64_t slots_needed = 2 * (std::min(max_unique, n) + 1);
  const std::uint64_t mask = std::bit_ceil(std::max<std::uint64_t>(slots_needed, 16)) - 1;
  std::vector<std::uint32_t> slots(mask + 1, kEmpty);  // unique id, or kEmpty
  std::vector<std::uint64_t> order;                    // first occurrence of each unique value
  std::vector<std::uint64_t> unique_hash;              // its hash
  std::vector<std::uint32_t> indices(n);
  std::uint64_t unique_bytes = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::string_view v = value_at(i);
    const std::uint64_t h = hash_of(v);
    std::uint64_t pos = h & mask;
    while (slots[pos] != kEmpty) {
      const std::uint32_t id = slots[pos];
      if (unique_hash[id] == h && value_at(order[id]) == v) break;
      pos = (pos + 1) & mask;
    }
    if (slots[pos] == kEmpty) {
      slots[pos] = static_cast<std::uint32_t>(order.size());
      order.push_back(i);
      unique_hash.push_back(h);
      unique_bytes += v.size();
      if (order.size() > max_unique) return std::optional<DictionaryEncoded>();
    }
    indices[i] = slots[pos];
  }
  const std::uint64_t index_bytes = n * 4;
  const std::uint64_t dict_bytes =
      unique_bytes + (variable ? (order.size() + 1) * (values.bits_per_offset / 8) : 0);
  const double raw = static_cast<double>(values.DataSize());
  if (static_cast<double>(dict_bytes + index_bytes) >= request.dict_size_ratio * raw) {
    return std::optional<DictionaryEncoded>();
  }
  DictionaryEncoded out;
  if (variable && values.bits_per_offset == 64) {
    std::vector<std::uint64_t> wide(indices.begin(), indices.end());
    out.indices = DataBlock::Fixed(64, n, detail::BufferFromValues(wide));
  } else {
    out.indices = DataBlock::Fixed(32, n, detail::BufferFromValues(indices));
  }
  pb::CompressiveEncoding items;
  if (variable) {
    detail::VariableBuilder dict(values.bits_per_offset);
    for (std::uint64_t i : order) {
      const std::string_view v = value_at(i);
      dict.Append(reinterpret_cast<const std::uint8_t*>(v.data()), v.size());
    }
    LND_ASSIGN_OR_RETURN(out.dictionary, dict.Finish());
    items = MakeVariable(values.bits_per_offset);
  } else {
    std::vector<std::uint8_t> bytes;
    bytes.reserve(order.size() * 8);
    for (std::uint64_t i : order) {
      const std::string_view v = value_at(i);
      bytes.insert(bytes.end(), v.begin(), v.end());
    }
    out.dictionary =
        DataBlock::Fixed(64, order.size(), array::Buffer::FromVector(std::move(bytes)));
    items = MakeFlat(64);
  }
  if (request.version == FormatVersion::k2_2) {
    // Lance 12 compresses 2.2 dictionaries with LZ4 by default.
    items = MakeGeneral(EncodingRequest::Compression::kLz4, std::nullopt, std::move(items));
  }
  out.dictionary_encoding = detail::Share(std::move(items));
  LND_ASSIGN_OR_RETURN(out.dictionary_bytes, EncodeBlock(*out.dictionary_encoding, out.dictionary));
  return std::optional<DictionaryEncoded>(std::move(out));
}

// ---- per-value (full-zip) ----------------------------------------------------------------

Result<PerValueEncoded> EncodePerValue(const DataBlock& values, const EncodingRequest& request) {
  using C = EncodingRequest::Compression;
  PerValueEncoded out;
  if (values.kind == DataBlock::Kind::kFixedWidth) {
    const auto need = detail::BytesForBitsChecked(values.num_values, values.bits_per_value);
    if (!need || Size(values.data) < *need) {
      return InvalidInput("per-value", "the data buffer is too short");
    }
    if (values.fsl.empty()) {
      out.encoding = detail::Share(MakeFlat(values.bits_per_value));
      out.values = values;
      return out;
    }
    std::uint64_t cum = 1;
    std::uint64_t validity_bytes = 0;
    for (const auto& l : values.fsl) {
      cum *= l.dimension;
      if (l.validity) validity_bytes += (cum + 7) / 8;
    }
    if (cum == 0 || cum != values.items_per_value || values.bits_per_value % cum != 0) {
      return InvalidInput("fixed_size_list",
                          "items_per_value must equal the product of the layer dimensions");
    }
    const std::uint64_t item_bits = values.bits_per_value / cum;
    out.encoding = detail::Share(MakeFixedSizeList(values.fsl, item_bits));
    if (validity_bytes == 0) {
      out.values = DataBlock::Fixed(values.bits_per_value, values.num_values, values.data);
      return out;
    }
    if (item_bits % 8 != 0) {
      return Status::NotImplemented(
          "fixed_size_list: per-value items with validity must be whole bytes");
    }
    const std::uint64_t data_row = values.bits_per_value / 8;
    const std::uint64_t row = validity_bytes + data_row;
    std::uint8_t* dst = nullptr;
    auto zipped = detail::Allocate(row * values.num_values, &dst);
    for (std::uint64_t r = 0; r < values.num_values; ++r) {
      std::uint8_t* p = dst + r * row;
      std::uint64_t c = 1;
      for (const auto& l : values.fsl) {
        c *= l.dimension;
        if (!l.validity) continue;
        if (Size(l.validity) < (values.num_values * c + 7) / 8) {
          return InvalidInput("fixed_size_list", "a validity bitmap is too short");
        }
        for (std::uint64_t j = 0; j < c; ++j) {
          if (array::GetBit(l.validity->data(), static_cast<int64_t>(r * c + j))) {
            array::SetBit(p, static_cast<int64_t>(j));
          }
        }
        p += (c + 7) / 8;
      }
      std::memcpy(p, values.data->data() + r * data_row, data_row);
    }
    out.values = DataBlock::Fixed(row * 8, values.num_values, std::move(zipped));
    return out;
  }
  if (values.kind != DataBlock::Kind::kVariable) {
    return Status::InvalidArgument("per-value: constant/all-null values use the constant layout");
  }
  LND_RETURN_NOT_OK(detail::ValidateVariable(values, "variable"));
  std::uint64_t max_len = 0;
  for (std::uint64_t i = 0; i < values.num_values; ++i) {
    max_len = std::max(max_len, detail::OffsetAt(values, i + 1) - detail::OffsetAt(values, i));
  }
  const std::uint64_t data_size =
      detail::OffsetAt(values, values.num_values) - detail::OffsetAt(values, 0);
  const pb::CompressiveEncoding variable = MakeVariable(values.bits_per_offset);
  if (request.compression == C::kNone) {
    out.encoding = detail::Share(variable);
    out.values = values;
    return out;
  }
  const bool per_value_general = request.compression == C::kLz4 || request.compression == C::kZstd;
  if ((max_len > 32 * 1024 || per_value_general) && data_size >= 32 * 1024) {
    // Per value, Lance 12 compresses with zstd even when lz4 is asked for (its reader fails
    // on per-value lz4: "LZ4 compressed data too short"); so do we.
    const C scheme = C::kZstd;
    const GeneralScheme s = GeneralScheme::kZstd;
    const auto level = request.compression == C::kZstd ? request.compression_level : std::nullopt;
    detail::VariableBuilder b(values.bits_per_offset);
    for (std::uint64_t i = 0; i < values.num_values; ++i) {
      const std::uint64_t off = detail::OffsetAt(values, i);
      const std::uint64_t len = detail::OffsetAt(values, i + 1) - off;
      if (len == 0) {
        b.Append(nullptr, 0);
        continue;
      }
      LND_ASSIGN_OR_RETURN(BufferPtr c,
                           GeneralCompress(s, values.data->span().subspan(off, len), level));
      b.Append(c->data(), Size(c));
    }
    LND_ASSIGN_OR_RETURN(out.values, b.Finish());
    out.encoding = detail::Share(MakeGeneral(scheme, level, variable));
    return out;
  }
  if (request.compression == C::kFsst || (max_len >= 5 && data_size >= 32 * 1024)) {
    LND_ASSIGN_OR_RETURN(FsstCompressed f, FsstCompress(values, request.compression == C::kFsst));
    pb::CompressiveEncoding ce;
    auto table = SerializeFsstTable(f.table);
    ce.mutable_fsst()->set_symbol_table(std::string(reinterpret_cast<const char*>(table->data()),
                                                    static_cast<std::size_t>(table->size())));
    *ce.mutable_fsst()->mutable_values() = variable;
    out.encoding = detail::Share(std::move(ce));
    out.values = std::move(f.values);
    return out;
  }
  out.encoding = detail::Share(variable);
  out.values = values;
  return out;
}

// ---- field metadata ----------------------------------------------------------------------

Result<EncodingRequest> EncodingRequest::FromFieldMetadata(const array::Metadata& metadata,
                                                           FormatVersion version) {
  EncodingRequest r;
  r.version = version;
  auto bad = [](std::string_view key, std::string_view value, std::string_view expected) {
    return Status::InvalidArgument(
        detail::Cat("field metadata ", key, " = '", value, "' is invalid; expected ", expected));
  };
  if (auto v = metadata.Get("lance-encoding:compression")) {
    if (*v == "none") {
      r.compression = Compression::kNone;
    } else if (*v == "lz4") {
      r.compression = Compression::kLz4;
    } else if (*v == "zstd") {
      r.compression = Compression::kZstd;
    } else if (*v == "fsst") {
      r.compression = Compression::kFsst;
    } else {
      return bad("lance-encoding:compression", *v, "none, lz4, zstd or fsst");
    }
  }
  if (auto v = metadata.Get("lance-encoding:compression-level")) {
    std::int32_t level = 0;
    const auto res = std::from_chars(v->data(), v->data() + v->size(), level);
    if (res.ec != std::errc() || res.ptr != v->data() + v->size()) {
      return bad("lance-encoding:compression-level", *v, "an integer");
    }
    r.compression_level = level;
  }
  if (auto v = metadata.Get("lance-encoding:bss")) {
    if (*v == "auto") {
      r.bss = Bss::kAuto;
    } else if (*v == "on" || *v == "true") {
      r.bss = Bss::kOn;
    } else if (*v == "off" || *v == "false") {
      r.bss = Bss::kOff;
    } else {
      return bad("lance-encoding:bss", *v, "auto, on or off");
    }
  }
  auto parse_double = [&](std::string_view key, double lo,
                          double hi) -> Result<std::optional<double>> {
    auto v = metadata.Get(key);
    if (!v) return std::optional<double>();
    try {
      std::size_t used = 0;
      const double d = std::stod(std::string(*v), &used);
      if (used != v->size() || !(d >= lo && d <= hi)) {
        return bad(key, *v, detail::Cat("a number in [", lo, ", ", hi, "]"));
      }
      return std::optional<double>(d);
    } catch (...) {
      return bad(key, *v, "a number");
    }
  };
  LND_ASSIGN_OR_RETURN(auto rle, parse_double("lance-encoding:rle-threshold", 0.0, 1.0));
  if (rle) r.rle_threshold = *rle;
  LND_ASSIGN_OR_RETURN(auto ratio, parse_double("lance-encoding:dict-size-ratio", 0.0, 1.0));
  if (ratio) r.dict_size_ratio = *ratio;
  if (auto v = metadata.Get("lance-encoding:dict-divisor")) {
    std::uint64_t d = 0;
    const auto res = std::from_chars(v->data(), v->data() + v->size(), d);
    if (res.ec != std::errc() || res.ptr != v->data() + v->size() || d == 0) {
      return bad("lance-encoding:dict-divisor", *v, "a positive integer");
    }
    r.dict_divisor = d;
  }
  return r;
}

}  // namespace lance_nd::file::internal::encoding
