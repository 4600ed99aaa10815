// Little-endian loads and stores for on-disk integers (the formats are little-endian).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace lance_nd {

static_assert(std::endian::native == std::endian::little,
              "lance-nd supports little-endian hosts only");

template <typename T>
requires std::is_trivially_copyable_v<T>
inline T LoadLE(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
requires std::is_trivially_copyable_v<T>
inline void StoreLE(void* p, T v) { std::memcpy(p, &v, sizeof(T)); }

}  // namespace lance_nd
