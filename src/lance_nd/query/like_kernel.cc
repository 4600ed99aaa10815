// LIKE: % matches any run of characters, _ exactly one (a UTF-8 code point), and the escape
// character (ESCAPE 'c', else backslash) makes the next pattern character literal.
#include <string_view>

#include "lance_nd/query/kernels.h"

namespace lance_nd::query {
namespace {

// Length of the UTF-8 sequence starting with byte c (1 for anything malformed).
std::size_t CharLength(unsigned char c) {
  if (c >= 0xF0) return 4;
  if (c >= 0xE0) return 3;
  if (c >= 0xC0) return 2;
  return 1;
}

// Iterative matcher with backtracking to the last %: linear in most patterns.
bool Match(std::string_view s, std::string_view p, char esc, bool has_esc) {
  std::size_t si = 0, pi = 0;
  std::size_t star_p = std::string_view::npos, star_s = 0;
  while (si < s.size()) {
    if (pi < p.size()) {
      const char pc = p[pi];
      if (has_esc && pc == esc && pi + 1 < p.size()) {
        if (s[si] == p[pi + 1]) {
          ++si;
          pi += 2;
          continue;
        }
      } else if (pc == '%') {
        star_p = ++pi;
        star_s = si;
        continue;
      } else if (pc == '_') {
        si += CharLength(static_cast<unsigned char>(s[si]));
        ++pi;
        continue;
      } else if (pc == s[si]) {
        ++si;
        ++pi;
        continue;
      }
    }
    if (star_p == std::string_view::npos) return false;
    star_s += CharLength(static_cast<unsigned char>(s[star_s]));
    si = star_s;
    pi = star_p;
  }
  while (pi < p.size() && p[pi] == '%') ++pi;
  return pi == p.size() && si == s.size();
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace

Result<ColumnPtr> LikeColumns(const Column& a, const Column& pattern, const std::string& escape,
                              bool ignore_case) {
  auto out = BoolColumn(a.length);
  if (a.strings.empty() || pattern.strings.empty()) {
    out->valid.assign(out->valid.size(), 0);
    return ColumnPtr(out);
  }
  // Without an ESCAPE clause the backslash escapes, as in DataFusion (LanceDB matches
  // 'b\_c' against "b_c" only).
  const bool has_esc = true;
  const char esc = escape.empty() ? '\\' : escape[0];
  for (std::size_t i = 0; i < out->valid.size(); ++i) {
    out->valid[i] = static_cast<std::uint8_t>(a.valid[i] & pattern.valid[i]);
    if (!out->valid[i]) continue;
    if (ignore_case) {
      const std::string s = Lower(a.strings[i]), p = Lower(pattern.strings[i]);
      out->bools[i] = Match(s, p, esc, has_esc) ? 1 : 0;
    } else {
      out->bools[i] = Match(a.strings[i], pattern.strings[i], esc, has_esc) ? 1 : 0;
    }
  }
  return ColumnPtr(out);
}

}  // namespace lance_nd::query
