// Comparison kernels: = <> < <= > >= over numbers, strings, booleans and temporal values.
#include <cstring>

#include "lance_nd/query/cast_column.h"
#include "lance_nd/query/coercion.h"
#include "lance_nd/query/kernels.h"

namespace lance_nd::query {
namespace {

std::size_t Z(std::int64_t i) { return static_cast<std::size_t>(i); }

// IEEE total order as a signed integer key (the trick Rust's f64::total_cmp uses); with
// `zero_equal`, -0 is folded onto +0.
std::int64_t TotalKey(double d, bool zero_equal) {
  if (zero_equal && d == 0) d = 0.0;
  std::int64_t k = 0;
  std::memcpy(&k, &d, sizeof k);
  k ^= static_cast<std::int64_t>(static_cast<std::uint64_t>(k >> 63) >> 1);
  return k;
}

template <typename T, typename U>
int Cmp3(T x, U y) {
  return x < y ? -1 : (y < x ? 1 : 0);
}
int Cmp3Mixed(std::int64_t x, std::uint64_t y) {
  return x < 0 ? -1 : Cmp3(static_cast<std::uint64_t>(x), y);
}

template <typename Test, typename C3>
ColumnPtr Loop(const Column& a, const Column& b, Test test, C3 cmp3) {
  auto out = BoolColumn(a.length);
  for (std::int64_t i = 0; i < a.length; ++i) {
    out->valid[Z(i)] = static_cast<std::uint8_t>(a.valid[Z(i)] & b.valid[Z(i)]);
    out->bools[Z(i)] = test(cmp3(Z(i))) ? 1 : 0;
  }
  return out;
}

template <typename C3>
ColumnPtr ByOp(BinaryOp op, const Column& a, const Column& b, C3 cmp3) {
  switch (op) {
    case BinaryOp::kEq:
      return Loop(
          a, b, [](int c) { return c == 0; }, cmp3);
    case BinaryOp::kNe:
      return Loop(
          a, b, [](int c) { return c != 0; }, cmp3);
    case BinaryOp::kLt:
      return Loop(
          a, b, [](int c) { return c < 0; }, cmp3);
    case BinaryOp::kLe:
      return Loop(
          a, b, [](int c) { return c <= 0; }, cmp3);
    case BinaryOp::kGt:
      return Loop(
          a, b, [](int c) { return c > 0; }, cmp3);
    default:
      return Loop(
          a, b, [](int c) { return c >= 0; }, cmp3);
  }
}

std::vector<std::int64_t> FloatKeys(const Column& c, bool zero_equal) {
  std::vector<std::int64_t> keys(Z(c.length));
  for (std::size_t i = 0; i < keys.size(); ++i) {
    double d = c.kind == Kind::kFloat ? c.floats[i]
               : c.kind == Kind::kInt ? static_cast<double>(c.ints[i])
                                      : static_cast<double>(c.uints[i]);
    keys[i] = TotalKey(d, zero_equal);
  }
  return keys;
}

ColumnPtr CompareNumbers(BinaryOp op, const Column& a, const Column& b, bool zero_equal) {
  if (a.kind == Kind::kFloat || b.kind == Kind::kFloat) {
    const auto ka = FloatKeys(a, zero_equal), kb = FloatKeys(b, zero_equal);
    return ByOp(op, a, b, [&](std::size_t i) { return Cmp3(ka[i], kb[i]); });
  }
  if (a.kind == Kind::kInt && b.kind == Kind::kInt) {
    return ByOp(op, a, b, [&](std::size_t i) { return Cmp3(a.ints[i], b.ints[i]); });
  }
  if (a.kind == Kind::kUInt && b.kind == Kind::kUInt) {
    return ByOp(op, a, b, [&](std::size_t i) { return Cmp3(a.uints[i], b.uints[i]); });
  }
  if (a.kind == Kind::kInt) {
    return ByOp(op, a, b, [&](std::size_t i) { return Cmp3Mixed(a.ints[i], b.uints[i]); });
  }
  return ByOp(op, a, b, [&](std::size_t i) { return -Cmp3Mixed(b.ints[i], a.uints[i]); });
}

}  // namespace

std::shared_ptr<Column> BoolColumn(std::int64_t length) {
  auto c = std::make_shared<Column>();
  c->kind = Kind::kBool;
  c->type = array::Bool();
  c->length = length;
  c->valid.assign(Z(length), 1);
  c->bools.assign(Z(length), 0);
  return c;
}

Result<ColumnPtr> Compare(BinaryOp op, const ColumnPtr& a_in, const ColumnPtr& b_in,
                          bool zero_equal) {
  const array::DataTypePtr common = ComparisonType(a_in->type, b_in->type);
  if (!common) {
    return Status::InvalidArgument("filter: cannot compare ", a_in->type->ToString(), " with ",
                                   b_in->type->ToString());
  }
  if (a_in->type->id() == array::TypeId::kNull || b_in->type->id() == array::TypeId::kNull) {
    auto out = BoolColumn(a_in->length);
    out->valid.assign(out->valid.size(), 0);
    return ColumnPtr(out);
  }
  ColumnPtr a = a_in, b = b_in;
  const auto is_text = [](Kind k) { return k == Kind::kString || k == Kind::kBinary; };
  const bool same_family = (IsNumberKind(a->kind) && IsNumberKind(b->kind)) ||
                           (is_text(a->kind) && is_text(b->kind)) ||
                           (a->kind == Kind::kBool && b->kind == Kind::kBool);
  if (!same_family) {  // temporal values, or a string read as a number, date or timestamp
    LND_ASSIGN_OR_RETURN(a, CastColumn(a_in, common));
    LND_ASSIGN_OR_RETURN(b, CastColumn(b_in, common));
  }
  switch (a->kind) {
    case Kind::kInt:
    case Kind::kUInt:
    case Kind::kFloat:
      return CompareNumbers(op, *a, *b, zero_equal);
    case Kind::kString:
    case Kind::kBinary:
      return ByOp(op, *a, *b, [&](std::size_t i) { return a->strings[i].compare(b->strings[i]); });
    case Kind::kBool:
      return ByOp(op, *a, *b, [&](std::size_t i) { return Cmp3(a->bools[i], b->bools[i]); });
    case Kind::kDate:
    case Kind::kTimestamp:
    case Kind::kDuration:
      return ByOp(op, *a, *b, [&](std::size_t i) { return Cmp3(a->ints[i], b->ints[i]); });
    default:
      return Status::InvalidArgument("filter: cannot compare values of type ", a->type->ToString());
  }
}

}  // namespace lance_nd::query
