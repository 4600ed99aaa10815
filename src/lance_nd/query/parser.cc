// Recursive-descent parser for the filter language. Grammar levels, loosest first:
//   or := and (OR and)*          and := not (AND not)*        not := NOT not | is
//   is := compare (IS [NOT] (NULL | TRUE | FALSE))*
//   compare := additive ((= | <> | ...) additive | [NOT] IN (...) | [NOT] BETWEEN additive
//              AND additive | [NOT] LIKE additive [ESCAPE 'c'])*
//   additive := multiplicative ((+ | -) multiplicative)*
//   multiplicative := unary ((* | / | %) unary)*
//   unary := - unary | + unary | primary
//   primary := literal | ( or ) | CAST ( or AS type ) | DATE 'text' | TIMESTAMP 'text'
//              | name ( args ) | name (. name)*
#include <cerrno>
#include <cstdlib>
#include <string>
#include <utility>

#include "lance_nd/query/expr.h"
#include "lance_nd/query/filter.h"
#include "lance_nd/query/parse_error.h"
#include "lance_nd/query/sql_names.h"
#include "lance_nd/query/tokenizer.h"

namespace lance_nd::query {
namespace {

std::shared_ptr<Expr> Mutable(const ExprPtr& e) { return std::const_pointer_cast<Expr>(e); }

ExprPtr At(ExprPtr e, std::int64_t position) {
  Mutable(e)->position = position;
  return e;
}

class Parser {
 public:
  Parser(std::string_view sql, std::vector<Token> tokens) : sql_(sql), tokens_(std::move(tokens)) {}

  Result<ExprPtr> ParseFilter() {
    if (Peek().kind == TokenKind::kEnd) return Expected("an expression");
    LND_ASSIGN_OR_RETURN(ExprPtr e, Or());
    if (Peek().kind != TokenKind::kEnd) {
      return Expected("an operator (AND, OR, =, <, IN, ...) or the end of the filter");
    }
    return e;
  }

 private:
  const Token& Peek(std::size_t ahead = 0) const {
    return tokens_[std::min(i_ + ahead, tokens_.size() - 1)];
  }
  const Token& Take() { return tokens_[i_ < tokens_.size() - 1 ? i_++ : i_]; }
  bool IsWord(const Token& t, std::string_view word) const {
    return t.kind == TokenKind::kName && Upper(t.text) == word;
  }
  bool IsSymbol(const Token& t, std::string_view s) const {
    return t.kind == TokenKind::kSymbol && t.text == s;
  }
  bool TakeWord(std::string_view word) {
    if (!IsWord(Peek(), word)) return false;
    ++i_;
    return true;
  }
  bool TakeSymbol(std::string_view s) {
    if (!IsSymbol(Peek(), s)) return false;
    ++i_;
    return true;
  }
  Status Expected(const std::string& what) const {
    return FilterError(sql_, Peek().position,
                       "expected " + what + ", found " + DescribeToken(Peek()));
  }
  Status ExpectSymbol(std::string_view s) {
    if (TakeSymbol(s)) return Status::OK();
    return Expected("'" + std::string(s) + "'");
  }
  Status ExpectWord(std::string_view word) {
    if (TakeWord(word)) return Status::OK();
    return Expected(std::string(word));
  }

  // Each nesting level (parentheses, NOT, unary minus, arguments) costs stack in the parser
  // and later in the binder and evaluator: deep nesting is refused instead of crashing.
  static constexpr int kMaxDepth = 400;
  struct DepthGuard {
    explicit DepthGuard(int* d) : depth(d) { ++*depth; }
    ~DepthGuard() { --*depth; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
    int* depth;
  };
  Status CheckDepth() const {
    if (depth_ <= kMaxDepth) return Status::OK();
    return FilterError(sql_, Peek().position,
                       "the filter nests more than " + std::to_string(kMaxDepth) +
                           " levels deep here; write it with fewer parentheses or NOTs");
  }
  // A chain `a OR b OR c ...` builds a tree as deep as it is long: chains are bounded too
  // (use IN for long lists of values).
  static constexpr int kMaxChain = 4000;
  struct ChainGuard {
    explicit ChainGuard(int* c) : chain(c), saved(*c) {}
    ~ChainGuard() { *chain = saved; }
    ChainGuard(const ChainGuard&) = delete;
    ChainGuard& operator=(const ChainGuard&) = delete;
    int* chain;
    int saved;
  };
  Status NextInChain() {
    if (++chain_ <= kMaxChain) return Status::OK();
    return FilterError(sql_, Peek().position,
                       "the filter chains more than " + std::to_string(kMaxChain) +
                           " operators into one expression; use IN (...) for long lists of values");
  }

