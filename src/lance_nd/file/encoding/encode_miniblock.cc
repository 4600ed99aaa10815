// Mini-block encoders (value compression into chunks) and Lance 12's choice among them
// (docs/lance-file-format.md §4.15).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include "encodings_v2_1.pb.h"
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

constexpr std::uint64_t kMaxMiniBlockBytes = 8 * 1024 - 6;
constexpr std::uint64_t kMaxMiniBlockValues = 4096;
constexpr std::uint64_t kVariableChunkTarget = 4096;
constexpr std::uint64_t kVariableChunkLimit = 16 * 1024;
constexpr std::uint64_t kRleMaxChunkValues = 2048;
constexpr std::uint64_t kMinGeneralBytes = 4096;
constexpr std::uint8_t kVariablePad = 0x48;
// Chunks per parallel work item (see detail::ParallelFor).
constexpr std::uint64_t kChunksPerTask = 64;

Status InvalidInput(std::string_view encoding, std::string_view what) {
  return Status::InvalidArgument(detail::Cat(encoding, ": ", what));
}

// Values per chunk for flat-like data: the largest power of two whose bytes stay under 4 KiB
// (Lance's ValueEncoder rule). `bits` = bits per value (row).
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

// Copy bits [start, start + count) of `bits` into a new buffer starting at bit 0.
BufferPtr BitSlice(const BufferPtr& bits, std::uint64_t start, std::uint64_t count) {
  std::uint8_t* out = nullptr;
  auto buffer = detail::Allocate((count + 7) / 8, &out);
  if (start % 8 == 0) {
    std::memcpy(out, bits->data() + start / 8, (count + 7) / 8);
    if (count % 8 != 0)
      out[count / 8] = static_cast<std::uint8_t>(out[count / 8] & ((1u << (count % 8)) - 1));
    return buffer;
  }
  for (std::uint64_t i = 0; i < count; ++i) {
    if (array::GetBit(bits->data(), static_cast<int64_t>(start + i))) {
      array::SetBit(out, static_cast<int64_t>(i));
    }
  }
  return buffer;
}

Status CheckFixed(const DataBlock& v, std::string_view encoding) {
  if (v.kind != DataBlock::Kind::kFixedWidth) {
    return InvalidInput(encoding, "expects fixed-width values");
  }
  const auto need = detail::BytesForBitsChecked(v.num_values, v.bits_per_value);
  if (!need || Size(v.data) < *need) {
    return InvalidInput(encoding, "the data buffer is smaller than num_values * bits_per_value");
  }
  return Status::OK();
}

// ---- flat / fixed-size list --------------------------------------------------------------

Result<MiniBlockEncoded> ChunkFlat(const DataBlock& v, std::uint64_t per_chunk) {
  MiniBlockEncoded out = detail::NewEncoded();
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
    out.chunks.push_back({n, {detail::SliceUnchecked(v.data, b0, b1 - b0)}});
  }
  return out;
}

Result<MiniBlockEncoded> ChunkFsl(const DataBlock& v, std::uint64_t per_chunk) {
  if (v.fsl.empty()) {
    return InvalidInput("fixed_size_list", "the values have no fixed-size-list layers");
  }
  std::uint64_t cum = 1;
  std::uint64_t validity_bytes = 0;
  std::uint64_t validity_layers = 0;
  for (const auto& layer : v.fsl) {
    if (layer.dimension == 0) return InvalidInput("fixed_size_list", "dimension 0");
    cum *= layer.dimension;
    if (layer.validity) {
      validity_bytes += (cum + 7) / 8;
      ++validity_layers;
      if (Size(layer.validity) < (v.num_values * cum + 7) / 8) {
        return InvalidInput("fixed_size_list", "a validity bitmap is too short");
      }
    }
  }
  if (cum != v.items_per_value || v.bits_per_value % cum != 0) {
    return InvalidInput("fixed_size_list",
                        "items_per_value must equal the product of the layer dimensions");
  }
  const std::uint64_t item_bits = v.bits_per_value / cum;
  if (per_chunk == 0) {
    const bool aligned = v.bits_per_value % 8 == 0;
    const std::uint64_t vals_per_word = aligned ? 1 : 8;
    const std::uint64_t est =
        validity_bytes * vals_per_word + (aligned ? v.bits_per_value / 8 : v.bits_per_value);
    per_chunk = FlatValuesPerChunk(aligned ? est * 8 : est);
  }
  MiniBlockEncoded out = detail::NewEncoded();
  *out.encoding = MakeFixedSizeList(v.fsl, item_bits);
  out.num_buffers = validity_layers + 1;
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
    chunk.buffers.push_back(detail::SliceUnchecked(v.data, b0, b1 - b0));
    out.chunks.push_back(std::move(chunk));
  }
  return out;
}

