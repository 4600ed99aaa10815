// Overflow-checked integer arithmetic for sizes and offsets read from untrusted input.
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

namespace lance_nd {

template <typename T>
requires std::is_integral_v<T>
constexpr std::optional<T> CheckedAdd(T a, T b) {
  T out{};
  if (__builtin_add_overflow(a, b, &out)) return std::nullopt;
  return out;
}

template <typename T>
requires std::is_integral_v<T>
constexpr std::optional<T> CheckedSub(T a, T b) {
  T out{};
  if (__builtin_sub_overflow(a, b, &out)) return std::nullopt;
  return out;
}

template <typename T>
requires std::is_integral_v<T>
constexpr std::optional<T> CheckedMul(T a, T b) {
  T out{};
  if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
  return out;
}

/// \brief `value` converted to To when it fits exactly, else nullopt.
template <typename To, typename From>
requires std::is_integral_v<To> && std::is_integral_v<From>
constexpr std::optional<To> CheckedCast(From value) {
  if (!std::in_range<To>(value)) return std::nullopt;
  return static_cast<To>(value);
}

/// \brief Round `value` up to a multiple of `align` (a power of two).
constexpr int64_t AlignUp(int64_t value, int64_t align) {
  return (value + align - 1) & ~(align - 1);
}

}  // namespace lance_nd
