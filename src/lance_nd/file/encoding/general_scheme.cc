// general: LZ4 or zstd (the codec is general.h) around another encoding's bytes. In a
// mini-block chunk only the first buffer is compressed; per value, each value on its own.
#include <algorithm>
#include <vector>

#include "lance_nd/file/encoding/encode_internal.h"
#include "lance_nd/file/encoding/schemes.h"
#include "lance_nd/file/encoding/util.h"
#include "lance_nd/file/encoding/variable_util.h"

namespace lance_nd::file::internal::encoding::detail {
namespace {

// Pages with fewer bytes are not worth compressing (Lance's threshold).
constexpr std::uint64_t kMinGeneralBytes = 4096;
// Chunks per general-compression task (compression is slow: small tasks balance two threads).
constexpr std::uint64_t kGeneralChunksPerTask = kChunksPerTask / 4;

// Compresses the bytes of chunk c, as `chunk_bytes(c, scratch)` gives them (a view into the
// input, or bytes it prepared in the thread's `scratch`), for every chunk on two threads. A
// task's chunks are compressed back to back into one arena that the chunk buffers slice (no
// allocation or copy per chunk). Errors are reported in chunk order.
template <typename ChunkBytes>
Result<std::vector<BufferPtr>> CompressChunks(std::uint64_t num_chunks,
                                              std::uint64_t max_chunk_bytes, GeneralScheme scheme,
                                              std::optional<std::int32_t> level,
                                              ChunkBytes&& chunk_bytes) {
  const std::uint64_t bound = GeneralCompressBound(scheme, max_chunk_bytes);
  if (bound == 0) {
    return Status::InvalidArgument("general: a chunk of ", max_chunk_bytes,
                                   " bytes exceeds the compressor's limit");
  }
  std::vector<BufferPtr> out(num_chunks);
  std::vector<Status> errors(num_chunks);
  ParallelFor(num_chunks, kGeneralChunksPerTask, [&](std::uint64_t cb, std::uint64_t ce) {
    thread_local std::vector<std::uint8_t> scratch;
    std::uint8_t* arena = nullptr;
    auto buffer =
        array::Buffer::AllocateUninitialized(static_cast<int64_t>(bound * (ce - cb)), &arena);
    std::uint64_t used = 0;
    for (std::uint64_t c = cb; c < ce; ++c) {
      const std::span<const std::uint8_t> input = chunk_bytes(c, scratch);
      if (input.size() > max_chunk_bytes) {
        errors[c] = Status::InvalidArgument("general: a chunk exceeds the planned size");
        return;
      }
      // room: (ce - c) slots of `bound` are left, as every earlier chunk used at most one
      auto n = GeneralCompressInto(scheme, input, level,
                                   {arena + used, static_cast<std::size_t>(bound)});
      if (!n.ok()) {
        errors[c] = n.status();
        return;
      }
      out[c] = SliceUnchecked(buffer, used, *n);
      used += *n;
    }
  });
  for (const Status& st : errors) LND_RETURN_NOT_OK(st);
  return out;
}

std::uint64_t TotalSize(const std::vector<BufferPtr>& buffers) {
  std::uint64_t total = 0;
  for (const auto& b : buffers) total += Size(b);
  return total;
}

}  // namespace

std::optional<std::int32_t> LevelOf(const pb::BufferCompression& c) {
  if (c.has_level()) return c.level();
  return std::nullopt;
}

Result<GeneralScheme> SchemeOf(const pb::BufferCompression& c) {
  switch (c.scheme()) {
    case pb::COMPRESSION_ALGORITHM_LZ4:
      return GeneralScheme::kLz4;
    case pb::COMPRESSION_ALGORITHM_ZSTD:
      return GeneralScheme::kZstd;
    default:
      return Status::NotImplemented("general: compression scheme ", static_cast<int>(c.scheme()),
                                    " is not supported (expected LZ4 or ZSTD)");
  }
}

GeneralScheme SchemeOf(EncodingRequest::Compression scheme) {
  return scheme == EncodingRequest::Compression::kZstd ? GeneralScheme::kZstd : GeneralScheme::kLz4;
}

Result<DataBlock> DecodeGeneralBlock(const pb::General& general, const BufferPtr& bytes,
                                     std::uint64_t n) {
  LND_ASSIGN_OR_RETURN(const GeneralScheme scheme, SchemeOf(general.compression()));
  LND_ASSIGN_OR_RETURN(BufferPtr raw, GeneralDecompress(scheme, bytes->span()));
  return DecodeBlock(general.values(), raw, n);
}

Result<DataBlock> DecodeGeneralMiniBlock(const pb::General& general,
                                         std::span<const BufferPtr> buffers, std::uint64_t n) {
  if (buffers.empty()) return Corrupt("general", "chunk has no value buffers");
  LND_ASSIGN_OR_RETURN(const GeneralScheme scheme, SchemeOf(general.compression()));
  const BufferPtr first = buffers[0] ? buffers[0] : array::Buffer::Empty();
  LND_ASSIGN_OR_RETURN(BufferPtr raw, GeneralDecompress(scheme, first->span()));
  std::vector<BufferPtr> replaced(buffers.begin(), buffers.end());
  replaced[0] = std::move(raw);
  return DecodeMiniBlock(general.values(), replaced, n);
}

Status DecodeGeneralMiniBlockInto(const pb::General& general, std::uint64_t bits,
                                  const BufferPtr& bytes, std::uint64_t n, std::uint8_t* out) {
  LND_ASSIGN_OR_RETURN(const GeneralScheme scheme, SchemeOf(general.compression()));
  const pb::CompressiveEncoding& inner = general.values();
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
    Status st = GeneralDecompressInto(scheme, bytes->span(), dest);
    if (st.code() != StatusCode::kNotImplemented) return st;
  }
  LND_ASSIGN_OR_RETURN(BufferPtr raw, GeneralDecompress(scheme, bytes->span()));
  const BufferPtr one[1] = {raw};
  return DecodeMiniBlockInto(inner, one, n, out);
}

