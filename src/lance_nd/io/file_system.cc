// What every FileSystem shares: the file-names listing derived from List.
#include "lance_nd/io/file_system.h"

#include <utility>

namespace lance_nd::io {

Result<std::vector<std::string>> FileSystem::ListFileNames(const std::string& dir) {
  LND_ASSIGN_OR_RETURN(std::vector<FileInfo> entries, List(dir));
  std::vector<std::string> names;
  names.reserve(entries.size());
  for (FileInfo& e : entries) {
    if (!e.is_directory) names.push_back(std::move(e.name));
  }
  return names;
}

}  // namespace lance_nd::io
