// Table::Write and Table::Append: one NdWriter used once.
#include "lance_nd/api/nd_writer.h"
#include "lance_nd/api/table.h"

namespace lance_nd {

Result<Table> Table::Write(std::string_view uri, std::span<const nd::NdRecordBatch> rows,
                           const WriteOptions& options) {
  return Write(ResolveLocation(uri, options.file_system), rows, options);
}

Result<Table> Table::Write(const table::TableLocation& location,
                           std::span<const nd::NdRecordBatch> rows, const WriteOptions& options) {
  LND_ASSIGN_OR_RETURN(NdWriter writer, NdWriter::Create(location, options));
  LND_RETURN_NOT_OK(writer.Write(rows));
  return writer.Finish();
}

Status Table::Append(std::span<const nd::NdRecordBatch> rows, const WriteOptions& options) {
  if (!writable_) {
    return Status::InvalidArgument("version ", version(), " of the table at ", location().root(),
                                   " was checked out read-only; append to the latest version");
  }
  LND_ASSIGN_OR_RETURN(NdWriter writer, NdWriter::Append(location(), options));
  LND_RETURN_NOT_OK(writer.Write(rows));
  LND_ASSIGN_OR_RETURN(Table appended, writer.Finish());
  *this = std::move(appended);
  return Status::OK();
}

}  // namespace lance_nd
