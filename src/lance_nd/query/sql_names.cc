#include "lance_nd/query/sql_names.h"

#include <array>

namespace lance_nd::query {

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

bool IsReservedWord(std::string_view word) {
  static constexpr std::array<std::string_view, 20> kWords = {
      "AND",       "OR",      "NOT",    "IN",    "IS",       "NULL",    "TRUE",
      "FALSE",     "BETWEEN", "LIKE",   "CAST",  "AS",       "DATE",    "ESCAPE",
      "TIMESTAMP", "ILIKE",   "SELECT", "WHERE", "DATETIME", "UNSIGNED"};
  const std::string upper = Upper(word);
  for (std::string_view w : kWords) {
    if (upper == w) return true;
  }
  return false;
}

std::optional<std::string> SqlTypeName(const array::DataType& type) {
  using array::TypeId;
  switch (type.id()) {
    case TypeId::kBool:
      return "BOOLEAN";
    case TypeId::kInt8:
      return "TINYINT";
    case TypeId::kInt16:
      return "SMALLINT";
    case TypeId::kInt32:
      return "INT";
    case TypeId::kInt64:
      return "BIGINT";
    case TypeId::kUInt8:
      return "TINYINT UNSIGNED";
    case TypeId::kUInt16:
      return "SMALLINT UNSIGNED";
    case TypeId::kUInt32:
      return "INT UNSIGNED";
    case TypeId::kUInt64:
      return "BIGINT UNSIGNED";
    case TypeId::kFloat32:
      return "FLOAT";
    case TypeId::kFloat64:
      return "DOUBLE";
    case TypeId::kUtf8:
      return "STRING";
    case TypeId::kBinary:
      return "BINARY";
    case TypeId::kDate32:
      return "DATE";
    case TypeId::kTimestamp:
      if (!type.timezone().empty()) return std::nullopt;
      switch (type.unit()) {
        case array::TimeUnit::kSecond:
          return "TIMESTAMP(0)";
        case array::TimeUnit::kMilli:
          return "TIMESTAMP(3)";
        case array::TimeUnit::kMicro:
          return "TIMESTAMP";
        case array::TimeUnit::kNano:
          return "TIMESTAMP(9)";
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

}  // namespace lance_nd::query
