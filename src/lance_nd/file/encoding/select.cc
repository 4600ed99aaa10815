// Chosen ranges of values: copied out of a decoded block, or decoded from a mini-block chunk
// only as far as those values need (a take keeps a few rows of each chunk).
#include <cstring>

#include "encodings_v2_1.pb.h"
#include "lance_nd/file/encoding/compressive.h"
#include "lance_nd/file/encoding/schemes.h"
#include "lance_nd/file/encoding/util.h"
#include "lance_nd/file/encoding/variable_util.h"

namespace lance_nd::file::internal::encoding {

using detail::Corrupt;

namespace {

Result<std::uint64_t> CountRanges(ValueRanges ranges, std::uint64_t n) {
  std::uint64_t total = 0, prev = 0;
  for (const auto& [b, e] : ranges) {
    if (b < prev || e < b || e > n) {
      return Corrupt("select", "range [", b, ", ", e, ") does not fit ", n, " values in order");
    }
    total += e - b;
    prev = e;
  }
  return total;
}

Result<DataBlock> SelectBits(const DataBlock& block, ValueRanges ranges, std::uint64_t total) {
  if (detail::Size(block.data) * 8 < block.num_values) {
    return Corrupt("select", block.num_values, " bits need more than ", detail::Size(block.data),
                   " bytes");
  }
  std::uint8_t* out = nullptr;
  auto buffer = detail::Allocate((total + 7) / 8, &out);  // zeroed
  const std::uint8_t* in = block.data->data();
  std::uint64_t o = 0;
  for (const auto& [b, e] : ranges) {
    for (std::uint64_t i = b; i < e; ++i, ++o) {
      if ((in[i / 8] >> (i % 8)) & 1) {
        out[o / 8] = static_cast<std::uint8_t>(out[o / 8] | (1 << (o % 8)));
      }
    }
  }
  return DataBlock::Fixed(1, total, std::move(buffer));
}

Result<DataBlock> SelectFixed(const DataBlock& block, ValueRanges ranges, std::uint64_t total) {
  for (const auto& layer : block.fsl) {
    if (layer.validity) {
      return Status::NotImplemented("select: fixed-size-list rows with validity");
    }
  }
  const std::uint64_t bits = block.bits_per_value;
  DataBlock out;
  if (bits == 0) {
    out = DataBlock::Fixed(0, total, nullptr);
  } else if (bits == 1) {
    LND_ASSIGN_OR_RETURN(out, SelectBits(block, ranges, total));
  } else if (bits % 8 != 0) {
    return Status::NotImplemented("select: values of ", bits, " bits");
  } else {
    const std::uint64_t w = bits / 8;
    if (detail::Size(block.data) < block.num_values * w) {
      return Corrupt("select", block.num_values, " values of ", w, " bytes need more than ",
                     detail::Size(block.data), " bytes");
    }
    std::uint8_t* dst = nullptr;
    auto buffer = array::Buffer::AllocateUninitialized(static_cast<int64_t>(total * w), &dst);
    for (const auto& [b, e] : ranges) {
      if (e > b) std::memcpy(dst, block.data->data() + b * w, (e - b) * w);
      dst += (e - b) * w;
    }
    out = DataBlock::Fixed(bits, total, std::move(buffer));
  }
  out.items_per_value = block.items_per_value;
  out.fsl = block.fsl;
  return out;
}

// The offsets of the selected values only (a chunk holds many more): present, in order and
// within the data.
Status CheckVariable(const DataBlock& b, ValueRanges ranges) {
  if (b.bits_per_offset != 32 && b.bits_per_offset != 64) {
    return Corrupt("select", "offsets of ", b.bits_per_offset, " bits (expected 32 or 64)");
  }
  if (!b.offsets || detail::Size(b.offsets) / (b.bits_per_offset / 8) <= b.num_values) {
    return Corrupt("select", b.num_values, " values need ", b.num_values + 1, " offsets");
  }
  const std::uint64_t size = detail::Size(b.data);
  for (const auto& [lo, hi] : ranges) {
    std::uint64_t prev = detail::OffsetAt(b, lo);
    for (std::uint64_t i = lo + 1; i <= hi; ++i) {
      const std::uint64_t cur = detail::OffsetAt(b, i);
      if (cur < prev) return Corrupt("select", "offset ", i, " is smaller than offset ", i - 1);
      prev = cur;
    }
    if (prev > size) return Corrupt("select", "offset ", hi, " is past the ", size, " data bytes");
  }
  return Status::OK();
}

template <typename Offset>
DataBlock SelectVariableAs(const DataBlock& block, ValueRanges ranges, std::uint64_t total) {
  std::uint64_t bytes = 0;
  for (const auto& [b, e] : ranges) {
    bytes += detail::OffsetAt(block, e) - detail::OffsetAt(block, b);
  }
  std::uint8_t* offsets = nullptr;
  std::uint8_t* data = nullptr;
  auto offsets_buffer = array::Buffer::AllocateUninitialized(
      static_cast<int64_t>((total + 1) * sizeof(Offset)), &offsets);
  auto data_buffer = array::Buffer::AllocateUninitialized(static_cast<int64_t>(bytes), &data);
  std::uint64_t at = 0, o = 0;
  StoreLE(offsets, static_cast<Offset>(0));
  for (const auto& [b, e] : ranges) {
    const std::uint64_t base = detail::OffsetAt(block, b);
    const std::uint64_t len = detail::OffsetAt(block, e) - base;
    if (len > 0) std::memcpy(data + at, block.data->data() + base, len);
    for (std::uint64_t i = b; i < e; ++i) {
      ++o;
      StoreLE(offsets + o * sizeof(Offset),
              static_cast<Offset>(at + detail::OffsetAt(block, i + 1) - base));
    }
    at += len;
  }
  return DataBlock::Variable(sizeof(Offset) * 8, total, std::move(offsets_buffer),
                             std::move(data_buffer));
}

}  // namespace

Result<DataBlock> SelectValues(const DataBlock& block, ValueRanges ranges) {
  LND_ASSIGN_OR_RETURN(const std::uint64_t total, CountRanges(ranges, block.num_values));
  if (total == block.num_values) return block;
  switch (block.kind) {
    case DataBlock::Kind::kConstant:
      return DataBlock::Constant(total, block.data);
    case DataBlock::Kind::kAllNull:
      return DataBlock::AllNull(total);
    case DataBlock::Kind::kFixedWidth:
      return SelectFixed(block, ranges, total);
    case DataBlock::Kind::kVariable:
      LND_RETURN_NOT_OK(CheckVariable(block, ranges));
      if (block.bits_per_offset == 32) return SelectVariableAs<std::uint32_t>(block, ranges, total);
      return SelectVariableAs<std::uint64_t>(block, ranges, total);
  }
  return Status::NotImplemented("select: unknown data block kind");
}

Result<DataBlock> DecodeMiniBlockRanges(const pb::CompressiveEncoding& ce,
                                        std::span<const BufferPtr> buffers, std::uint64_t n,
                                        ValueRanges ranges) {
  if (ce.compression_case() == pb::CompressiveEncoding::kFsst) {
    // Only the kept strings are decompressed.
    return detail::DecodeFsstMiniBlockRanges(ce.fsst(), buffers, n, ranges);
  }
  LND_ASSIGN_OR_RETURN(DataBlock block, DecodeMiniBlock(ce, buffers, n));
  if (block.num_values != n) {
    return Corrupt(EncodingName(ce), "decoded ", block.num_values, " values, expected ", n);
  }
  return SelectValues(block, ranges);
}

}  // namespace lance_nd::file::internal::encoding
