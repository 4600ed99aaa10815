#include "dataset_list.h"

#include <map>
#include <utility>

#include "lance_nd/api/chunking.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/array/view.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/table/scan.h"
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

/// The struct child of `type` named `name`, or -1.
int ChildIndex(const array::DataType& type, std::string_view name) {
  for (std::size_t i = 0; i < type.children().size(); ++i) {
    if (type.children()[i]->name() == name) return static_cast<int>(i);
  }
  return -1;
}

/// Row `row` of the attrs struct `attrs` (row already in its logical coordinates).
nd::Attributes AttributesAt(const array::ArrayData& attrs, int64_t row) {
  nd::Attributes out;
  for (std::size_t k = 0; k < attrs.children.size(); ++k) {
    const array::ArrayPtr& child = attrs.children[k];
    const int64_t slot = attrs.offset + row;
    if (child->IsNull(slot)) continue;
    auto value = array::Slice(child, slot, 1);
    if (value.ok()) (void)out.SetValue(attrs.type->children()[k]->name(), *value);
  }
  return out;
}

/// The variable of nd column `column` (dims and attrs projected) at `row`, or nullopt when
/// the row lacks it.
std::optional<VariableSummary> VariableAt(const array::Field& field, const array::ArrayData& column,
                                          int64_t row, const std::string& dtype) {
  if (column.IsNull(row)) return std::nullopt;
  VariableSummary v;
  v.name = field.name();
  v.dtype = dtype;
  const int64_t slot = column.offset + row;
  const int names = ChildIndex(*column.type, nd::kDimNamesField);
  const int sizes = ChildIndex(*column.type, nd::kDimSizesField);
  const int attrs = ChildIndex(*column.type, nd::kAttrsField);
  if (names >= 0 && sizes >= 0) {
    const array::ListView name_lists(*column.children[static_cast<std::size_t>(names)]);
    const array::BinaryView name_values(*name_lists.values());
    const array::ListView size_lists(*column.children[static_cast<std::size_t>(sizes)]);
    const array::PrimitiveView<std::uint32_t> size_values(*size_lists.values());
    for (int64_t k = name_lists.ValueOffset(slot); k < name_lists.ValueOffset(slot + 1); ++k) {
      v.dim_names.emplace_back(name_values.Value(k));
    }
    for (int64_t k = size_lists.ValueOffset(slot); k < size_lists.ValueOffset(slot + 1); ++k) {
      v.dim_sizes.push_back(size_values.Value(k));
    }
  }
  if (attrs >= 0 && !column.children[static_cast<std::size_t>(attrs)]->IsNull(slot)) {
    v.attributes = AttributesAt(*column.children[static_cast<std::size_t>(attrs)], slot);
  }
  return v;
}

/// Dims and attributes of each variable: the nd columns without their values (a name with a
/// dot is projected whole, since a path would split it).
Result<table::TableScanOptions> DimsAndAttrsProjection(const Table& table) {
  table::TableScanOptions options;
  for (const array::FieldPtr& field : table.schema()->fields()) {
    if (!nd::IsNdField(*field)) continue;
    LND_ASSIGN_OR_RETURN(nd::NdStorageLayout layout, nd::ParseNdField(*field));
    const std::string& name = field->name();
    if (name.find('.') != std::string::npos) {
      options.projection.push_back(name);
      continue;
    }
    options.projection.push_back(name + "." + std::string(nd::kDimNamesField));
    options.projection.push_back(name + "." + std::string(nd::kDimSizesField));
    if (layout.has_attrs_child) {
      options.projection.push_back(name + "." + std::string(nd::kAttrsField));
    }
  }
  return options;
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
  LND_ASSIGN_OR_RETURN(table::TableScanOptions options, DimsAndAttrsProjection(table));
  if (options.projection.empty()) return Status::OK();  // no variables
  std::vector<std::uint64_t> rows;
  rows.reserve(groups.size());
  for (const Group& g : groups) rows.push_back(*g.row_read);
  LND_ASSIGN_OR_RETURN(array::RecordBatchPtr batch,
                       table::TakeRows(table.dataset(), rows, options));
  std::vector<std::string> dtypes;
  for (const array::FieldPtr& field : batch->schema()->fields()) {
    const array::FieldPtr stored = table.schema()->GetField(field->name());
    LND_ASSIGN_OR_RETURN(nd::NdStorageLayout layout, nd::ParseNdField(*stored));
    dtypes.push_back(DtypeText(*layout.value_field->type()));
  }
  for (std::size_t i = 0; i < groups.size(); ++i) {
    DatasetSummary& d = groups[i].summary;
    for (int c = 0; c < batch->num_columns(); ++c) {
      auto v = VariableAt(*batch->schema()->field(c), *batch->column(c), static_cast<int64_t>(i),
                          dtypes[static_cast<std::size_t>(c)]);
      if (!v) continue;
      if (d.chunked) UseDatasetSizes(d, *v);
      d.variables.push_back(std::move(*v));
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
