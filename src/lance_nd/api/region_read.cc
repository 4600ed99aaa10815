// ReadRegion and ReadDataset: choose a dataset's rows from its global attributes, read only
// the variable asked for from the rows that overlap the region, and put the pieces together.
#include <algorithm>
#include <functional>
#include <map>
#include <utility>

#include "lance_nd/api/dataset_index.h"
#include "lance_nd/api/dataset_rows.h"
#include "lance_nd/api/region.h"
#include "lance_nd/api/region_pieces.h"
#include "lance_nd/api/region_selection.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/nd/encoded_schema.h"

namespace lance_nd {
namespace {

using api_internal::Assemble;
using api_internal::DatasetRow;
using api_internal::DatasetRows;
using api_internal::DimRange;
using api_internal::NameList;
using api_internal::ReadPieces;
using api_internal::VariablePieces;

/// The dimensions a selection may name, with their sizes, for ResolveSelection.
struct SelectableDims {
  std::string what;  // "dataset 'x'" or "variable 'v'", for messages
  std::vector<std::string> names;
  std::vector<std::uint64_t> sizes;
};

using CoordinateReader = std::function<Result<nd::NdArrowArray>(const std::string& dim)>;

/// One range per dimension of `dims`: whole where not selected.
Result<std::vector<DimRange>> ResolveSelection(const RegionSelection& selection,
                                               const SelectableDims& dims,
                                               const CoordinateReader& read_coordinate) {
  std::vector<DimRange> ranges;
  for (std::uint64_t size : dims.sizes) ranges.push_back({0, size, false});
  for (const auto& [dim, selector] : selection) {
    const auto it = std::find(dims.names.begin(), dims.names.end(), dim);
    if (it == dims.names.end()) {
      return Status::InvalidArgument(dims.what, " has no dimension '", dim,
                                     "' (its dimensions: ", NameList(dims.names),
                                     "); cannot select ", selector.ToString(), " there");
    }
    const auto k = static_cast<std::size_t>(it - dims.names.begin());
    if (!api_internal::IsValueSelector(selector)) {
      LND_ASSIGN_OR_RETURN(ranges[k],
                           api_internal::ResolveIndexSelector(selector, dim, dims.sizes[k]));
      continue;
    }
    LND_ASSIGN_OR_RETURN_CTX(nd::NdArrowArray coordinate, read_coordinate(dim),
                             "selecting '" + dim + "' by value");
    LND_ASSIGN_OR_RETURN(std::vector<std::optional<double>> numbers,
                         api_internal::CoordinateNumbers(coordinate, dim));
    LND_ASSIGN_OR_RETURN(ranges[k], api_internal::ResolveValueSelector(selector, dim, numbers));
  }
  return ranges;
}

Status CheckVariable(const Table& table, std::string_view variable) {
  // The cheap test first: Variables() parses every field's metadata.
  const int i = table.schema()->FieldIndex(variable);
  if (i >= 0 && nd::IsNdField(*table.schema()->field(i))) return Status::OK();
  std::vector<std::string> names;
  for (const auto& f : table.Variables()) {
    if (f->name() == variable) return Status::OK();
    names.push_back(f->name());
  }
  return Status::NotFound("the table has no variable '", variable,
                          "' (its variables: ", NameList(names), ")");
}

Result<nd::NdArrowArray> ReadRegionOf(const Table& table, const DatasetRows& d,
                                      const std::string& variable, const RegionSelection& selection,
                                      RegionReadStats& stats);

/// The whole of `dim`'s coordinate variable, for value selectors.
CoordinateReader CoordinatesOf(const Table& table, const DatasetRows& d, RegionReadStats& stats) {
  return [&table, &d, &stats](const std::string& dim) -> Result<nd::NdArrowArray> {
    if (!CheckVariable(table, dim).ok()) {
      return Status::InvalidArgument("dataset '", d.id, "' has no coordinate variable '", dim,
                                     "'; select this dimension by index instead");
    }
    return ReadRegionOf(table, d, dim, {}, stats);
  };
}

/// A plain dataset: one row, its variable is the whole.
Result<nd::NdArrowArray> ReadPlainRegion(const Table& table, const DatasetRows& d,
                                         const std::string& variable,
                                         const RegionSelection& selection, RegionReadStats& stats) {
  api_internal::PieceStore store;
  VariablePieces v;
  LND_RETURN_NOT_OK(ReadPieces(table, d, variable, {d.rows.front().row}, stats, store, v));
  if (v.pieces.empty()) {
    return Status::NotFound("dataset '", d.id, "' (row ", d.rows.front().row, ") has no variable '",
                            variable, "'");
  }
  const SelectableDims dims{"variable '" + variable + "'", v.dim_names, v.full_sizes};
  LND_ASSIGN_OR_RETURN(std::vector<DimRange> ranges,
                       ResolveSelection(selection, dims, CoordinatesOf(table, d, stats)));
  return Assemble(v, ranges);
}

/// The rows to read `variable` from: chosen by its dimensions, which chunk 0 tells without
/// its values; by every layout dimension when chunk 0 does not have it.
Result<std::vector<std::uint64_t>> RowsToRead(const Table& table, const DatasetRows& d,
                                              const std::string& variable,
                                              const std::vector<std::uint64_t>& lo,
                                              const std::vector<std::uint64_t>& hi) {
  const DatasetRow* chunk0 = d.Chunk(0);
  std::optional<std::vector<std::string>> dims;
  if (chunk0 != nullptr) {
    LND_ASSIGN_OR_RETURN(std::shared_ptr<const api_internal::DatasetIndex> index,
                         api_internal::IndexOf(table));
    LND_ASSIGN_OR_RETURN(dims, index->VariableDims(d.id, variable, [&]() {
      return api_internal::ReadDimensionNames(table, chunk0->row, variable);
    }));
  }
  if (!dims) return api_internal::OverlappingRows(d, lo, hi);
  std::vector<std::size_t> var_dims;
  for (const std::string& name : *dims) {
    const int k = d.layout->DimIndex(name);
    if (k < 0) return api_internal::OverlappingRows(d, lo, hi);  // AddPiece reports it
    var_dims.push_back(static_cast<std::size_t>(k));
  }
  return api_internal::RowsHolding(d, var_dims, lo, hi);
}

Result<nd::NdArrowArray> ReadChunkedRegion(const Table& table, const DatasetRows& d,
                                           const std::string& variable,
                                           const RegionSelection& selection,
                                           RegionReadStats& stats) {
  const SelectableDims layout_dims{"dataset '" + d.id + "'", d.layout->dim_names,
                                   d.layout->dim_sizes};
  LND_ASSIGN_OR_RETURN(std::vector<DimRange> layout_ranges,
                       ResolveSelection(selection, layout_dims, CoordinatesOf(table, d, stats)));
  std::vector<std::uint64_t> lo, hi;
  for (const DimRange& r : layout_ranges) {
    lo.push_back(r.start);
    hi.push_back(r.stop);
  }
  LND_ASSIGN_OR_RETURN(std::vector<std::uint64_t> rows, RowsToRead(table, d, variable, lo, hi));
  api_internal::PieceStore store;
  VariablePieces v;
  LND_RETURN_NOT_OK(ReadPieces(table, d, variable, rows, stats, store, v));
  // A variable without a split dimension is only in chunk 0 (docs/FORMAT.md §3.6).
  const DatasetRow* chunk0 = d.Chunk(0);
  if (v.pieces.empty() && chunk0 != nullptr &&
      std::find(rows.begin(), rows.end(), chunk0->row) == rows.end()) {
    LND_RETURN_NOT_OK(ReadPieces(table, d, variable, {chunk0->row}, stats, store, v));
  }
  if (v.pieces.empty()) {
    return Status::NotFound("dataset '", d.id, "' has no variable '", variable, "'");
  }
  std::vector<DimRange> ranges;
  for (const std::string& name : v.dim_names) {
    ranges.push_back(layout_ranges[static_cast<std::size_t>(d.layout->DimIndex(name))]);
  }
  for (const auto& [dim, selector] : selection) {
    if (std::find(v.dim_names.begin(), v.dim_names.end(), dim) == v.dim_names.end()) {
      return Status::InvalidArgument("variable '", variable, "' has no dimension '", dim,
                                     "' (its dimensions: ", NameList(v.dim_names),
                                     "); cannot select ", selector.ToString(), " there");
    }
  }
  return Assemble(v, ranges);
}

Result<nd::NdArrowArray> ReadRegionOf(const Table& table, const DatasetRows& d,
                                      const std::string& variable, const RegionSelection& selection,
                                      RegionReadStats& stats) {
  return d.chunked() ? ReadChunkedRegion(table, d, variable, selection, stats)
                     : ReadPlainRegion(table, d, variable, selection, stats);
}

}  // namespace

Result<nd::NdArrowArray> ReadRegion(const Table& table, std::string_view id,
                                    std::string_view variable, const RegionSelection& selection,
                                    RegionReadStats* stats) {
  RegionReadStats local;
  RegionReadStats& s = stats != nullptr ? *stats : local;
  s = {};
  const std::string context =
      "reading '" + std::string(variable) + "' of dataset '" + std::string(id) + "'";
  LND_RETURN_NOT_OK_CTX(api_internal::CheckSelectionNames(selection), context);
  LND_RETURN_NOT_OK_CTX(CheckVariable(table, variable), context);
  LND_ASSIGN_OR_RETURN_CTX(std::shared_ptr<const DatasetRows> found,
                           api_internal::FindDataset(table, id), context);
  const DatasetRows& d = *found;
  s.table_rows = d.table_rows;
  s.dataset_rows = d.rows.size();
  LND_ASSIGN_OR_RETURN_CTX(nd::NdArrowArray out,
                           ReadRegionOf(table, d, std::string(variable), selection, s), context);
  return out;
}

}  // namespace lance_nd
