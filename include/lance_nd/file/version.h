// The Lance file format version: what a data file's footer stores and what the writer produces.
#pragma once

#include <compare>
#include <cstdint>
#include <string>

#include "lance_nd/export.h"

namespace lance_nd::file {

/// \brief A Lance file format version as the footer stores it (major, minor). It holds any
/// version a footer may carry: 2.1 and 2.2 (the versions lance-nd reads and writes), 2.0 (whose
/// footer says 0.3), legacy 0.1 / 0.2 files, or a newer version than lance-nd knows.
struct LANCE_ND_EXPORT FileVersion {
  std::uint16_t major = 0;
  std::uint16_t minor = 0;

  static const FileVersion kV2_0;  // footer 0.3
  static const FileVersion kV2_1;  // 16-bit mini-block chunk words
  static const FileVersion kV2_2;  // 32-bit chunk words; what Lance 12 writes by default

  /// \brief The footer's numbers, "major.minor" (a 2.0 file gives "0.3").
  std::string ToString() const { return std::to_string(major) + "." + std::to_string(minor); }

  /// \brief The name Lance gives the version: "2.0" for footer 0.3, "legacy v1 (0.x)" for the
  /// other 0.x footers, else "major.minor".
  std::string Name() const {
    if (major == 0 && minor == 3) return "2.0";
    if (major == 0) return "legacy v1 (0." + std::to_string(minor) + ")";
    return ToString();
  }

  /// \brief True for the versions lance-nd reads and writes (2.1 and 2.2).
  constexpr bool IsSupported() const { return major == 2 && (minor == 1 || minor == 2); }

  constexpr bool operator==(const FileVersion&) const = default;
  constexpr std::strong_ordering operator<=>(const FileVersion& other) const {
    return major != other.major ? major <=> other.major : minor <=> other.minor;
  }
};

inline constexpr FileVersion FileVersion::kV2_0{0, 3};
inline constexpr FileVersion FileVersion::kV2_1{2, 1};
inline constexpr FileVersion FileVersion::kV2_2{2, 2};

}  // namespace lance_nd::file