// ---- inline bitpacking -------------------------------------------------------------------

template <typename T>
MiniBlockEncoded ChunkInlineT(const DataBlock& v) {
  MiniBlockEncoded out = detail::NewEncoded();
  out.num_buffers = 1;
  const std::uint64_t num_chunks = (v.num_values + kFastLanesBlock - 1) / kFastLanesBlock;
  out.chunks.resize(num_chunks);
  // One arena for all chunks (each gets a zero-copy slice of its packed words), instead of an
  // allocation and a copy per 1024-value chunk.
  constexpr std::uint64_t kSlot = (kFastLanesBlock + 1) * sizeof(T);
  std::uint8_t* arena_data = nullptr;
  const BufferPtr arena =
      array::Buffer::AllocateUninitialized(static_cast<int64_t>(num_chunks * kSlot), &arena_data);
  // Blocks are packed independently, on two threads.
  detail::ParallelFor(num_chunks, kChunksPerTask, [&](std::uint64_t cb, std::uint64_t ce) {
    std::array<T, kFastLanesBlock> block{};
    std::array<T, kFastLanesBlock + 1> packed{};
    for (std::uint64_t c = cb; c < ce; ++c) {
      const std::uint64_t start = c * kFastLanesBlock;
      const std::uint64_t n = std::min<std::uint64_t>(kFastLanesBlock, v.num_values - start);
      if (n < kFastLanesBlock) block.fill(0);
      std::memcpy(block.data(), v.data->data() + start * sizeof(T), n * sizeof(T));
      const std::size_t width = BitWidthOfMax(block.data(), kFastLanesBlock);
      packed[0] = static_cast<T>(width);
      FastLanesPack<T>(block.data(), width, packed.data() + 1);
      const std::size_t bytes = (1 + FastLanesPackedWords<T>(width)) * sizeof(T);
      std::uint8_t* slot = arena_data + c * kSlot;
      std::memcpy(slot, packed.data(), bytes);
      out.chunks[c] = EncodedChunk{
          n, {std::make_shared<const array::Buffer>(slot, static_cast<int64_t>(bytes), arena)}};
    }
  });
  return out;
}

Result<MiniBlockEncoded> ChunkInline(const DataBlock& v) {
  switch (v.bits_per_value) {
    case 8:
      return ChunkInlineT<std::uint8_t>(v);
    case 16:
      return ChunkInlineT<std::uint16_t>(v);
    case 32:
      return ChunkInlineT<std::uint32_t>(v);
    case 64:
      return ChunkInlineT<std::uint64_t>(v);
    default:
      return InvalidInput("inline bitpacking", "values must be 8, 16, 32 or 64 bits");
  }
}

// ---- variable ----------------------------------------------------------------------------

// Lance's chunking of variable data: double the value count while offsets + bytes stay within
// 4 KiB; the chunk takes the first doubling that exceeds it (or everything that is left).
std::uint64_t NextVariableChunkEnd(const DataBlock& v, std::uint64_t last) {
  const std::uint64_t n = v.num_values;
  const std::uint64_t w = v.bits_per_offset / 8;
  std::uint64_t num = 1;
  std::uint64_t next = 2;
  while (true) {
    if (last + next >= n + 1) {
      const std::uint64_t size =
          detail::OffsetAt(v, n) - detail::OffsetAt(v, last) + (n + 1 - last) * w;
      return size <= kVariableChunkTarget ? n : last + num;
    }
    const std::uint64_t size =
        detail::OffsetAt(v, last + next) - detail::OffsetAt(v, last) + (next + 1) * w;
    if (size > kVariableChunkTarget || next > kMaxMiniBlockValues / 2) {
      // Lance takes the overshooting count; we do too unless that chunk would be far too big
      // (2.1 chunks must stay under 32 KiB and u16 buffer sizes).
      return size <= kVariableChunkLimit ? last + next : last + num;
    }
    num = next;
    next *= 2;
  }
}

