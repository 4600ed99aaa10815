// Renaming of global attributes around the chunk keys (FORMAT.md §3.6).
#include "lance_nd/netcdf/conventions.h"

#include "lance_nd/api/chunking.h"

namespace lance_nd::netcdf::internal {

std::string StoredGlobalKey(std::string_view source_key) {
  if (IsChunkKey(source_key) || source_key.starts_with(kSourcePrefix)) {
    return std::string(kSourcePrefix) + std::string(source_key);
  }
  return std::string(source_key);
}

std::string SourceGlobalKey(std::string_view stored_key) {
  if (IsChunkKey(stored_key)) return {};
  if (stored_key.starts_with(kSourcePrefix)) {
    return std::string(stored_key.substr(kSourcePrefix.size()));
  }
  return std::string(stored_key);
}

nd::Attributes RenameGlobals(const nd::Attributes& source) {
  nd::Attributes out;
  for (const auto& [key, value] : source.entries()) {
    (void)out.SetValue(StoredGlobalKey(key), value);  // values came from valid attributes
  }
  return out;
}

nd::Attributes RestoreGlobals(const nd::Attributes& stored) {
  nd::Attributes out;
  for (const auto& [key, value] : stored.entries()) {
    const std::string source_key = SourceGlobalKey(key);
    if (!source_key.empty()) (void)out.SetValue(source_key, value);
  }
  return out;
}

}  // namespace lance_nd::netcdf::internal
