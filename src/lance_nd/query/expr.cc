// Expression builders and structural equality.
#include "lance_nd/query/expr.h"

#include <bit>
#include <cstdint>
#include <utility>

namespace lance_nd::query {
namespace {

std::shared_ptr<Expr> Node(ExprKind kind, std::vector<ExprPtr> args = {}) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  e->args = std::move(args);
  return e;
}

// Bit equality: NaN equals the same NaN, -0 differs from +0 (a round trip keeps both).
bool SameDouble(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

}  // namespace

bool Literal::operator==(const Literal& other) const {
  if (kind != other.kind) return false;
  switch (kind) {
    case LiteralKind::kNull:
      return true;
    case LiteralKind::kBool:
      return bool_value == other.bool_value;
    case LiteralKind::kInt:
      return int_value == other.int_value;
    case LiteralKind::kFloat:
      return SameDouble(float_value, other.float_value);
    case LiteralKind::kString:
      return string_value == other.string_value;
  }
  return false;
}

ExprPtr MakeLiteral(Literal literal, std::int64_t position) {
  auto e = Node(ExprKind::kLiteral);
  e->literal = std::move(literal);
  e->position = position;
  return e;
}
ExprPtr NullLiteral() { return MakeLiteral(Literal{}); }
ExprPtr BoolLiteral(bool value) {
  Literal l;
  l.kind = LiteralKind::kBool;
  l.bool_value = value;
  return MakeLiteral(std::move(l));
}
ExprPtr IntLiteral(std::int64_t value) {
  Literal l;
  l.kind = LiteralKind::kInt;
  l.int_value = value;
  return MakeLiteral(std::move(l));
}
ExprPtr FloatLiteral(double value) {
  Literal l;
  l.kind = LiteralKind::kFloat;
  l.float_value = value;
  return MakeLiteral(std::move(l));
}
ExprPtr StringLiteral(std::string value) {
  Literal l;
  l.kind = LiteralKind::kString;
  l.string_value = std::move(value);
  return MakeLiteral(std::move(l));
}
ExprPtr ColumnRef(ColumnPath path) {
  auto e = Node(ExprKind::kColumn);
  e->path = std::move(path);
  return e;
}
ExprPtr Not(ExprPtr a) { return Node(ExprKind::kNot, {std::move(a)}); }
ExprPtr Negate(ExprPtr a) { return Node(ExprKind::kNegate, {std::move(a)}); }
ExprPtr Binary(BinaryOp op, ExprPtr a, ExprPtr b) {
  auto e = Node(ExprKind::kBinary, {std::move(a), std::move(b)});
  e->op = op;
  return e;
}
ExprPtr IsNull(ExprPtr a, bool negated) {
  auto e = Node(ExprKind::kIsNull, {std::move(a)});
  e->negated = negated;
  return e;
}
ExprPtr IsBool(ExprPtr a, bool truth, bool negated) {
  auto e = Node(ExprKind::kIsBool, {std::move(a)});
  e->truth = truth;
  e->negated = negated;
  return e;
}
ExprPtr InList(ExprPtr a, std::vector<ExprPtr> items, bool negated) {
  items.insert(items.begin(), std::move(a));
  auto e = Node(ExprKind::kInList, std::move(items));
  e->negated = negated;
  return e;
}
ExprPtr Between(ExprPtr a, ExprPtr low, ExprPtr high, bool negated) {
  auto e = Node(ExprKind::kBetween, {std::move(a), std::move(low), std::move(high)});
  e->negated = negated;
  return e;
}
ExprPtr Like(ExprPtr a, ExprPtr pattern, bool negated, std::string escape, bool ignore_case) {
  auto e = Node(ExprKind::kLike, {std::move(a), std::move(pattern)});
  e->ignore_case = ignore_case;
  e->negated = negated;
  e->escape = std::move(escape);
  return e;
}
ExprPtr CastTo(ExprPtr a, array::DataTypePtr type) {
  auto e = Node(ExprKind::kCast, {std::move(a)});
  e->cast_type = std::move(type);
  return e;
}
ExprPtr Call(std::string function, std::vector<ExprPtr> args) {
  auto e = Node(ExprKind::kCall, std::move(args));
  e->function = std::move(function);
  return e;
}

bool ExprEquals(const Expr& a, const Expr& b) {
  if (a.kind != b.kind || a.args.size() != b.args.size()) return false;
  switch (a.kind) {
    case ExprKind::kLiteral:
      if (!(a.literal == b.literal)) return false;
      break;
    case ExprKind::kColumn:
      if (a.path != b.path) return false;
      break;
    case ExprKind::kBinary:
      if (a.op != b.op) return false;
      break;
    case ExprKind::kIsBool:
      if (a.truth != b.truth || a.negated != b.negated) return false;
      break;
    case ExprKind::kIsNull:
    case ExprKind::kInList:
    case ExprKind::kBetween:
      if (a.negated != b.negated) return false;
      break;
    case ExprKind::kLike:
      if (a.negated != b.negated || a.escape != b.escape || a.ignore_case != b.ignore_case) {
        return false;
      }
      break;
    case ExprKind::kCast:
      if (!a.cast_type->Equals(*b.cast_type)) return false;
      break;
    case ExprKind::kCall:
      if (a.function != b.function) return false;
      break;
    case ExprKind::kNot:
    case ExprKind::kNegate:
      break;
  }
  for (std::size_t i = 0; i < a.args.size(); ++i) {
    if (!ExprEquals(*a.args[i], *b.args[i])) return false;
  }
  return true;
}

}  // namespace lance_nd::query