Result<MiniBlockEncoded> ChunkVariable(const DataBlock& v, std::uint64_t per_chunk) {
  LND_RETURN_NOT_OK(detail::ValidateVariable(v, "variable"));
  MiniBlockEncoded out = detail::NewEncoded();
  *out.encoding = MakeVariable(v.bits_per_offset);
  out.num_buffers = 1;
  const std::uint64_t w = v.bits_per_offset / 8;
  std::uint64_t start = 0;
  while (start < v.num_values) {
    const std::uint64_t end =
        per_chunk ? std::min(v.num_values, start + per_chunk) : NextVariableChunkEnd(v, start);
    const std::uint64_t n = end - start;
    const std::uint64_t base = detail::OffsetAt(v, start);
    const std::uint64_t bytes = detail::OffsetAt(v, end) - base;
    const std::uint64_t header = (n + 1) * w;
    const std::uint64_t size = header + bytes;
    const std::uint64_t padded = (size + w - 1) / w * w;
    if (w == 4 && padded > 0xFFFFFFFFull) {
      return InvalidInput("variable", "a chunk exceeds 32-bit offsets");
    }
    std::vector<std::uint8_t> buf(padded, kVariablePad);
    for (std::uint64_t i = 0; i <= n; ++i) {
      const std::uint64_t off = detail::OffsetAt(v, start + i) - base + header;
      if (w == 4) {
        StoreLE(buf.data() + i * 4, static_cast<std::uint32_t>(off));
      } else {
        StoreLE(buf.data() + i * 8, off);
      }
    }
    if (bytes > 0) std::memcpy(buf.data() + header, v.data->data() + base, bytes);
    out.chunks.push_back({n, {array::Buffer::FromVector(std::move(buf))}});
    start = end;
  }
  return out;
}

// ---- RLE ---------------------------------------------------------------------------------

Result<MiniBlockEncoded> ChunkRle(const DataBlock& v) {
  const std::uint64_t w = v.bits_per_value / 8;
  if (v.bits_per_value % 8 != 0 || (w != 1 && w != 2 && w != 4 && w != 8)) {
    return InvalidInput("rle", "values must be 8, 16, 32 or 64 bits");
  }
  MiniBlockEncoded out = detail::NewEncoded();
  *out.encoding = MakeRle(v.bits_per_value);
  out.num_buffers = 2;
  const std::uint8_t* data = v.data->data();
  std::vector<std::uint64_t> cost(kRleMaxChunkValues + 1);  // bytes for the first k values
  std::uint64_t start = 0;
  while (start < v.num_values) {
    const std::uint64_t limit = std::min(kRleMaxChunkValues, v.num_values - start);
    std::uint64_t done = 0;  // cost of completed runs
    std::uint64_t run = 0;
    cost[0] = 0;
    for (std::uint64_t k = 1; k <= limit; ++k) {
      const std::uint8_t* cur = data + (start + k - 1) * w;
      if (run > 0 && std::memcmp(cur, cur - w, w) == 0) {
        ++run;
      } else {
        done += (run + 254) / 255 * (w + 1);
        run = 1;
      }
      cost[k] = done + (run + 254) / 255 * (w + 1);
    }
    std::uint64_t n = 0;
    if (start + limit == v.num_values && cost[limit] <= kMaxMiniBlockBytes) {
      n = limit;  // the last chunk takes what is left
    } else {
      n = 1;
      while (n * 2 <= limit && cost[n * 2] <= kMaxMiniBlockBytes) n *= 2;
      if (start + n == v.num_values && n != limit) {
        // keep power-of-two for a non-last chunk; this one is the last anyway
      }
    }
    std::vector<std::uint8_t> values;
    std::vector<std::uint8_t> lengths;
    std::uint64_t i = 0;
    while (i < n) {
      std::uint64_t j = i + 1;
      while (j < n && j - i < 255 &&
             std::memcmp(data + (start + j) * w, data + (start + i) * w, w) == 0)
        ++j;
      values.insert(values.end(), data + (start + i) * w, data + (start + i + 1) * w);
      lengths.push_back(static_cast<std::uint8_t>(j - i));
      i = j;
    }
    out.chunks.push_back({n,
                          {array::Buffer::FromVector(std::move(values)),
                           array::Buffer::FromVector(std::move(lengths))}});
    start += n;
  }
  return out;
}

// ---- byte stream split -------------------------------------------------------------------

// Byte j of value i goes to dst[j * n + i].
template <std::uint64_t W>
void BssSplit(const std::uint8_t* src, std::uint64_t n, std::uint8_t* dst) {
  for (std::uint64_t i = 0; i < n; ++i) {
    for (std::uint64_t j = 0; j < W; ++j) dst[j * n + i] = src[i * W + j];
  }
}

