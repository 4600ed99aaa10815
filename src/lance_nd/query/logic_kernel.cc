// Boolean kernels with SQL's three-valued (Kleene) logic, and the null tests.
#include "lance_nd/query/kernels.h"

namespace lance_nd::query {

ColumnPtr AndColumns(const Column& a, const Column& b) {
  auto out = BoolColumn(a.length);
  for (std::size_t i = 0; i < out->valid.size(); ++i) {
    const bool a_false = a.valid[i] && !a.bools[i];
    const bool b_false = b.valid[i] && !b.bools[i];
    if (a_false || b_false) {
      out->bools[i] = 0;  // false AND anything (even unknown) is false
    } else {
      out->valid[i] = static_cast<std::uint8_t>(a.valid[i] & b.valid[i]);
      out->bools[i] = 1;
    }
  }
  return out;
}

ColumnPtr OrColumns(const Column& a, const Column& b) {
  auto out = BoolColumn(a.length);
  for (std::size_t i = 0; i < out->valid.size(); ++i) {
    const bool a_true = a.valid[i] && a.bools[i];
    const bool b_true = b.valid[i] && b.bools[i];
    if (a_true || b_true) {
      out->bools[i] = 1;  // true OR anything (even unknown) is true
    } else {
      out->valid[i] = static_cast<std::uint8_t>(a.valid[i] & b.valid[i]);
      out->bools[i] = 0;
    }
  }
  return out;
}

ColumnPtr NotColumn(const Column& a) {
  auto out = BoolColumn(a.length);
  out->valid = a.valid;
  if (a.bools.empty()) return out;  // a null-typed operand: every row unknown
  for (std::size_t i = 0; i < out->valid.size(); ++i) out->bools[i] = a.bools[i] ? 0 : 1;
  return out;
}

ColumnPtr IsNullColumn(const Column& a, bool negated) {
  auto out = BoolColumn(a.length);
  for (std::size_t i = 0; i < out->valid.size(); ++i) {
    out->bools[i] = static_cast<std::uint8_t>((a.valid[i] != 0) == negated ? 1 : 0);
  }
  return out;
}

ColumnPtr IsBoolColumn(const Column& a, bool truth, bool negated) {
  auto out = BoolColumn(a.length);
  for (std::size_t i = 0; i < out->valid.size(); ++i) {
    const bool is = a.valid[i] && !a.bools.empty() && (a.bools[i] != 0) == truth;
    out->bools[i] = is != negated ? 1 : 0;
  }
  return out;
}

}  // namespace lance_nd::query
