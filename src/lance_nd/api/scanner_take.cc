// Scanner::Take: chosen rows by logical index, only the projected columns read.
#include "lance_nd/api/scan_columns.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/table/scan.h"

namespace lance_nd {

Result<std::vector<nd::NdRecordBatch>> Scanner::Take(std::span<const std::uint64_t> rows) const {
  if (!filter_.empty() || !prune_.empty() || limit_) {
    return Status::InvalidArgument(
        "scan: Take reads the rows it is given; it does not combine with Filter, Prune or "
        "Limit (use a scan without them)");
  }
  table::TableScanOptions options;
  LND_ASSIGN_OR_RETURN(options.projection,
                       api_internal::OutputColumns(*dataset_.schema(), projection_));
  // An empty projection would read every column.
  if (options.projection.empty()) options.projection.emplace_back(table::kRowAddressColumn);
  LND_ASSIGN_OR_RETURN(array::SchemaPtr schema, table::ScanSchema(dataset_, options));
  LND_ASSIGN_OR_RETURN(nd::RowDecoder decoder,
                       nd::RowDecoder::Make(api_internal::WithoutRowAddress(schema)));
  std::vector<nd::NdRecordBatch> out;
  if (rows.empty()) return out;
  LND_ASSIGN_OR_RETURN(array::RecordBatchPtr taken, table::TakeRows(dataset_, rows, options));
  const array::RecordBatchPtr batch = api_internal::WithoutRowAddress(taken);
  LND_RETURN_NOT_OK(decoder.CheckBatch(*batch));
  out.reserve(rows.size());
  for (int64_t i = 0; i < batch->num_rows(); ++i) {
    LND_ASSIGN_OR_RETURN(nd::NdRecordBatch row, decoder.DecodeCheckedRow(*batch, i));
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace lance_nd