void BssSplitBytes(std::uint64_t w, const std::uint8_t* src, std::uint64_t n, std::uint8_t* dst) {
  switch (w) {
    case 2:
      BssSplit<2>(src, n, dst);
      break;
    case 4:
      BssSplit<4>(src, n, dst);
      break;
    default:
      BssSplit<8>(src, n, dst);
      break;
  }
}

Status CheckBssWidth(const DataBlock& v) {
  const std::uint64_t bits = v.bits_per_value;
  if (bits != 16 && bits != 32 && bits != 64) {
    return InvalidInput("byte_stream_split", "values must be 16, 32 or 64 bits");
  }
  return Status::OK();
}

std::uint64_t BssValuesPerChunk(const DataBlock& v, std::uint64_t per_chunk) {
  return per_chunk == 0 ? 4096 / (v.bits_per_value / 8) : per_chunk;
}

Result<MiniBlockEncoded> ChunkBss(const DataBlock& v, std::uint64_t per_chunk) {
  LND_RETURN_NOT_OK(CheckBssWidth(v));
  const std::uint64_t w = v.bits_per_value / 8;
  per_chunk = BssValuesPerChunk(v, per_chunk);
  MiniBlockEncoded out = detail::NewEncoded();
  *out.encoding = MakeByteStreamSplit(v.bits_per_value);
  out.num_buffers = 1;
  const std::uint64_t num_chunks = (v.num_values + per_chunk - 1) / per_chunk;
  out.chunks.resize(num_chunks);
  detail::ParallelFor(num_chunks, kChunksPerTask, [&](std::uint64_t cb, std::uint64_t ce) {
    // one buffer per task, sliced per chunk (every byte is written: no zeroing)
    const std::uint64_t first = cb * per_chunk;
    const std::uint64_t count = std::min(ce * per_chunk, v.num_values) - first;
    std::uint8_t* arena = nullptr;
    auto buffer = array::Buffer::AllocateUninitialized(static_cast<int64_t>(count * w), &arena);
    for (std::uint64_t c = cb; c < ce; ++c) {
      const std::uint64_t start = c * per_chunk;
      const std::uint64_t n = std::min(per_chunk, v.num_values - start);
      const std::uint64_t at = (start - first) * w;
      BssSplitBytes(w, v.data->data() + start * w, n, arena + at);
      out.chunks[c] = EncodedChunk{n, {detail::SliceUnchecked(buffer, at, n * w)}};
    }
  });
  return out;
}

// ---- general wrapper ---------------------------------------------------------------------

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
    return Status::InvalidArgument(detail::Cat("general: a chunk of ", max_chunk_bytes,
                                               " bytes exceeds the compressor's limit"));
  }
  std::vector<BufferPtr> out(num_chunks);
  std::vector<Status> errors(num_chunks);
  detail::ParallelFor(num_chunks, kGeneralChunksPerTask, [&](std::uint64_t cb, std::uint64_t ce) {
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
      out[c] = detail::SliceUnchecked(buffer, used, *n);
      used += *n;
    }
  });
  for (const Status& st : errors) LND_RETURN_NOT_OK(st);
  return out;
}

GeneralScheme SchemeOf(EncodingRequest::Compression scheme) {
  return scheme == EncodingRequest::Compression::kZstd ? GeneralScheme::kZstd : GeneralScheme::kLz4;
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
  std::uint64_t compressed_total = 0;
  for (const auto& b : compressed) compressed_total += Size(b);
  if (compressed_total >= total) return inner;
  MiniBlockEncoded out = detail::NewEncoded();
  out.num_buffers = inner.num_buffers;
  out.chunks = std::move(inner.chunks);
  for (std::size_t c = 0; c < out.chunks.size(); ++c) out.chunks[c].buffers[0] = compressed[c];
  *out.encoding = MakeGeneral(scheme, level, *inner.encoding);
  return out;
}

