// A streaming table writer: batches in, any number of times, then one commit. Data files are
// cut at WriteOptions' max_rows_per_file / max_bytes_per_file (exactly where WriteTable cuts
// them for the same batches) and finished in the background on the worker pool, at most
// WriteOptions::files_in_flight at once. Nothing is visible to readers until Commit(), which
// makes exactly one version; a process that dies before it leaves the table at its last
// version (the data files written are unreferenced; CleanupOldVersions removes them once
// they are old enough, see CleanupOptions).
#pragma once

#include <cstdint>
#include <memory>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/write.h"

namespace lance_nd::table {

class LANCE_ND_EXPORT TableWriter {
 public:
  /// \brief Start writing to the table at `location` in `options.mode`:
  /// - kCreate: a new table with `schema` (AlreadyExists when a table is there);
  /// - kAppend: rows for the latest version of an existing table (NotFound when there is none);
  ///   `schema` may be null (the table's) or must match the table's (SchemaMismatch);
  /// - kOverwrite: replace the table's rows and schema with `schema` (a create when missing).
  /// The version the commit is planned on is the latest one now. InvalidArgument for a missing
  /// schema (create / overwrite), a location without a file system or non-positive file
  /// limits; NotImplemented for a schema lance-nd cannot store.
  static Result<TableWriter> Open(const TableLocation& location, array::SchemaPtr schema,
                                  const WriteOptions& options = {});

  TableWriter(TableWriter&&) noexcept;
  TableWriter& operator=(TableWriter&&) noexcept;
  /// \brief Aborts when neither Commit() nor Abort() was called.
  ~TableWriter();

  /// \brief Add the rows of `batch`. A batch that does not have the writer's schema is refused
  /// (SchemaMismatch naming the field) and changes nothing: the batches before it stay and the
  /// writer goes on. After an I/O error the writer is failed: Write and Commit return that
  /// error, and nothing is committed. InvalidArgument after Commit() or Abort().
  Status Write(const array::RecordBatch& batch);

  /// \brief Finish every data file and commit them as one version (Append, or Overwrite for
  /// create / overwrite); returns the new dataset. After a failed commit the data files are
  /// removed (the table is unchanged). Once only: InvalidArgument afterwards.
  Result<Dataset> Commit();

  /// \brief Commit nothing and remove the data files written (best effort). The table is
  /// unchanged. InvalidArgument after Commit(); a second Abort() does nothing.
  Status Abort();

  /// \brief The schema batches must have.
  const array::SchemaPtr& schema() const;
  /// \brief Rows accepted so far.
  std::uint64_t rows_written() const;

 private:
  struct Impl;
  explicit TableWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace lance_nd::table
