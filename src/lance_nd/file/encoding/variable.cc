// variable: variable-width values (strings, binary) as offsets + bytes. A mini-block chunk holds
// (n + 1) offsets counted from the chunk's start, then the bytes, padded with 0x48 to a whole
// offset (the padding counts in the chunk's recorded size). A block (dictionaries) starts with a
// header: offset width and the byte where the data starts.
#include <algorithm>
#include <cstring>
#include <vector>

#include "lance_nd/core/internal/endian.h"
#include "lance_nd/file/encoding/encode_internal.h"
#include "lance_nd/file/encoding/schemes.h"
#include "lance_nd/file/encoding/util.h"
#include "lance_nd/file/encoding/variable_util.h"

namespace lance_nd::file::internal::encoding::detail {
namespace {

constexpr std::uint64_t kVariableChunkTarget = 4096;
constexpr std::uint64_t kVariableChunkLimit = std::uint64_t{16} * 1024;
constexpr std::uint8_t kVariablePad = 0x48;

Result<std::uint32_t> OffsetWidth(const pb::Variable& v) {
  if (v.has_values()) {
    return Status::NotImplemented("variable with buffer compression is not supported");
  }
  if (v.offsets().compression_case() != Case::kFlat ||
      (v.offsets().flat().bits_per_value() != 32 && v.offsets().flat().bits_per_value() != 64)) {
    return Status::NotImplemented("variable: offsets encoded as ", EncodingName(v.offsets()),
                                  " (only flat(32) or flat(64) is supported)");
  }
  return static_cast<std::uint32_t>(v.offsets().flat().bits_per_value());
}

// The block header: its offset width, where the offsets and the data start. Two layouts exist:
// Lance's older one has the width in byte 0 and nonzero bytes 1..3.
struct BlockHeader {
  std::uint32_t width = 0;
  std::uint64_t offsets_start = 0;
  std::uint64_t data_start = 0;
};

Result<BlockHeader> ParseBlockHeader(const std::uint8_t* p, std::uint64_t size) {
  constexpr std::string_view kName = "variable (block)";
  auto need = [&](std::uint64_t bytes) -> Status {
    if (size < bytes) {
      return Corrupt(kName, "buffer of ", size, " bytes is shorter than its header");
    }
    return Status::OK();
  };
  LND_RETURN_NOT_OK(need(8));
  BlockHeader h;
  const bool old_scheme = p[1] != 0 || p[2] != 0 || p[3] != 0;
  if (old_scheme) {
    h.width = p[0];
    if (h.width == 32) {
      LND_RETURN_NOT_OK(need(9));
      h.data_start = LoadLE<std::uint32_t>(p + 5);
      h.offsets_start = 9;
    } else if (h.width == 64) {
      LND_RETURN_NOT_OK(need(17));
      h.data_start = LoadLE<std::uint64_t>(p + 9);
      h.offsets_start = 17;
    }
  } else {
    h.width = LoadLE<std::uint32_t>(p);
    if (h.width == 32) {
      h.data_start = LoadLE<std::uint32_t>(p + 4);
      h.offsets_start = 8;
    } else if (h.width == 64) {
      LND_RETURN_NOT_OK(need(16));
      h.data_start = LoadLE<std::uint64_t>(p + 8);
      h.offsets_start = 16;
    }
  }
  if (h.width != 32 && h.width != 64) {
    return Corrupt(kName, "offset width ", h.width, " (expected 32 or 64)");
  }
  return h;
}

// Lance's chunking of variable data: double the value count while offsets + bytes stay within
// 4 KiB; the chunk takes the first doubling that exceeds it (or everything that is left).
std::uint64_t NextVariableChunkEnd(const DataBlock& v, std::uint64_t last) {
  const std::uint64_t n = v.num_values;
  const std::uint64_t w = v.bits_per_offset / 8;
  std::uint64_t num = 1;
  std::uint64_t next = 2;
  while (true) {
    if (last + next >= n + 1) {
      const std::uint64_t size = OffsetAt(v, n) - OffsetAt(v, last) + (n + 1 - last) * w;
      return size <= kVariableChunkTarget ? n : last + num;
    }
    const std::uint64_t size = OffsetAt(v, last + next) - OffsetAt(v, last) + (next + 1) * w;
    if (size > kVariableChunkTarget || next > kMaxMiniBlockValues / 2) {
      // Lance takes the overshooting count; we do too unless that chunk would be far too big
      // (2.1 chunks must stay under 32 KiB and u16 buffer sizes).
      return size <= kVariableChunkLimit ? last + next : last + num;
    }
    num = next;
    next *= 2;
  }
}

// Writes offset `value` at `p` in the block's offset width (4 or 8 bytes).
void StoreOffset(std::uint8_t* p, std::uint64_t w, std::uint64_t value) {
  if (w == 4) {
    StoreLE(p, static_cast<std::uint32_t>(value));
  } else {
    StoreLE(p, value);
  }
}

}  // namespace

Result<DataBlock> DecodeVariableMiniBlock(const pb::Variable& v, const BufferPtr& bytes,
                                          std::uint64_t n) {
  LND_ASSIGN_OR_RETURN(const std::uint32_t width, OffsetWidth(v));
  LND_RETURN_NOT_OK(CheckCount("variable", n));
  const std::uint64_t need = (n + 1) * (width / 8);
  if (need > Size(bytes)) {
    return Corrupt("variable", n, " values need ", need, " bytes of ", width, "-bit offsets, have ",
                   Size(bytes));
  }
  DataBlock out = DataBlock::Variable(width, n, SliceUnchecked(bytes, 0, need), bytes);
  LND_RETURN_NOT_OK(ValidateVariable(out, "variable"));
  if (OffsetAt(out, 0) < need) {
    return Corrupt("variable", "first offset ", OffsetAt(out, 0), " points into the offsets (",
                   need, " bytes)");
  }
  return out;
}

Result<DataBlock> DecodeVariableBlock(const BufferPtr& bytes, std::uint64_t n) {
  constexpr std::string_view kName = "variable (block)";
  LND_RETURN_NOT_OK(CheckCount(kName, n));
  const std::uint64_t size = Size(bytes);
  LND_ASSIGN_OR_RETURN(const BlockHeader h, ParseBlockHeader(bytes->data(), size));
  const std::uint64_t need = (n + 1) * (h.width / 8);
  if (h.data_start < h.offsets_start || h.data_start > size ||
      h.data_start - h.offsets_start != need) {
    return Corrupt(kName, n, " values need ", need, " bytes of offsets from byte ", h.offsets_start,
                   ", but the data starts at byte ", h.data_start, " of ", size);
  }
  DataBlock out = DataBlock::Variable(h.width, n, SliceUnchecked(bytes, h.offsets_start, need),
                                      SliceUnchecked(bytes, h.data_start, size - h.data_start));
  LND_RETURN_NOT_OK(ValidateVariable(out, kName));
  return out;
}

Result<MiniBlockEncoded> ChunkVariable(const DataBlock& v, std::uint64_t per_chunk) {
  LND_RETURN_NOT_OK(ValidateVariable(v, "variable"));
  MiniBlockEncoded out = NewEncoded();
  *out.encoding = MakeVariable(v.bits_per_offset);
  out.num_buffers = 1;
  const std::uint64_t w = v.bits_per_offset / 8;
  std::uint64_t start = 0;
  while (start < v.num_values) {
    const std::uint64_t end =
        per_chunk ? std::min(v.num_values, start + per_chunk) : NextVariableChunkEnd(v, start);
    const std::uint64_t n = end - start;
    const std::uint64_t base = OffsetAt(v, start);
    const std::uint64_t bytes = OffsetAt(v, end) - base;
    const std::uint64_t header = (n + 1) * w;
    const std::uint64_t size = header + bytes;
    const std::uint64_t padded = (size + w - 1) / w * w;
    if (w == 4 && padded > 0xFFFFFFFFull) {
      return InvalidInput("variable", "a chunk exceeds 32-bit offsets");
    }
    std::vector<std::uint8_t> buf(padded, kVariablePad);
    for (std::uint64_t i = 0; i <= n; ++i) {
      StoreOffset(buf.data() + i * w, w, OffsetAt(v, start + i) - base + header);
    }
    if (bytes > 0) std::memcpy(buf.data() + header, v.data->data() + base, bytes);
    out.chunks.push_back({n, {array::Buffer::FromVector(std::move(buf))}});
    start = end;
  }
  return out;
}

Result<BufferPtr> EncodeVariableBlock(const DataBlock& values) {
  LND_RETURN_NOT_OK(ValidateVariable(values, "variable"));
  const std::uint64_t w = values.bits_per_offset / 8;
  const std::uint64_t header = 2 * w;
  const std::uint64_t data_start = header + (values.num_values + 1) * w;
  const std::uint64_t base = OffsetAt(values, 0);
  const std::uint64_t bytes = OffsetAt(values, values.num_values) - base;
  std::vector<std::uint8_t> out(data_start + bytes);
  StoreOffset(out.data(), w, w * 8);
  StoreOffset(out.data() + w, w, data_start);
  for (std::uint64_t i = 0; i <= values.num_values; ++i) {
    StoreOffset(out.data() + header + i * w, w, OffsetAt(values, i) - base);
  }
  if (bytes > 0) std::memcpy(out.data() + data_start, values.data->data() + base, bytes);
  return array::Buffer::FromVector(std::move(out));
}

VariableSizes MeasureVariable(const DataBlock& values) {
  VariableSizes out;
  for (std::uint64_t i = 0; i < values.num_values; ++i) {
    out.max_len = std::max(out.max_len, OffsetAt(values, i + 1) - OffsetAt(values, i));
  }
  out.data_size = OffsetAt(values, values.num_values) - OffsetAt(values, 0);
  return out;
}

}  // namespace lance_nd::file::internal::encoding::detail
