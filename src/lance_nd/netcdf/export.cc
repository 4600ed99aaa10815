// ExportNetcdf: a first scan of the global attributes finds the datasets and checks that every
// chunk is there; a second scan writes each row's arrays at their chunk offsets.
#include "lance_nd/netcdf/export.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "lance_nd/api/chunking.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/api/table.h"
#include "lance_nd/array/view.h"
#include "lance_nd/netcdf/conventions.h"
#include "lance_nd/netcdf/nc_output.h"
#include "lance_nd/netcdf/sql_text.h"

namespace lance_nd::netcdf {
namespace {

using internal::DatasetOutput;
using internal::DimSpec;
using internal::NcOutput;
using Offsets = std::map<std::string, std::uint64_t, std::less<>>;

// A dataset found by the first scan.
struct DatasetInfo {
  std::string key;                       // its id, or "#<row>" for a row without one
  std::optional<ChunkAttributes> chunk;  // the first row's, for chunk datasets
  std::set<std::uint64_t> chunks_seen;
  std::uint64_t rows = 0;
  std::string group;  // the output group path
};

std::string RowKey(const nd::Attributes& attributes, std::uint64_t row) {
  if (auto id = attributes.GetString(chunk_keys::kId)) return *id;
  return "#" + std::to_string(row);
}

Status AddRow(const nd::NdRecordBatch& row, std::uint64_t ordinal,
              std::vector<DatasetInfo>* datasets, std::map<std::string, std::size_t>* index) {
  LND_ASSIGN_OR_RETURN(std::optional<ChunkAttributes> chunk, ReadChunkAttributes(row.attributes()));
  const std::string key = RowKey(row.attributes(), ordinal);
  auto [it, added] = index->emplace(key, datasets->size());
  if (added) datasets->push_back(DatasetInfo{key, chunk, {}, 0, {}});
  DatasetInfo& info = (*datasets)[it->second];
  ++info.rows;
  if (!chunk || !info.chunk) {
    if (info.rows > 1) {
      return Status::InvalidArgument("dataset ", key,
                                     " has several rows and they are not all chunk rows "
                                     "(docs/FORMAT.md §3.6); select one of them");
    }
    return Status::OK();
  }
  if (!(chunk->layout == info.chunk->layout) ||
      chunk->position.count != info.chunk->position.count) {
    return Status::InvalidArgument("chunk rows of dataset ", key,
                                   " disagree on the dataset's dimensions or chunk count");
  }
  if (!info.chunks_seen.insert(chunk->position.index).second) {
    return Status::InvalidArgument("dataset ", key, " has chunk ", chunk->position.index,
                                   " twice (was it imported twice?)");
  }
  return Status::OK();
}

Status CheckComplete(const std::vector<DatasetInfo>& datasets) {
  for (const DatasetInfo& info : datasets) {
    if (!info.chunk) continue;
    const std::uint64_t expected = info.chunk->position.count;
    if (info.chunks_seen.size() != expected) {
      std::uint64_t missing = 0;
      while (info.chunks_seen.contains(missing)) ++missing;
      return Status::InvalidArgument("dataset ", info.key, " has ", info.chunks_seen.size(),
                                     " of its ", expected, " chunk rows (chunk ", missing,
                                     " is missing); select all of them");
    }
  }
  return Status::OK();
}

// The output group of each dataset: under a common root id R, R is the root group and R/a/b
// the group a/b; otherwise each dataset is the group named by its id.
void AssignGroups(std::vector<DatasetInfo>* datasets, const std::optional<std::string>& root) {
  std::optional<std::string> common = root;
  if (!common) {
    for (const DatasetInfo& info : *datasets) {
      if (!common || info.key.size() < common->size()) common = info.key;
    }
    for (const DatasetInfo& info : *datasets) {
      if (info.key != *common && !info.key.starts_with(*common + "/")) common.reset();
      if (!common) break;
    }
  }
  for (std::size_t i = 0; i < datasets->size(); ++i) {
    DatasetInfo& info = (*datasets)[i];
    if (common) {
      info.group = info.key == *common ? "" : info.key.substr(common->size() + 1);
    } else {
      info.group = info.key.starts_with("#") ? "row_" + info.key.substr(1) : info.key;
    }
  }
}

std::vector<DimSpec> LayoutDims(const DatasetLayout& layout) {
  std::vector<DimSpec> dims;
  for (std::size_t d = 0; d < layout.dim_names.size(); ++d) {
    const std::string& name = layout.dim_names[d];
    const bool unlimited = std::find(layout.unlimited_dims.begin(), layout.unlimited_dims.end(),
                                     name) != layout.unlimited_dims.end();
    dims.push_back({name, layout.dim_sizes[d], unlimited});
  }
  return dims;
}

// The dimensions of a dataset of whole arrays: the arrays' own, and the character dimensions
// named by char variables (as long as the layout says, or as the longest string).
std::vector<DimSpec> RowDims(const nd::NdRecordBatch& row,
                             const std::optional<ChunkAttributes>& chunk) {
  std::vector<DimSpec> dims;
  std::map<std::string, std::size_t> at;
  auto add = [&](const std::string& name, std::uint64_t size) {
    auto [it, added] = at.emplace(name, dims.size());
    if (added) {
      const DatasetLayout* layout = chunk ? &chunk->layout : nullptr;
      const bool unlimited =
          layout && std::find(layout->unlimited_dims.begin(), layout->unlimited_dims.end(), name) !=
                        layout->unlimited_dims.end();
      dims.push_back({name, size, unlimited});
    } else {
      dims[it->second].size = std::max(dims[it->second].size, size);
    }
  };
  for (const nd::Dimension& d : row.target().dims()) add(d.name, d.size);
  for (const nd::NdArrowArray& array : row.columns()) {
    const auto char_dim = array.attributes().GetString(internal::kCharDimKey);
    if (!char_dim || char_dim->empty()) continue;
    std::uint64_t longest = 1;
    if (chunk) {
      const int d = chunk->layout.DimIndex(*char_dim);
      if (d >= 0) longest = chunk->layout.dim_sizes[static_cast<std::size_t>(d)];
    }
    const auto& values = *array.values();
    if (values.type->id() == array::TypeId::kUtf8 ||
        values.type->id() == array::TypeId::kLargeUtf8) {
      array::BinaryView view(values);
      for (std::int64_t i = 0; i < values.length; ++i) {
        if (!view.IsNull(i)) longest = std::max<std::uint64_t>(longest, view.Value(i).size());
      }
    }
    add(*char_dim, longest);
  }
  return dims;
}

Status PutRow(DatasetOutput* out, const nd::NdRecordBatch& row, const Offsets& offsets) {
  for (int c = 0; c < row.num_columns(); ++c) {
    LND_RETURN_NOT_OK(out->Put(row.column_name(c), row.column(c), offsets));
  }
  return Status::OK();
}

std::string SelectionSql(const ExportOptions& options) {
  if (options.filter) return *options.filter;
  const std::string id = *options.id;
  return "__global_attrs__.id = " + internal::SqlString(id) + " OR __global_attrs__.id LIKE " +
         internal::SqlString(internal::LikePrefix(id + "/"));
}

// The first scan: datasets, their rows and chunk positions, from the global attributes only.
Result<std::vector<DatasetInfo>> FindDatasets(const Table& table, const std::string& sql,
                                              const ExportOptions& options) {
  LND_ASSIGN_OR_RETURN(NdBatchReader reader, table.Scan().Filter(sql).Project({}).Open());
  std::vector<DatasetInfo> datasets;
  std::map<std::string, std::size_t> index;
  for (std::uint64_t n = 0;; ++n) {
    LND_ASSIGN_OR_RETURN(std::optional<nd::NdRecordBatch> row, reader.Next());
    if (!row) break;
    LND_RETURN_NOT_OK_CTX(AddRow(*row, n, &datasets, &index),
                          "row " + std::to_string(n) + " of the selection");
  }
  if (datasets.empty()) {
    return Status::NotFound("no rows of the table match ",
                            options.id ? "dataset id " + *options.id : "the filter " + sql,
                            (options.id ? " (nor its groups " + *options.id + "/...)" : ""));
  }
  LND_RETURN_NOT_OK(CheckComplete(datasets));
  AssignGroups(&datasets, options.id);
  return datasets;
}

// The second scan: every row's arrays, written where its chunk sits.
Status WriteRows(const Table& table, const std::string& sql, std::vector<DatasetInfo>& datasets,
                 const ExportOptions& options, NcOutput& out, ExportResult* result) {
  std::uint64_t total = 0;
  for (const DatasetInfo& info : datasets) total += info.rows;
  std::map<std::string, DatasetInfo*> by_key;
  std::map<std::string, DatasetOutput*> begun;
  for (DatasetInfo& info : datasets) {
    by_key[info.key] = &info;
    LND_RETURN_NOT_OK(out.Group(info.group).status());  // groups in first-seen order
  }
  LND_ASSIGN_OR_RETURN(NdBatchReader reader, table.Scan().Filter(sql).Open());
  for (std::uint64_t n = 0;; ++n) {
    LND_ASSIGN_OR_RETURN(std::optional<nd::NdRecordBatch> row, reader.Next());
    if (!row) break;
    const DatasetInfo& info = *by_key.at(RowKey(row->attributes(), n));
    LND_ASSIGN_OR_RETURN(std::optional<ChunkAttributes> chunk,
                         ReadChunkAttributes(row->attributes()));
    DatasetOutput*& dataset = begun[info.key];
    if (dataset == nullptr) {
      const std::vector<DimSpec> dims = chunk ? LayoutDims(chunk->layout) : RowDims(*row, chunk);
      LND_ASSIGN_OR_RETURN(
          dataset, out.Begin(info.group, dims, internal::RestoreGlobals(row->attributes())));
      ++result->datasets;
    }
    Offsets offsets;
    for (std::size_t d = 0; chunk && d < chunk->layout.dim_names.size(); ++d) {
      offsets[chunk->layout.dim_names[d]] = chunk->position.offset[d];
    }
    LND_RETURN_NOT_OK_CTX(PutRow(dataset, *row, offsets), "dataset " + info.key);
    ++result->rows;
    if (options.progress) options.progress(result->rows, total);
  }
  return Status::OK();
}

// Close `out` (written by `write`) and keep the file, or remove it after an error, which
// names the file.
Status Finish(NcOutput& out, const std::string& path, const Status& write) {
  Status s = write.ok() ? out.Close() : write;
  if (s.ok()) return s;
  (void)out.Close();
  std::error_code ignored;
  std::filesystem::remove(path, ignored);  // no half-written file stays behind
  return s.WithContext("writing netCDF file ", path);
}

Result<ExportResult> ExportTo(std::string_view table_uri, const std::string& path,
                              const ExportOptions& options) {
  LND_ASSIGN_OR_RETURN(Table table, Table::Open(table_uri));
  const std::string sql = SelectionSql(options);
  LND_ASSIGN_OR_RETURN(std::vector<DatasetInfo> datasets, FindDatasets(table, sql, options));
  // Only now is the file at `path` replaced: a selection that finds nothing leaves it.
  LND_ASSIGN_OR_RETURN(NcOutput out, NcOutput::Create(path));
  ExportResult result;
  LND_RETURN_NOT_OK(Finish(out, path, WriteRows(table, sql, datasets, options, out, &result)));
  return result;
}

}  // namespace

Result<ExportResult> ExportNetcdf(std::string_view table_uri, const std::string& path,
                                  const ExportOptions& options) {
  if (options.id.has_value() == options.filter.has_value()) {
    return Status::InvalidArgument(
        "export selects rows by a dataset id or by a filter: give exactly one of the two");
  }
  return ExportTo(table_uri, path, options);
}

Status WriteNetcdf(const std::string& path, const nd::NdRecordBatch& dataset) {
  auto chunk = ReadChunkAttributes(dataset.attributes());
  const std::optional<ChunkAttributes> layout = chunk.ok() ? *chunk : std::nullopt;
  LND_ASSIGN_OR_RETURN(NcOutput out, NcOutput::Create(path));
  Status written = [&]() -> Status {
    LND_ASSIGN_OR_RETURN(
        DatasetOutput * root,
        out.Begin("", RowDims(dataset, layout), internal::RestoreGlobals(dataset.attributes())));
    return PutRow(root, dataset, {});
  }();
  return Finish(out, path, written);
}

}  // namespace lance_nd::netcdf
