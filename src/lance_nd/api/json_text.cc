// Text helpers of JSON Lines: string escaping, base64, float16 bits.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "lance_nd/api/json_values.h"
#include "lance_nd/core/internal/json_string.h"

namespace lance_nd::json_lines {
namespace {

constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int Base64Digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

constexpr std::size_t kShortJson = 40;

/// `v` as compact JSON text appended to `out`, stopping soon after `out` holds `limit` bytes:
/// the work (and the recursion, one level per character written) is bounded by `limit`, not by
/// the size or depth of `v`.
void AppendShortString(std::string_view s, std::string& out, std::size_t limit) {
  // A UTF-8 character cut in two is replaced.
  const Json cut(std::string(s.substr(0, limit - std::min(limit, out.size()) + 1)));
  out += cut.dump(-1, ' ', false, Json::error_handler_t::replace);
}

void AppendShort(const Json& v, std::string& out, std::size_t limit) {
  if (out.size() > limit) return;
  if (v.is_string()) {
    AppendShortString(v.get_ref<const Json::string_t&>(), out, limit);
    return;
  }
  if (!v.is_structured()) {
    out += v.dump(-1, ' ', false, Json::error_handler_t::replace);
    return;
  }
  const bool object = v.is_object();
  out += object ? '{' : '[';
  bool first = true;
  for (auto it = v.begin(); it != v.end() && out.size() <= limit; ++it) {
    if (!first) out += ',';
    first = false;
    if (object) {
      AppendShortString(it.key(), out, limit);
      out += ':';
    }
    AppendShort(*it, out, limit);
  }
  out += object ? '}' : ']';
}

}  // namespace

std::string ShortJson(const Json& v) {
  std::string text;
  AppendShort(v, text, kShortJson);
  if (text.size() > kShortJson) text = text.substr(0, kShortJson - 3) + "...";
  return text;
}

void AppendJsonString(std::string& out, std::string_view s) { internal::AppendJsonString(out, s); }

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t n = (std::uint32_t{static_cast<unsigned char>(bytes[i])} << 16) |
                            (std::uint32_t{static_cast<unsigned char>(bytes[i + 1])} << 8) |
                            std::uint32_t{static_cast<unsigned char>(bytes[i + 2])};
    for (int shift = 18; shift >= 0; shift -= 6) out += kBase64Alphabet[(n >> shift) & 0x3F];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    std::uint32_t n = std::uint32_t{static_cast<unsigned char>(bytes[i])} << 16;
    if (rest == 2) n |= std::uint32_t{static_cast<unsigned char>(bytes[i + 1])} << 8;
    out += kBase64Alphabet[(n >> 18) & 0x3F];
    out += kBase64Alphabet[(n >> 12) & 0x3F];
    out += rest == 2 ? kBase64Alphabet[(n >> 6) & 0x3F] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::string> Base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    std::array<int, 4> d{};
    int padding = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const char c = text[i + k];
      // '=' only at the end: "xx==" or "xxx=".
      if (c == '=' && last && k >= 2 && (k == 3 || text[i + 3] == '=')) {
        ++padding;
        d[k] = 0;
        continue;
      }
      if (padding > 0) return std::nullopt;
      d[k] = Base64Digit(c);
      if (d[k] < 0) return std::nullopt;
    }
    const std::uint32_t n =
        (static_cast<std::uint32_t>(d[0]) << 18) | (static_cast<std::uint32_t>(d[1]) << 12) |
        (static_cast<std::uint32_t>(d[2]) << 6) | static_cast<std::uint32_t>(d[3]);
    out += static_cast<char>((n >> 16) & 0xFF);
    if (padding < 2) out += static_cast<char>((n >> 8) & 0xFF);
    if (padding < 1) out += static_cast<char>(n & 0xFF);
    // Canonical form only: the bits the padding leaves out are zero.
    if ((padding == 1 && (n & 0xFF) != 0) || (padding == 2 && (n & 0xFFFF) != 0)) {
      return std::nullopt;
    }
  }
  return out;
}

double HalfToDouble(std::uint16_t bits) {
  const double sign = (bits & 0x8000) != 0 ? -1.0 : 1.0;
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  if (exponent == 31) {
    return mantissa == 0 ? sign * HUGE_VAL : std::copysign(std::nan(""), sign);
  }
  return sign * std::ldexp(mantissa + 1024, exponent - 25);
}

std::uint16_t DoubleToHalf(double value) {
  const std::uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isnan(value)) return sign | 0x7E00;
  const double a = std::fabs(value);
  // 65520 is half way between the largest half (65504) and 2^16: ties to even round up.
  if (a >= 65520.0) return sign | 0x7C00;
  if (a < 0x1p-14) {  // subnormal: a multiple of 2^-24 (1024 carries into the exponent)
    return static_cast<std::uint16_t>(sign |
                                      static_cast<std::uint16_t>(std::nearbyint(a * 0x1p24)));
  }
  int e = 0;
  (void)std::frexp(a, &e);                                 // a in [2^(e-1), 2^e)
  const double q = std::nearbyint(std::ldexp(a, 11 - e));  // 1024..2048, ties to even
  const auto bits =
      static_cast<std::uint32_t>((e + 14) << 10) + static_cast<std::uint32_t>(q) - 1024;
  return static_cast<std::uint16_t>(sign | bits);
}

}  // namespace lance_nd::json_lines
