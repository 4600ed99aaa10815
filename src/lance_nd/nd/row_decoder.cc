// RowDecoder: rows of the lance-nd table layout -> nd record batches.
#include <algorithm>
#include <unordered_set>

#include "lance_nd/array/view.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/errors.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/nd/row_encoding.h"
#include "retype.h"
#include "row_checks.h"
#include "row_parts.h"

namespace lance_nd::nd {
namespace {

using array::ArrayData;
using array::ArrayPtr;
using array::FieldPtr;
using array::TypeId;
using internal::CheckRowsBacked;
using internal::DecodeAttributes;
using internal::DecodeDimensions;
using internal::ListRange;
using internal::Where;

/// `fields` without lance-encoding keys, shared with the rows that decode attributes from them.
RowDecoder::FieldList StrippedFields(const std::vector<FieldPtr>& fields) {
  std::vector<FieldPtr> out;
  out.reserve(fields.size());
  for (const FieldPtr& f : fields) out.push_back(StripEncodingKeys(f));
  return std::make_shared<const std::vector<FieldPtr>>(std::move(out));
}

}  // namespace

Result<RowDecoder> RowDecoder::Make(array::SchemaPtr schema) {
  if (!schema) return InvalidArgument("a row decoder needs a schema (got none)");
  RowDecoder decoder;
  std::unordered_set<std::string_view> seen;
  for (int i = 0; i < schema->num_fields(); ++i) {
    const FieldPtr& field = schema->field(i);
    const std::string& name = field->name();
    if (!seen.insert(name).second) {
      return InvalidEncoding("column name '" + name + "' appears more than once");
    }
    if (name.starts_with(kStatsPrefix)) continue;  // stats columns are not part of the rows
    if (IsGlobalAttributesField(*field) || name == kGlobalAttributesField) {
      if (decoder.global_column_ >= 0) {
        return InvalidEncoding("columns '" + schema->field(decoder.global_column_)->name() +
                               "' and '" + name + "' are both global-attributes columns");
      }
      if (field->type()->id() != TypeId::kStruct) {
        return InvalidEncoding("the global-attributes column '" + name + "' has type " +
                               field->type()->ToString() + " but a struct was expected");
      }
      for (const FieldPtr& f : field->type()->children()) {
        if (f->name().empty()) {
          return InvalidEncoding("the global-attributes struct has a child with an empty name");
        }
      }
      LND_RETURN_NOT_OK(internal::CheckUniqueAttributeKeys(field->type()->children(),
                                                           "the global-attributes struct"));
      decoder.global_fields_ = StrippedFields(field->type()->children());
      decoder.global_column_ = i;
      continue;
    }
    if (!IsNdField(*field)) {
      return InvalidEncoding(
          "column '" + name + "' is neither an " + std::string(kNdArrayExtensionName) +
          " column, the " + std::string(kGlobalAttributesField) + " column nor a " +
          std::string(kStatsPrefix) + "* column; it is not a lance-nd table column");
    }
    LND_ASSIGN_OR_RETURN(NdStorageLayout layout, ParseNdField(*field));
    LND_ASSIGN_OR_RETURN(FieldPtr logical, LogicalField(*field));
    Column column;
    column.index = i;
    column.logical = StripEncodingKeys(logical);
    column.has_attrs_child = layout.has_attrs_child;
    column.attribute_fields = StrippedFields(layout.attribute_fields);
    decoder.columns_.push_back(std::move(column));
  }
  for (const auto& [k, v] : schema->metadata().entries()) {
    if (!IsTableMetadataKey(k)) decoder.logical_metadata_.Set(k, v);
  }
  decoder.all_variables_ = array::MakeSchema(decoder.Variables(), decoder.logical_metadata_);
  decoder.schema_ = std::move(schema);
  return decoder;
}

std::vector<array::FieldPtr> RowDecoder::Variables() const {
  std::vector<FieldPtr> out;
  out.reserve(columns_.size());
  for (const Column& c : columns_) out.push_back(c.logical);
  return out;
}

Status RowDecoder::CheckBatch(const array::RecordBatch& batch) const {
  if (batch.num_columns() != schema_->num_fields()) {
    return SchemaMismatch("the batch has " + std::to_string(batch.num_columns()) +
                          " columns but the decoder's schema has " +
                          std::to_string(schema_->num_fields()));
  }
  for (int i = 0; i < batch.num_columns(); ++i) {
    const ArrayPtr& column = batch.column(i);
    const array::Field& field = *schema_->field(i);
    if (!column || !column->type || !column->type->Equals(*field.type(), false)) {
      return SchemaMismatch("column " + std::to_string(i) + " '" + field.name() + "' has type " +
                            (column && column->type ? column->type->ToString() : "<none>") +
                            " but the decoder's schema says " + field.type()->ToString());
    }
    if (column->length < batch.num_rows()) {
      return InvalidEncoding("column '" + field.name() + "' has " + std::to_string(column->length) +
                             " rows but the batch has " + std::to_string(batch.num_rows()));
    }
  }
  return Status::OK();
}

Result<NdRecordBatch> RowDecoder::DecodeRow(const array::RecordBatch& batch, int64_t row) const {
  if (row < 0 || row >= batch.num_rows()) {
    return InvalidArgument("row " + std::to_string(row) + " is out of range; the batch has " +
                           std::to_string(batch.num_rows()) + " rows");
  }
  LND_RETURN_NOT_OK(CheckBatch(batch));
  return DecodeCheckedRow(batch, row);
}

Result<NdRecordBatch> RowDecoder::DecodeCheckedRow(const array::RecordBatch& batch,
                                                   int64_t row) const {
  if (row < 0 || row >= batch.num_rows()) {
    return InvalidArgument("row " + std::to_string(row) + " is out of range; the batch has " +
                           std::to_string(batch.num_rows()) + " rows");
  }
  std::vector<NdArrowArray> arrays;
  arrays.reserve(columns_.size());
  for (const Column& c : columns_) {
    const ArrayData& column = *batch.column(c.index);
    if (column.IsNull(row)) continue;
    const std::string& name = c.logical->name();
    const Where where{name, row};
    const int64_t slot = column.offset + row;
    const std::size_t expected_children = c.has_attrs_child ? 4 : 3;
    if (column.children.size() != expected_children) {
      return InvalidEncoding(where + "the struct has " + std::to_string(column.children.size()) +
                             " children but its type has " + std::to_string(expected_children));
    }
    for (const ArrayPtr& child : column.children) {
      if (!child || child->length <= slot) {
        return InvalidEncoding(where + "a child array is shorter than the column");
      }
    }
    const ArrayData& values_list = *column.children[0];
    const ArrayData& names_list = *column.children[1];
    const ArrayData& sizes_list = *column.children[2];
    LND_ASSIGN_OR_RETURN(auto value_range, ListRange(values_list, slot, where, kValuesField));
    LND_ASSIGN_OR_RETURN(Dimensions dimensions,
                         DecodeDimensions(names_list, sizes_list, slot, where));
    const int64_t length = value_range.second - value_range.first;
    if (length != dimensions.num_elements()) {
      return InvalidEncoding(where + "values length " + std::to_string(length) +
                             " does not match dimensions " + dimensions.ToString() + " (" +
                             std::to_string(dimensions.num_elements()) + " elements)");
    }
    LND_ASSIGN_OR_RETURN(ArrayPtr values,
                         array::Slice(values_list.children[0], value_range.first, length));
    LND_ASSIGN_OR_RETURN(values, internal::Retype(values, c.logical->type()));
    Attributes attributes;
    if (c.has_attrs_child && !c.attribute_fields->empty()) {
      LND_ASSIGN_OR_RETURN(attributes,
                           DecodeAttributes(column.children[3], c.attribute_fields, slot, where));
    }
    auto nd = NdArrowArray::Make(std::move(values), std::move(dimensions), std::move(attributes));
    if (!nd.ok()) return InvalidEncoding(where + std::string(nd.status().message()));
    arrays.push_back(std::move(*nd));
  }
  Attributes globals;
  if (global_column_ >= 0) {
    const Where where{kGlobalAttributesField, row};
    LND_ASSIGN_OR_RETURN(
        globals, DecodeAttributes(batch.column(global_column_), global_fields_, row, where));
  }
  // A row holding every variable shares one schema; others get their own.
  array::SchemaPtr schema = arrays.size() == columns_.size() ? all_variables_ : nullptr;
  if (!schema) {
    std::vector<FieldPtr> fields;
    for (const Column& c : columns_) {
      if (!batch.column(c.index)->IsNull(row)) fields.push_back(c.logical);
    }
    schema = array::MakeSchema(std::move(fields), logical_metadata_);
  }
  auto out = NdRecordBatch::MakeInferred(std::move(schema), std::move(arrays), std::move(globals));
  if (!out.ok()) {
    return InvalidEncoding("row " + std::to_string(row) + ": " +
                           std::string(out.status().message()));
  }
  return out;
}

Result<std::vector<NdRecordBatch>> RowDecoder::DecodeAll(const array::RecordBatch& batch) const {
  LND_RETURN_NOT_OK(CheckBatch(batch));
  const Status valid = batch.Validate();
  if (!valid.ok()) {
    return InvalidEncoding("the batch is not valid Arrow data: " + std::string(valid.message()));
  }
  LND_RETURN_NOT_OK(CheckRowsBacked(batch));
  std::vector<NdRecordBatch> out;
  out.reserve(static_cast<std::size_t>(batch.num_rows()));
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    LND_ASSIGN_OR_RETURN(NdRecordBatch row, DecodeCheckedRow(batch, r));
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace lance_nd::nd
