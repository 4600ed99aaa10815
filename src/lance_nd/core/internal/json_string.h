// JSON string quoting shared by the writers of JSON text (tag files, JSON Lines): '"' and '\\'
// escaped, control characters as \b \f \n \r \t or \u00XX (as serde_json writes them, so tag
// files match Lance 12's byte for byte), every other byte (UTF-8 included) as it is.
#pragma once

#include <string>
#include <string_view>

namespace lance_nd::internal {

inline void AppendJsonString(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (u < 0x20) {
          out += "\\u00";
          out += kHex[u >> 4];
          out += kHex[u & 0xF];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

}  // namespace lance_nd::internal
