// Finding a dataset's rows from the global-attributes column, and listing the datasets.
#include "lance_nd/api/dataset_rows.h"

#include <algorithm>
#include <map>
#include <utility>

#include "lance_nd/api/dataset_index.h"
#include "lance_nd/api/region.h"
#include "lance_nd/api/scanner.h"

namespace lance_nd::api_internal {
namespace {

std::string LayoutText(const DatasetLayout& layout) {
  std::string out = "[";
  for (std::size_t d = 0; d < layout.dim_names.size(); ++d) {
    if (d > 0) out += ", ";
    out += layout.dim_names[d] + "=" + std::to_string(layout.dim_sizes[d]);
  }
  return out + "]";
}

/// The ids of the table, at most 10 of them, for a NotFound message.
std::string IdList(const std::vector<GlobalRow>& rows) {
  std::vector<std::string> ids;
  for (const GlobalRow& r : rows) {
    std::optional<std::string> id = r.attributes.GetString(chunk_keys::kId);
    if (id && std::find(ids.begin(), ids.end(), *id) == ids.end()) ids.push_back(*id);
  }
  if (ids.empty()) return "no row has an id";
  const std::size_t shown = std::min<std::size_t>(ids.size(), 10);
  std::string out = "the ids are ";
  for (std::size_t i = 0; i < shown; ++i) out += (i ? ", '" : "'") + ids[i] + "'";
  if (shown < ids.size()) out += ", ... (" + std::to_string(ids.size()) + " in all)";
  return out;
}

/// The chunk size along each dimension: the smallest positive offset, else the full size.
std::vector<std::uint64_t> ChunkSizes(const DatasetRows& d) {
  const DatasetLayout& layout = *d.layout;
  std::vector<std::uint64_t> sizes = layout.dim_sizes;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    for (const DatasetRow& r : d.rows) {
      const std::uint64_t o = r.position->offset[k];
      if (o > 0 && o < sizes[k]) sizes[k] = o;
    }
    sizes[k] = std::max<std::uint64_t>(sizes[k], 1);
  }
  return sizes;
}

/// Add chunk row `row` to `d`, checking it agrees with the rows before it.
Status AddChunkRow(DatasetRows& d, const GlobalRow& row, ChunkAttributes chunk) {
  if (!d.layout) {
    d.layout = std::move(chunk.layout);
    d.chunk_count = chunk.position.count;
  } else if (!(*d.layout == chunk.layout)) {
    return Status::InvalidArgument("the chunk rows of dataset '", d.id,
                                   "' disagree on the layout: row ", d.rows.front().row, " has ",
                                   LayoutText(*d.layout), ", row ", row.row, " has ",
                                   LayoutText(chunk.layout), "; expected one layout per dataset");
  } else if (d.chunk_count != chunk.position.count) {
    return Status::InvalidArgument("the chunk rows of dataset '", d.id, "' disagree on ",
                                   chunk_keys::kCount, ": row ", d.rows.front().row, " has ",
                                   d.chunk_count, ", row ", row.row, " has ", chunk.position.count);
  }
  if (d.Chunk(chunk.position.index) != nullptr) {
    return Status::InvalidArgument("dataset '", d.id, "' has chunk_index ", chunk.position.index,
                                   " twice (rows ", d.Chunk(chunk.position.index)->row, " and ",
                                   row.row,
                                   "); expected each chunk once (delete the repeated rows)");
  }
  d.rows.push_back({row.row, std::move(chunk.position), row.attributes});
  return Status::OK();
}

Result<DatasetRows> CollectDataset(const std::vector<GlobalRow>& rows, std::string_view id) {
  DatasetRows d;
  d.id = std::string(id);
  d.table_rows = rows.size();
  std::vector<std::uint64_t> plain;
  for (const GlobalRow& row : rows) {
    if (row.attributes.GetString(chunk_keys::kId) != d.id) continue;
    LND_ASSIGN_OR_RETURN_CTX(std::optional<ChunkAttributes> chunk,
                             ReadChunkAttributes(row.attributes),
                             "dataset '" + d.id + "' row " + std::to_string(row.row));
    if (!chunk) {
      plain.push_back(row.row);
      d.rows.push_back({row.row, std::nullopt, row.attributes});
      continue;
    }
    LND_RETURN_NOT_OK(AddChunkRow(d, row, std::move(*chunk)));
  }
  if (d.rows.empty()) {
    return Status::NotFound("no dataset with id '", d.id, "' in the table (", IdList(rows), ")");
  }
  if (!plain.empty() && d.layout) {
    return Status::InvalidArgument("dataset '", d.id, "' has chunk rows and a row without ",
                                   chunk_keys::kDims, " (row ", plain.front(),
                                   "); expected either chunk rows or one plain row");
  }
  if (plain.size() > 1) {
    return Status::InvalidArgument(plain.size(), " rows have id '", d.id, "' and no ",
                                   chunk_keys::kDims, " (rows ", plain[0], " and ", plain[1],
                                   "); a dataset of a plain row has one row");
  }
  if (d.layout) d.chunk_sizes = ChunkSizes(d);
  return d;
}

}  // namespace

