// PLACEHOLDER for ResolveLocation, CheckFormat and HasStats (api/table.h), whose own sources
// belong with Table::Open / Write; delete this file when those sources are in the tree (the
// linker reports the duplicates). Same behaviour: `memory://name` is the process-wide memory
// file system, `file://` or a plain path the local disk; the format and stats markers.
#include <memory>
#include <string>
#include <string_view>

#include "lance_nd/api/table.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/nd/format.h"

namespace lance_nd {

table::TableLocation ResolveLocation(std::string_view uri,
                                     const std::shared_ptr<io::FileSystem>& file_system) {
  static const std::shared_ptr<io::FileSystem> memory = io::MakeMemoryFileSystem();
  constexpr std::string_view kMemory = "memory://", kFile = "file://";
  if (file_system != nullptr) return {file_system, std::string(uri)};
  if (uri.starts_with(kMemory)) return {memory, std::string(uri.substr(kMemory.size()))};
  if (uri.starts_with(kFile)) uri.remove_prefix(kFile.size());
  return table::TableLocation::Local(std::string(uri));
}

Status CheckFormat(const array::Schema& schema) {
  const auto found = schema.metadata().Get(nd::kFormatMetadataKey);
  if (!found || *found != nd::kFormatVersion) {
    return Status::InvalidTable("the table's schema metadata has ", nd::kFormatMetadataKey, " = ",
                                found ? std::string(*found) : std::string("(none)"),
                                "; expected \"", nd::kFormatVersion, "\"");
  }
  return Status::OK();
}

bool HasStats(const array::Schema& schema) {
  const auto marker = schema.metadata().Get(nd::kStatsMetadataKey);
  return marker && *marker == nd::kStatsMetadataValue;
}

}  // namespace lance_nd
