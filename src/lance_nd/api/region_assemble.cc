// AssembleRegion: fixed-width values copied piece by piece in runs of the last dimension;
// other types through a map from each region position to (piece, element), copied in runs.
#include "lance_nd/api/region_assemble.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "lance_nd/array/buffer.h"
#include "lance_nd/array/builder.h"

namespace lance_nd::api_internal {
namespace {

constexpr std::int32_t kMissing = -1;

/// Where each region position comes from.
struct SourceMap {
  std::vector<std::int32_t> piece;  // kMissing where no piece covers it
  std::vector<std::int64_t> element;
};

/// Walks the runs each piece covers in one region. Its scratch is allocated once per region,
/// not per piece: a coordinate along a chunked dimension has one piece per chunk row.
class OverlapWalker {
 public:
  explicit OverlapWalker(std::span<const DimRange> ranges)
      : ranges_(ranges),
        rank_(ranges.size()),
        out_strides_(rank_, 1),
        src_strides_(rank_, 1),
        lo_(rank_),
        hi_(rank_),
        idx_(rank_) {
    for (std::size_t k = rank_; k-- > 1;) out_strides_[k - 1] = out_strides_[k] * ranges[k].size();
  }

  /// Calls `copy(out, src, run)` for each run of consecutive positions that piece `p` covers
  /// in the region: `run` positions from region position `out` (C order over the region) and
  /// from element `src` of the piece. Runs follow the last dimension.
  template <typename Copy>
  void ForEachRun(const RegionPiece& p, Copy&& copy) {
    if (rank_ == 0) {
      copy(std::uint64_t{0}, std::uint64_t{0}, std::uint64_t{1});
      return;
    }
    const nd::Dimensions& dims = p.array->dimensions();
    for (std::size_t k = 0; k < rank_; ++k) {
      lo_[k] = std::max(ranges_[k].start, p.offset[k]);
      hi_[k] = std::min(ranges_[k].stop, p.offset[k] + dims[k].size);
      if (lo_[k] >= hi_[k]) return;  // no overlap
    }
    for (std::size_t k = rank_; k-- > 1;) src_strides_[k - 1] = src_strides_[k] * dims[k].size;
    const std::uint64_t run = hi_[rank_ - 1] - lo_[rank_ - 1];
    std::copy(lo_.begin(), lo_.end(), idx_.begin());  // odometer over all but the last dim
    while (true) {
      std::uint64_t out = 0, src = 0;
      for (std::size_t k = 0; k < rank_; ++k) {
        out += (idx_[k] - ranges_[k].start) * out_strides_[k];
        src += (idx_[k] - p.offset[k]) * src_strides_[k];
      }
      copy(out, src, run);
      std::size_t k = rank_ - 1;
      while (k > 0) {
        --k;
        if (++idx_[k] < hi_[k]) break;
        idx_[k] = lo_[k];
        if (k == 0) return;
      }
      if (rank_ == 1) return;
    }
  }

