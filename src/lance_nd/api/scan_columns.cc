#include "lance_nd/api/scan_columns.h"

#include <algorithm>

#include "lance_nd/array/field_path.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/table/scan.h"

namespace lance_nd::api_internal {
namespace {

std::string VariableList(const array::Schema& schema) {
  std::string names;
  for (const auto& f : schema.fields()) {
    if (!nd::IsNdField(*f)) continue;
    names += (names.empty() ? "'" : ", '") + f->name() + "'";
  }
  return names.empty() ? "none" : names;
}

/// The variable that `name` reaches into (`sst.attrs` -> `sst`), when it does.
std::optional<std::string> NestedIn(const array::Schema& schema, const std::string& name) {
  for (const auto& f : schema.fields()) {
    if (nd::IsNdField(*f) && name.size() > f->name().size() && name.starts_with(f->name()) &&
        name[f->name().size()] == '.') {
      return f->name();
    }
  }
  return std::nullopt;
}

Status CheckVariable(const array::Schema& schema, const std::string& name) {
  const int index = schema.FieldIndex(name);
  if (index >= 0 && nd::IsNdField(*schema.field(index))) return Status::OK();
  if (auto parent = NestedIn(schema, name)) {
    return Status::InvalidArgument("projection '", name, "' names a part of variable '", *parent,
                                   "'; a projection lists whole variables (use '", *parent,
                                   "' and read the part from the nd arrays)");
  }
  return Status::InvalidArgument("projection '", name,
                                 "' is not a variable of the table; its variables are ",
                                 VariableList(schema));
}

/// True when `path` joined reads back as the same path in the table scan's projection syntax.
bool JoinedPathIsExact(const array::Schema& schema, const query::ColumnPath& path) {
  if (path.size() < 2) return false;
  auto back = array::SplitFieldPath(schema.fields(), array::JoinFieldPath(path));
  return back.ok() && *back == path;
}

}  // namespace

Result<std::vector<std::string>> OutputColumns(
    const array::Schema& table_schema, const std::optional<std::vector<std::string>>& variables) {
  std::vector<std::string> out;
  if (variables) {
    for (const std::string& name : *variables) LND_RETURN_NOT_OK(CheckVariable(table_schema, name));
  }
  for (const auto& f : table_schema.fields()) {
    const bool wanted =
        nd::IsGlobalAttributesField(*f) || f->name() == nd::kGlobalAttributesField ||
        (nd::IsNdField(*f) && (!variables || std::find(variables->begin(), variables->end(),
                                                       f->name()) != variables->end()));
    if (wanted) out.push_back(f->name());
  }
  return out;
}

std::vector<std::string> FilterColumns(const array::Schema& table_schema,
                                       const std::vector<query::ColumnPath>& paths) {
  std::vector<std::string> out;
  auto add = [&out](std::string p) {
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
  };
  for (const query::ColumnPath& path : paths) {
    if (path.empty()) continue;
    const int index = table_schema.FieldIndex(path[0]);
    if (JoinedPathIsExact(table_schema, path)) {
      add(array::JoinFieldPath(path));
    } else if (path.size() == 1 && index >= 0 && nd::IsNdField(*table_schema.field(index))) {
      // Only the struct's validity is needed: its dim_sizes child is the smallest one.
      add(array::JoinFieldPath({path[0], std::string(nd::kDimSizesField)}));
    } else {
      add(path[0]);
    }
  }
  add(table::kRowAddressColumn);
  return out;
}

array::SchemaPtr WithoutRowAddress(const array::SchemaPtr& schema) {
  const int index = schema->FieldIndex(table::kRowAddressColumn);
  if (index < 0) return schema;
  std::vector<array::FieldPtr> fields = schema->fields();
  fields.erase(fields.begin() + index);
  return array::MakeSchema(std::move(fields), schema->metadata());
}

array::RecordBatchPtr WithoutRowAddress(const array::RecordBatchPtr& batch) {
  const int index = batch->schema()->FieldIndex(table::kRowAddressColumn);
  if (index < 0) return batch;
  std::vector<array::ArrayPtr> columns = batch->columns();
  columns.erase(columns.begin() + index);
  return std::make_shared<const array::RecordBatch>(WithoutRowAddress(batch->schema()),
                                                    batch->num_rows(), std::move(columns));
}

}  // namespace lance_nd::api_internal
