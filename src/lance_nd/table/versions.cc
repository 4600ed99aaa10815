#include "lance_nd/table/versions.h"

#include <charconv>
#include <limits>

namespace lance_nd::table {
namespace {

constexpr std::string_view kSuffix = ".manifest";
constexpr std::size_t kV2StemDigits = 20;

}  // namespace

std::string ManifestFileName(std::uint64_t version, ManifestNaming naming) {
  if (naming == ManifestNaming::kV1) return std::to_string(version) + std::string(kSuffix);
  std::string digits = std::to_string(std::numeric_limits<std::uint64_t>::max() - version);
  return std::string(kV2StemDigits - digits.size(), '0') + digits + std::string(kSuffix);
}

std::optional<ManifestName> ParseManifestFileName(std::string_view name) {
  if (name.size() <= kSuffix.size() || !name.ends_with(kSuffix)) return std::nullopt;
  const std::string_view stem = name.substr(0, name.size() - kSuffix.size());
  for (char c : stem) {
    if (c < '0' || c > '9') return std::nullopt;  // also rejects detached "d..." names
  }
  std::uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(stem.data(), stem.data() + stem.size(), value);
  if (ec != std::errc() || ptr != stem.data() + stem.size()) return std::nullopt;
  ManifestName out;
  if (stem.size() == kV2StemDigits) {
    out.naming = ManifestNaming::kV2;
    out.version = std::numeric_limits<std::uint64_t>::max() - value;
  } else {
    out.naming = ManifestNaming::kV1;
    out.version = value;
  }
  // Version 0 is never committed; top-bit versions are detached.
  if (out.version == 0 || (out.version >> 63) != 0) return std::nullopt;
  return out;
}

}  // namespace lance_nd::table
