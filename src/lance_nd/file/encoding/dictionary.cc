// Page dictionaries: the choice to dictionary-encode a page (Lance 12's heuristics), its
// distinct values and indices; and the mapping of decoded indices back through the dictionary.
#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>
#include <string_view>
#include <vector>

#include "lance_nd/core/internal/endian.h"
#include "lance_nd/file/encoding/compressive.h"
#include "lance_nd/file/encoding/distinct_values.h"
#include "lance_nd/file/encoding/encode_internal.h"
#include "lance_nd/file/encoding/util.h"
#include "lance_nd/file/encoding/variable_util.h"

namespace lance_nd::file::internal::encoding {

using detail::Corrupt;
using detail::Size;

Result<std::optional<DictionaryEncoded>> MaybeDictionaryEncode(const DataBlock& values,
                                                               const EncodingRequest& request) {
  constexpr std::uint64_t kMinValues = 100;
  const std::uint64_t n = values.num_values;
  if (n < kMinValues) return std::optional<DictionaryEncoded>();
  const bool variable = values.kind == DataBlock::Kind::kVariable;
  const bool fixed64 = values.kind == DataBlock::Kind::kFixedWidth && values.bits_per_value == 64 &&
                       values.fsl.empty() && request.version >= FileVersion::kV2_2;
  if (!variable && !fixed64) return std::optional<DictionaryEncoded>();
  if (variable) LND_RETURN_NOT_OK(detail::ValidateVariable(values, "dictionary"));
  if (fixed64 && Size(values.data) < n * 8) {
    return detail::InvalidInput("dictionary", "the data buffer is too short");
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
  detail::DistinctLimits limits;
  limits.max_unique = max_unique;
  limits.offset_bytes = variable ? values.bits_per_offset / 8 : 0;
  limits.size_limit = request.dict_size_ratio * static_cast<double>(values.DataSize());
  if (static_cast<double>(n * 4) >= limits.size_limit) return std::optional<DictionaryEncoded>();
  std::optional<detail::DistinctValues> distinct = detail::FindDistinctValues(values, limits);
  if (!distinct) return std::optional<DictionaryEncoded>();
  detail::BigVector<std::uint32_t>& indices = distinct->indices;
  const std::vector<std::uint64_t>& order = distinct->first;
  DictionaryEncoded out;
  if (variable && values.bits_per_offset == 64) {
    detail::BigVector<std::uint64_t> wide(indices.begin(), indices.end());
    out.indices = DataBlock::Fixed(64, n, detail::BufferFromValues(std::move(wide)));
  } else {
    out.indices = DataBlock::Fixed(32, n, detail::BufferFromValues(std::move(indices)));
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
  if (request.version >= FileVersion::kV2_2) {
    // Lance 12 compresses 2.2 dictionaries with LZ4 by default.
    items = MakeGeneral(EncodingRequest::Compression::kLz4, std::nullopt, std::move(items));
  }
  out.dictionary_encoding = detail::Share(std::move(items));
  LND_ASSIGN_OR_RETURN(out.dictionary_bytes, EncodeBlock(*out.dictionary_encoding, out.dictionary));
  return std::optional<DictionaryEncoded>(std::move(out));
}

namespace {

// Variable-width items gathered by index straight into the result's buffers (offsets of the
// dictionary's width, from 0); indices and offsets are validated and `total` bytes fit them.
template <typename Index, typename Offset>
DataBlock GatherVariableItems(const DataBlock& dictionary, const DataBlock& indices,
                              std::uint64_t total) {
  const std::uint64_t n = indices.num_values;
  const std::uint8_t* in = indices.data->data();
  const std::uint8_t* item_offsets = dictionary.offsets->data();
  const std::uint8_t* items = dictionary.data ? dictionary.data->data() : nullptr;
  std::uint8_t* offsets = nullptr;
  BufferPtr offsets_buffer = detail::Allocate((n + 1) * sizeof(Offset), &offsets);
  std::uint8_t* data = nullptr;
  BufferPtr data_buffer = detail::Allocate(total, &data);
  Offset pos = 0;
  StoreLE<Offset>(offsets, pos);
  for (std::uint64_t i = 0; i < n; ++i) {
    const auto k = static_cast<std::uint64_t>(LoadLE<Index>(in + i * sizeof(Index)));
    const Offset b = LoadLE<Offset>(item_offsets + k * sizeof(Offset));
    const Offset len = LoadLE<Offset>(item_offsets + (k + 1) * sizeof(Offset)) - b;
    if (len > 0) std::memcpy(data + pos, items + b, len);
    pos = static_cast<Offset>(pos + len);
    StoreLE<Offset>(offsets + (i + 1) * sizeof(Offset), pos);
  }
  return DataBlock::Variable(dictionary.bits_per_offset, n, std::move(offsets_buffer),
                             std::move(data_buffer));
}

template <typename Index>
DataBlock GatherVariableItems(const DataBlock& dictionary, const DataBlock& indices,
                              std::uint64_t total) {
  return dictionary.bits_per_offset == 64
             ? GatherVariableItems<Index, std::uint64_t>(dictionary, indices, total)
             : GatherVariableItems<Index, std::uint32_t>(dictionary, indices, total);
}

}  // namespace

Result<DataBlock> GatherDictionary(const DataBlock& dictionary, const DataBlock& indices) {
  constexpr std::string_view kName = "dictionary";
  if (indices.kind != DataBlock::Kind::kFixedWidth ||
      !detail::IsWordWidth(indices.bits_per_value)) {
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
      return Status::NotImplemented("dictionary: items of ", dictionary.bits_per_value,
                                    " bits are not supported");
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
    switch (iw) {
      case 1:
        return GatherVariableItems<std::uint8_t>(dictionary, indices, total);
      case 2:
        return GatherVariableItems<std::uint16_t>(dictionary, indices, total);
      case 4:
        return GatherVariableItems<std::uint32_t>(dictionary, indices, total);
      default:
        return GatherVariableItems<std::uint64_t>(dictionary, indices, total);
    }
  }
  return Status::NotImplemented("dictionary: constant or all-null dictionaries are not supported");
}

}  // namespace lance_nd::file::internal::encoding
