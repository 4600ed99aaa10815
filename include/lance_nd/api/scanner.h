// Scans of a lance-nd table: one nd record batch per row, in table order, with projection,
// an exact SQL filter, stats pruning and a limit.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/nd/record_batch.h"
#include "lance_nd/table/dataset.h"

namespace lance_nd {

/// \brief The rows of a scan, one at a time. Decoded arrays are slices of the buffers the table
/// read returned (rows of one read share them), not copies. A plain scan reads the next table
/// batch ahead on the worker pool while the current one is consumed.
class LANCE_ND_EXPORT NdBatchReader {
 public:
  NdBatchReader(NdBatchReader&&) noexcept;
  NdBatchReader& operator=(NdBatchReader&&) noexcept;
  ~NdBatchReader();
  /// \brief The next row, or nullopt after the last one.
  Result<std::optional<nd::NdRecordBatch>> Next();

 private:
  friend class Scanner;
  struct Impl;
  explicit NdBatchReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class LANCE_ND_EXPORT Scanner {
 public:
  explicit Scanner(table::Dataset dataset);

  /// \brief Read only these variables; every row keeps its global attributes, so an empty list
  /// reads only global attributes. A nested name (`sst.attrs`) is InvalidArgument when the scan
  /// opens; so is an unknown variable (naming the ones that exist).
  Scanner& Project(std::vector<std::string> variables);
  /// \brief Keep exactly the rows for which the Lance SQL `sql` is TRUE (SQL's unknown drops a
  /// row). The columns the filter names are read first; the rows that pass are then read with
  /// the projected variables (a fragment where many pass is read whole, otherwise rows are
  /// taken by index). Parse and bind errors (InvalidArgument, ErrorKind::kParseError, with the
  /// position and the table's columns) come from Open, ReadAll and CountRows.
  Scanner& Filter(std::string sql);
  /// \brief Skip the rows that the stats prove cannot match `sql` (query::PruneFilter); rows
  /// that pass are returned whole. Combines with Filter (both must hold).
  Scanner& Prune(std::string sql);
  /// \brief At most `rows` rows (the first ones in table order that pass).
  Scanner& Limit(std::uint64_t rows);
  /// \brief Rows read from the table per batch (default 256).
  Scanner& BatchRows(std::int64_t rows);
  /// \brief Threads decoding rows into nd record batches (default: the worker pool's size).
  Scanner& DecodeParallelism(int threads);
  /// \brief Decode the next batch of a plain scan on the worker pool while the rows before it
  /// are consumed (default off). For consumers that work on each row (Python builds an
  /// xarray Dataset per row): the decoding then overlaps their work. A consumer that only
  /// collects rows gains nothing from it.
  Scanner& DecodeAhead(bool ahead = true);

  Result<NdBatchReader> Open() const;
  /// \brief The rows at logical indices `rows` of the version (0..CountRows()-1 in table order,
  /// deleted rows not counted), in the order given, with this scan's projection: only those
  /// rows' projected columns are read. InvalidArgument when a filter, prune or limit is set
  /// (they select rows; Take is given them) or an index is out of range.
  Result<std::vector<nd::NdRecordBatch>> Take(std::span<const std::uint64_t> rows) const;
  /// \brief Every row of the scan. Reads in batches of at least 1,024 rows whatever BatchRows
  /// says: the result holds every row anyway, and larger batches split fewer pages.
  Result<std::vector<nd::NdRecordBatch>> ReadAll() const;
  /// \brief Rows that would be returned (limit included), without decoding them: the row count
  /// of the version, or the first pass of a filtered scan.
  Result<std::uint64_t> CountRows() const;

 private:
  table::Dataset dataset_;
  std::optional<std::vector<std::string>> projection_;
  std::string filter_;
  std::string prune_;
  std::optional<std::uint64_t> limit_;
  std::int64_t batch_rows_ = 256;
  int decode_parallelism_ = 0;
  bool decode_ahead_ = false;
};

}  // namespace lance_nd
