// Which operand types an operator accepts and what it yields, following DataFusion's coercion:
// numbers compare and compute across integer widths, signedness and floats; strings compare
// with strings; a string meets a number, date or timestamp by being read as one; dates meet
// timestamps as timestamps; timestamps and durations of different units meet in the finer.
#pragma once

#include "lance_nd/array/type.h"
#include "lance_nd/query/column.h"
#include "lance_nd/query/expr.h"

namespace lance_nd::query {

/// \brief The type both sides of a comparison are brought to before comparing, or nullptr if
/// they cannot be compared. Numbers are compared as they are (the kernels handle mixed integer
/// and float operands) and give their own left type back; Null meets anything.
array::DataTypePtr ComparisonType(const array::DataTypePtr& a, const array::DataTypePtr& b);

/// \brief The result type of `a op b` for + - * / %, or nullptr if the operands are not both
/// numbers (or a null).
array::DataTypePtr ArithmeticType(const array::DataTypePtr& a, const array::DataTypePtr& b);

/// \brief True when CAST(x AS to) is supported for x of type `from`.
bool CanCastType(const array::DataType& from, const array::DataType& to);

/// \brief Whether values of `type` can be ordered (<, BETWEEN) and tested for equality.
bool IsNumberKind(Kind k);

/// \brief The finer of two time units.
array::TimeUnit FinerUnit(array::TimeUnit a, array::TimeUnit b);
/// \brief 1, 1000, 1e6 or 1e9: ticks of `unit` per second.
std::int64_t TicksPerSecond(array::TimeUnit unit);

}  // namespace lance_nd::query
