// Private helpers of the Arrow C Data Interface bridge (c_data_*.cc), exposed for tests and
// the fuzz target.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"

namespace lance_nd::array::internal {

/// \brief Nesting deeper than this is rejected on import (protects the stack).
inline constexpr int kMaxCDataDepth = 64;

/// \brief The C Data Interface format string of a type ("i", "tsu:UTC", "+w:3", ...).
std::string CFormatString(const DataType& type);

/// \brief Encode metadata as the C Data Interface blob: int32 count, then per entry int32 key
/// length, key bytes, int32 value length, value bytes (native endianness). Empty metadata
/// encodes as an empty string (exported as a NULL pointer).
std::string EncodeCMetadata(const Metadata& metadata);

/// \brief Decode a metadata blob. Without `size` the blob is trusted to be as long as its
/// lengths say (the C interface carries no size); with `size`, every read is bounds-checked.
/// A NULL `data` is empty metadata. Negative counts or lengths are InvalidArgument; a repeated
/// key keeps its last value.
Result<Metadata> DecodeCMetadata(const char* data, std::optional<std::size_t> size = std::nullopt);

}  // namespace lance_nd::array::internal