// general(byte_stream_split): each chunk is split into the thread's scratch and compressed
// from there (the split values are never materialised). Same bytes as ChunkBss + WrapGeneral.
Result<MiniBlockEncoded> BssWrappedGeneral(const DataBlock& v, std::uint64_t per_chunk,
                                           EncodingRequest::Compression scheme,
                                           std::optional<std::int32_t> level) {
  LND_RETURN_NOT_OK(CheckBssWidth(v));
  const std::uint64_t w = v.bits_per_value / 8;
  per_chunk = BssValuesPerChunk(v, per_chunk);
  const std::uint64_t total = v.num_values * w;
  if (v.num_values == 0 || total < kMinGeneralBytes) return ChunkBss(v, per_chunk);
  const std::uint64_t num_chunks = (v.num_values + per_chunk - 1) / per_chunk;
  LND_ASSIGN_OR_RETURN(
      std::vector<BufferPtr> compressed,
      CompressChunks(num_chunks, per_chunk * w, SchemeOf(scheme), level,
                     [&](std::uint64_t c, std::vector<std::uint8_t>& scratch) {
                       const std::uint64_t start = c * per_chunk;
                       const std::uint64_t n = std::min(per_chunk, v.num_values - start);
                       if (scratch.size() < n * w) scratch.resize(n * w);
                       BssSplitBytes(w, v.data->data() + start * w, n, scratch.data());
                       return std::span<const std::uint8_t>(scratch.data(), n * w);
                     }));
  std::uint64_t compressed_total = 0;
  for (const auto& b : compressed) compressed_total += Size(b);
  if (compressed_total >= total) return ChunkBss(v, per_chunk);
  MiniBlockEncoded out = detail::NewEncoded();
  out.num_buffers = 1;
  out.chunks.resize(num_chunks);
  for (std::uint64_t c = 0; c < num_chunks; ++c) {
    out.chunks[c] =
        EncodedChunk{std::min(per_chunk, v.num_values - c * per_chunk), {compressed[c]}};
  }
  *out.encoding = MakeGeneral(scheme, level, MakeByteStreamSplit(v.bits_per_value));
  return out;
}

std::optional<std::int32_t> LevelOf(const pb::BufferCompression& c) {
  if (c.has_level()) return c.level();
  return std::nullopt;
}

}  // namespace

// ---- explicit encoding -------------------------------------------------------------------

Result<MiniBlockEncoded> EncodeMiniBlockWith(const pb::CompressiveEncoding& ce,
                                             const DataBlock& values,
                                             std::uint64_t values_per_chunk) {
  if (values_per_chunk != 0 && (values_per_chunk & (values_per_chunk - 1)) != 0) {
    return Status::InvalidArgument("values_per_chunk must be a power of two");
  }
  if (values_per_chunk > kMaxMiniBlockValues) {
    return Status::InvalidArgument("values_per_chunk must be at most 4096");
  }
  MiniBlockEncoded out = detail::NewEncoded();
  switch (ce.compression_case()) {
    case Case::kFlat: {
      LND_RETURN_NOT_OK(CheckFixed(values, "flat"));
      if (ce.flat().bits_per_value() != values.bits_per_value) {
        return InvalidInput("flat", "encoding width differs from the values' width");
      }
      LND_ASSIGN_OR_RETURN(out, ChunkFlat(values, values_per_chunk));
      break;
    }
    case Case::kFixedSizeList: {
      LND_RETURN_NOT_OK(CheckFixed(values, "fixed_size_list"));
      LND_ASSIGN_OR_RETURN(out, ChunkFsl(values, values_per_chunk));
      break;
    }
    case Case::kInlineBitpacking: {
      LND_RETURN_NOT_OK(CheckFixed(values, "inline bitpacking"));
      if (ce.inline_bitpacking().uncompressed_bits_per_value() != values.bits_per_value) {
        return InvalidInput("inline bitpacking", "encoding width differs from the values' width");
      }
      LND_ASSIGN_OR_RETURN(out, ChunkInline(values));
      break;
    }
    case Case::kVariable: {
      LND_ASSIGN_OR_RETURN(out, ChunkVariable(values, values_per_chunk));
      break;
    }
    case Case::kFsst: {
      LND_ASSIGN_OR_RETURN(FsstCompressed fsst, FsstCompress(values, /*force=*/false));
      LND_ASSIGN_OR_RETURN(out, ChunkVariable(fsst.values, values_per_chunk));
      pb::CompressiveEncoding inner = *out.encoding;
      out.encoding->Clear();
      auto* f = out.encoding->mutable_fsst();
      auto table = SerializeFsstTable(fsst.table);
      f->set_symbol_table(std::string(reinterpret_cast<const char*>(table->data()),
                                      static_cast<std::size_t>(table->size())));
      *f->mutable_values() = std::move(inner);
      break;
    }
    case Case::kRle: {
      LND_RETURN_NOT_OK(CheckFixed(values, "rle"));
      LND_ASSIGN_OR_RETURN(out, ChunkRle(values));
      break;
    }
    case Case::kByteStreamSplit: {
      LND_RETURN_NOT_OK(CheckFixed(values, "byte_stream_split"));
      LND_ASSIGN_OR_RETURN(out, ChunkBss(values, values_per_chunk));
      break;
    }
    case Case::kGeneral: {
      const auto scheme = ce.general().compression().scheme() == pb::COMPRESSION_ALGORITHM_ZSTD
                              ? EncodingRequest::Compression::kZstd
                              : EncodingRequest::Compression::kLz4;
      const auto level = LevelOf(ce.general().compression());
      if (ce.general().values().has_byte_stream_split()) {
        LND_RETURN_NOT_OK(CheckFixed(values, "byte_stream_split"));
        return BssWrappedGeneral(values, values_per_chunk, scheme, level);
      }
      LND_ASSIGN_OR_RETURN(MiniBlockEncoded inner,
                           EncodeMiniBlockWith(ce.general().values(), values, values_per_chunk));
      return WrapGeneral(std::move(inner), scheme, level);
    }
    case Case::kPackedStruct: {
      LND_RETURN_NOT_OK(CheckFixed(values, "packed_struct"));
      std::uint64_t total = 0;
      for (std::uint64_t b : ce.packed_struct().bits_per_value()) total += b;
      if (total != values.bits_per_value) {
        return InvalidInput("packed_struct", "children widths do not add up to the row width");
      }
      LND_ASSIGN_OR_RETURN(out, ChunkFlat(values, values_per_chunk));
      pb::CompressiveEncoding packed;
      *packed.mutable_packed_struct() = ce.packed_struct();
      *packed.mutable_packed_struct()->mutable_values() = MakeFlat(values.bits_per_value);
      *out.encoding = std::move(packed);
      return out;
    }
    default:
      return Status::NotImplemented(
          detail::Cat("encoding ", EncodingName(ce), " cannot be written in a mini-block"));
  }
  if (out.encoding->compression_case() == Case::COMPRESSION_NOT_SET) *out.encoding = ce;
  return out;
}

