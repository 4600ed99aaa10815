// ResolveLocation: where a table uri lives (local disk, or the process-wide memory file system).
#include <memory>
#include <string>
#include <string_view>

#include "lance_nd/api/table.h"
#include "lance_nd/io/file_system.h"

namespace lance_nd {
namespace {

constexpr std::string_view kMemoryScheme = "memory://";
constexpr std::string_view kFileScheme = "file://";

// One in-memory file system per process, so that `memory://name` names the same table in every
// call (tests, examples).
const std::shared_ptr<io::FileSystem>& ProcessMemoryFileSystem() {
  static const std::shared_ptr<io::FileSystem> fs = io::MakeMemoryFileSystem();
  return fs;
}

}  // namespace

table::TableLocation ResolveLocation(std::string_view uri,
                                     const std::shared_ptr<io::FileSystem>& file_system) {
  if (file_system != nullptr) return {file_system, std::string(uri)};
  if (uri.starts_with(kMemoryScheme)) {
    return {ProcessMemoryFileSystem(), std::string(uri.substr(kMemoryScheme.size()))};
  }
  if (uri.starts_with(kFileScheme)) uri.remove_prefix(kFileScheme.size());
  return table::TableLocation::Local(std::string(uri));
}

}  // namespace lance_nd
