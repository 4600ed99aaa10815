// A lance-nd table: a Lance table whose rows are nd record batches (docs/FORMAT.md). Open,
// write, append, scan, delete, compact, widen, versions. Errors carry a StatusCode and an
// ErrorKind: TableNotFound = kNotFound + kTableNotFound, TableExists = kAlreadyExists +
// kTableExists, InvalidTable = kInvalidTable, a rejected cast = kSchemaMismatch + kCastRejected.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/api/options.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/nd/record_batch.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/maintenance.h"

namespace lance_nd {

class Scanner;
class StagedFragments;

/// \brief One committed version, oldest first in Table::Versions.
struct LANCE_ND_EXPORT TableVersion {
  std::uint64_t version = 0;  // the first version is 1
  std::chrono::system_clock::time_point timestamp;
};

/// \brief Options of Table::Compact (sizes on disk).
struct LANCE_ND_EXPORT CompactOptions {
  std::uint64_t target_fragment_bytes = std::uint64_t{128} << 20;
  /// Fragments with at least this fraction of rows deleted are rewritten without them; > 1
  /// disables it.
  double deleted_fraction = 0.1;
  /// Told (rows rewritten so far, rows to rewrite) once the plan is made and after each new
  /// fragment is written; not called when there is nothing to do.
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

struct LANCE_ND_EXPORT CompactionStats {
  std::uint64_t fragments_removed = 0;
  std::uint64_t fragments_added = 0;
  std::uint64_t rows_rewritten = 0;
  std::uint64_t deleted_rows_removed = 0;
  std::uint64_t committed_version = 0;  // 0: nothing to do, no new version
};

/// \brief The table location of `uri` (a local path; `memory://name` for the process-wide
/// in-memory file system) or of `file_system` + uri when one is given.
LANCE_ND_EXPORT table::TableLocation ResolveLocation(
    std::string_view uri, const std::shared_ptr<io::FileSystem>& file_system = nullptr);

/// \brief OK when `schema` carries `lance_nd:format` = "1"; InvalidTable otherwise, naming what
/// was found and what is expected.
LANCE_ND_EXPORT Status CheckFormat(const array::Schema& schema);
/// \brief True when the schema has the stats marker.
LANCE_ND_EXPORT bool HasStats(const array::Schema& schema);

class LANCE_ND_EXPORT Table {
  // CommitStaged (api/staged.h) returns the version it committed.
  friend Result<Table> CommitStaged(std::string_view, std::span<const StagedFragments>,
                                    const WriteOptions&);

 public:
  /// \brief The latest version of the table at `uri`. TableNotFound when there is no Lance
  /// table, InvalidTable when it is not a lance-nd table of format "1".
  static Result<Table> Open(std::string_view uri);
  static Result<Table> Open(const table::TableLocation& location,
                            std::optional<std::uint64_t> version = std::nullopt);

  /// \brief Write `rows` as one commit in `options.mode`. Every row becomes one table row. An
  /// empty `rows` on a missing table is InvalidArgument (no schema to create). A failed write
  /// commits nothing.
  static Result<Table> Write(std::string_view uri, std::span<const nd::NdRecordBatch> rows,
                             const WriteOptions& options = {});
  static Result<Table> Write(const table::TableLocation& location,
                             std::span<const nd::NdRecordBatch> rows,
                             const WriteOptions& options = {});

  /// \brief Append `rows` to the LATEST version as one commit (after a schema-extension commit
  /// when they bring new variables or keys); this table then holds the new version.
  /// `options.mode` is ignored. InvalidArgument on a checked-out old version.
  Status Append(std::span<const nd::NdRecordBatch> rows, const WriteOptions& options = {});

  const table::Dataset& dataset() const { return dataset_; }
  const table::TableLocation& location() const { return dataset_.location(); }
  std::uint64_t version() const { return dataset_.version(); }
  /// \brief The encoded (Lance) schema of this version.
  const array::SchemaPtr& schema() const { return dataset_.schema(); }
  bool has_stats() const;
  /// \brief False for a version opened by Checkout (writes are refused).
  bool writable() const { return writable_; }
  /// \brief Re-open at the latest version.
  Status Refresh();

  /// \brief The logical fields of the variables (typed by value type), table order.
  std::vector<array::FieldPtr> Variables() const;
  /// \brief Rows of this version, or those matching the exact filter `filter` (Lance SQL).
  Result<std::uint64_t> CountRows(std::string_view filter = {}) const;
  /// \brief A scan of this version (api/scanner.h).
  Scanner Scan() const;

  /// \brief Delete the rows matching `sql` exactly (evaluated per row, never with stats);
  /// returns how many. No new version when none match.
  Result<std::uint64_t> Delete(std::string_view sql);
  /// \brief lance-nd's own compaction planner by size on disk, row order kept, rows never
  /// split; no new version when there is nothing to do.
  Result<CompactionStats> Compact(const CompactOptions& options = {});
  /// \brief Remove versions older than `older_than` (and their files); the latest stays. With
  /// `remove_unreferenced`, also files no version references (left by killed writers) that are
  /// older than `older_than`: safe only when no other writer has been committing for that long.
  /// Without it such files go only once they are older than both `older_than` and 7 days.
  Result<table::CleanupStats> CleanupOldVersions(std::chrono::seconds older_than,
                                                 bool remove_unreferenced = false);

  /// \brief Versions whose manifests still exist, oldest first.
  Result<std::vector<TableVersion>> Versions() const;
  /// \brief `version`, read-only (its format is checked too).
  Result<Table> Checkout(std::uint64_t version) const;
  /// \brief Make `version`'s content the latest in a new commit.
  Status Restore(std::uint64_t version);
  /// \brief Change `variable`'s value type to `to`, which must hold every old value exactly
  /// (the kSafe rule); the stats column follows. Rewrites only that variable's column and its
  /// stats, in one commit. The same type is a no-op.
  Status Widen(std::string_view variable, const array::DataTypePtr& to);

 private:
  friend class NdWriter;        // Finish returns the committed version
  friend struct TableTestPeer;  // tests build tables without Table::Open / Write
  Table(table::Dataset dataset, bool writable)
      : dataset_(std::move(dataset)), writable_(writable) {}
  table::Dataset dataset_;
  bool writable_ = true;
};

}  // namespace lance_nd
