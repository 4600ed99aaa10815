// ReadRowLayout: a row's arrays described from their dimension and attribute columns alone.
#include <string>

#include "lance_nd/api/region.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/table/scan.h"

namespace lance_nd {

Result<nd::NdRowLayout> ReadRowLayout(const Table& table, std::uint64_t row) {
  const std::string context = "reading the layout of row " + std::to_string(row);
  LND_ASSIGN_OR_RETURN_CTX(nd::RowDecoder decoder, nd::RowDecoder::Make(table.schema()), context);
  table::TableScanOptions options;
  options.projection = decoder.LayoutProjection();
  // An empty projection would read every column.
  if (options.projection.empty()) options.projection.emplace_back(table::kRowAddressColumn);
  const std::uint64_t rows[] = {row};
  LND_ASSIGN_OR_RETURN_CTX(array::RecordBatchPtr batch,
                           table::TakeRows(table.dataset(), rows, options), context);
  LND_ASSIGN_OR_RETURN_CTX(nd::NdRowLayout layout, decoder.DecodeRowLayout(*batch, 0), context);
  return layout;
}

}  // namespace lance_nd
