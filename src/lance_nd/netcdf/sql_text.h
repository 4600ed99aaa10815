// SQL text for the filters the netcdf layer builds.
#pragma once

#include <string>
#include <string_view>

namespace lance_nd::netcdf::internal {

/// \brief A SQL string literal: 'it''s'.
inline std::string SqlString(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

/// \brief A LIKE pattern matching `prefix` followed by anything (%, _ and \ escaped).
inline std::string LikePrefix(std::string_view prefix) {
  std::string out;
  for (char c : prefix) {
    if (c == '%' || c == '_' || c == '\\') out += '\\';
    out += c;
  }
  return out + "%";
}

}  // namespace lance_nd::netcdf::internal