  Result<ExprPtr> Or() {
    const ChainGuard chain(&chain_);
    const DepthGuard guard(&depth_);
    LND_RETURN_NOT_OK(CheckDepth());
    LND_ASSIGN_OR_RETURN(ExprPtr left, And());
    while (IsWord(Peek(), "OR")) {
      LND_RETURN_NOT_OK(NextInChain());
      const std::int64_t pos = Take().position;
      LND_ASSIGN_OR_RETURN(ExprPtr right, And());
      left = At(Binary(BinaryOp::kOr, left, right), pos);
    }
    return left;
  }

  Result<ExprPtr> And() {
    const ChainGuard chain(&chain_);
    LND_ASSIGN_OR_RETURN(ExprPtr left, NotLevel());
    while (IsWord(Peek(), "AND")) {
      LND_RETURN_NOT_OK(NextInChain());
      const std::int64_t pos = Take().position;
      LND_ASSIGN_OR_RETURN(ExprPtr right, NotLevel());
      left = At(Binary(BinaryOp::kAnd, left, right), pos);
    }
    return left;
  }

  Result<ExprPtr> NotLevel() {
    const DepthGuard guard(&depth_);
    LND_RETURN_NOT_OK(CheckDepth());
    if (IsWord(Peek(), "NOT")) {
      const std::int64_t pos = Take().position;
      LND_ASSIGN_OR_RETURN(ExprPtr a, NotLevel());
      return At(Not(a), pos);
    }
    return IsLevel();
  }

  Result<ExprPtr> IsLevel() {
    const ChainGuard chain(&chain_);
    LND_ASSIGN_OR_RETURN(ExprPtr e, Compare());
    while (IsWord(Peek(), "IS")) {
      LND_RETURN_NOT_OK(NextInChain());
      const std::int64_t pos = Take().position;
      const bool negated = TakeWord("NOT");
      if (TakeWord("NULL")) {
        e = At(IsNull(e, negated), pos);
      } else if (TakeWord("TRUE")) {
        e = At(IsBool(e, true, negated), pos);
      } else if (TakeWord("FALSE")) {
        e = At(IsBool(e, false, negated), pos);
      } else {
        return Expected(negated ? "NULL, TRUE or FALSE after IS NOT"
                                : "NULL, TRUE or FALSE after IS");
      }
    }
    return e;
  }

  static bool ComparisonOp(const std::string& s, BinaryOp* op) {
    static const std::pair<const char*, BinaryOp> kOps[] = {
        {"=", BinaryOp::kEq}, {"==", BinaryOp::kEq}, {"<>", BinaryOp::kNe}, {"!=", BinaryOp::kNe},
        {"<", BinaryOp::kLt}, {"<=", BinaryOp::kLe}, {">", BinaryOp::kGt},  {">=", BinaryOp::kGe}};
    for (const auto& [text, o] : kOps) {
      if (s == text) {
        *op = o;
        return true;
      }
    }
    return false;
  }