 private:
  std::span<const DimRange> ranges_;
  std::size_t rank_;
  std::vector<std::uint64_t> out_strides_, src_strides_, lo_, hi_, idx_;
};

/// Record in `map` the positions of the region that piece `p` covers.
void MapPiece(const RegionPiece& p, std::int32_t id, OverlapWalker& walker, SourceMap& map) {
  walker.ForEachRun(p, [&](std::uint64_t out, std::uint64_t src, std::uint64_t run) {
    for (std::uint64_t j = 0; j < run; ++j) {
      map.piece[out + j] = id;
      map.element[out + j] = static_cast<std::int64_t>(src + j);
    }
  });
}

/// Bytes per value when every piece holds plain fixed-width values of `type` whose buffers
/// cover them (not bool, which is bit-packed); 0 otherwise.
std::uint64_t FixedWidthOf(const array::DataTypePtr& type, std::span<const RegionPiece> pieces) {
  const int32_t width = type->byte_width();
  if (width <= 0) return 0;
  const auto w = static_cast<std::uint64_t>(width);
  for (const RegionPiece& p : pieces) {
    const array::ArrayData& a = *p.array->values();
    if (!a.type->Equals(*type) || !a.children.empty() || a.offset < 0 || a.length < 0) return 0;
    if (a.length == 0) continue;
    if (a.buffers.size() < 2 || !a.buffers[1] ||
        static_cast<std::uint64_t>(a.buffers[1]->size()) <
            (static_cast<std::uint64_t>(a.offset) + static_cast<std::uint64_t>(a.length)) * w) {
      return 0;
    }
    if (a.validity() != nullptr &&
        static_cast<std::uint64_t>(a.buffers[0]->size()) * 8 <
            static_cast<std::uint64_t>(a.offset) + static_cast<std::uint64_t>(a.length)) {
      return 0;
    }
  }
  return w;
}

/// Bits [from, from + n) of `src` (all set when null) to bits [to, to + n) of `dst`, a whole
/// byte of `dst` at a time between its byte boundaries.
void CopyBits(const std::uint8_t* src, std::uint64_t from, std::uint8_t* dst, std::uint64_t to,
              std::uint64_t n) {
  std::uint64_t j = 0;
  auto copy_bit = [&](std::uint64_t k) {
    const bool valid = src == nullptr || array::GetBit(src, static_cast<int64_t>(from + k));
    array::SetBitTo(dst, static_cast<int64_t>(to + k), valid);
  };
  for (; j < n && ((to + j) & 7) != 0; ++j) copy_bit(j);
  for (; j + 8 <= n; j += 8) {  // the 8 source bits from bit i span one byte or two
    const std::uint64_t i = from + j, shift = i & 7;
    std::uint8_t byte = 0xFF;
    if (src != nullptr) {
      const unsigned low = src[i >> 3];
      const unsigned high = shift == 0 ? 0u : src[(i >> 3) + 1];
      byte = static_cast<std::uint8_t>((low >> shift) | (high << (8 - shift)));
    }
    dst[(to + j) >> 3] = byte;
  }
  for (; j < n; ++j) copy_bit(j);
}

/// The region's values copied piece by piece, a run of the last dimension at a time, with
/// memcpy; validity copied bit by bit only where a piece has nulls. Positions no piece covers
/// are zero and null, as a builder leaves them; where pieces overlap, the last one wins.
array::ArrayPtr AssembleFixedWidth(const array::DataTypePtr& type, std::uint64_t width,
                                   std::uint64_t n, std::span<const RegionPiece> pieces,
                                   std::span<const DimRange> ranges) {
  std::uint8_t* out = nullptr;
  array::BufferPtr values = array::Buffer::AllocateZeroed(static_cast<int64_t>(n * width), &out);
  std::vector<std::uint8_t> bits((n + 7) / 8, 0);
  OverlapWalker walker(ranges);
  for (const RegionPiece& piece : pieces) {
    const array::ArrayData& a = *piece.array->values();
    const auto offset = static_cast<std::uint64_t>(a.offset);
    const std::uint8_t* data = a.buffers[1]->data() + offset * width;
    const std::uint8_t* validity = a.validity();
    walker.ForEachRun(piece, [&](std::uint64_t at, std::uint64_t src, std::uint64_t run) {
      std::memcpy(out + at * width, data + src * width, run * width);
      CopyBits(validity, offset + src, bits.data(), at, run);
    });
  }
  const std::int64_t nulls =
      static_cast<std::int64_t>(n) - array::CountSetBits(bits.data(), 0, static_cast<int64_t>(n));
  array::BufferPtr validity = nulls == 0 ? nullptr : array::Buffer::FromVector(std::move(bits));
  return array::MakeArrayData(type, static_cast<int64_t>(n),
                              {std::move(validity), std::move(values)}, {}, nulls);
}

}  // namespace

Result<array::ArrayPtr> AssembleRegion(const array::DataTypePtr& type,
                                       std::span<const RegionPiece> pieces,
                                       std::span<const DimRange> ranges) {
  std::uint64_t n = 1;
  for (const DimRange& r : ranges) {
    if (r.size() != 0 &&
        n > static_cast<std::uint64_t>(std::numeric_limits<int32_t>::max()) / r.size()) {
      return Status::InvalidArgument("the region has more than 2^31 elements; read it in parts");
    }
    n *= r.size();
  }
  if (const std::uint64_t width = FixedWidthOf(type, pieces); width > 0) {
    return AssembleFixedWidth(type, width, n, pieces, ranges);
  }
  SourceMap map{std::vector<std::int32_t>(n, kMissing), std::vector<std::int64_t>(n, 0)};
  OverlapWalker walker(ranges);
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    MapPiece(pieces[p], static_cast<std::int32_t>(p), walker, map);
  }
  std::unique_ptr<array::ArrayBuilder> builder = array::MakeBuilder(type);
  std::uint64_t i = 0;
  while (i < n) {
    std::uint64_t end = i + 1;
    const std::int32_t p = map.piece[i];
    while (end < n && map.piece[end] == p &&
           (p == kMissing || map.element[end] == map.element[end - 1] + 1)) {
      ++end;
    }
    const auto len = static_cast<int64_t>(end - i);
    if (p == kMissing) {
      builder->AppendNulls(len);
    } else {
      LND_RETURN_NOT_OK(builder->AppendArraySlice(
          *pieces[static_cast<std::size_t>(p)].array->values(), map.element[i], len));
    }
    i = end;
  }
  return builder->Finish();
}

}  // namespace lance_nd::api_internal