Result<DataBlock> DecodeGeneralPerValue(const pb::General& general, const DataBlock& encoded) {
  LND_RETURN_NOT_OK(ValidateVariable(encoded, "general"));
  LND_ASSIGN_OR_RETURN(const GeneralScheme scheme, SchemeOf(general.compression()));
  VariableBuilder out(encoded.bits_per_offset);
  for (std::uint64_t i = 0; i < encoded.num_values; ++i) {
    const std::uint64_t b = OffsetAt(encoded, i);
    const std::uint64_t e = OffsetAt(encoded, i + 1);
    if (b == e) {  // empty values (and nulls) carry no bytes
      out.Append(nullptr, 0);
      continue;
    }
    LND_ASSIGN_OR_RETURN(BufferPtr raw,
                         GeneralDecompress(scheme, encoded.data->span().subspan(b, e - b)));
    out.Append(raw->data(), Size(raw));
  }
  LND_ASSIGN_OR_RETURN(DataBlock values, out.Finish());
  return DecodePerValueVariable(general.values(), values);
}

Result<MiniBlockEncoded> WrapGeneral(MiniBlockEncoded inner, EncodingRequest::Compression scheme,
                                     std::optional<std::int32_t> level) {
  std::uint64_t total = 0, largest = 0;
  for (const auto& c : inner.chunks) {
    const std::uint64_t b = c.buffers.empty() ? 0 : Size(c.buffers[0]);
    total += b;
    largest = std::max(largest, b);
  }
  if (inner.chunks.empty() || total < kMinGeneralBytes) return inner;
  LND_ASSIGN_OR_RETURN(std::vector<BufferPtr> compressed,
                       CompressChunks(inner.chunks.size(), largest, SchemeOf(scheme), level,
                                      [&](std::uint64_t c, std::vector<std::uint8_t>&) {
                                        return inner.chunks[c].buffers[0]->span();
                                      }));
  if (TotalSize(compressed) >= total) return inner;
  MiniBlockEncoded out = NewEncoded();
  out.num_buffers = inner.num_buffers;
  out.chunks = std::move(inner.chunks);
  for (std::size_t c = 0; c < out.chunks.size(); ++c) out.chunks[c].buffers[0] = compressed[c];
  *out.encoding = MakeGeneral(scheme, level, *inner.encoding);
  return out;
}