// ---- Lance 12's choice -------------------------------------------------------------------

namespace {

template <typename T>
std::uint64_t InlineBitpackedBytes(const std::uint8_t* data, std::uint64_t n) {
  std::uint64_t total = 0;
  std::array<T, kFastLanesBlock> block{};
  for (std::uint64_t start = 0; start < n; start += kFastLanesBlock) {
    const std::uint64_t k = std::min<std::uint64_t>(kFastLanesBlock, n - start);
    std::memcpy(block.data(), data + start * sizeof(T), k * sizeof(T));
    const std::size_t width = BitWidthOfMax(block.data(), static_cast<std::size_t>(k));
    total += (1 + FastLanesPackedWords<T>(width)) * sizeof(T);
  }
  return total;
}

std::uint64_t InlineBytesOf(const std::uint8_t* data, std::uint64_t n, std::uint64_t bits) {
  switch (bits) {
    case 8:
      return InlineBitpackedBytes<std::uint8_t>(data, n);
    case 16:
      return InlineBitpackedBytes<std::uint16_t>(data, n);
    case 32:
      return InlineBitpackedBytes<std::uint32_t>(data, n);
    default:
      return InlineBitpackedBytes<std::uint64_t>(data, n);
  }
}

// Bytes of inline bitpacking, in blocks of kFastLanesBlock values (counted on two threads).
std::uint64_t InlineBytes(const DataBlock& v) {
  const std::uint64_t n = v.num_values;
  const std::uint64_t w = v.bits_per_value / 8;
  const std::uint64_t blocks = (n + kFastLanesBlock - 1) / kFastLanesBlock;
  constexpr std::uint64_t kBlocksPerTask = 256;
  std::vector<std::uint64_t> part((blocks + kBlocksPerTask - 1) / kBlocksPerTask, 0);
  detail::ParallelFor(part.size(), 1, [&](std::uint64_t pb, std::uint64_t pe) {
    for (std::uint64_t p = pb; p < pe; ++p) {
      const std::uint64_t begin = p * kBlocksPerTask * kFastLanesBlock;
      const std::uint64_t end = std::min(n, begin + kBlocksPerTask * kFastLanesBlock);
      part[p] = InlineBytesOf(v.data->data() + begin * w, end - begin, v.bits_per_value);
    }
  });
  std::uint64_t total = 0;
  for (std::uint64_t b : part) total += b;
  return total;
}

// Runs of equal values in [begin, end): count, RLE bytes, and the first and last run lengths.
struct RunStats {
  std::uint64_t runs = 0, bytes = 0, first = 0, last = 0;
};

template <typename T>
RunStats RunStatsT(const std::uint8_t* d, std::uint64_t begin, std::uint64_t end) {
  RunStats out;
  std::uint64_t i = begin;
  while (i < end) {
    T cur;
    std::memcpy(&cur, d + i * sizeof(T), sizeof(T));
    std::uint64_t j = i + 1;
    while (j < end) {
      T next;
      std::memcpy(&next, d + j * sizeof(T), sizeof(T));
      if (next != cur) break;
      ++j;
    }
    if (out.runs == 0) out.first = j - i;
    out.last = j - i;
    ++out.runs;
    out.bytes += (j - i + 254) / 255 * (sizeof(T) + 1);
    i = j;
  }
  return out;
}

// Number of runs of equal values: 1 + the positions that differ from their predecessor. A
// branch-free count the compiler vectorises; noisy data (most floats) is rejected for RLE on
// this count alone, without walking the runs.
template <typename T>
std::uint64_t CountRunsT(const std::uint8_t* d, std::uint64_t n) {
  if (n == 0) return 0;
  // Independent loads of each value and its predecessor (no loop-carried value), and a 32-bit
  // counter per block, so that the loop vectorises.
  std::uint64_t changes = 0;
  constexpr std::uint64_t kBlock = std::uint64_t{1} << 30;
  for (std::uint64_t b = 1; b < n; b += kBlock) {
    const std::uint64_t e = std::min(n, b + kBlock);
    std::uint32_t c = 0;
    for (std::uint64_t i = b; i < e; ++i) {
      T prev, cur;
      std::memcpy(&prev, d + (i - 1) * sizeof(T), sizeof(T));
      std::memcpy(&cur, d + i * sizeof(T), sizeof(T));
      c += cur != prev ? 1u : 0u;
    }
    changes += c;
  }
  return changes + 1;
}

std::uint64_t CountRuns(const DataBlock& v) {
  const std::uint8_t* d = v.data->data();
  switch (v.bits_per_value / 8) {
    case 1:
      return CountRunsT<std::uint8_t>(d, v.num_values);
    case 2:
      return CountRunsT<std::uint16_t>(d, v.num_values);
    case 4:
      return CountRunsT<std::uint32_t>(d, v.num_values);
    default:
      return CountRunsT<std::uint64_t>(d, v.num_values);
  }
}

// (runs, bytes of the RLE encoding); the two halves are counted on two threads and merged.
std::pair<std::uint64_t, std::uint64_t> RleStats(const DataBlock& v) {
  const std::uint64_t w = v.bits_per_value / 8;
  const std::uint8_t* d = v.data->data();
  const std::uint64_t n = v.num_values;
  auto stats = [&](std::uint64_t b, std::uint64_t e) {
    switch (w) {
      case 1:
        return RunStatsT<std::uint8_t>(d, b, e);
      case 2:
        return RunStatsT<std::uint16_t>(d, b, e);
      case 4:
        return RunStatsT<std::uint32_t>(d, b, e);
      default:
        return RunStatsT<std::uint64_t>(d, b, e);
    }
  };
  constexpr std::uint64_t kMinSplit = 1 << 16;
  if (n < 2 * kMinSplit) {
    const RunStats s = stats(0, n);
    return {s.runs, s.bytes};
  }
  const std::uint64_t mid = n / 2;
  std::array<RunStats, 2> parts;
  detail::ParallelFor(2, 1, [&](std::uint64_t b, std::uint64_t) {
    parts[b] = b == 0 ? stats(0, mid) : stats(mid, n);
  });
  std::uint64_t runs = parts[0].runs + parts[1].runs;
  std::uint64_t bytes = parts[0].bytes + parts[1].bytes;
  if (std::memcmp(d + (mid - 1) * w, d + mid * w, w) == 0) {
    // the run across the middle was counted twice
    auto cost = [&](std::uint64_t len) { return (len + 254) / 255 * (w + 1); };
    runs -= 1;
    bytes =
        bytes - cost(parts[0].last) - cost(parts[1].first) + cost(parts[0].last + parts[1].first);
  }
  return {runs, bytes};
}

bool ShouldUseBss(const DataBlock& v, EncodingRequest::Bss mode) {
  if (v.bits_per_value != 32 && v.bits_per_value != 64) return false;
  if (mode == EncodingRequest::Bss::kOff) return false;
  if (mode == EncodingRequest::Bss::kOn) return true;
  // Auto: average Shannon entropy of each byte position over the first 64 values < 4 bits.
  const std::uint64_t sample = std::min<std::uint64_t>(v.num_values, 64);
  if (sample == 0) return false;
  const std::uint64_t w = v.bits_per_value / 8;
  double sum = 0;
  for (std::uint64_t pos = 0; pos < w; ++pos) {
    std::array<std::uint32_t, 256> counts{};
    for (std::uint64_t i = 0; i < sample; ++i) ++counts[v.data->data()[i * w + pos]];
    double e = 0;
    for (std::uint32_t c : counts) {
      if (c == 0) continue;
      const double p = static_cast<double>(c) / static_cast<double>(sample);
      e -= p * std::log2(p);
    }
    sum += std::floor(e * 1000.0) / 1000.0;
  }
  return sum / static_cast<double>(w) < 0.5 * 8.0;
}

bool WantsGeneral(const EncodingRequest& r) {
  return r.compression == EncodingRequest::Compression::kLz4 ||
         r.compression == EncodingRequest::Compression::kZstd;
}

}  // namespace