  Result<ExprPtr> Compare() {
    const ChainGuard chain(&chain_);
    LND_ASSIGN_OR_RETURN(ExprPtr left, Additive());
    while (true) {
      LND_RETURN_NOT_OK(NextInChain());
      const Token& t = Peek();
      BinaryOp op = BinaryOp::kEq;
      if (t.kind == TokenKind::kSymbol && ComparisonOp(t.text, &op)) {
        const std::int64_t pos = Take().position;
        LND_ASSIGN_OR_RETURN(ExprPtr right, Additive());
        left = At(Binary(op, left, right), pos);
        continue;
      }
      const bool negated =
          IsWord(t, "NOT") && (IsWord(Peek(1), "IN") || IsWord(Peek(1), "BETWEEN") ||
                               IsWord(Peek(1), "LIKE") || IsWord(Peek(1), "ILIKE"));
      if (negated) Take();
      if (IsWord(Peek(), "IN")) {
        LND_ASSIGN_OR_RETURN(left, InTail(left, negated));
      } else if (IsWord(Peek(), "BETWEEN")) {
        LND_ASSIGN_OR_RETURN(left, BetweenTail(left, negated));
      } else if (IsWord(Peek(), "LIKE") || IsWord(Peek(), "ILIKE")) {
        LND_ASSIGN_OR_RETURN(left, LikeTail(left, negated));
      } else {
        return left;
      }
    }
  }

  Result<ExprPtr> InTail(ExprPtr value, bool negated) {
    const std::int64_t pos = Take().position;
    LND_RETURN_NOT_OK(ExpectSymbol("("));
    std::vector<ExprPtr> items;
    do {
      LND_ASSIGN_OR_RETURN(ExprPtr item, Or());
      items.push_back(std::move(item));
    } while (TakeSymbol(","));
    if (!TakeSymbol(")")) return Expected("',' or ')' in the IN list");
    return At(InList(std::move(value), std::move(items), negated), pos);
  }

  Result<ExprPtr> BetweenTail(ExprPtr value, bool negated) {
    const std::int64_t pos = Take().position;
    LND_ASSIGN_OR_RETURN(ExprPtr low, Additive());
    LND_RETURN_NOT_OK(ExpectWord("AND"));
    LND_ASSIGN_OR_RETURN(ExprPtr high, Additive());
    return At(Between(std::move(value), std::move(low), std::move(high), negated), pos);
  }

  Result<ExprPtr> LikeTail(ExprPtr value, bool negated) {
    const bool ignore_case = IsWord(Peek(), "ILIKE");
    const std::int64_t pos = Take().position;
    LND_ASSIGN_OR_RETURN(ExprPtr pattern, Additive());
    std::string escape;
    if (TakeWord("ESCAPE")) {
      if (Peek().kind != TokenKind::kString || Peek().text.size() != 1) {
        return Expected("one character in quotes after ESCAPE");
      }
      escape = Take().text;
    }
    return At(Like(std::move(value), std::move(pattern), negated, std::move(escape), ignore_case),
              pos);
  }

  Result<ExprPtr> Additive() {
    const ChainGuard chain(&chain_);
    LND_ASSIGN_OR_RETURN(ExprPtr left, Multiplicative());
    while (IsSymbol(Peek(), "+") || IsSymbol(Peek(), "-")) {
      LND_RETURN_NOT_OK(NextInChain());
      const Token& t = Take();
      const BinaryOp op = t.text == "+" ? BinaryOp::kAdd : BinaryOp::kSub;
      LND_ASSIGN_OR_RETURN(ExprPtr right, Multiplicative());
      left = At(Binary(op, left, right), t.position);
    }
    return left;
  }

  Result<ExprPtr> Multiplicative() {
    const ChainGuard chain(&chain_);
    LND_ASSIGN_OR_RETURN(ExprPtr left, Unary());
    while (IsSymbol(Peek(), "*") || IsSymbol(Peek(), "/") || IsSymbol(Peek(), "%")) {
      LND_RETURN_NOT_OK(NextInChain());
      const Token& t = Take();
      const BinaryOp op =
          t.text == "*" ? BinaryOp::kMul : (t.text == "/" ? BinaryOp::kDiv : BinaryOp::kMod);
      LND_ASSIGN_OR_RETURN(ExprPtr right, Unary());
      left = At(Binary(op, left, right), t.position);
    }
    return left;
  }

