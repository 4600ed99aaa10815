#include "lance_nd/api/table_guard.h"

namespace lance_nd::api_internal {

Status CheckWritable(const Table& table, std::string_view operation) {
  if (table.writable()) return Status::OK();
  return Status::InvalidArgument(
      operation, ": this table is version ", table.version(),
      " opened read-only by Checkout; changes go to the latest version: open the table again "
      "(Table::Open) or Restore this version first on a table opened at the latest version");
}

}  // namespace lance_nd::api_internal
