// A summary of each committed version of a table (what `listVersions` shows in Lance): number,
// commit timestamp, operation and the summary statistics computed from its manifest.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/manifest.h"

namespace lance_nd::table {

struct LANCE_ND_EXPORT VersionInfo {
  std::uint64_t version = 0;
  /// Commit time from the manifest (UTC, nanosecond precision).
  std::chrono::sys_time<std::chrono::nanoseconds> timestamp{};
  /// "Append", "Delete", "Overwrite", "Merge", "Restore", "ReserveFragments", "Project",
  /// "Rewrite", ...; "Unknown" for operations lance-nd does not model, "" when the version has
  /// no transaction (neither inline nor a readable `.txn` file).
  std::string operation;
  std::uint64_t num_rows = 0;            // live rows (Lance: total_rows)
  std::uint64_t num_fragments = 0;       // total_fragments
  std::uint64_t num_data_files = 0;      // total_data_files
  std::uint64_t total_files_size = 0;    // sum of data files' file_size_bytes
  std::uint64_t num_deletion_files = 0;  // total_deletion_files
  std::uint64_t num_deleted_rows = 0;    // total_deletion_file_rows
  std::uint64_t num_physical_rows = 0;   // total_data_file_rows
};

/// \brief Every committed version of the table at `location`, ascending. Errors: as
/// ListVersions, and Corrupt when a manifest cannot be read.
LANCE_ND_EXPORT Result<std::vector<VersionInfo>> ListVersionInfos(const TableLocation& location);

}  // namespace lance_nd::table
