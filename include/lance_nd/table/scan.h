// Reading a table's rows: full scans in batches, single fragments and rows by logical index.
// Fragments' data files are mapped to table fields by field id (DataFile.fields /
// column_indices); fields a fragment lacks read as nulls (also new children of a stored
// struct); deleted rows are dropped. A scan that projects a field of a type lance-nd cannot read
// (file::kUnsupportedFieldKey) is NotImplemented naming it; data files in the legacy (0.1) or
// 2.0 file formats are NotImplemented too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/table/dataset.h"

namespace lance_nd::table {

/// \brief Name of the optional row-address column: (fragment_id << 32) | physical offset.
inline constexpr const char* kRowAddressColumn = "_rowaddr";
/// \brief Name of the optional row-id column: the stable row id of tables with stable row ids
/// (reader flag 2), else the row address (as Lance reports it).
inline constexpr const char* kRowIdColumn = "_rowid";

struct LANCE_ND_EXPORT TableScanOptions {
  /// Top-level names ("value") or dotted paths into structs ("attrs.color"), merged and kept in
  /// schema order, like file::FileReader. Empty = every field. "_rowid" and "_rowaddr" may be
  /// listed too.
  std::vector<std::string> projection;
  /// Rows per batch (at least 1).
  std::int64_t batch_rows = 64 * 1024;
  /// Append a non-null uint64 column "_rowaddr".
  bool with_row_address = false;
  /// Append a non-null uint64 column "_rowid" (before "_rowaddr" when both are asked for).
  bool with_row_id = false;
};

namespace internal {
struct ScanPlan;
struct FragmentCursor;
}  // namespace internal

/// \brief The batches of a table scan, in table order (fragments by id, rows by offset).
class LANCE_ND_EXPORT TableBatchReader {
 public:
  TableBatchReader(TableBatchReader&&) noexcept;
  TableBatchReader& operator=(TableBatchReader&&) noexcept;
  ~TableBatchReader();

  /// \brief The next batch (1..batch_rows rows), or nullptr after the last one.
  Result<array::RecordBatchPtr> Next();
  const array::SchemaPtr& schema() const;

 private:
  friend Result<TableBatchReader> ScanTable(const Dataset& ds, const TableScanOptions& o);
  TableBatchReader(Dataset ds, std::shared_ptr<const internal::ScanPlan> plan,
                   std::int64_t batch_rows);
  Dataset ds_;
  std::shared_ptr<const internal::ScanPlan> plan_;
  std::int64_t batch_rows_ = 1;
  std::size_t next_fragment_ = 0;
  std::unique_ptr<internal::FragmentCursor> cursor_;
};

/// \brief Rows of one fragment taken by their logical index within it (0..num_rows()-1, deleted
/// rows skipped), as many takes as wanted: the fragment's data files are opened and their
/// footers read once for all of them.
class LANCE_ND_EXPORT FragmentTaker {
 public:
  /// \brief `f` must outlive the taker (a fragment of `ds`, kept alive by the caller).
  static Result<FragmentTaker> Open(const Dataset& ds, const Fragment& f,
                                    const TableScanOptions& o = {});
  FragmentTaker(FragmentTaker&&) noexcept;
  FragmentTaker& operator=(FragmentTaker&&) noexcept;
  ~FragmentTaker();

  /// \brief The rows at logical indices `rows` of the fragment, in the order given (repeats
  /// allowed); an index >= the fragment's live rows is InvalidArgument.
  Result<array::RecordBatchPtr> Take(std::span<const std::uint64_t> rows) const;

 private:
  FragmentTaker(std::shared_ptr<const internal::ScanPlan> plan,
                std::unique_ptr<internal::FragmentCursor> cursor);
  std::shared_ptr<const internal::ScanPlan> plan_;
  std::unique_ptr<internal::FragmentCursor> cursor_;
};

/// \brief The schema a scan with `o` returns (projection applied, "_rowid" / "_rowaddr" appended).
LANCE_ND_EXPORT Result<array::SchemaPtr> ScanSchema(const Dataset& ds,
                                                    const TableScanOptions& o = {});

/// \brief Every live row as one batch.
LANCE_ND_EXPORT Result<array::RecordBatchPtr> ReadTable(const Dataset& ds,
                                                        const TableScanOptions& o = {});

LANCE_ND_EXPORT Result<TableBatchReader> ScanTable(const Dataset& ds,
                                                   const TableScanOptions& o = {});

/// \brief Live rows of one fragment (deleted rows dropped), fields missing from its files as
/// nulls, as one batch.
LANCE_ND_EXPORT Result<array::RecordBatchPtr> ReadFragment(const Dataset& ds, const Fragment& f,
                                                           const TableScanOptions& o = {});

/// \brief Rows by logical index 0..CountRows()-1 in table order (deleted rows skipped), in the
/// order given (repeats allowed). An index >= CountRows() is InvalidArgument.
LANCE_ND_EXPORT Result<array::RecordBatchPtr> TakeRows(const Dataset& ds,
                                                       std::span<const std::uint64_t> rows,
                                                       const TableScanOptions& o = {});

}  // namespace lance_nd::table
