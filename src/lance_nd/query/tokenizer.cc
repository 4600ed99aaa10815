#include "lance_nd/query/tokenizer.h"

#include "lance_nd/query/parse_error.h"

namespace lance_nd::query {
namespace {

bool IsNameStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsNamePart(char c) { return IsNameStart(c) || IsDigit(c) || c == '$'; }

class Lexer {
 public:
  explicit Lexer(std::string_view sql) : sql_(sql) {}

  Result<std::vector<Token>> Run() {
    std::vector<Token> out;
    while (true) {
      SkipSpaceAndComments();
      if (pos_ >= sql_.size()) break;
      LND_ASSIGN_OR_RETURN(Token t, Next());
      out.push_back(std::move(t));
    }
    out.push_back(Token{TokenKind::kEnd, "", static_cast<std::int64_t>(sql_.size())});
    return out;
  }

 private:
  char At(std::size_t i) const { return i < sql_.size() ? sql_[i] : '\0'; }

  void SkipSpaceAndComments() {
    while (pos_ < sql_.size()) {
      const char c = sql_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++pos_;
      } else if (c == '-' && At(pos_ + 1) == '-') {
        while (pos_ < sql_.size() && sql_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
  }

  Result<Token> Next() {
    const std::size_t start = pos_;
    const char c = sql_[pos_];
    if (IsNameStart(c)) {
      while (pos_ < sql_.size() && IsNamePart(sql_[pos_])) ++pos_;
      return Make(TokenKind::kName, std::string(sql_.substr(start, pos_ - start)), start);
    }
    if (IsDigit(c) || (c == '.' && IsDigit(At(pos_ + 1)))) return Number(start);
    // LanceDB reads "x" as a column name, like `x` (not as a string).
    if (c == '`' || c == '"') return QuotedText(TokenKind::kQuotedName, c, "name");
    if (c == '\'') return QuotedText(TokenKind::kString, c, "string");
    for (std::string_view two : {"==", "<>", "!=", "<=", ">="}) {
      if (sql_.substr(pos_, 2) == two) {
        pos_ += 2;
        return Make(TokenKind::kSymbol, std::string(two), start);
      }
    }
    if (std::string_view("=<>+-*/%(),.").find(c) != std::string_view::npos) {
      ++pos_;
      return Make(TokenKind::kSymbol, std::string(1, c), start);
    }
    return FilterError(sql_, static_cast<std::int64_t>(start),
                       std::string("unexpected character '") + c +
                           "'; expected a name, a literal, an operator or a parenthesis");
  }

  Result<Token> Number(std::size_t start) {
    while (IsDigit(At(pos_))) ++pos_;
    if (At(pos_) == '.') {
      ++pos_;
      while (IsDigit(At(pos_))) ++pos_;
    }
    if ((At(pos_) == 'e' || At(pos_) == 'E') &&
        (IsDigit(At(pos_ + 1)) ||
         ((At(pos_ + 1) == '+' || At(pos_ + 1) == '-') && IsDigit(At(pos_ + 2))))) {
      pos_ += 2;
      while (IsDigit(At(pos_))) ++pos_;
    }
    return Make(TokenKind::kNumber, std::string(sql_.substr(start, pos_ - start)), start);
  }

  // A quote doubled inside the text stands for the quote itself.
  Result<Token> QuotedText(TokenKind kind, char quote, const char* what) {
    const std::size_t start = pos_++;
    std::string text;
    while (true) {
      if (pos_ >= sql_.size()) {
        return FilterError(sql_, static_cast<std::int64_t>(start),
                           std::string("unterminated ") + what + ": expected a closing " + quote);
      }
      const char c = sql_[pos_++];
      if (c == quote) {
        if (At(pos_) != quote) break;
        ++pos_;
      }
      text += c;
    }
    return Make(kind, std::move(text), start);
  }

  static Token Make(TokenKind kind, std::string text, std::size_t start) {
    return Token{kind, std::move(text), static_cast<std::int64_t>(start)};
  }

  std::string_view sql_;
  std::size_t pos_ = 0;
};

}  // namespace

Result<std::vector<Token>> Tokenize(std::string_view sql) { return Lexer(sql).Run(); }

std::string DescribeToken(const Token& token) {
  switch (token.kind) {
    case TokenKind::kEnd:
      return "the end of the filter";
    case TokenKind::kName:
      return "'" + token.text + "'";
    case TokenKind::kQuotedName:
      return "`" + token.text + "`";
    case TokenKind::kString:
      return "the string '" + token.text + "'";
    case TokenKind::kNumber:
      return "the number " + token.text;
    case TokenKind::kSymbol:
      return "'" + token.text + "'";
  }
  return "?";
}

}  // namespace lance_nd::query
