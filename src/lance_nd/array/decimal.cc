// Decimal values as text.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "lance_nd/array/type.h"

namespace lance_nd::array {
namespace {

// Divide the little-endian magnitude in `limbs` by 10 in place; returns the remainder.
std::uint32_t DivideBy10(std::vector<std::uint32_t>* limbs) {
  std::uint64_t rem = 0;
  for (std::size_t k = limbs->size(); k-- > 0;) {
    const std::uint64_t cur = (rem << 32) | (*limbs)[k];
    (*limbs)[k] = static_cast<std::uint32_t>(cur / 10);
    rem = cur % 10;
  }
  return static_cast<std::uint32_t>(rem);
}

bool IsZero(const std::vector<std::uint32_t>& limbs) {
  for (std::uint32_t l : limbs) {
    if (l != 0) return false;
  }
  return true;
}

}  // namespace

std::string DecimalToString(const std::uint8_t* value, int byte_width, std::int32_t scale) {
  std::vector<std::uint32_t> limbs(static_cast<std::size_t>(byte_width) / 4);
  for (std::size_t k = 0; k < limbs.size(); ++k) {
    const std::uint8_t* p = value + 4 * k;
    limbs[k] = static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
               static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
  }
  const bool negative = !limbs.empty() && (limbs.back() & 0x80000000u) != 0;
  if (negative) {  // two's complement negation: invert and add one
    std::uint64_t carry = 1;
    for (std::uint32_t& l : limbs) {
      const std::uint64_t v = static_cast<std::uint64_t>(~l) + carry;
      l = static_cast<std::uint32_t>(v);
      carry = v >> 32;
    }
  }
  std::string digits;  // least significant first
  do {
    digits.push_back(static_cast<char>('0' + DivideBy10(&limbs)));
  } while (!IsZero(limbs));
  if (scale < 0) {
    digits.insert(0, static_cast<std::size_t>(-scale), '0');
  } else if (scale > 0) {
    if (digits.size() <= static_cast<std::size_t>(scale)) {
      digits.resize(static_cast<std::size_t>(scale) + 1, '0');
    }
    digits.insert(static_cast<std::size_t>(scale), 1, '.');
  }
  if (negative) digits.push_back('-');
  return std::string(digits.rbegin(), digits.rend());
}

}  // namespace lance_nd::array