  // `-` directly before a number is part of the literal (as Lance reads it).
  Result<ExprPtr> Unary() {
    const DepthGuard guard(&depth_);
    LND_RETURN_NOT_OK(CheckDepth());
    if (IsSymbol(Peek(), "-")) {
      const std::int64_t pos = Take().position;
      if (Peek().kind == TokenKind::kNumber) return NumberLiteral("-" + Take().text, pos);
      LND_ASSIGN_OR_RETURN(ExprPtr a, Unary());
      return At(Negate(a), pos);
    }
    if (TakeSymbol("+")) return Unary();
    return Primary();
  }

  Result<ExprPtr> NumberLiteral(const std::string& text, std::int64_t pos) {
    errno = 0;
    char* end = nullptr;
    const auto i = static_cast<std::int64_t>(std::strtoll(text.c_str(), &end, 10));
    if (errno == 0 && end == text.c_str() + text.size()) {
      Literal l;
      l.kind = LiteralKind::kInt;
      l.int_value = i;
      return MakeLiteral(std::move(l), pos);
    }
    Literal l;
    l.kind = LiteralKind::kFloat;
    l.float_value = std::strtod(text.c_str(), nullptr);
    return MakeLiteral(std::move(l), pos);
  }

  Result<ExprPtr> Primary() {
    const Token& t = Peek();
    switch (t.kind) {
      case TokenKind::kNumber:
        Take();
        return NumberLiteral(t.text, t.position);
      case TokenKind::kString:
        Take();
        return At(StringLiteral(t.text), t.position);
      case TokenKind::kQuotedName:
        return Path();
      case TokenKind::kName:
        return NamePrimary();
      case TokenKind::kSymbol:
        if (TakeSymbol("(")) {
          LND_ASSIGN_OR_RETURN(ExprPtr e, Or());
          LND_RETURN_NOT_OK(ExpectSymbol(")"));
          return e;
        }
        break;
      case TokenKind::kEnd:
        break;
    }
    return Expected("a column name, a literal, CAST or '('");
  }

  Result<ExprPtr> NamePrimary() {
    const Token& t = Peek();
    const std::string word = Upper(t.text);
    if (word == "NULL" || word == "TRUE" || word == "FALSE") {
      Take();
      if (word == "NULL") return At(NullLiteral(), t.position);
      return At(BoolLiteral(word == "TRUE"), t.position);
    }
    if (word == "CAST") return CastExpr();
    if ((word == "DATE" || word == "TIMESTAMP") && Peek(1).kind == TokenKind::kString) {
      Take();
      const Token& text = Take();
      return At(
          CastTo(At(StringLiteral(text.text), text.position),
                 word == "DATE" ? array::Date32() : array::Timestamp(array::TimeUnit::kMicro)),
          t.position);
    }
    if (IsSymbol(Peek(1), "(")) return CallExpr();
    if (IsReservedWord(t.text)) {
      return Expected("a column name, a literal, CAST or '(' (quote a column named " + word +
                      " with backticks)");
    }
    return Path();
  }

  Result<ExprPtr> Path() {
    const std::int64_t pos = Peek().position;
    ColumnPath path;
    while (true) {
      const Token& t = Peek();
      if (t.kind != TokenKind::kName && t.kind != TokenKind::kQuotedName) {
        return Expected("a field name after '.'");
      }
      path.push_back(Take().text);
      if (!TakeSymbol(".")) break;
    }
    return At(ColumnRef(std::move(path)), pos);
  }

  Result<ExprPtr> CallExpr() {
    const Token& name = Take();
    Take();  // (
    std::string function = name.text;
    for (char& c : function) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    std::vector<ExprPtr> args;
    if (!TakeSymbol(")")) {
      do {
        LND_ASSIGN_OR_RETURN(ExprPtr a, Or());
        args.push_back(std::move(a));
      } while (TakeSymbol(","));
      if (!TakeSymbol(")")) return Expected("',' or ')' in the arguments of " + function);
    }
    return At(Call(std::move(function), std::move(args)), name.position);
  }

