// StartWrite / StartAppend: what an NdWriter starts from and the column rules it applies.
#include <optional>
#include <string>
#include <utility>

#include "lance_nd/api/column_options.h"
#include "lance_nd/api/table.h"
#include "lance_nd/api/table_errors.h"
#include "lance_nd/api/writer_start.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/table/write.h"

namespace lance_nd::internal {
namespace {

Status CheckOptions(const WriteOptions& o) {
  if (o.max_rows_per_group == 0 || o.max_values_per_group == 0) {
    return Status::InvalidArgument(
        "max_rows_per_group and max_values_per_group must be at least 1 (got ",
        o.max_rows_per_group, " and ", o.max_values_per_group, ")");
  }
  if (o.write_parallelism == 0) {
    return Status::InvalidArgument("write_parallelism must be at least 1");
  }
  auto check = [](const ColumnOptions& c, const std::string& what) {
    if (c.rle_threshold && !(*c.rle_threshold >= 0.0 && *c.rle_threshold <= 1.0)) {
      return Status::InvalidArgument(what, ": rle_threshold is ", *c.rle_threshold,
                                     "; expected a number from 0 to 1");
    }
    return Status::OK();
  };
  if (o.column_defaults) LND_RETURN_NOT_OK(check(*o.column_defaults, "column_defaults"));
  for (const auto& [name, c] : o.column_options) {
    LND_RETURN_NOT_OK(check(c, "column_options['" + name + "']"));
  }
  return Status::OK();
}

// The schema metadata of a new table: the format marker, the stats marker when asked for, and
// the column defaults.
array::Metadata NewTableMetadata(const WriteOptions& o) {
  array::Metadata md;
  md.Set(std::string(nd::kFormatMetadataKey), std::string(nd::kFormatVersion));
  if (o.stats) md.Set(std::string(nd::kStatsMetadataKey), std::string(nd::kStatsMetadataValue));
  if (o.column_defaults) {
    const array::Metadata defaults = ColumnDefaultsMetadata(*o.column_defaults);
    for (const auto& [k, v] : defaults.entries()) md.Set(k, v);
  }
  return md;
}

WriterStart NewTable(const table::TableLocation& location, const WriteOptions& o,
                     std::optional<table::Dataset> replaced) {
  ColumnRules rules{o.stats, o.column_defaults, o.column_options};
  return WriterStart{location, std::move(replaced), /*replace=*/true,
                     WriteSchema::ForNewTable(NewTableMetadata(o), std::move(rules)),
                     table::WriteOptions{}};
}

}  // namespace

Result<WriterStart> StartAppend(const table::TableLocation& location, const WriteOptions& o) {
  LND_RETURN_NOT_OK(CheckOptions(o));
  LND_ASSIGN_OR_RETURN(table::Dataset ds, OpenDataset(location, std::nullopt));
  LND_ASSIGN_OR_RETURN(std::optional<ColumnOptions> stored,
                       StoredColumnDefaults(ds.schema()->metadata()));
  if (o.column_defaults && o.column_defaults != stored) {
    return Status::InvalidArgument(
        "column_defaults differ from the defaults stored in the table at ", location.root(),
        ": a table's encoding defaults are set when it is created; leave column_defaults unset "
        "(or equal to the stored ones) and use column_options for new columns");
  }
  ColumnRules rules{HasStats(*ds.schema()), stored, o.column_options};
  table::WriteOptions table_options;
  LND_ASSIGN_OR_RETURN(table_options.file_options.version, table::TableFileVersion(ds.manifest()));
  WriteSchema schema = WriteSchema::ForTable(ds, std::move(rules));
  return WriterStart{location, std::move(ds), /*replace=*/false, std::move(schema),
                     std::move(table_options)};
}

Result<WriterStart> StartWrite(const table::TableLocation& location, const WriteOptions& o) {
  LND_RETURN_NOT_OK(CheckOptions(o));
  LND_ASSIGN_OR_RETURN(bool exists, TableExistsAt(location));
  std::optional<table::Dataset> replaced;
  switch (o.mode) {
    case WriteMode::kCreate:
      if (exists) return TableExists(location);
      break;
    case WriteMode::kAppend:
      if (exists) return StartAppend(location, o);
      break;
    case WriteMode::kOverwrite:
      if (exists) {
        // lance-nd changes lance-nd tables only: the format is checked here too.
        LND_ASSIGN_OR_RETURN(replaced, OpenDataset(location, std::nullopt));
      }
      break;
  }
  return NewTable(location, o, std::move(replaced));
}

}  // namespace lance_nd::internal
