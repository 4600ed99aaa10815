// ReadRowLayout(s): rows' arrays described from their dimension and attribute columns alone.
#include <string>

#include "lance_nd/api/region.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/table/scan.h"

namespace lance_nd {

Result<std::vector<nd::NdRowLayout>> ReadRowLayouts(const Table& table,
                                                    std::span<const std::uint64_t> rows) {
  LND_ASSIGN_OR_RETURN(nd::RowDecoder decoder, nd::RowDecoder::Make(table.schema()));
  std::vector<nd::NdRowLayout> out;
  if (rows.empty()) return out;
  table::TableScanOptions options;
  options.projection = decoder.LayoutProjection();
  // An empty projection would read every column.
  if (options.projection.empty()) options.projection.emplace_back(table::kRowAddressColumn);
  LND_ASSIGN_OR_RETURN(array::RecordBatchPtr batch,
                       table::TakeRows(table.dataset(), rows, options));
  out.reserve(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    LND_ASSIGN_OR_RETURN_CTX(nd::NdRowLayout layout,
                             decoder.DecodeRowLayout(*batch, static_cast<int64_t>(i)),
                             "row " + std::to_string(rows[i]));
    out.push_back(std::move(layout));
  }
  return out;
}

Result<nd::NdRowLayout> ReadRowLayout(const Table& table, std::uint64_t row) {
  const std::uint64_t rows[] = {row};
  LND_ASSIGN_OR_RETURN_CTX(std::vector<nd::NdRowLayout> layouts, ReadRowLayouts(table, rows),
                           "reading the layout of row " + std::to_string(row));
  return std::move(layouts.front());
}

}  // namespace lance_nd
