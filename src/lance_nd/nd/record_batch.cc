#include "lance_nd/nd/record_batch.h"

#include "lance_nd/nd/errors.h"
#include "name_set.h"

namespace lance_nd::nd {

NdRecordBatch::NdRecordBatch() : schema_(array::MakeSchema({})) {}

Result<NdRecordBatch> NdRecordBatch::Make(array::SchemaPtr schema,
                                          std::vector<NdArrowArray> columns, Dimensions target,
                                          Attributes attributes) {
  return MakeChecked(std::move(schema), std::move(columns), std::move(target),
                     std::move(attributes), /*check_shapes=*/true);
}

Result<NdRecordBatch> NdRecordBatch::MakeChecked(array::SchemaPtr schema,
                                                 std::vector<NdArrowArray> columns,
                                                 Dimensions target, Attributes attributes,
                                                 bool check_shapes) {
  if (!schema) return InvalidArgument("an nd record batch needs a schema (got none)");
  if (static_cast<std::size_t>(schema->num_fields()) != columns.size()) {
    return SchemaMismatch("the schema has " + std::to_string(schema->num_fields()) +
                          " fields but " + std::to_string(columns.size()) +
                          " arrays were given; give one field per array");
  }
  internal::NameSet seen;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const array::Field& field = *schema->field(static_cast<int>(i));
    if (field.name().empty()) {
      return InvalidArgument("column " + std::to_string(i) +
                             " has an empty name; every array needs a name");
    }
    if (!seen.Insert(field.name())) {
      return InvalidArgument("column name '" + field.name() +
                             "' appears more than once; array names must be unique");
    }
    if (!field.type()->Equals(*columns[i].value_type())) {
      return SchemaMismatch("field '" + field.name() + "' has type " + field.type()->ToString() +
                            " but its array holds " + columns[i].value_type()->ToString() +
                            " values");
    }
    const Status st = check_shapes ? CheckBroadcast(columns[i].dimensions(), target) : Status::OK();
    if (!st.ok()) {
      return ShapeMismatch("array '" + field.name() +
                           "': " + std::string(st.message().substr(kShapeMismatchPrefix.size())));
    }
  }
  return NdRecordBatch(std::move(schema), std::move(columns), std::move(target),
                       std::move(attributes));
}

Result<NdRecordBatch> NdRecordBatch::MakeInferred(array::SchemaPtr schema,
                                                  std::vector<NdArrowArray> columns,
                                                  Attributes attributes) {
  Result<Dimensions> target = InferTarget(columns);
  if (!target.ok()) {
    // Inferred again with the column names, for the message only (rows decode in bulk, and
    // copying every name per row would cost more than the inference).
    std::vector<std::string> names;
    if (schema && static_cast<std::size_t>(schema->num_fields()) == columns.size()) {
      for (const auto& f : schema->fields()) names.push_back(f->name());
    }
    return InferTarget(columns, names).status();
  }
  // Every column broadcasts onto an inferred target by construction.
  return MakeChecked(std::move(schema), std::move(columns), std::move(*target),
                     std::move(attributes), /*check_shapes=*/false);
}

Result<NdRecordBatch> NdRecordBatch::FromArrays(
    std::vector<std::pair<std::string, NdArrowArray>> arrays, Attributes attributes) {
  std::vector<array::FieldPtr> fields;
  std::vector<NdArrowArray> columns;
  fields.reserve(arrays.size());
  columns.reserve(arrays.size());
  for (auto& [name, nd] : arrays) {
    fields.push_back(array::MakeField(std::move(name), nd.value_type(), true));
    columns.push_back(std::move(nd));
  }
  return MakeInferred(array::MakeSchema(std::move(fields)), std::move(columns),
                      std::move(attributes));
}

const NdArrowArray* NdRecordBatch::GetColumn(std::string_view name) const {
  const int i = ColumnIndex(name);
  return i < 0 ? nullptr : &columns_[static_cast<std::size_t>(i)];
}

NdRecordBatch NdRecordBatch::WithAttributes(Attributes attributes) const {
  return NdRecordBatch(schema_, columns_, target_, std::move(attributes));
}

Result<NdArrowArray> NdRecordBatch::BroadcastColumn(int i) const {
  if (i < 0 || i >= num_columns()) {
    return InvalidArgument("column index " + std::to_string(i) + " is out of range [0, " +
                           std::to_string(num_columns()) + ")");
  }
  return Broadcast(columns_[static_cast<std::size_t>(i)], target_);
}

bool NdRecordBatch::Equals(const NdRecordBatch& other) const {
  if (columns_.size() != other.columns_.size()) return false;
  if (target_.rank() != other.target_.rank()) return false;
  for (const Dimension& d : target_.dims()) {
    if (other.target_.SizeOf(d.name) != d.size) return false;
  }
  if (!(attributes_ == other.attributes_)) return false;
  if (!(schema_->metadata() == other.schema_->metadata())) return false;
  for (int i = 0; i < num_columns(); ++i) {
    const array::Field& f = *schema_->field(i);
    const int j = other.ColumnIndex(f.name());
    if (j < 0) return false;
    const array::Field& g = *other.schema_->field(j);
    if (!f.type()->Equals(*g.type()) || !(f.metadata() == g.metadata())) return false;
    if (!(columns_[static_cast<std::size_t>(i)] == other.columns_[static_cast<std::size_t>(j)])) {
      return false;
    }
  }
  return true;
}

std::string NdRecordBatch::ToString() const {
  std::string out = "NdRecordBatch " + target_.ToString() + "\n";
  for (int i = 0; i < num_columns(); ++i) {
    out += "  " + column_name(i) + ": " + columns_[static_cast<std::size_t>(i)].ToString() + "\n";
  }
  if (!attributes_.empty()) out += "  global attributes: " + attributes_.ToString() + "\n";
  return out;
}

}  // namespace lance_nd::nd
