// Paths inside a table directory (private to the table layer's tags/ and maintenance/ code).
#pragma once

#include <cstdint>
#include <string>

namespace lance_nd::table::internal {

inline std::string JoinPath(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

inline constexpr const char* kTagsDir = "_refs/tags";
inline constexpr const char* kVersionsDir = "_versions";
inline constexpr const char* kTransactionsDir = "_transactions";
inline constexpr const char* kDataDir = "data";
inline constexpr const char* kDeletionsDir = "_deletions";
inline constexpr const char* kIndicesDir = "_indices";

}  // namespace lance_nd::table::internal