Result<MiniBlockEncoded> ChunkByteStreamSplitGeneral(const DataBlock& v, std::uint64_t per_chunk,
                                                     EncodingRequest::Compression scheme,
                                                     std::optional<std::int32_t> level) {
  // Each chunk is split into the thread's scratch and compressed from there.
  LND_RETURN_NOT_OK(CheckByteStreamSplitWidth(v));
  const std::uint64_t w = v.bits_per_value / 8;
  per_chunk = ByteStreamSplitValuesPerChunk(v, per_chunk);
  const std::uint64_t total = v.num_values * w;
  if (v.num_values == 0 || total < kMinGeneralBytes) return ChunkByteStreamSplit(v, per_chunk);
  const std::uint64_t num_chunks = (v.num_values + per_chunk - 1) / per_chunk;
  LND_ASSIGN_OR_RETURN(
      std::vector<BufferPtr> compressed,
      CompressChunks(num_chunks, per_chunk * w, SchemeOf(scheme), level,
                     [&](std::uint64_t c, std::vector<std::uint8_t>& scratch) {
                       const std::uint64_t start = c * per_chunk;
                       const std::uint64_t n = std::min(per_chunk, v.num_values - start);
                       if (scratch.size() < n * w) scratch.resize(n * w);
                       SplitBytes(w, v.data->data() + start * w, n, scratch.data());
                       return std::span<const std::uint8_t>(scratch.data(), n * w);
                     }));
  if (TotalSize(compressed) >= total) return ChunkByteStreamSplit(v, per_chunk);
  MiniBlockEncoded out = NewEncoded();
  out.num_buffers = 1;
  out.chunks.resize(num_chunks);
  for (std::uint64_t c = 0; c < num_chunks; ++c) {
    out.chunks[c] =
        EncodedChunk{std::min(per_chunk, v.num_values - c * per_chunk), {compressed[c]}};
  }
  *out.encoding = MakeGeneral(scheme, level, MakeByteStreamSplit(v.bits_per_value));
  return out;
}

Result<BufferPtr> EncodeGeneralBlock(const pb::General& general, const DataBlock& values) {
  LND_ASSIGN_OR_RETURN(BufferPtr inner, EncodeBlock(general.values(), values));
  const auto& c = general.compression();
  const GeneralScheme s =
      c.scheme() == pb::COMPRESSION_ALGORITHM_ZSTD ? GeneralScheme::kZstd : GeneralScheme::kLz4;
  return GeneralCompress(s, inner->span(), LevelOf(c));
}

Result<PerValueEncoded> EncodeGeneralPerValue(const DataBlock& values,
                                              std::optional<std::int32_t> level) {
  VariableBuilder b(values.bits_per_offset);
  for (std::uint64_t i = 0; i < values.num_values; ++i) {
    const std::uint64_t off = OffsetAt(values, i);
    const std::uint64_t len = OffsetAt(values, i + 1) - off;
    if (len == 0) {
      b.Append(nullptr, 0);
      continue;
    }
    LND_ASSIGN_OR_RETURN(
        BufferPtr c,
        GeneralCompress(GeneralScheme::kZstd, values.data->span().subspan(off, len), level));
    b.Append(c->data(), Size(c));
  }
  PerValueEncoded out;
  LND_ASSIGN_OR_RETURN(out.values, b.Finish());
  out.encoding = Share(MakeGeneral(EncodingRequest::Compression::kZstd, level,
                                   MakeVariable(values.bits_per_offset)));
  return out;
}

}  // namespace lance_nd::file::internal::encoding::detail
