// ReadDataset: every variable of a dataset reassembled from its chunk rows.
#include <deque>
#include <memory>
#include <utility>

#include "lance_nd/api/region.h"
#include "lance_nd/api/region_pieces.h"
#include "lance_nd/api/scanner.h"

namespace lance_nd {
namespace {

using api_internal::DatasetRow;
using api_internal::DatasetRows;

/// OK when chunks 0..count-1 are all there; InvalidArgument naming the missing ones.
Status CheckComplete(const DatasetRows& d) {
  std::string missing;
  std::uint64_t num_missing = 0;
  for (std::uint64_t i = 0; i < d.chunk_count; ++i) {
    if (d.Chunk(i) != nullptr) continue;
    if (++num_missing <= 10) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
  }
  if (num_missing == 0) return Status::OK();
  if (num_missing > 10) missing += ", ...";
  return Status::InvalidArgument(
      "dataset '", d.id, "' is incomplete: ", d.chunk_count - num_missing, " of ", d.chunk_count,
      " chunk rows found, chunk_index ", missing, " missing; expected chunk_index 0..",
      d.chunk_count - 1, " once each");
}

/// Chunk 0's global attributes without the chunk keys, `id` kept.
nd::Attributes DatasetAttributes(const DatasetRows& d) {
  const DatasetRow* first = d.chunked() ? d.Chunk(0) : &d.rows.front();
  nd::Attributes out = first->attributes;
  for (const auto& [key, value] : first->attributes.entries()) {
    if (IsChunkKey(key) && key != chunk_keys::kId) out.Remove(key);
  }
  return out;
}

/// Each variable's field (from the first row that has it) and pieces, in order of appearance.
Status CollectVariables(const DatasetRows& d, const std::vector<nd::NdRecordBatch>& rows,
                        std::vector<array::FieldPtr>& fields,
                        std::vector<api_internal::VariablePieces>& variables) {
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (int c = 0; c < rows[r].num_columns(); ++c) {
      const std::string& name = rows[r].column_name(c);
      std::size_t v = 0;
      while (v < fields.size() && fields[v]->name() != name) ++v;
      if (v == fields.size()) {
        fields.push_back(rows[r].schema()->field(c));
        variables.emplace_back();
      }
      LND_RETURN_NOT_OK(
          api_internal::AddPiece(d, d.rows[r], rows[r].column(c), name, variables[v]));
    }
  }
  return Status::OK();
}

}  // namespace

Result<nd::NdRecordBatch> ReadDataset(const Table& table, std::string_view id) {
  const std::string context = "reading dataset '" + std::string(id) + "'";
  LND_ASSIGN_OR_RETURN_CTX(std::shared_ptr<const DatasetRows> found,
                           api_internal::FindDataset(table, id), context);
  const DatasetRows& d = *found;
  if (d.chunked()) LND_RETURN_NOT_OK_CTX(CheckComplete(d), context);
  std::vector<std::uint64_t> row_ids;
  for (const DatasetRow& r : d.rows) row_ids.push_back(r.row);
  LND_ASSIGN_OR_RETURN_CTX(std::vector<nd::NdRecordBatch> rows, table.Scan().Take(row_ids),
                           context);
  std::vector<array::FieldPtr> fields;
  std::vector<api_internal::VariablePieces> variables;
  LND_RETURN_NOT_OK_CTX(CollectVariables(d, rows, fields, variables), context);
  std::vector<nd::NdArrowArray> columns;
  for (const api_internal::VariablePieces& v : variables) {
    std::vector<api_internal::DimRange> whole;
    for (std::uint64_t size : v.full_sizes) whole.push_back({0, size, false});
    LND_ASSIGN_OR_RETURN_CTX(nd::NdArrowArray column, api_internal::Assemble(v, whole), context);
    columns.push_back(std::move(column));
  }
  array::Metadata metadata = rows.empty() ? array::Metadata{} : rows.front().schema()->metadata();
  return nd::NdRecordBatch::MakeInferred(array::MakeSchema(std::move(fields), std::move(metadata)),
                                         std::move(columns), DatasetAttributes(d));
}

}  // namespace lance_nd
