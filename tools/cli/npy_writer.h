// An nd array as a NumPy .npy file (format version 1.0, little-endian, C order).
#pragma once

#include <string>
#include <string_view>

#include "lance_nd/core/result.h"
#include "lance_nd/nd/nd_array.h"

namespace lance_nd::cli {

/// \brief The bytes of a .npy file holding `array` (named `name` in messages). Types: bool,
/// the integers, float16/32/64, timestamps and dates (datetime64, UTC), durations
/// (timedelta64). Missing values become NaN for floats and NaT for times; integers and bools
/// with missing values need a `_FillValue` attribute that the type holds exactly, which fills
/// them. InvalidArgument otherwise, and for other types (strings, binaries, lists).
Result<std::string> EncodeNpy(const nd::NdArrowArray& array, std::string_view name);

}  // namespace lance_nd::cli
