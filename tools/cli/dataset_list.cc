#include "dataset_list.h"

#include <map>
#include <utility>

#include "lance_nd/api/chunking.h"
#include "lance_nd/api/region.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/nd/format.h"
#include "term_values.h"

namespace lance_nd::cli {
namespace {

/// A dataset being gathered, and the row its variables are read from.
struct Group {
  DatasetSummary summary;
  std::optional<std::uint64_t> row_read;
  bool row_read_is_chunk0 = false;
};

nd::Attributes WithoutChunkKeys(nd::Attributes attributes) {
  std::vector<std::string> keys;
  for (const auto& entry : attributes.entries()) {
    if (IsChunkKey(entry.first)) keys.push_back(entry.first);
  }
  for (const auto& key : keys) attributes.Remove(key);
  return attributes;
}

void NoteRow(Group& g, std::uint64_t row, const nd::Attributes& attributes,
             const std::optional<ChunkAttributes>& chunk) {
  ++g.summary.rows;
  if (chunk && !g.summary.chunked) {
    g.summary.chunked = true;
    g.summary.chunk_count = chunk->position.count;
    g.summary.dim_names = chunk->layout.dim_names;
    g.summary.dim_sizes = chunk->layout.dim_sizes;
    g.summary.unlimited_dims = chunk->layout.unlimited_dims;
  }
  const bool chunk0 = chunk && chunk->position.index == 0;
  if (!g.row_read || (chunk0 && !g.row_read_is_chunk0)) {
    g.row_read = row;
    g.row_read_is_chunk0 = chunk0;
    g.summary.global_attributes = WithoutChunkKeys(attributes);
  }
}

/// Every row's global attributes, grouped by id (rows without one are groups of their own).
Result<std::vector<Group>> GroupRows(const Table& table) {
  LND_ASSIGN_OR_RETURN(NdBatchReader reader, table.Scan().Project({}).Open());
  std::vector<Group> groups;
  std::map<std::string, std::size_t, std::less<>> by_id;
  for (std::uint64_t row = 0;; ++row) {
    LND_ASSIGN_OR_RETURN(std::optional<nd::NdRecordBatch> batch, reader.Next());
    if (!batch) break;
    const nd::Attributes& attributes = batch->attributes();
    auto chunk = ReadChunkAttributes(attributes);
    if (!chunk.ok()) return chunk.status().WithContext("row ", row);
    const std::optional<std::string> id = attributes.GetString(chunk_keys::kId);
    std::size_t index = groups.size();
    if (id) index = by_id.try_emplace(*id, groups.size()).first->second;
    if (index == groups.size()) {
      groups.emplace_back();
      groups.back().summary.id = id;
      groups.back().summary.first_row = row;
    }
    NoteRow(groups[index], row, attributes, *chunk);
  }
  return groups;
}

/// Full sizes for a chunked dataset: the layout's size of each dimension the variable uses.
void UseDatasetSizes(const DatasetSummary& d, VariableSummary& v) {
  for (std::size_t i = 0; i < v.dim_names.size() && i < v.dim_sizes.size(); ++i) {
    for (std::size_t k = 0; k < d.dim_names.size() && k < d.dim_sizes.size(); ++k) {
      if (d.dim_names[k] == v.dim_names[i]) v.dim_sizes[i] = d.dim_sizes[k];
    }
  }
}

/// The dimensions of a dataset without chunk keys: those of its variables, first seen first.
void DimsFromVariables(DatasetSummary& d) {
  for (const VariableSummary& v : d.variables) {
    for (std::size_t i = 0; i < v.dim_names.size(); ++i) {
      bool known = false;
      for (const auto& name : d.dim_names) known = known || name == v.dim_names[i];
      if (known) continue;
      d.dim_names.push_back(v.dim_names[i]);
      d.dim_sizes.push_back(i < v.dim_sizes.size() ? v.dim_sizes[i] : 0);
    }
  }
}

Status ReadVariables(const Table& table, std::vector<Group>& groups) {
  if (groups.empty()) return Status::OK();
  std::vector<std::uint64_t> rows;
  rows.reserve(groups.size());
  for (const Group& g : groups) rows.push_back(*g.row_read);
  LND_ASSIGN_OR_RETURN(std::vector<nd::NdRowLayout> layouts, ReadRowLayouts(table, rows));
  for (std::size_t i = 0; i < groups.size(); ++i) {
    DatasetSummary& d = groups[i].summary;
    for (nd::NdArrayLayout& a : layouts[i].arrays) {
      VariableSummary v{std::move(a.name), DtypeText(*a.value_type), a.dimensions.names(),
                        a.dimensions.sizes(), std::move(a.attributes)};
      if (d.chunked) UseDatasetSizes(d, v);
      d.variables.push_back(std::move(v));
    }
    if (!d.chunked) DimsFromVariables(d);
  }
  return Status::OK();
}

}  // namespace

Result<std::vector<DatasetSummary>> ListDatasets(const Table& table) {
  LND_ASSIGN_OR_RETURN(std::vector<Group> groups, GroupRows(table));
  LND_RETURN_NOT_OK(ReadVariables(table, groups));
  std::vector<DatasetSummary> out;
  out.reserve(groups.size());
  for (Group& g : groups) out.push_back(std::move(g.summary));
  return out;
}

}  // namespace lance_nd::cli
