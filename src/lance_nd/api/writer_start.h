// What an NdWriter starts from: a new table, a replaced one, or the latest version of an
// existing one, with the column rules and file options the write uses.
#pragma once

#include <optional>

#include "lance_nd/api/options.h"
#include "lance_nd/api/write_schema.h"
#include "lance_nd/core/result.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/write.h"

namespace lance_nd::internal {

struct WriterStart {
  table::TableLocation location;
  std::optional<table::Dataset> base;  // the latest version now (nullopt: no table)
  bool replace = false;                // commit an Overwrite (create / overwrite)
  WriteSchema schema;
  table::WriteOptions table_options;
};

/// \brief options.mode decides: kCreate (TableExists when a table is there), kOverwrite
/// (replaced at commit), kAppend (StartAppend when a table is there, else a new table).
Result<WriterStart> StartWrite(const table::TableLocation& location, const WriteOptions& options);
/// \brief An append to the latest version: TableNotFound / InvalidTable as Table::Open;
/// InvalidArgument when options.column_defaults differ from the stored ones.
Result<WriterStart> StartAppend(const table::TableLocation& location, const WriteOptions& options);

}  // namespace lance_nd::internal
