// Scanner::Take: chosen rows by logical index, only the projected columns read.
#include "lance_nd/api/scan_columns.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/table/scan.h"

namespace lance_nd {

namespace api_internal {

Result<std::vector<nd::NdRecordBatch>> TakeDecoded(const table::Dataset& dataset,
                                                   std::span<const std::uint64_t> rows,
                                                   std::vector<std::string> projection) {
  table::TableScanOptions options;
  options.projection = std::move(projection);
  // An empty projection would read every column.
  if (options.projection.empty()) options.projection.emplace_back(table::kRowAddressColumn);
  LND_ASSIGN_OR_RETURN(array::SchemaPtr schema, table::ScanSchema(dataset, options));
  LND_ASSIGN_OR_RETURN(nd::RowDecoder decoder, nd::RowDecoder::Make(WithoutRowAddress(schema)));
  std::vector<nd::NdRecordBatch> out;
  if (rows.empty()) return out;
  LND_ASSIGN_OR_RETURN(array::RecordBatchPtr taken, table::TakeRows(dataset, rows, options));
  const array::RecordBatchPtr batch = WithoutRowAddress(taken);
  LND_RETURN_NOT_OK(decoder.CheckBatch(*batch));
  out.reserve(rows.size());
  for (int64_t i = 0; i < batch->num_rows(); ++i) {
    LND_ASSIGN_OR_RETURN(nd::NdRecordBatch row, decoder.DecodeCheckedRow(*batch, i));
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace api_internal

Result<std::vector<nd::NdRecordBatch>> Scanner::Take(std::span<const std::uint64_t> rows) const {
  if (!filter_.empty() || !prune_.empty() || limit_) {
    return Status::InvalidArgument(
        "scan: Take reads the rows it is given; it does not combine with Filter, Prune or "
        "Limit (use a scan without them)");
  }
  LND_ASSIGN_OR_RETURN(std::vector<std::string> columns,
                       api_internal::OutputColumns(*dataset_.schema(), projection_));
  return api_internal::TakeDecoded(dataset_, rows, std::move(columns));
}

}  // namespace lance_nd
