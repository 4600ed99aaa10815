// WriteSchema: the table schema during a write, extended by the rows' new names.
#include "lance_nd/api/write_schema.h"

#include <algorithm>
#include <utility>

#include "lance_nd/api/column_options.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/nd/schema_merge.h"
#include "lance_nd/table/evolution.h"
#include "lance_nd/table/write.h"

namespace lance_nd::internal {

WriteSchema::WriteSchema(std::vector<table::LanceField> fields, array::SchemaPtr schema,
                         std::int32_t next_id, ColumnRules rules)
    : fields_(std::move(fields)),
      schema_(std::move(schema)),
      next_id_(next_id),
      rules_(std::move(rules)) {
  Index();
}

WriteSchema WriteSchema::ForNewTable(array::Metadata metadata, ColumnRules rules) {
  return WriteSchema({}, array::MakeSchema({}, std::move(metadata)), 0, std::move(rules));
}

WriteSchema WriteSchema::ForTable(const table::Dataset& ds, ColumnRules rules) {
  return WriteSchema(ds.manifest().fields, ds.schema(), table::NextFieldId(ds.manifest()),
                     std::move(rules));
}

void WriteSchema::Index() {
  attribute_keys_.clear();
  global_keys_.clear();
  for (const array::FieldPtr& f : schema_->fields()) {
    if (nd::IsGlobalAttributesField(*f)) {
      for (const auto& c : f->type()->children()) global_keys_.insert(c->name());
      continue;
    }
    if (!nd::IsNdField(*f)) continue;
    auto& keys = attribute_keys_[f->name()];
    auto layout = nd::ParseNdStorage(*f->type());
    if (!layout.ok()) continue;  // Extend reports it through the schema merge
    for (const auto& a : layout->attribute_fields) keys.insert(a->name());
  }
}

bool WriteSchema::Covers(const nd::NdRecordBatch& row) const {
  for (int i = 0; i < row.num_columns(); ++i) {
    const auto it = attribute_keys_.find(row.column_name(i));
    if (it == attribute_keys_.end()) return false;
    for (const auto& entry : row.column(i).attributes().entries()) {
      if (!it->second.contains(entry.first)) return false;
    }
  }
  for (const auto& entry : row.attributes().entries()) {
    if (!global_keys_.contains(entry.first)) return false;
  }
  for (const auto& [key, value] : row.schema()->metadata().entries()) {
    if (!schema_->metadata().Contains(key)) return false;
  }
  return true;
}

// The merged schema with the write's column rules applied to the new top-level fields, and a
// stats column for each new variable that has a stats type (after the new fields).
Result<array::SchemaPtr> WriteSchema::Wanted(const array::Schema& merged) const {
  std::vector<array::FieldPtr> fields;
  std::vector<array::FieldPtr> stats;
  for (const array::FieldPtr& f : merged.fields()) {
    if (schema_->GetField(f->name()) != nullptr) {
      fields.push_back(f);
      continue;
    }
    const auto options = rules_.per_column.find(f->name());
    const ColumnOptions rules =
        Overlay(rules_.defaults, options == rules_.per_column.end() ? nullptr : &options->second);
    fields.push_back(ApplyColumnOptions(f, rules));
    if (!rules_.stats || !nd::IsNdField(*f)) continue;
    LND_ASSIGN_OR_RETURN(nd::NdStorageLayout layout, nd::ParseNdStorage(*f->type()));
    const array::DataTypePtr& value_type = layout.value_field->type();
    if (nd::HasStatsType(*value_type)) {
      stats.push_back(ApplyColumnOptions(nd::StatsField(f->name(), value_type), rules));
    }
  }
  fields.insert(fields.end(), stats.begin(), stats.end());
  return array::MakeSchema(std::move(fields), merged.metadata());
}

Status WriteSchema::Extend(std::span<const nd::NdRecordBatch> rows) {
  LND_ASSIGN_OR_RETURN(array::RecordBatchPtr encoded, nd::EncodeRows(rows));
  return ExtendEncoded(*encoded->schema());
}

Status WriteSchema::ExtendEncoded(const array::Schema& incoming) {
  for (const array::FieldPtr& field : incoming.fields()) {
    const std::string& name = field->name();
    if (name.find('.') != std::string::npos && !nd::IsGlobalAttributesField(*field) &&
        !name.starts_with(nd::kStatsPrefix) && schema_->GetField(name) == nullptr) {
      return Status::InvalidArgument("variable name '", name,
                                     "' contains '.', which Lance refuses in top-level column "
                                     "names; rename the variable");
    }
  }
  LND_ASSIGN_OR_RETURN(array::SchemaPtr merged, nd::MergeEncodedSchema(*schema_, incoming));
  if (merged->Equals(*schema_)) return Status::OK();
  LND_ASSIGN_OR_RETURN(array::SchemaPtr wanted, Wanted(*merged));
  std::vector<table::LanceField> fields;
  if (fields_.empty()) {
    // A new table: ids 0, 1, ... in pre-order, with the members Lance's writer records.
    LND_ASSIGN_OR_RETURN(fields, table::FieldsFromSchema(*wanted));
  } else {
    LND_ASSIGN_OR_RETURN(fields, table::MergeFields(fields_, *schema_, *wanted, next_id_, nullptr));
  }
  LND_ASSIGN_OR_RETURN(array::SchemaPtr schema,
                       table::SchemaFromFields(fields, wanted->metadata()));
  for (const auto& f : fields) next_id_ = std::max(next_id_, f.id + 1);
  fields_ = std::move(fields);
  schema_ = std::move(schema);
  ++generation_;
  Index();
  return Status::OK();
}

}  // namespace lance_nd::internal
