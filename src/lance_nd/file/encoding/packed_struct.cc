// packed_struct: the fixed-width children of a struct stored row by row, one fixed-width row of
// all their bytes per value; decoded as such rows.
#include "lance_nd/file/encoding/encode_internal.h"
#include "lance_nd/file/encoding/schemes.h"
#include "lance_nd/file/encoding/util.h"

namespace lance_nd::file::internal::encoding::detail {

Result<DataBlock> DecodePackedStructMiniBlock(const pb::PackedStruct& packed,
                                              std::span<const BufferPtr> buffers, std::uint64_t n) {
  std::uint64_t total = 0;
  for (std::uint64_t b : packed.bits_per_value()) {
    if (b % 8 != 0 || b > (std::uint64_t{1} << 20)) {
      return Corrupt("packed_struct", "child width ", b, " bits (expected whole bytes)");
    }
    total += b;
  }
  LND_ASSIGN_OR_RETURN(DataBlock rows, DecodeMiniBlock(packed.values(), buffers, n));
  if (rows.kind != DataBlock::Kind::kFixedWidth || rows.bits_per_value != total) {
    return Corrupt("packed_struct", "rows of ", rows.bits_per_value,
                   " bits do not match the children's total of ", total, " bits");
  }
  return rows;
}

Result<MiniBlockEncoded> ChunkPackedStruct(const pb::PackedStruct& packed, const DataBlock& values,
                                           std::uint64_t per_chunk) {
  LND_RETURN_NOT_OK(CheckFixed(values, "packed_struct"));
  std::uint64_t total = 0;
  for (std::uint64_t b : packed.bits_per_value()) total += b;
  if (total != values.bits_per_value) {
    return InvalidInput("packed_struct", "children widths do not add up to the row width");
  }
  LND_ASSIGN_OR_RETURN(MiniBlockEncoded out, ChunkFlat(values, per_chunk));
  pb::CompressiveEncoding ce;
  *ce.mutable_packed_struct() = packed;
  *ce.mutable_packed_struct()->mutable_values() = MakeFlat(values.bits_per_value);
  *out.encoding = std::move(ce);
  return out;
}

}  // namespace lance_nd::file::internal::encoding::detail
