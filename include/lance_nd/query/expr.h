// The filter expression tree: what Filter::Parse produces, what PruneFilter builds, what the
// binder resolves. Nodes are immutable and shared; `position` is the byte offset of the node's
// first token in the parsed text (-1 for nodes built in code).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/export.h"
#include "lance_nd/query/filter.h"

namespace lance_nd::query {

enum class ExprKind : std::uint8_t {
  kLiteral,  // NULL, true/false, an integer (int64), a float (double), a string
  kColumn,   // a column path
  kNot,      // NOT a
  kNegate,   // -a (a not a number literal: `-3` is the literal -3)
  kBinary,   // a op b
  kIsNull,   // a IS [NOT] NULL
  kIsBool,   // a IS [NOT] TRUE / FALSE
  kInList,   // a [NOT] IN (b, c, ...)
  kBetween,  // a [NOT] BETWEEN b AND c
  kLike,     // a [NOT] LIKE b [ESCAPE 'c'], a [NOT] ILIKE b
  kCast,     // CAST(a AS type); also DATE '...' and TIMESTAMP '...'
  kCall,     // f(a, ...): array_has, array_length, lower, upper, abs
};

enum class BinaryOp : std::uint8_t {
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,  // comparisons
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMod,  // arithmetic
  kAnd,
  kOr,  // logic
};

enum class LiteralKind : std::uint8_t { kNull, kBool, kInt, kFloat, kString };

struct LANCE_ND_EXPORT Literal {
  LiteralKind kind = LiteralKind::kNull;
  bool bool_value = false;
  std::int64_t int_value = 0;
  double float_value = 0;
  std::string string_value;
  bool operator==(const Literal& other) const;
};

struct LANCE_ND_EXPORT Expr {
  ExprKind kind = ExprKind::kLiteral;
  std::int64_t position = -1;
  Literal literal;               // kLiteral
  ColumnPath path;               // kColumn
  BinaryOp op = BinaryOp::kEq;   // kBinary
  bool negated = false;          // IS NOT NULL, IS NOT TRUE, NOT IN, NOT BETWEEN, NOT LIKE
  bool truth = true;             // kIsBool: IS TRUE (true) or IS FALSE (false)
  std::string function;          // kCall, lower case
  array::DataTypePtr cast_type;  // kCast
  std::string escape;            // kLike: the ESCAPE character ("" = none)
  bool ignore_case = false;      // kLike: ILIKE
  std::vector<ExprPtr> args;     // operands in source order (IN: value then list items)
};

// Builders for trees made in code (PruneFilter, tests).
LANCE_ND_EXPORT ExprPtr MakeLiteral(Literal literal, std::int64_t position = -1);
LANCE_ND_EXPORT ExprPtr NullLiteral();
LANCE_ND_EXPORT ExprPtr BoolLiteral(bool value);
LANCE_ND_EXPORT ExprPtr IntLiteral(std::int64_t value);
LANCE_ND_EXPORT ExprPtr FloatLiteral(double value);
LANCE_ND_EXPORT ExprPtr StringLiteral(std::string value);
LANCE_ND_EXPORT ExprPtr ColumnRef(ColumnPath path);
LANCE_ND_EXPORT ExprPtr Not(ExprPtr a);
LANCE_ND_EXPORT ExprPtr Negate(ExprPtr a);
LANCE_ND_EXPORT ExprPtr Binary(BinaryOp op, ExprPtr a, ExprPtr b);
LANCE_ND_EXPORT ExprPtr IsNull(ExprPtr a, bool negated = false);
LANCE_ND_EXPORT ExprPtr IsBool(ExprPtr a, bool truth, bool negated = false);
LANCE_ND_EXPORT ExprPtr InList(ExprPtr a, std::vector<ExprPtr> items, bool negated = false);
LANCE_ND_EXPORT ExprPtr Between(ExprPtr a, ExprPtr low, ExprPtr high, bool negated = false);
LANCE_ND_EXPORT ExprPtr Like(ExprPtr a, ExprPtr pattern, bool negated = false,
                             std::string escape = {}, bool ignore_case = false);
LANCE_ND_EXPORT ExprPtr CastTo(ExprPtr a, array::DataTypePtr type);
LANCE_ND_EXPORT ExprPtr Call(std::string function, std::vector<ExprPtr> args);

/// \brief Same tree (kinds, operators, literals, paths, types); positions are ignored.
LANCE_ND_EXPORT bool ExprEquals(const Expr& a, const Expr& b);
/// \brief The SQL text of one node and its subtree (Filter::ToSql of a filter with this root).
LANCE_ND_EXPORT std::string ExprToSql(const Expr& expr);
/// \brief "=", "<>", "AND", "+", ...
LANCE_ND_EXPORT const char* BinaryOpSql(BinaryOp op);

}  // namespace lance_nd::query
