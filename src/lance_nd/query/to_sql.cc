// Filter::ToSql / ExprToSql: text that Parse reads back to the same tree, with the fewest
// parentheses operator precedence allows.
#include <cmath>
#include <cstdio>
#include <string>

#include "lance_nd/query/expr.h"
#include "lance_nd/query/filter.h"
#include "lance_nd/query/sql_names.h"

namespace lance_nd::query {
namespace {

// Binding strength, loosest first; the parser's grammar levels in the same order.
enum Prec : int { kOr = 1, kAnd, kNotP, kIs, kCompare, kAdditive, kMultiplicative, kUnary, kAtom };

bool IsComparison(BinaryOp op) { return op <= BinaryOp::kGe; }

// An infinite or NaN float prints as a CAST, an atom: no sign in front, no literal to protect.
bool PrintsAsNumber(const Literal& l) {
  return l.kind == LiteralKind::kInt ||
         (l.kind == LiteralKind::kFloat && std::isfinite(l.float_value));
}

int PrecOf(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kBinary:
      if (e.op == BinaryOp::kOr) return kOr;
      if (e.op == BinaryOp::kAnd) return kAnd;
      if (IsComparison(e.op)) return kCompare;
      if (e.op == BinaryOp::kAdd || e.op == BinaryOp::kSub) return kAdditive;
      return kMultiplicative;
    case ExprKind::kNot:
      return kNotP;
    case ExprKind::kIsNull:
    case ExprKind::kIsBool:
      return kIs;
    case ExprKind::kInList:
    case ExprKind::kBetween:
    case ExprKind::kLike:
      return kCompare;
    case ExprKind::kNegate:
      return kUnary;
    case ExprKind::kLiteral:
      if (PrintsAsNumber(e.literal) &&
          (e.literal.kind == LiteralKind::kInt ? e.literal.int_value < 0
                                               : std::signbit(e.literal.float_value))) {
        return kUnary;
      }
      return kAtom;
    default:
      return kAtom;
  }
}

bool IsPlainName(const std::string& name) {
  if (name.empty() || IsReservedWord(name)) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    const bool digit = c >= '0' && c <= '9';
    if (!(alpha || (digit && i > 0))) return false;
  }
  return true;
}

std::string Quoted(const std::string& s, char quote) {
  std::string out(1, quote);
  for (char c : s) {
    out += c;
    if (c == quote) out += quote;
  }
  out += quote;
  return out;
}

std::string FloatSql(double v) {
  if (std::isnan(v)) return "CAST('NaN' AS DOUBLE)";
  if (std::isinf(v)) return v > 0 ? "CAST('inf' AS DOUBLE)" : "CAST('-inf' AS DOUBLE)";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string LiteralSql(const Literal& l) {
  switch (l.kind) {
    case LiteralKind::kNull:
      return "NULL";
    case LiteralKind::kBool:
      return l.bool_value ? "true" : "false";
    case LiteralKind::kInt:
      return std::to_string(l.int_value);
    case LiteralKind::kFloat:
      return FloatSql(l.float_value);
    case LiteralKind::kString:
      return Quoted(l.string_value, '\'');
  }
  return "NULL";
}

std::string Write(const Expr& e, int min_prec);

std::string Operand(const ExprPtr& e, int min_prec) { return Write(*e, min_prec); }

std::string WriteNode(const Expr& e) {
  const char* neg = e.negated ? " NOT" : "";
  switch (e.kind) {
    case ExprKind::kLiteral:
      return LiteralSql(e.literal);
    case ExprKind::kColumn: {
      std::string out;
      for (std::size_t i = 0; i < e.path.size(); ++i) {
        if (i > 0) out += '.';
        out += IsPlainName(e.path[i]) ? e.path[i] : Quoted(e.path[i], '`');
      }
      return out;
    }
    case ExprKind::kNot:
      return "NOT " + Operand(e.args[0], kNotP);
    case ExprKind::kNegate: {
      const Expr& a = *e.args[0];
      // `-5` would read back as the literal -5; `--` starts a comment, so a negative operand is
      // written after a space (`- -x`), which costs no nesting where `-(-x)` would.
      if (PrecOf(a) == kUnary) return "- " + Write(a, kUnary);
      if (a.kind == ExprKind::kLiteral && PrintsAsNumber(a.literal)) {
        return "-(" + Write(a, kOr) + ")";
      }
      return "-" + Write(a, kUnary);
    }
    case ExprKind::kBinary: {
      const int p = PrecOf(e);
      // Every level groups to the left, so a left operand of the same level needs no
      // parentheses (`a = b = c`, `a = b IN (1)`): a chain prints no deeper than it parsed.
      return Operand(e.args[0], p) + " " + BinaryOpSql(e.op) + " " + Operand(e.args[1], p + 1);
    }
    case ExprKind::kIsNull:
      return Operand(e.args[0], kIs) + " IS" + neg + " NULL";
    case ExprKind::kIsBool:
      return Operand(e.args[0], kIs) + " IS" + neg + (e.truth ? " TRUE" : " FALSE");
    case ExprKind::kInList: {
      std::string out = Operand(e.args[0], kCompare) + neg + " IN (";
      for (std::size_t i = 1; i < e.args.size(); ++i) {
        out += (i > 1 ? ", " : "") + Operand(e.args[i], kOr);
      }
      return out + ")";
    }
    case ExprKind::kBetween:
      return Operand(e.args[0], kCompare) + neg + " BETWEEN " + Operand(e.args[1], kAdditive) +
             " AND " + Operand(e.args[2], kAdditive);
    case ExprKind::kLike: {
      std::string out = Operand(e.args[0], kCompare) + neg +
                        (e.ignore_case ? " ILIKE " : " LIKE ") + Operand(e.args[1], kAdditive);
      if (!e.escape.empty()) out += " ESCAPE " + Quoted(e.escape, '\'');
      return out;
    }
    case ExprKind::kCast: {
      const auto name = SqlTypeName(*e.cast_type);
      return "CAST(" + Operand(e.args[0], kOr) + " AS " + (name ? *name : e.cast_type->ToString()) +
             ")";
    }
    case ExprKind::kCall: {
      std::string out = e.function + "(";
      for (std::size_t i = 0; i < e.args.size(); ++i) {
        out += (i > 0 ? ", " : "") + Operand(e.args[i], kOr);
      }
      return out + ")";
    }
  }
  return {};
}

std::string Write(const Expr& e, int min_prec) {
  std::string text = WriteNode(e);
  return PrecOf(e) < min_prec ? "(" + text + ")" : text;
}

}  // namespace

const char* BinaryOpSql(BinaryOp op) {
  switch (op) {
    case BinaryOp::kEq:
      return "=";
    case BinaryOp::kNe:
      return "<>";
    case BinaryOp::kLt:
      return "<";
    case BinaryOp::kLe:
      return "<=";
    case BinaryOp::kGt:
      return ">";
    case BinaryOp::kGe:
      return ">=";
    case BinaryOp::kAdd:
      return "+";
    case BinaryOp::kSub:
      return "-";
    case BinaryOp::kMul:
      return "*";
    case BinaryOp::kDiv:
      return "/";
    case BinaryOp::kMod:
      return "%";
    case BinaryOp::kAnd:
      return "AND";
    case BinaryOp::kOr:
      return "OR";
  }
  return "?";
}

std::string ExprToSql(const Expr& expr) { return Write(expr, kOr); }

std::string Filter::ToSql() const { return ExprToSql(*root_); }

}  // namespace lance_nd::query
