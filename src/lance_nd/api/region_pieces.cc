// A variable's pieces: read, checked, assembled.
#include "lance_nd/api/region_pieces.h"

#include <algorithm>
#include <utility>

#include "lance_nd/api/dataset_index.h"
#include "lance_nd/api/decoded_rows.h"
#include "lance_nd/api/scan_columns.h"
#include "lance_nd/array/field_path.h"
#include "lance_nd/array/view.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/table/scan.h"

namespace lance_nd::api_internal {

std::string NameList(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return "[" + out + "]";
}

// Whether `dims` names the axes `names`, in order.
bool SameNames(const nd::Dimensions& dims, const std::vector<std::string>& names) {
  if (dims.rank() != names.size()) return false;
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (dims[k].name != names[k]) return false;
  }
  return true;
}

Status AddPiece(const DatasetRows& d, const DatasetRow& row, const nd::NdArrowArray& array,
                std::string_view variable, VariablePieces& out) {
  // Called once per chunk row of a region (thousands for a coordinate along a chunked
  // dimension): the checks allocate only for the first piece or for a message.
  const nd::Dimensions& dims = array.dimensions();
  const bool first = out.pieces.empty();
  if (first) {
    out.dim_names = dims.names();
    out.full_sizes = dims.sizes();
  } else if (!SameNames(dims, out.dim_names)) {
    return Status::Corrupt("dataset '", d.id, "': variable '", variable, "' has dimensions ",
                           NameList(dims.names()), " in row ", row.row, " but ",
                           NameList(out.dim_names),
                           " in another; expected the same in every chunk row");
  }
  RegionPiece piece{&array, std::vector<std::uint64_t>(dims.rank(), 0)};
  for (std::size_t k = 0; d.chunked() && k < dims.rank(); ++k) {
    const int dim = d.layout->DimIndex(dims[k].name);
    if (dim < 0) {
      return Status::Corrupt("dataset '", d.id, "' row ", row.row, ": variable '", variable,
                             "' has dimension '", dims[k].name, "', which is not among its ",
                             chunk_keys::kDims, " ", NameList(d.layout->dim_names));
    }
    const auto g = static_cast<std::size_t>(dim);
    piece.offset[k] = row.position->offset[g];
    const std::uint64_t full = d.layout->dim_sizes[g];
    if (piece.offset[k] + dims[k].size > full) {
      return Status::Corrupt("dataset '", d.id, "' row ", row.row, ": variable '", variable,
                             "' covers indices ", piece.offset[k], "..",
                             piece.offset[k] + dims[k].size, " of dimension '", dims[k].name,
                             "', beyond its size ", full, " in ", chunk_keys::kShape);
    }
    if (first) out.full_sizes[k] = full;
  }
  out.pieces.push_back(std::move(piece));
  return Status::OK();
}

Result<std::optional<std::vector<std::string>>> ReadDimensionNames(const Table& table,
                                                                   std::uint64_t row,
                                                                   const std::string& variable) {
  table::TableScanOptions options;
  options.projection = {array::JoinFieldPath({variable, std::string(nd::kDimNamesField)})};
  const std::uint64_t rows[] = {row};
  LND_ASSIGN_OR_RETURN(array::RecordBatchPtr batch,
                       table::TakeRows(table.dataset(), rows, options));
  const array::ArrayData& column = *batch->column(0);
  std::optional<std::vector<std::string>> out;
  if (column.IsNull(0) || column.type->id() != array::TypeId::kStruct) return out;
  const auto& fields = column.type->children();
  for (std::size_t c = 0; c < fields.size(); ++c) {
    if (fields[c]->name() != nd::kDimNamesField) continue;
    // Struct children share the struct's offset (array_data.h).
    const array::ListView names(*column.children[c]);
    const array::BinaryView items(*names.values());
    const int64_t slot = column.offset;
    if (names.IsNull(slot)) return out;
    out.emplace();
    for (int64_t i = 0; i < names.ValueLength(slot); ++i) {
      out->emplace_back(items.Value(names.ValueOffset(slot) + i));
    }
  }
  return out;
}

Status ReadPieces(const Table& table, const DatasetRows& d, const std::string& variable,
                  const std::vector<std::uint64_t>& rows, RegionReadStats& stats, PieceStore& store,
                  VariablePieces& out) {
  if (rows.empty()) return Status::OK();
  LND_ASSIGN_OR_RETURN(std::shared_ptr<const DatasetIndex> index, IndexOf(table));
  std::vector<DecodedRow> found(rows.size());
  std::vector<std::uint64_t> missing;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    found[i] = FindDecoded(index, rows[i], variable);
    if (!found[i]) missing.push_back(rows[i]);
  }
  if (!missing.empty()) {
    // Only the variable: its rows' global attributes are in the dataset index already.
    LND_ASSIGN_OR_RETURN(std::vector<nd::NdRecordBatch> taken,
                         TakeDecoded(table.dataset(), missing, {variable}));
    for (std::size_t i = 0, k = 0; i < rows.size(); ++i) {
      if (found[i]) continue;
      found[i] = std::make_shared<const nd::NdRecordBatch>(std::move(taken[k++]));
      KeepDecoded(index, rows[i], variable, found[i]);
    }
  }
  stats.rows_read += rows.size();
  stats.rows_decoded += missing.size();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    store.push_back(std::move(found[i]));
    const nd::NdArrowArray* array = store.back()->GetColumn(variable);
    if (array == nullptr) continue;
    // The dataset's rows are in table order.
    const auto it =
        std::lower_bound(d.rows.begin(), d.rows.end(), rows[i],
                         [](const DatasetRow& r, std::uint64_t row) { return r.row < row; });
    if (it == d.rows.end() || it->row != rows[i]) {
      return Status::Internal("row ", rows[i], " is not a row of dataset '", d.id, "'");
    }
    LND_RETURN_NOT_OK(AddPiece(d, *it, *array, variable, out));
  }
  return Status::OK();
}

Result<nd::NdArrowArray> Assemble(const VariablePieces& v, const std::vector<DimRange>& ranges) {
  const nd::NdArrowArray& first = *v.pieces.front().array;
  LND_ASSIGN_OR_RETURN(array::ArrayPtr values,
                       AssembleRegion(first.value_type(), v.pieces, ranges));
  std::vector<nd::Dimension> dims;
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    if (!ranges[k].drop) dims.push_back({v.dim_names[k], ranges[k].size()});
  }
  LND_ASSIGN_OR_RETURN(nd::Dimensions dimensions, nd::Dimensions::Make(std::move(dims)));
  return nd::NdArrowArray::Make(std::move(values), std::move(dimensions), first.attributes());
}

}  // namespace lance_nd::api_internal
