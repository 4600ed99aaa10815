// A variable's pieces in a dataset's chunk rows: reading them, checking them against the
// layout, and assembling a region from them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/api/dataset_rows.h"
#include "lance_nd/api/region.h"
#include "lance_nd/api/region_assemble.h"
#include "lance_nd/nd/record_batch.h"

namespace lance_nd::api_internal {

/// \brief "[a, b]".
std::string NameList(const std::vector<std::string>& names);

/// \brief One variable's pieces (pointing into rows the caller keeps), its dimension names
/// and the whole variable's size along each.
struct VariablePieces {
  std::vector<RegionPiece> pieces;
  std::vector<std::string> dim_names;
  std::vector<std::uint64_t> full_sizes;
};

/// \brief Add `array`, the variable in dataset row `row`, as a piece. Corrupt when its
/// dimensions differ from the pieces before it, are not layout dimensions, or reach beyond
/// the dataset's shape.
Status AddPiece(const DatasetRows& d, const DatasetRow& row, const nd::NdArrowArray& array,
                std::string_view variable, VariablePieces& out);

/// \brief The dimension names of `variable` in table row `row`, reading only its `dim_names`
/// (no values); nullopt when the row does not have the variable.
Result<std::optional<std::vector<std::string>>> ReadDimensionNames(const Table& table,
                                                                   std::uint64_t row,
                                                                   const std::string& variable);

/// \brief The rows that pieces point into.
using PieceStore = std::vector<std::shared_ptr<const nd::NdRecordBatch>>;

/// \brief `variable` alone of the table rows `rows` (of `d`) into `store`, adding the pieces
/// found: decoded rows kept from earlier reads of this version, the others taken (and kept).
/// Counts the rows in `stats.rows_read`, those taken in `stats.rows_decoded`.
Status ReadPieces(const Table& table, const DatasetRows& d, const std::string& variable,
                  const std::vector<std::uint64_t>& rows, RegionReadStats& stats, PieceStore& store,
                  VariablePieces& out);

/// \brief The region `ranges` (one per dimension of the variable) as an nd array: dimensions
/// selected by one index dropped, attributes of the first piece. `out` has a piece.
Result<nd::NdArrowArray> Assemble(const VariablePieces& v, const std::vector<DimRange>& ranges);

}  // namespace lance_nd::api_internal
