// Bit-packing of 8/16/32/64-bit unsigned words in FastLanes blocks of 1024 values
// (fastlanes.h): inline (each block led by its bit width, mini-block chunks and small level
// blocks) and out of line (one width for the whole block buffer, levels of large pages).
#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "lance_nd/core/internal/endian.h"
#include "lance_nd/file/encoding/encode_internal.h"
#include "lance_nd/file/encoding/fastlanes.h"
#include "lance_nd/file/encoding/schemes.h"
#include "lance_nd/file/encoding/util.h"

namespace lance_nd::file::internal::encoding::detail {
namespace {

// ---- decoding ----------------------------------------------------------------------------

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
  // Not zeroed: every block is copied in before it is unpacked.
  alignas(64) std::array<T, kFastLanesBlock> packed;    // NOLINT(*-pro-type-member-init)
  alignas(64) std::array<T, kFastLanesBlock> unpacked;  // NOLINT(*-pro-type-member-init)
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
Result<DataBlock> UnpackInline(const BufferPtr& bytes, std::uint64_t n) {
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

template <typename T>
Result<DataBlock> UnpackOutOfLine(const BufferPtr& bytes, std::uint64_t n, std::uint64_t width) {
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
  // Lance leaves a short tail unpacked when packing it would cost more than it saves.
  const bool raw_tail = tail > 0 && words == full_words + tail;
  const std::uint64_t need_words = full_words + (tail == 0 ? 0 : (raw_tail ? tail : wpc));
  if (words < need_words) {
    return Corrupt(kName, n, " values at width ", width, " need ", need_words * sizeof(T),
                   " bytes (or ", (full_words + tail) * sizeof(T), " with a raw tail), have ",
                   size);
  }
  std::uint8_t* out = nullptr;
  auto buffer = Allocate(n * sizeof(T), &out);
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

// ---- encoding ----------------------------------------------------------------------------

// Calls f(T{}) for the unsigned word type of `bits` (8/16/32/64), else InvalidArgument.
template <typename F>
auto ByWidth(std::uint64_t bits, std::string_view encoding, F&& f) -> decltype(f(std::uint8_t{})) {
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

template <typename T>
MiniBlockEncoded ChunkInline(const DataBlock& v) {
  MiniBlockEncoded out = NewEncoded();
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
  ParallelFor(num_chunks, kChunksPerTask, [&](std::uint64_t cb, std::uint64_t ce) {
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
  return BufferFromValues(out);
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
      for (std::uint64_t i = 0; i < tail; ++i) {
        out.push_back(LoadLE<T>(data + (full * kFastLanesBlock + i) * sizeof(T)));
      }
    }
  }
  return BufferFromValues(out);
}

Status CheckFixedWord(const DataBlock& v, std::string_view encoding, std::uint64_t bits) {
  if (v.kind != DataBlock::Kind::kFixedWidth || v.bits_per_value != bits) {
    return InvalidInput(encoding, "expects fixed-width values of ", bits, " bits");
  }
  if (Size(v.data) < v.num_values * bits / 8) {
    return InvalidInput(encoding, "the data buffer is smaller than num_values * bits_per_value");
  }
  return Status::OK();
}

template <typename T>
std::uint64_t PackedBytes(const std::uint8_t* data, std::uint64_t n) {
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

std::uint64_t PackedBytesOf(const std::uint8_t* data, std::uint64_t n, std::uint64_t bits) {
  switch (bits) {
    case 8:
      return PackedBytes<std::uint8_t>(data, n);
    case 16:
      return PackedBytes<std::uint16_t>(data, n);
    case 32:
      return PackedBytes<std::uint32_t>(data, n);
    default:
      return PackedBytes<std::uint64_t>(data, n);
  }
}

}  // namespace

Result<DataBlock> DecodeInlineBitpacking(const pb::InlineBitpacking& ib, const BufferPtr& bytes,
                                         std::uint64_t n) {
  if (ib.has_values()) {
    return Status::NotImplemented("inline bitpacking with buffer compression is not supported");
  }
  LND_RETURN_NOT_OK(CheckCount("inline bitpacking", n));
  switch (ib.uncompressed_bits_per_value()) {
    case 8:
      return UnpackInline<std::uint8_t>(bytes, n);
    case 16:
      return UnpackInline<std::uint16_t>(bytes, n);
    case 32:
      return UnpackInline<std::uint32_t>(bytes, n);
    case 64:
      return UnpackInline<std::uint64_t>(bytes, n);
    default:
      return Corrupt("inline bitpacking", "uncompressed width ", ib.uncompressed_bits_per_value(),
                     " bits (expected 8, 16, 32 or 64)");
  }
}

Status DecodeInlineBitpackingInto(std::uint64_t bits, const BufferPtr& bytes, std::uint64_t n,
                                  std::uint8_t* out) {
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
}

Result<DataBlock> DecodeOutOfLineBitpacking(const pb::OutOfLineBitpacking& ob,
                                            const BufferPtr& bytes, std::uint64_t n) {
  if (ob.values().compression_case() != Case::kFlat || ob.values().flat().has_data()) {
    return Status::NotImplemented("out-of-line bitpacking: packed values encoded as ",
                                  EncodingName(ob.values()), " (only flat(width) is supported)");
  }
  LND_RETURN_NOT_OK(CheckCount("out-of-line bitpacking", n));
  const std::uint64_t width = ob.values().flat().bits_per_value();
  switch (ob.uncompressed_bits_per_value()) {
    case 8:
      return UnpackOutOfLine<std::uint8_t>(bytes, n, width);
    case 16:
      return UnpackOutOfLine<std::uint16_t>(bytes, n, width);
    case 32:
      return UnpackOutOfLine<std::uint32_t>(bytes, n, width);
    case 64:
      return UnpackOutOfLine<std::uint64_t>(bytes, n, width);
    default:
      return Corrupt("out-of-line bitpacking", "uncompressed width ",
                     ob.uncompressed_bits_per_value(), " bits (expected 8, 16, 32 or 64)");
  }
}

Result<MiniBlockEncoded> ChunkInlineBitpacking(const DataBlock& v) {
  return ByWidth(v.bits_per_value, "inline bitpacking",
                 [&](auto t) -> Result<MiniBlockEncoded> { return ChunkInline<decltype(t)>(v); });
}

Result<BufferPtr> EncodeInlineBitpackingBlock(const pb::InlineBitpacking& ib,
                                              const DataBlock& values) {
  const std::uint64_t bits = ib.uncompressed_bits_per_value();
  LND_RETURN_NOT_OK(CheckFixedWord(values, "inline bitpacking", bits));
  return ByWidth(bits, "inline bitpacking", [&](auto t) -> Result<BufferPtr> {
    return PackInlineBlocks<decltype(t)>(values.data->data(), values.num_values);
  });
}

Result<BufferPtr> EncodeOutOfLineBitpackingBlock(const pb::OutOfLineBitpacking& ob,
                                                 const DataBlock& values) {
  const std::uint64_t bits = ob.uncompressed_bits_per_value();
  LND_RETURN_NOT_OK(CheckFixedWord(values, "out-of-line bitpacking", bits));
  // Values wider than the packed width would be truncated silently: refuse such a width.
  if (ob.values().compression_case() != Case::kFlat || ob.values().flat().bits_per_value() > bits) {
    return InvalidInput("out-of-line bitpacking", "packed width must be flat(w), w <= bits");
  }
  const std::size_t width = static_cast<std::size_t>(ob.values().flat().bits_per_value());
  return ByWidth(bits, "out-of-line bitpacking", [&](auto t) -> Result<BufferPtr> {
    return PackOutOfLine<decltype(t)>(values.data->data(), values.num_values, width);
  });
}

std::uint64_t InlineBitpackedBytes(const DataBlock& v) {
  // Counted on two threads, in parts of kBlocksPerTask blocks.
  const std::uint64_t n = v.num_values;
  const std::uint64_t w = v.bits_per_value / 8;
  const std::uint64_t blocks = (n + kFastLanesBlock - 1) / kFastLanesBlock;
  constexpr std::uint64_t kBlocksPerTask = 256;
  std::vector<std::uint64_t> part((blocks + kBlocksPerTask - 1) / kBlocksPerTask, 0);
  ParallelFor(part.size(), 1, [&](std::uint64_t first, std::uint64_t last) {
    for (std::uint64_t p = first; p < last; ++p) {
      const std::uint64_t begin = p * kBlocksPerTask * kFastLanesBlock;
      const std::uint64_t end = std::min(n, begin + kBlocksPerTask * kFastLanesBlock);
      part[p] = PackedBytesOf(v.data->data() + begin * w, end - begin, v.bits_per_value);
    }
  });
  std::uint64_t total = 0;
  for (std::uint64_t b : part) total += b;
  return total;
}

}  // namespace lance_nd::file::internal::encoding::detail
