// NdWriter: any number of Write calls, one commit at Finish. Rows are cast to the table's types
// (WriteOptions::casting), encoded in groups against the table schema as extended so far (a row
// that brings new variables or keys extends it and starts a new group), buffered, and written
// as fragments in the background once about target_fragment_bytes would land on disk (at most
// write_parallelism at once); nothing is visible before Finish.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "lance_nd/api/options.h"
#include "lance_nd/api/table.h"
#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/nd/record_batch.h"
#include "lance_nd/table/location.h"

namespace lance_nd {

class LANCE_ND_EXPORT NdWriter {
 public:
  /// \brief A writer for a new table: options.mode kCreate (TableExists when one is there) or
  /// kOverwrite (replaces the table at Finish). kAppend behaves as Append below, creating the
  /// table when missing.
  static Result<NdWriter> Create(std::string_view uri, const WriteOptions& options = {});
  static Result<NdWriter> Create(const table::TableLocation& location,
                                 const WriteOptions& options = {});
  /// \brief A writer that appends to the latest version of an existing table (TableNotFound
  /// otherwise).
  static Result<NdWriter> Append(std::string_view uri, const WriteOptions& options = {});
  static Result<NdWriter> Append(const table::TableLocation& location,
                                 const WriteOptions& options = {});

  NdWriter(NdWriter&&) noexcept;
  NdWriter& operator=(NdWriter&&) noexcept;
  /// \brief Aborts when neither Finish nor Abort was called.
  ~NdWriter();

  /// \brief Add rows, in order. After a failed write every later call returns WriterFailed
  /// naming the first error, and nothing is committed. Groups are encoded on the worker pool
  /// while later rows come in; a span's whole groups of rows that already have the table's
  /// types are encoded without copying the rows, and Write returns once they are encoded, so
  /// the caller may free or change the rows afterwards. An error in encoding a group may be
  /// returned by a later Write or by Finish; it names the group's rows.
  Status Write(const nd::NdRecordBatch& row);
  Status Write(std::span<const nd::NdRecordBatch> rows);
  /// \brief Add rows given in the nd encoding (docs/FORMAT.md §2), for example Arrow data that
  /// crossed the C Data Interface: nd columns and at most one global-attributes column;
  /// `__stats__*` columns are ignored (the writer computes its own). The rows are checked as
  /// readers check them (InvalidArgument naming the column and row). When the batch's columns
  /// are the table's columns with the table's types (always so for the first batch of a new
  /// table), the batch is written as given, without building nd record batches; otherwise its
  /// rows are decoded and written as Write writes rows (casting, schema evolution).
  Status WriteEncoded(const array::RecordBatchPtr& batch);
  /// \brief Write what is buffered and commit everything as one version (plus, before it, a
  /// schema-extension commit when rows brought new variables or keys, and widening commits under
  /// Casting::kPromote). An empty create is InvalidArgument.
  Result<Table> Finish();
  /// \brief Commit nothing; the fragments written are removed (best effort).
  Status Abort();

  std::uint64_t rows_written() const;

 private:
  struct Impl;
  explicit NdWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace lance_nd
