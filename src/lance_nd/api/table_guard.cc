#include "lance_nd/api/table_guard.h"

#include <string>

#include "lance_nd/nd/format.h"

namespace lance_nd::api_internal {

Status CheckWritable(const Table& table, std::string_view operation) {
  if (table.writable()) return Status::OK();
  return Status::InvalidArgument(
      operation, ": this table is version ", table.version(),
      " opened read-only by Checkout; changes go to the latest version: open the table again "
      "(Table::Open) or Restore this version first on a table opened at the latest version");
}

Status CheckNdFormat(const array::Schema& schema, std::string_view what) {
  const std::optional<std::string_view> found = schema.metadata().Get(nd::kFormatMetadataKey);
  if (found && *found == nd::kFormatVersion) return Status::OK();
  return Status::InvalidTable(
      what, " is not a lance-nd table of format ", nd::kFormatVersion, ": its schema metadata ",
      found ? "has " + std::string(nd::kFormatMetadataKey) + " = '" + std::string(*found) + "'"
            : "lacks the key " + std::string(nd::kFormatMetadataKey),
      " but '", nd::kFormatVersion,
      "' is expected; open it with a lance-nd release that reads that format");
}

}  // namespace lance_nd::api_internal
