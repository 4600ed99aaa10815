// Writing tables: data files for new fragments, and create / append / overwrite commits.
// table_writer.h streams batches into one commit; WriteTable is its one-call form.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>
#include "lance_nd/export.h"

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/file/writer_options.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/commit.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/manifest.h"

namespace lance_nd::table {

enum class WriteMode : std::uint8_t {
  kCreate,     // new table (AlreadyExists when one is there)
  kAppend,     // add rows to an existing table (same schema)
  kOverwrite,  // replace all rows (and the schema) of a table; creates it when missing
};

struct LANCE_ND_EXPORT WriteOptions {
  WriteMode mode = WriteMode::kCreate;
  std::int64_t max_rows_per_file = 1024 * 1024;  // Lance's default
  std::int64_t max_bytes_per_file = 90LL << 30;  // Lance's default
  /// Data files finished (last pages, footer, fsync) on the worker pool at once while the
  /// caller writes the next one; more wait for the oldest. 0 = finish each on the caller's
  /// thread. The files' bytes do not depend on it.
  std::size_t files_in_flight = 2;
  /// Version 2.2 by default. The version is used when a table is created or overwritten;
  /// appends write the table's version (TableFileVersion), as Lance does: Lance 12 refuses
  /// tables whose data files mix versions.
  file::WriterOptions file_options;
  CommitOptions commit;
  /// Create the table with stable row ids (feature flag 2, Lance's
  /// `new_table_enable_stable_row_ids` / `enable_stable_row_ids`): rows get ids 0, 1, ... that
  /// survive compaction. Only used when a table is created (kCreate, or kOverwrite where there
  /// is none); an existing table keeps its setting (appends to a table with stable row ids
  /// always assign them). The created table must have at least one row (NotImplemented).
  bool enable_stable_row_ids = false;
};

/// \brief Write data files for new fragments under the table's `data/<name>.lance`
/// (Lance-style names: 24 binary digits + 26 hex digits of a random UUID), one fragment per
/// file, files rolled at max_rows_per_file / max_bytes_per_file (checked between batch
/// slices). Fragment ids are left 0 (assigned at commit); DataFile.fields are the leaf field
/// ids of `fields`, column_indices 0..n-1, file_size_bytes exact. Files are synced before
/// returning. NOT committed. Batches must match `fields` (SchemaMismatch naming the field
/// otherwise, before any file is written); after a write error the files written are removed.
LANCE_ND_EXPORT Result<std::vector<Fragment>> WriteFragments(
    const TableLocation& location, const std::vector<LanceField>& fields,
    std::span<const array::RecordBatchPtr> batches, const WriteOptions& options);

/// \brief Create / append / overwrite with `batches`, one TableWriter (table_writer.h) used
/// once. Create: an Overwrite transaction with read_version 0 (AlreadyExists when a table is
/// there: use kAppend or kOverwrite). Append: an Append on the latest version; the batches must
/// have the table's schema (SchemaMismatch naming the field and both types; evolution.h adds
/// columns); no batches at all commit nothing and return the latest version. Overwrite: an
/// Overwrite on the latest version (a create when there is no table). At least one batch is
/// needed for create / overwrite (the schema comes from it); a zero-row batch creates an empty
/// table.
LANCE_ND_EXPORT Result<Dataset> WriteTable(const TableLocation& location,
                                           std::span<const array::RecordBatchPtr> batches,
                                           const WriteOptions& options = {});

/// \brief The version of the data files of a table with manifest `m` (its data format,
/// "2.1" or "2.2"): the version every new data file of the table must have. NotImplemented
/// for other data formats (lance-nd writes 2.1 and 2.2 files only).
LANCE_ND_EXPORT Result<file::FileVersion> TableFileVersion(const Manifest& m);

/// \brief Fields with fresh ids (pre-order, 0..n-1) for a new table's Arrow schema, logical
/// types as Lance writes them. NotImplemented for types the table layer cannot store.
LANCE_ND_EXPORT Result<std::vector<LanceField>> FieldsFromSchema(const array::Schema& schema);

}  // namespace lance_nd::table
