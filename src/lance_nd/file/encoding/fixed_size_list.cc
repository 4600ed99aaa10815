// fixed_size_list: rows of `dimension` items (nested layers multiply), items flat. Each layer
// may carry an item validity bitmap: in a mini-block chunk as its own buffer (outermost first,
// then the items); per value (full-zip) as bytes in front of each row's items.
#include <algorithm>
#include <cstring>
#include <vector>

#include "lance_nd/file/encoding/encode_internal.h"
#include "lance_nd/file/encoding/schemes.h"
#include "lance_nd/file/encoding/util.h"

namespace lance_nd::file::internal::encoding::detail {
namespace {

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
    if (!cum || *cum >= kMaxDecodedValues) {
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
    return Status::NotImplemented("fixed_size_list: items encoded as ", EncodingName(inner),
                                  " (only flat or nested fixed_size_list)");
  }
}

// Un-zips n rows of `row_bytes` (each layer's validity bytes, then the items) into the items
// and one bitmap per layer with validity.
DataBlock UnzipRows(const FslShape& s, const BufferPtr& bytes, std::uint64_t n,
                    std::uint64_t row_bytes, std::vector<FslLayer>* layers) {
  const std::uint64_t data_row_bytes = s.item_bits * s.cum_dim / 8;
  std::uint8_t* data = nullptr;
  auto data_buf = Allocate(n * data_row_bytes, &data);
  std::vector<std::uint8_t*> bitmaps;
  for (std::size_t li = 0; li < s.layers.size(); ++li) {
    if (!s.layers[li].has_validity) continue;
    std::uint8_t* bm = nullptr;
    (*layers)[li].validity = Allocate((n * s.layers[li].cum_dim + 7) / 8, &bm);
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
  return DataBlock::Fixed(s.item_bits * s.cum_dim, n, std::move(data_buf));
}

// Copy bits [start, start + count) of `bits` into a new buffer starting at bit 0.
BufferPtr BitSlice(const BufferPtr& bits, std::uint64_t start, std::uint64_t count) {
  std::uint8_t* out = nullptr;
  auto buffer = Allocate((count + 7) / 8, &out);
  if (start % 8 == 0) {
    std::memcpy(out, bits->data() + start / 8, (count + 7) / 8);
    if (count % 8 != 0) {
      out[count / 8] = static_cast<std::uint8_t>(out[count / 8] & ((1u << (count % 8)) - 1));
    }
    return buffer;
  }
  for (std::uint64_t i = 0; i < count; ++i) {
    if (array::GetBit(bits->data(), static_cast<int64_t>(start + i))) {
      array::SetBit(out, static_cast<int64_t>(i));
    }
  }
  return buffer;
}

// The values' layers: the product of the dimensions and the validity bytes per row (per-value
// layout); InvalidArgument when they do not match items_per_value.
struct FslRows {
  std::uint64_t cum_dim = 1;
  std::uint64_t validity_bytes = 0;
  std::uint64_t validity_layers = 0;
};

Result<FslRows> RowsOf(const DataBlock& v) {
  FslRows r;
  for (const auto& layer : v.fsl) {
    if (layer.dimension == 0) return InvalidInput("fixed_size_list", "dimension 0");
    r.cum_dim *= layer.dimension;
    if (layer.validity) {
      r.validity_bytes += (r.cum_dim + 7) / 8;
      ++r.validity_layers;
      if (Size(layer.validity) < (v.num_values * r.cum_dim + 7) / 8) {
        return InvalidInput("fixed_size_list", "a validity bitmap is too short");
      }
    }
  }
  if (r.cum_dim != v.items_per_value || v.bits_per_value % r.cum_dim != 0) {
    return InvalidInput("fixed_size_list",
                        "items_per_value must equal the product of the layer dimensions");
  }
  return r;
}

}  // namespace

Result<DataBlock> DecodeFixedSizeListMiniBlock(const pb::FixedSizeList& fsl,
                                               std::span<const BufferPtr> buffers,
                                               std::uint64_t n) {
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
  const auto data_need = items ? BytesForBitsChecked(*items, s.item_bits) : std::nullopt;
  if (!items || *items >= kMaxDecodedValues || !data_need) {
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
    layers.back().validity = SliceUnchecked(buffers[bi], 0, need);
    ++bi;
  }
  const BufferPtr& data = buffers.back();
  if (Size(data) < *data_need) {
    return Corrupt("fixed_size_list", n, " rows of ", s.cum_dim, " items of ", s.item_bits,
                   " bits need ", *data_need, " bytes, have ", Size(data));
  }
  DataBlock out = DataBlock::Fixed(s.item_bits * s.cum_dim, n, SliceUnchecked(data, 0, *data_need));
  out.items_per_value = s.cum_dim;
  out.fsl = std::move(layers);
  return out;
}

Result<DataBlock> DecodeFixedSizeListBlock(const pb::FixedSizeList& fsl, const BufferPtr& bytes,
                                           std::uint64_t n) {
  LND_ASSIGN_OR_RETURN(FslShape s, ShapeOf(fsl));
  if (s.validity_layers > 0) {
    return Status::NotImplemented("fixed_size_list with validity in the block context");
  }
  std::vector<BufferPtr> one{bytes};
  return DecodeFixedSizeListMiniBlock(fsl, one, n);
}

Result<DataBlock> DecodeFixedSizeListPerValue(const pb::FixedSizeList& fsl, const BufferPtr& bytes,
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
  const auto need = BytesForBitsChecked(n, row_bits);
  if (!need) {
    return Corrupt("fixed_size_list", n, " rows of ", row_bits, " bits need too many bytes, have ",
                   Size(bytes));
  }
  if (*need > Size(bytes)) {
    return Corrupt("fixed_size_list", n, " rows of ", row_bits, " bits need ", *need,
                   " bytes, have ", Size(bytes));
  }
  std::vector<FslLayer> layers;
  for (const auto& layer : s.layers) layers.push_back({layer.dimension, nullptr});
  DataBlock out = s.validity_layers == 0
                      ? DataBlock::Fixed(row_bits, n, SliceUnchecked(bytes, 0, *need))
                      : UnzipRows(s, bytes, n, row_bits / 8, &layers);
  out.bits_per_value = data_bits_per_row;
  out.items_per_value = s.cum_dim;
  out.fsl = std::move(layers);
  return out;
}

Result<std::uint64_t> FixedSizeListBufferCount(const pb::FixedSizeList& fsl) {
  LND_ASSIGN_OR_RETURN(FslShape s, ShapeOf(fsl));
  return s.validity_layers + 1;
}

Result<MiniBlockEncoded> ChunkFixedSizeList(const DataBlock& v, std::uint64_t per_chunk) {
  if (v.fsl.empty()) {
    return InvalidInput("fixed_size_list", "the values have no fixed-size-list layers");
  }
  LND_ASSIGN_OR_RETURN(const FslRows rows, RowsOf(v));
  const std::uint64_t item_bits = v.bits_per_value / rows.cum_dim;
  if (per_chunk == 0) {
    const bool aligned = v.bits_per_value % 8 == 0;
    const std::uint64_t vals_per_word = aligned ? 1 : 8;
    const std::uint64_t est =
        rows.validity_bytes * vals_per_word + (aligned ? v.bits_per_value / 8 : v.bits_per_value);
    per_chunk = FlatValuesPerChunk(aligned ? est * 8 : est);
  }
  MiniBlockEncoded out = NewEncoded();
  *out.encoding = MakeFixedSizeList(v.fsl, item_bits);
  out.num_buffers = rows.validity_layers + 1;
  for (std::uint64_t start = 0; start < v.num_values; start += per_chunk) {
    const std::uint64_t n = std::min(per_chunk, v.num_values - start);
    EncodedChunk chunk{n, {}};
    std::uint64_t c = 1;
    for (const auto& layer : v.fsl) {
      c *= layer.dimension;
      if (layer.validity) chunk.buffers.push_back(BitSlice(layer.validity, start * c, n * c));
    }
    const std::uint64_t b0 = start * v.bits_per_value / 8;
    const std::uint64_t bits_end = (start + n) * v.bits_per_value;
    const std::uint64_t b1 = bits_end / 8 + (bits_end % 8 != 0 ? 1 : 0);
    chunk.buffers.push_back(SliceUnchecked(v.data, b0, b1 - b0));
    out.chunks.push_back(std::move(chunk));
  }
  return out;
}

Result<BufferPtr> EncodeFixedSizeListBlock(const DataBlock& values) {
  if (values.kind != DataBlock::Kind::kFixedWidth) {
    return InvalidInput("fixed_size_list", "expects fixed-width rows");
  }
  for (const auto& l : values.fsl) {
    if (l.validity) {
      return Status::NotImplemented("fixed_size_list with validity in the block context");
    }
  }
  const auto need = BytesForBitsChecked(values.num_values, values.bits_per_value);
  if (!need || Size(values.data) < *need) {
    return InvalidInput("fixed_size_list", "the data buffer is too short");
  }
  return SliceUnchecked(values.data, 0, *need);
}

Result<PerValueEncoded> EncodeFixedSizeListPerValue(const DataBlock& values) {
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
  PerValueEncoded out;
  out.encoding = Share(MakeFixedSizeList(values.fsl, item_bits));
  if (validity_bytes == 0) {
    out.values = DataBlock::Fixed(values.bits_per_value, values.num_values, values.data);
    return out;
  }
  if (item_bits % 8 != 0) {
    return Status::NotImplemented(
        "fixed_size_list: per-value items with validity must be whole bytes");
  }
  // Zip each row: every layer's validity bytes, then the row's items.
  const std::uint64_t data_row = values.bits_per_value / 8;
  const std::uint64_t row = validity_bytes + data_row;
  std::uint8_t* dst = nullptr;
  auto zipped = Allocate(row * values.num_values, &dst);
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

}  // namespace lance_nd::file::internal::encoding::detail
