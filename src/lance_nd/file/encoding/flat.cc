// flat: values stored as they are, `bits_per_value` bits each (any width, LSB-first below a
// byte). Also the shared checks of the schemes (schemes.h).
#include <algorithm>
#include <cstring>

#include "lance_nd/file/encoding/encode_internal.h"
#include "lance_nd/file/encoding/schemes.h"
#include "lance_nd/file/encoding/util.h"

namespace lance_nd::file::internal::encoding::detail {
Status Unsupported(const pb::CompressiveEncoding& ce, std::string_view context) {
  if (ce.compression_case() == Case::COMPRESSION_NOT_SET) {
    return Status::NotImplemented(
        "compressive encoding is unset or unknown in the ", context,
        " context (written by a newer Lance version?); this reader supports Lance 2.1/2.2");
  }
  return Status::NotImplemented("encoding ", EncodingName(ce), " is not supported in the ", context,
                                " context");
}

Status CheckFixed(const DataBlock& v, std::string_view encoding) {
  if (v.kind != DataBlock::Kind::kFixedWidth) {
    return InvalidInput(encoding, "expects fixed-width values");
  }
  const auto need = BytesForBitsChecked(v.num_values, v.bits_per_value);
  if (!need || Size(v.data) < *need) {
    return InvalidInput(encoding, "the data buffer is smaller than num_values * bits_per_value");
  }
  return Status::OK();
}

std::uint64_t FlatValuesPerChunk(std::uint64_t bits) {
  const bool byte_aligned = bits % 8 == 0;
  const std::uint64_t bytes_per_word = byte_aligned ? bits / 8 : bits;
  std::uint64_t size = 2 * bytes_per_word;
  std::uint64_t num = byte_aligned ? 2 : 8;
  if (size >= kMaxMiniBlockBytes) return byte_aligned ? 1 : 8;
  while (2 * size < kMaxMiniBlockBytes && 2 * num <= kMaxMiniBlockValues) {
    size *= 2;
    num *= 2;
  }
  return num;
}

Result<DataBlock> DecodeFlat(const pb::Flat& flat, const BufferPtr& bytes, std::uint64_t n) {
  if (flat.has_data()) {
    return Status::NotImplemented("flat with buffer compression is not supported");
  }
  const std::uint64_t bits = flat.bits_per_value();
  LND_RETURN_NOT_OK(CheckCount("flat", n));
  const auto need = BytesForBitsChecked(n, bits);
  if (!need) {
    return Corrupt("flat", n, " values of ", bits, " bits need too many bytes, have ", Size(bytes));
  }
  if (*need > Size(bytes)) {
    return Corrupt("flat", n, " values of ", bits, " bits need ", *need, " bytes, have ",
                   Size(bytes));
  }
  return DataBlock::Fixed(bits, n, SliceUnchecked(bytes, 0, *need));
}

Status DecodeFlatInto(std::uint64_t bits, const BufferPtr& bytes, std::uint64_t n,
                      std::uint8_t* out) {
  const std::uint64_t need = n * (bits / 8);
  if (need > Size(bytes)) {
    return Corrupt("flat", n, " values of ", bits, " bits need ", need, " bytes, have ",
                   Size(bytes));
  }
  if (need > 0) std::memcpy(out, bytes->data(), need);
  return Status::OK();
}

Result<MiniBlockEncoded> ChunkFlat(const DataBlock& v, std::uint64_t per_chunk) {
  MiniBlockEncoded out = NewEncoded();
  out.num_buffers = 1;
  const std::uint64_t bits = v.bits_per_value;
  if (per_chunk == 0) per_chunk = FlatValuesPerChunk(bits);
  if (bits % 8 != 0 && per_chunk % 8 != 0) {
    return InvalidInput("flat", "chunks of sub-byte values must hold a multiple of 8 values");
  }
  for (std::uint64_t start = 0; start < v.num_values; start += per_chunk) {
    const std::uint64_t n = std::min(per_chunk, v.num_values - start);
    const std::uint64_t b0 = start * bits / 8;
    const std::uint64_t b1 = (start + n) * bits / 8 + ((start + n) * bits % 8 != 0 ? 1 : 0);
    out.chunks.push_back({n, {SliceUnchecked(v.data, b0, b1 - b0)}});
  }
  return out;
}

Result<BufferPtr> EncodeFlatBlock(const pb::Flat& flat, const DataBlock& values) {
  const std::uint64_t bits = flat.bits_per_value();
  if (values.kind != DataBlock::Kind::kFixedWidth || values.bits_per_value != bits) {
    return InvalidInput("flat", "encoding width differs from the values' width");
  }
  const auto need = BytesForBitsChecked(values.num_values, bits);
  if (!need || Size(values.data) < *need) {
    return InvalidInput("flat", "the data buffer is too short");
  }
  return SliceUnchecked(values.data, 0, *need);
}

}  // namespace lance_nd::file::internal::encoding::detail