Result<MiniBlockEncoded> EncodeMiniBlock(const DataBlock& values, const EncodingRequest& request) {
  using C = EncodingRequest::Compression;
  MiniBlockEncoded base = detail::NewEncoded();
  if (values.kind == DataBlock::Kind::kVariable) {
    LND_RETURN_NOT_OK(detail::ValidateVariable(values, "variable"));
    std::uint64_t max_len = 0;
    for (std::uint64_t i = 0; i < values.num_values; ++i) {
      max_len = std::max(max_len, detail::OffsetAt(values, i + 1) - detail::OffsetAt(values, i));
    }
    const std::uint64_t data_size =
        detail::OffsetAt(values, values.num_values) - detail::OffsetAt(values, 0);
    pb::CompressiveEncoding ce;
    if (request.compression == C::kNone) {
      ce = MakeVariable(values.bits_per_offset);
    } else if (request.compression == C::kFsst || (max_len >= 5 && data_size >= 32 * 1024)) {
      ce.mutable_fsst();  // table filled by the encoder
    } else {
      ce = MakeVariable(values.bits_per_offset);
    }
    LND_ASSIGN_OR_RETURN(base, EncodeMiniBlockWith(ce, values));
  } else if (values.kind == DataBlock::Kind::kFixedWidth) {
    LND_RETURN_NOT_OK(CheckFixed(values, "mini-block"));
    const std::uint64_t bits = values.bits_per_value;
    const bool word = bits == 8 || bits == 16 || bits == 32 || bits == 64;
    pb::CompressiveEncoding ce;
    if (!values.fsl.empty()) {
      ce.mutable_fixed_size_list();
    } else if (request.compression == C::kNone || !word || values.num_values == 0) {
      ce = MakeFlat(bits);
    } else if (WantsGeneral(request) && ShouldUseBss(values, request.bss)) {
      return BssWrappedGeneral(values, 0, request.compression, request.compression_level);
    } else {
      const std::uint64_t raw = values.num_values * bits / 8;
      const std::uint64_t packed = InlineBytes(values);
      const double max_runs = static_cast<double>(values.num_values) * request.rle_threshold;
      // The run count alone rules RLE out for most data; bytes are counted only when needed.
      const bool few_runs = static_cast<double>(CountRuns(values)) < max_runs;
      const auto [runs, rle_bytes] =
          few_runs ? RleStats(values) : std::pair<std::uint64_t, std::uint64_t>{0, raw};
      if (few_runs && static_cast<double>(runs) < max_runs && rle_bytes < raw &&
          rle_bytes < packed) {
        ce = MakeRle(bits);
      } else if (packed < raw) {
        ce = MakeInlineBitpacking(bits);
      } else {
        ce = MakeFlat(bits);
      }
    }
    LND_ASSIGN_OR_RETURN(base, EncodeMiniBlockWith(ce, values));
  } else {
    return Status::InvalidArgument(
        "mini-block: constant and all-null values use the constant page layout, not a "
        "compressive encoding");
  }
  if (WantsGeneral(request)) {
    return WrapGeneral(std::move(base), request.compression, request.compression_level);
  }
  return base;
}

}  // namespace lance_nd::file::internal::encoding
