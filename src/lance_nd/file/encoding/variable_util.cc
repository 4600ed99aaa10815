#include "lance_nd/file/encoding/variable_util.h"

namespace lance_nd::file::internal::encoding::detail {

Status ValidateVariable(const DataBlock& b, std::string_view encoding) {
  if (b.kind != DataBlock::Kind::kVariable) {
    return Corrupt(encoding, "expected variable-width values");
  }
  if (b.bits_per_offset != 32 && b.bits_per_offset != 64) {
    return Corrupt(encoding, "offsets of ", b.bits_per_offset, " bits (expected 32 or 64)");
  }
  const auto need = CheckedMul<std::uint64_t>(b.num_values + 1, b.bits_per_offset / 8);
  if (!b.offsets || !need || Size(b.offsets) < *need || b.num_values >= kMaxDecodedValues) {
    return Corrupt(encoding, b.num_values, " values need ", b.num_values + 1, " offsets, have ",
                   Size(b.offsets), " bytes of offsets");
  }
  const std::uint64_t size = Size(b.data);
  std::uint64_t prev = OffsetAt(b, 0);
  for (std::uint64_t i = 1; i <= b.num_values; ++i) {
    const std::uint64_t cur = OffsetAt(b, i);
    if (cur < prev) {
      return Corrupt(encoding, "offset ", i, " (", cur, ") is smaller than offset ", i - 1, " (",
                     prev, ")");
    }
    prev = cur;
  }
  if (prev > size) {
    return Corrupt(encoding, "last offset ", prev, " is past the ", size, " data bytes");
  }
  return Status::OK();
}

Result<DataBlock> VariableBuilder::Finish() {
  const std::uint64_t n = num_values();
  BufferPtr offsets;
  if (bits_ == 32) {
    if (data_.size() > 0xFFFFFFFFull) {
      return Status::InvalidArgument("variable: ", data_.size(),
                                     " bytes do not fit 32-bit offsets; use 64-bit");
    }
    offsets = BufferFromValues(std::move(offsets32_));
  } else {
    offsets = BufferFromValues(std::move(offsets64_));
  }
  BufferPtr data = BufferFromValues(std::move(data_));
  data_.clear();
  return DataBlock::Variable(bits_, n, std::move(offsets), std::move(data));
}

}  // namespace lance_nd::file::internal::encoding::detail
