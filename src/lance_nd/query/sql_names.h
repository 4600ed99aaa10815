// Names shared by the tokenizer, the parser and the SQL writer: reserved words and the SQL
// spelling of cast types.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "lance_nd/array/type.h"

namespace lance_nd::query {

/// \brief True for words that cannot be a bare column name (AND, NULL, CAST, ...); matched
/// case-insensitively. Such names are written with backticks.
bool IsReservedWord(std::string_view word);
/// \brief ASCII upper case.
std::string Upper(std::string_view s);
/// \brief The SQL type name Lance accepts in CAST for `type` ("BIGINT", "TIMESTAMP(9)"), or
/// nullopt when Lance has no name for it.
std::optional<std::string> SqlTypeName(const array::DataType& type);

}  // namespace lance_nd::query
