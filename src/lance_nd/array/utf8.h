// Private: strict UTF-8 checking shared by validation and casts.
#pragma once

#include <cstdint>

namespace lance_nd::array::internal {

/// \brief Strict UTF-8 (no overlong forms, no surrogates, at most U+10FFFF): the byte position
/// of the first invalid sequence in s[0, n), or -1 when all of it is valid.
int64_t FirstInvalidUtf8(const std::uint8_t* s, int64_t n);

}  // namespace lance_nd::array::internal
