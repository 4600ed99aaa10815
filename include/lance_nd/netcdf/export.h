// Export of lance-nd rows to a netCDF-4 file: chunk rows of a dataset are reassembled (each
// written at its chunk offset, one row at a time), the netCDF import conventions
// (docs/FORMAT.md §3.9) are undone. Part of the optional netcdf layer.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/nd/record_batch.h"

namespace lance_nd::netcdf {

/// \brief Which rows to export: the dataset `id` and its groups (`id/...`), or the rows a
/// filter selects. Exactly one of the two.
struct LANCE_ND_EXPORT ExportOptions {
  std::optional<std::string> id;
  std::optional<std::string> filter;
  /// Called after each table row is written, with the rows written and the rows selected;
  /// may be empty.
  std::function<void(std::uint64_t written, std::uint64_t total)> progress;
};

struct LANCE_ND_EXPORT ExportResult {
  std::uint64_t rows = 0;      // table rows read
  std::uint64_t datasets = 0;  // datasets (groups) written
};

/// \brief Write the selected rows of the table at `table_uri` to a new netCDF-4 file at
/// `path` (replacing a file there). Datasets become groups: with --id, `id` is the root and
/// `id/a/b` the group a/b; otherwise each dataset is the group named by its id (a single
/// dataset is the root). Missing chunks (fewer rows than `chunk_count`) and rows that do not
/// fit their dataset are errors. An error found before the file is created (no table, no rows
/// selected, missing chunks) leaves a file at `path` as it was; an error while writing removes
/// the new file and names it ("writing netCDF file PATH: ..."), with the system's reason when
/// the disk refused a write ("system error: No space left on device").
LANCE_ND_EXPORT Result<ExportResult> ExportNetcdf(std::string_view table_uri,
                                                  const std::string& path,
                                                  const ExportOptions& options);

/// \brief Write one dataset (whole arrays, no chunk offsets) as a new netCDF-4 file, undoing
/// the netCDF import conventions where its attributes carry them. On an error while writing
/// the file is removed.
LANCE_ND_EXPORT Status WriteNetcdf(const std::string& path, const nd::NdRecordBatch& dataset);

}  // namespace lance_nd::netcdf
