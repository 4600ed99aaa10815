// FastLanes bit-packing of 1024-value blocks (docs/lance-file-format.md §4.5).
//
// A block of 1024 unsigned T (T = 8/16/32/64 bits) packed to W bits (0 <= W <= T) occupies
// 1024 * W / T words of T. The words form W rows of LANES = 1024 / T words: word w of lane l is
// at index w * LANES + l. Each lane's words, concatenated LSB-first, hold T values of W bits;
// value r of lane l is element FL_ORDER[r / 8] * 16 + (r % 8) * 128 + l of the block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace lance_nd::file::internal::encoding {

inline constexpr std::size_t kFastLanesBlock = 1024;

/// \brief Words of T holding one packed block of width `width`.
template <typename T>
constexpr std::size_t FastLanesPackedWords(std::size_t width) {
  return kFastLanesBlock * width / (sizeof(T) * 8);
}

namespace detail {
inline constexpr std::size_t kFastLanesOrder[8] = {0, 4, 2, 6, 1, 5, 3, 7};

constexpr std::size_t FastLanesIndex(std::size_t row, std::size_t lane) {
  return kFastLanesOrder[row / 8] * 16 + (row % 8) * 128 + lane;
}

template <typename T>
constexpr T LowMask(std::size_t width) {
  constexpr std::size_t kBits = sizeof(T) * 8;
  return width >= kBits ? static_cast<T>(~T{0}) : static_cast<T>((T{1} << width) - 1);
}
}  // namespace detail

/// \brief Unpack one block: `packed` has FastLanesPackedWords<T>(width) words, `out` 1024.
/// Requires width <= bits of T (callers validate).
template <typename T>
requires std::is_unsigned_v<T>
void FastLanesUnpack(const T* packed, std::size_t width, T* out) {
  constexpr std::size_t kBits = sizeof(T) * 8;
  constexpr std::size_t kLanes = kFastLanesBlock / kBits;
  if (width == 0) {
    for (std::size_t i = 0; i < kFastLanesBlock; ++i) out[i] = 0;
    return;
  }
  const T mask = detail::LowMask<T>(width);
  // Row by row: within a row every lane uses the same word and shift, so the inner loop over
  // the lanes is contiguous on both sides (vectorised by the compiler).
  for (std::size_t row = 0; row < kBits; ++row) {
    const std::size_t bit = row * width;
    const std::size_t word = bit / kBits;
    const std::size_t shift = bit % kBits;
    const T* src = packed + word * kLanes;
    T* dst = out + detail::FastLanesIndex(row, 0);
    if (shift + width > kBits) {
      const T* src2 = src + kLanes;
      const std::size_t back = kBits - shift;
      for (std::size_t lane = 0; lane < kLanes; ++lane) {
        dst[lane] = static_cast<T>(static_cast<T>(static_cast<T>(src[lane] >> shift) |
                                                  static_cast<T>(src2[lane] << back)) &
                                   mask);
      }
    } else {
      for (std::size_t lane = 0; lane < kLanes; ++lane) {
        dst[lane] = static_cast<T>(static_cast<T>(src[lane] >> shift) & mask);
      }
    }
  }
}

/// \brief Pack one block of 1024 values (bits above `width` are dropped) into
/// FastLanesPackedWords<T>(width) words.
template <typename T>
requires std::is_unsigned_v<T>
void FastLanesPack(const T* in, std::size_t width, T* packed) {
  constexpr std::size_t kBits = sizeof(T) * 8;
  constexpr std::size_t kLanes = kFastLanesBlock / kBits;
  const std::size_t words = FastLanesPackedWords<T>(width);
  for (std::size_t i = 0; i < words; ++i) packed[i] = 0;
  if (width == 0) return;
  const T mask = detail::LowMask<T>(width);
  // Row by row (see FastLanesUnpack): contiguous, vectorisable inner loops over the lanes.
  for (std::size_t row = 0; row < kBits; ++row) {
    const std::size_t bit = row * width;
    const std::size_t word = bit / kBits;
    const std::size_t shift = bit % kBits;
    const T* src = in + detail::FastLanesIndex(row, 0);
    T* dst = packed + word * kLanes;
    for (std::size_t lane = 0; lane < kLanes; ++lane) {
      dst[lane] =
          static_cast<T>(dst[lane] | static_cast<T>(static_cast<T>(src[lane] & mask) << shift));
    }
    if (shift + width > kBits) {
      T* dst2 = dst + kLanes;
      const std::size_t back = kBits - shift;
      for (std::size_t lane = 0; lane < kLanes; ++lane) {
        dst2[lane] =
            static_cast<T>(dst2[lane] | static_cast<T>(static_cast<T>(src[lane] & mask) >> back));
      }
    }
  }
}

/// \brief Bit length of the largest value (0 for all zeros).
template <typename T>
requires std::is_unsigned_v<T> std::size_t BitWidthOfMax(const T* values, std::size_t n) {
  T acc = 0;
  for (std::size_t i = 0; i < n; ++i) acc = static_cast<T>(acc | values[i]);
  std::size_t w = 0;
  while (acc != 0) {
    ++w;
    acc = static_cast<T>(acc >> 1);
  }
  return w;
}

}  // namespace lance_nd::file::internal::encoding
