// Splits filter text into tokens: names (bare, `backticked` or "double quoted", as LanceDB
// reads them), 'strings', numbers, operators and punctuation.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/core/result.h"

namespace lance_nd::query {

enum class TokenKind : std::uint8_t {
  kName,        // bare word: a column name or a keyword (text as written)
  kQuotedName,  // `name` or "name" (text unquoted)
  kString,      // 'text' (unquoted)
  kNumber,      // 12, 1.5, .5, 1e3
  kSymbol,      // = == <> != < <= > >= + - * / % ( ) , .
  kEnd,
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;
  std::int64_t position = 0;
};

/// \brief The tokens of `sql`, ending with one kEnd token. `--` comments run to the end of
/// the line. Errors (kParseError): an unterminated quote, an unknown character.
Result<std::vector<Token>> Tokenize(std::string_view sql);

/// \brief How a token reads in an error message: "end of filter", "name `x`", "'='", ...
std::string DescribeToken(const Token& token);

}  // namespace lance_nd::query
