// Version manifest naming under `_versions/`: V1 `{n}.manifest`, V2 `{u64::MAX - n:020}.manifest`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lance_nd/export.h"

namespace lance_nd::table {

enum class ManifestNaming : std::uint8_t { kV1, kV2 };

struct LANCE_ND_EXPORT ManifestName {
  std::uint64_t version = 0;
  ManifestNaming naming = ManifestNaming::kV2;
  bool operator==(const ManifestName&) const = default;
};

/// \brief The file name (no directory) of `version` under `naming`.
LANCE_ND_EXPORT std::string ManifestFileName(std::uint64_t version, ManifestNaming naming);

/// \brief Parse a `_versions/` entry. Anything that is not a committed manifest name gives
/// nullopt: temp/staging names (`...manifest#1`, `.tmpXXXX`, `...manifest-<uuid>`), detached
/// versions (`d...`), the hint file, non-digit stems, version 0 and out-of-range numbers.
LANCE_ND_EXPORT std::optional<ManifestName> ParseManifestFileName(std::string_view name);

}  // namespace lance_nd::table
