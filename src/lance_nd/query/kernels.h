// Vectorised kernels over Columns. Every kernel takes operands of equal length and returns a
// new column; nulls follow SQL (a null operand gives null, except where noted).
#pragma once

#include <string>

#include "lance_nd/core/result.h"
#include "lance_nd/query/column.h"
#include "lance_nd/query/expr.h"

namespace lance_nd::query {

/// \brief A Bool column.
std::shared_ptr<Column> BoolColumn(std::int64_t length);

/// \brief a op b for = <> < <= > >=. Floats compare in IEEE total order (NaN equals NaN and
/// is above every number; -0 is below +0), as Arrow's comparison kernels do; with
/// `zero_equal` -0 equals +0, which is what LanceDB gives when one side is a literal.
Result<ColumnPtr> Compare(BinaryOp op, const ColumnPtr& a, const ColumnPtr& b,
                          bool zero_equal = false);

/// \brief a op b for + - * / %, result of type `type` (ArithmeticType). Integers wrap at the
/// result width; integer / or % by zero (and MIN / -1) is an error; floats follow IEEE.
Result<ColumnPtr> Arithmetic(BinaryOp op, const ColumnPtr& a, const ColumnPtr& b,
                             const array::DataTypePtr& type);
/// \brief -a (integers wrap).
Result<ColumnPtr> NegateColumn(const ColumnPtr& a);
/// \brief abs(a).
Result<ColumnPtr> AbsColumn(const ColumnPtr& a);

/// \brief Kleene AND / OR: false AND null = false, true OR null = true.
ColumnPtr AndColumns(const Column& a, const Column& b);
ColumnPtr OrColumns(const Column& a, const Column& b);
ColumnPtr NotColumn(const Column& a);
/// \brief IS [NOT] NULL: never null.
ColumnPtr IsNullColumn(const Column& a, bool negated);
/// \brief IS [NOT] TRUE / FALSE: never null.
ColumnPtr IsBoolColumn(const Column& a, bool truth, bool negated);

/// \brief a LIKE pattern: % any run, _ one character (UTF-8 aware), `escape` makes the next
/// pattern character literal (backslash when `escape` is empty).
/// `ignore_case` (ILIKE): ASCII letters match either case.
Result<ColumnPtr> LikeColumns(const Column& a, const Column& pattern, const std::string& escape,
                              bool ignore_case);

/// \brief array_has(list, value): true when an item equals value (total order for floats),
/// false when none does, null for a null list or value.
Result<ColumnPtr> ArrayHas(const Column& list, const ColumnPtr& value, bool zero_equal = false);
/// \brief array_length(list): the item count (uint64); null for a null list.
ColumnPtr ArrayLength(const Column& list);

}  // namespace lance_nd::query
