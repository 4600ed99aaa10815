// Table maintenance: deleting rows (by address or by a predicate over columns), restoring an
// old version, compaction (merging small fragments, materialising deletions) and cleanup of old
// versions. Each returns the dataset at the version it leaves the table in, with its metrics.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/location.h"

namespace lance_nd::table {

struct LANCE_ND_EXPORT DeleteResult {
  Dataset dataset;                     // the new version (`ds` itself when nothing was deleted)
  std::uint64_t num_deleted_rows = 0;  // rows live before and deleted now
};

/// \brief Delete rows by row address ((fragment_id << 32) | physical offset) from the version
/// `ds` was opened at, committed as one Delete transaction (rebased by the commit over
/// compatible concurrent commits). Rows already deleted are fine (idempotent); duplicates are
/// fine. Each touched fragment gets a new deletion file holding the union of its old and new
/// deletions; fragments left without live rows are removed (deleted_fragment_ids), as Lance
/// does. No commit (the result holds `ds`) when nothing new is deleted. Stable row ids (flag 2)
/// are unchanged: only deletion files are written, as in Lance 12.
/// InvalidArgument naming the first bad address: unknown fragment, offset >= physical_rows.
LANCE_ND_EXPORT Result<DeleteResult> DeleteRows(const Dataset& ds,
                                                std::span<const std::uint64_t> row_addresses);

/// \brief The rows of `batch` a predicate selects: indices 0..num_rows-1, any order, repeats
/// allowed.
using RowSelection = std::vector<std::int64_t>;

/// \brief A condition on rows, evaluated over the columns it names.
struct LANCE_ND_EXPORT RowPredicate {
  /// What the predicate reads, as TableScanOptions::projection (top-level names or dotted
  /// paths into structs; empty = every column). `select` sees exactly these columns, in schema
  /// order; "_rowid" and "_rowaddr" may be named too.
  std::vector<std::string> columns;
  /// The selected rows of one batch of live rows. An error stops the deletion with nothing
  /// committed.
  std::function<Result<RowSelection>(const array::RecordBatch& batch)> select;
};

/// \brief Delete the live rows of the version `ds` was opened at that `predicate` selects:
/// the table is scanned (the predicate's columns only) and the selected rows deleted as
/// DeleteRows by address does (one Delete commit; emptied fragments removed; no commit when
/// nothing is selected). InvalidArgument for a predicate without `select` or a selection
/// index outside its batch (naming it); errors of `select` are returned with context.
LANCE_ND_EXPORT Result<DeleteResult> DeleteRows(const Dataset& ds, const RowPredicate& predicate);

/// \brief Make the content of `old_version` the latest version again: commits Restore{version}
/// on top of the latest version (fragments and schema of the old version; max_fragment_id kept
/// monotonic). Returns the dataset at the new version.
LANCE_ND_EXPORT Result<Dataset> Restore(const Dataset& old_version);

struct LANCE_ND_EXPORT CompactionOptions {
  /// Fragments with fewer physical rows are merged with adjacent small fragments; also the
  /// maximum rows per written fragment (Lance's default 1 Mi rows).
  std::int64_t target_rows_per_fragment = 1024 * 1024;
  /// Rewrite fragments whose deleted fraction exceeds the threshold (even alone).
  bool materialize_deletions = true;
  double materialize_deletions_threshold = 0.1;  // >= 1.0 disables materialisation
};

struct LANCE_ND_EXPORT CompactionMetrics {
  std::uint64_t fragments_removed = 0;
  std::uint64_t fragments_added = 0;
  std::uint64_t files_removed = 0;  // data files and deletion files of the removed fragments
  std::uint64_t files_added = 0;
  std::uint64_t committed_version = 0;  // 0 = nothing to do, no commit
  bool operator==(const CompactionMetrics&) const = default;
};

struct LANCE_ND_EXPORT CompactionResult {
  Dataset dataset;  // the compacted version (`ds` itself when there was nothing to do)
  CompactionMetrics metrics;
};

/// \brief Compact the table at the version `ds` was opened at, planned like Lance (adjacent
/// candidate fragments binned to about target_rows_per_fragment rows), keeping row order,
/// dropping deleted rows, committed as ONE Rewrite transaction. No commit when there is
/// nothing to do. NotImplemented for tables with indices (they would need remapping).
/// Tables with stable row ids (flag 2) keep every live row's id and created_at /
/// last_updated_at version; as Lance 12 does, a ReserveFragments commit numbers the new
/// fragments first, so such a compaction adds two versions (committed_version is the second).
LANCE_ND_EXPORT Result<CompactionResult> Compact(const Dataset& ds,
                                                 const CompactionOptions& options = {});

/// \brief When a file was last modified; nullopt when unknown.
using ModifiedTimeFn =
    std::function<std::optional<std::chrono::system_clock::time_point>(const std::string& path)>;

/// \brief Modification times of local files (std::filesystem); for io::LocalFileSystem().
LANCE_ND_EXPORT ModifiedTimeFn LocalModifiedTime();

struct LANCE_ND_EXPORT CleanupOptions {
  /// Versions whose manifest timestamp is older than this are removed (except the latest and
  /// tagged versions).
  std::chrono::seconds older_than{7 * 24 * 3600};
  /// Files no manifest references ("unverified": maybe an in-flight commit of another writer)
  /// are removed only when they are older than both `older_than` and 7 days (as Lance), which
  /// needs `modified_time`; with delete_unverified they are removed regardless of age (only
  /// safe when nobody else writes the table).
  bool delete_unverified = false;
  ModifiedTimeFn modified_time;  // empty: ages unknown, unverified files are kept
  /// The reference "now" (tests); default the system clock.
  std::optional<std::chrono::system_clock::time_point> now;
};

struct LANCE_ND_EXPORT CleanupStats {
  std::uint64_t old_versions = 0;   // manifests removed
  std::uint64_t bytes_removed = 0;  // all files removed
  std::uint64_t files_removed = 0;  // all files removed, manifests included
  std::uint64_t data_files_removed = 0;
  std::uint64_t deletion_files_removed = 0;
  std::uint64_t transaction_files_removed = 0;
  std::uint64_t index_files_removed = 0;
  bool operator==(const CleanupStats&) const = default;
};

struct LANCE_ND_EXPORT CleanupResult {
  Dataset dataset;  // the latest version after the cleanup
  CleanupStats stats;
};

/// \brief Remove old versions and the files only they use. Never removes the latest version, a
/// tagged version, or any file (data, deletion, .txn, index directory) referenced by a retained
/// version. Every manifest is read and the full referenced set computed before anything is
/// deleted; an unreadable manifest aborts the cleanup with nothing deleted. Old manifests are
/// deleted first, then the files.
LANCE_ND_EXPORT Result<CleanupResult> CleanupOldVersions(const TableLocation& location,
                                                         const CleanupOptions& options = {});

}  // namespace lance_nd::table