  Result<ExprPtr> CastExpr() {
    const std::int64_t pos = Take().position;
    LND_RETURN_NOT_OK(ExpectSymbol("("));
    LND_ASSIGN_OR_RETURN(ExprPtr value, Or());
    LND_RETURN_NOT_OK(ExpectWord("AS"));
    LND_ASSIGN_OR_RETURN(array::DataTypePtr type, TypeName());
    LND_RETURN_NOT_OK(ExpectSymbol(")"));
    return At(CastTo(std::move(value), std::move(type)), pos);
  }

  Result<array::DataTypePtr> TypeName();

  std::string_view sql_;
  std::vector<Token> tokens_;
  std::size_t i_ = 0;
  int depth_ = 0;
  int chain_ = 0;
};

Result<array::DataTypePtr> Parser::TypeName() {
  using namespace array;  // NOLINT(google-build-using-namespace): type factories only
  const Token& t = Peek();
  if (t.kind != TokenKind::kName) return Expected("a type name (INT, BIGINT, DOUBLE, STRING, ...)");
  const std::string word = Upper(Take().text);
  if (word == "DOUBLE") return Float64();
  if (word == "TIMESTAMP" || word == "DATETIME") {
    TimeUnit unit = TimeUnit::kMicro;
    if (TakeSymbol("(")) {
      const std::string digits = Peek().text;
      if (Peek().kind != TokenKind::kNumber ||
          (digits != "0" && digits != "3" && digits != "6" && digits != "9")) {
        return Expected("a timestamp precision of 0, 3, 6 or 9");
      }
      Take();
      unit = digits == "0" ? TimeUnit::kSecond
                           : (digits == "3" ? TimeUnit::kMilli
                                            : (digits == "6" ? TimeUnit::kMicro : TimeUnit::kNano));
      LND_RETURN_NOT_OK(ExpectSymbol(")"));
    }
    return Timestamp(unit);
  }
  struct Named {
    const char* name;
    DataTypePtr (*signed_type)();
    DataTypePtr (*unsigned_type)();
  };
  // The names Lance's CAST accepts (VARCHAR, TEXT, REAL, BOOL are refused there).
  static const Named kTypes[] = {{"TINYINT", Int8, UInt8},   {"SMALLINT", Int16, UInt16},
                                 {"INT", Int32, UInt32},     {"INTEGER", Int32, UInt32},
                                 {"BIGINT", Int64, UInt64},  {"FLOAT", Float32, nullptr},
                                 {"STRING", Utf8, nullptr},  {"BINARY", array::Binary, nullptr},
                                 {"BOOLEAN", Bool, nullptr}, {"DATE", Date32, nullptr}};
  for (const Named& n : kTypes) {
    if (word != n.name) continue;
    if (n.unsigned_type != nullptr && TakeWord("UNSIGNED")) return n.unsigned_type();
    return n.signed_type();
  }
  --i_;
  return Expected(
      "a type name: TINYINT, SMALLINT, INT, BIGINT (each optionally UNSIGNED), FLOAT, DOUBLE, "
      "STRING, BINARY, BOOLEAN, DATE, TIMESTAMP[(0|3|6|9)] or DATETIME[(0|3|6|9)]");
}

}  // namespace

Result<Filter> Filter::Parse(std::string_view sql) {
  LND_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(sql));
  Parser parser(sql, std::move(tokens));
  LND_ASSIGN_OR_RETURN(ExprPtr root, parser.ParseFilter());
  Filter filter(std::move(root));
  filter.sql_ = std::make_shared<const std::string>(sql);
  return filter;
}

Filter::Filter(ExprPtr root) : root_(std::move(root)) {}

const std::string& Filter::sql() const {
  static const std::string kEmpty;
  return sql_ ? *sql_ : kEmpty;
}

}  // namespace lance_nd::query
