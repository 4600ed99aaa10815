// constant: every value is the one in the message (or null when it has none); no buffers.
#include "lance_nd/file/encoding/schemes.h"

namespace lance_nd::file::internal::encoding::detail {

DataBlock DecodeConstant(const pb::Constant& c, std::uint64_t n) {
  if (c.has_value()) {
    return DataBlock::Constant(
        n, array::Buffer::Copy(c.value().data(), static_cast<int64_t>(c.value().size())));
  }
  return DataBlock::AllNull(n);
}

}  // namespace lance_nd::file::internal::encoding::detail
