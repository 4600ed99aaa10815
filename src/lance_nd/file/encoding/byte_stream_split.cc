// byte_stream_split: n values of W bytes (16/32/64-bit) stored as W streams, stream j holding
// byte j of every value; floats compress better that way under general compression.
#include <algorithm>
#include <cstring>

#include "lance_nd/file/encoding/encode_internal.h"
#include "lance_nd/file/encoding/schemes.h"
#include "lance_nd/file/encoding/util.h"

namespace lance_nd::file::internal::encoding::detail {
namespace {

template <std::size_t W>
void UnsplitInto(const std::uint8_t* src, std::uint64_t n, std::uint8_t* out) {
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint8_t v[W];
    for (std::size_t j = 0; j < W; ++j) v[j] = src[j * n + i];
    std::memcpy(out + i * W, v, W);
  }
}

template <std::uint64_t W>
void SplitInto(const std::uint8_t* src, std::uint64_t n, std::uint8_t* dst) {
  for (std::uint64_t i = 0; i < n; ++i) {
    for (std::uint64_t j = 0; j < W; ++j) dst[j * n + i] = src[i * W + j];
  }
}

}  // namespace

Result<DataBlock> DecodeByteStreamSplit(const pb::ByteStreamSplit& bss, const BufferPtr& bytes,
                                        std::uint64_t n) {
  if (bss.values().compression_case() != Case::kFlat || bss.values().flat().has_data()) {
    return Status::NotImplemented("byte_stream_split: values encoded as ",
                                  EncodingName(bss.values()), " (only flat is supported)");
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
  auto buffer = Allocate(n * w, &out);
  const std::uint8_t* src = bytes->data();
  for (std::uint64_t j = 0; j < w; ++j) {
    for (std::uint64_t i = 0; i < n; ++i) out[i * w + j] = src[j * n + i];
  }
  return DataBlock::Fixed(bits, n, std::move(buffer));
}

Status UnsplitBytesInto(std::span<const std::uint8_t> bytes, std::uint64_t w, std::uint64_t n,
                        std::uint8_t* out) {
  if (n * w > bytes.size()) {
    return Corrupt("byte_stream_split", n, " values of ", w, " bytes need ", n * w, " bytes, have ",
                   bytes.size());
  }
  if (w == 2) UnsplitInto<2>(bytes.data(), n, out);
  if (w == 4) UnsplitInto<4>(bytes.data(), n, out);
  if (w == 8) UnsplitInto<8>(bytes.data(), n, out);
  return Status::OK();
}

void SplitBytes(std::uint64_t w, const std::uint8_t* src, std::uint64_t n, std::uint8_t* dst) {
  switch (w) {
    case 2:
      SplitInto<2>(src, n, dst);
      break;
    case 4:
      SplitInto<4>(src, n, dst);
      break;
    default:
      SplitInto<8>(src, n, dst);
      break;
  }
}

Status CheckByteStreamSplitWidth(const DataBlock& v) {
  const std::uint64_t bits = v.bits_per_value;
  if (bits != 16 && bits != 32 && bits != 64) {
    return InvalidInput("byte_stream_split", "values must be 16, 32 or 64 bits");
  }
  return Status::OK();
}

std::uint64_t ByteStreamSplitValuesPerChunk(const DataBlock& v, std::uint64_t per_chunk) {
  return per_chunk == 0 ? 4096 / (v.bits_per_value / 8) : per_chunk;
}

Result<MiniBlockEncoded> ChunkByteStreamSplit(const DataBlock& v, std::uint64_t per_chunk) {
  LND_RETURN_NOT_OK(CheckByteStreamSplitWidth(v));
  const std::uint64_t w = v.bits_per_value / 8;
  per_chunk = ByteStreamSplitValuesPerChunk(v, per_chunk);
  MiniBlockEncoded out = NewEncoded();
  *out.encoding = MakeByteStreamSplit(v.bits_per_value);
  out.num_buffers = 1;
  const std::uint64_t num_chunks = (v.num_values + per_chunk - 1) / per_chunk;
  out.chunks.resize(num_chunks);
  ParallelFor(num_chunks, kChunksPerTask, [&](std::uint64_t cb, std::uint64_t ce) {
    // one buffer per task, sliced per chunk (every byte is written: no zeroing)
    const std::uint64_t first = cb * per_chunk;
    const std::uint64_t count = std::min(ce * per_chunk, v.num_values) - first;
    std::uint8_t* arena = nullptr;
    auto buffer = array::Buffer::AllocateUninitialized(static_cast<int64_t>(count * w), &arena);
    for (std::uint64_t c = cb; c < ce; ++c) {
      const std::uint64_t start = c * per_chunk;
      const std::uint64_t n = std::min(per_chunk, v.num_values - start);
      const std::uint64_t at = (start - first) * w;
      SplitBytes(w, v.data->data() + start * w, n, arena + at);
      out.chunks[c] = EncodedChunk{n, {SliceUnchecked(buffer, at, n * w)}};
    }
  });
  return out;
}

}  // namespace lance_nd::file::internal::encoding::detail
