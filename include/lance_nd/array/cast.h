// Value-preserving casts between Arrow types.
#pragma once

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"

namespace lance_nd::array {

/// \brief True when every value of type `from` can be represented exactly in type `to`:
/// bool -> any number; unsigned -> wider unsigned or strictly wider signed; signed -> wider
/// signed; integers -> floats whose significand holds them (<= 8 bits -> float16, <= 16 bits ->
/// float32, <= 32 bits -> float64); float -> wider float; date32 -> date64; timestamp/duration
/// -> same unit (and timezone); utf8 -> large_utf8/binary/large_binary; binary -> large_binary;
/// null -> anything; list/large_list/fixed_size_list values recursively (list -> large_list and
/// fixed_size_list -> list/large_list too); struct field by field (same names, same order).
/// Identical types are always representable. Nested field names and nullability are not
/// compared: the target type's fields are used as they are.
LANCE_ND_EXPORT bool CanRepresentAll(const DataType& from, const DataType& to);

enum class CastMode {
  /// Only casts where CanRepresentAll(from, to).
  kSafe,
  /// Also narrowing within a kind, or moving to a later kind in the order
  /// bool < unsigned < signed < float (never float -> integer, never signed -> unsigned);
  /// timestamps/durations between units; large -> small offsets; binary -> utf8. Every value is
  /// checked: one that does not fit (or would lose precision, for a coarser time unit) is an
  /// InvalidArgument error naming the value and the row. Integer -> float may round.
  kSameKind,
};

/// \brief True when Cast(array of `from`, `to`, mode) is supported (values may still fail
/// the checks of kSameKind).
LANCE_ND_EXPORT bool CanCast(const DataType& from, const DataType& to, CastMode mode);

/// \brief Cast `array` to `to`. Nulls are preserved; values under null slots are never checked.
/// An unsupported cast is InvalidArgument ("cannot cast X to Y ..."). The result has offset 0
/// unless the input is returned unchanged (identical types).
LANCE_ND_EXPORT Result<ArrayPtr> Cast(const ArrayPtr& array, const DataTypePtr& to,
                                      CastMode mode = CastMode::kSafe);

}  // namespace lance_nd::array