const DatasetRow* DatasetRows::Chunk(std::uint64_t index) const {
  for (const DatasetRow& r : rows) {
    if (r.position && r.position->index == index) return &r;
  }
  return nullptr;
}

Result<std::vector<GlobalRow>> ReadGlobalRows(const Table& table) {
  LND_ASSIGN_OR_RETURN(NdBatchReader reader, table.Scan().Project({}).BatchRows(4096).Open());
  std::vector<GlobalRow> rows;
  while (true) {
    LND_ASSIGN_OR_RETURN(std::optional<nd::NdRecordBatch> row, reader.Next());
    if (!row) return rows;
    rows.push_back({rows.size(), row->attributes()});
  }
}

Result<std::shared_ptr<const DatasetRows>> FindDataset(const Table& table, std::string_view id) {
  LND_ASSIGN_OR_RETURN(std::shared_ptr<const DatasetIndex> index, IndexOf(table));
  return index->Dataset(id, [&]() { return CollectDataset(index->rows(), id); });
}

namespace {

/// True when row `r`'s chunk overlaps [lo, hi) along layout dimension `k`.
bool OverlapsAlong(const DatasetRows& d, const DatasetRow& r, std::size_t k,
                   const std::vector<std::uint64_t>& lo, const std::vector<std::uint64_t>& hi) {
  // A whole dimension overlaps every chunk, also when its size is 0.
  if (lo[k] == 0 && hi[k] == d.layout->dim_sizes[k]) return true;
  const std::uint64_t begin = r.position->offset[k];
  const std::uint64_t end = std::min(begin + d.chunk_sizes[k], d.layout->dim_sizes[k]);
  return begin < hi[k] && lo[k] < end;
}

}  // namespace

std::vector<std::uint64_t> OverlappingRows(const DatasetRows& dataset,
                                           const std::vector<std::uint64_t>& lo,
                                           const std::vector<std::uint64_t>& hi) {
  std::vector<std::uint64_t> out;
  for (const DatasetRow& r : dataset.rows) {
    bool overlaps = true;
    for (std::size_t k = 0; r.position && k < lo.size() && overlaps; ++k) {
      overlaps = OverlapsAlong(dataset, r, k, lo, hi);
    }
    if (overlaps) out.push_back(r.row);
  }
  return out;
}

std::vector<std::uint64_t> RowsHolding(const DatasetRows& dataset,
                                       const std::vector<std::size_t>& var_dims,
                                       const std::vector<std::uint64_t>& lo,
                                       const std::vector<std::uint64_t>& hi) {
  std::vector<bool> used(lo.size(), false);
  for (std::size_t k : var_dims) used[k] = true;
  std::vector<std::uint64_t> out;
  for (const DatasetRow& r : dataset.rows) {
    bool holds = r.position.has_value();
    for (std::size_t k = 0; holds && k < lo.size(); ++k) {
      holds = used[k] ? OverlapsAlong(dataset, r, k, lo, hi) : r.position->offset[k] == 0;
    }
    if (holds) out.push_back(r.row);
  }
  return out;
}

}  // namespace lance_nd::api_internal

namespace lance_nd {

namespace {

Result<std::vector<DatasetInfo>> CollectDatasets(const std::vector<api_internal::GlobalRow>& rows) {
  std::vector<DatasetInfo> out;
  std::map<std::string, std::size_t, std::less<>> index;
  for (const api_internal::GlobalRow& row : rows) {
    std::optional<std::string> id = row.attributes.GetString(chunk_keys::kId);
    if (!id) continue;
    auto [it, added] = index.try_emplace(*id, out.size());
    if (added) out.push_back({*id, std::nullopt, 1, 0, std::nullopt});
    DatasetInfo& info = out[it->second];
    ++info.rows;
    LND_ASSIGN_OR_RETURN_CTX(std::optional<ChunkAttributes> chunk,
                             ReadChunkAttributes(row.attributes), "row " + std::to_string(row.row));
    if (chunk ? chunk->position.index == 0 && !info.first_row : added) info.first_row = row.row;
    if (chunk && !info.layout) {
      info.layout = std::move(chunk->layout);
      info.chunk_count = chunk->position.count;
    }
  }
  return out;
}

}  // namespace

Result<std::vector<DatasetInfo>> ListDatasets(const Table& table) {
  LND_ASSIGN_OR_RETURN(std::shared_ptr<const api_internal::DatasetIndex> kept,
                       api_internal::IndexOf(table));
  return kept->Datasets([&kept] { return CollectDatasets(kept->rows()); });
}

}  // namespace lance_nd
