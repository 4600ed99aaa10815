// RowDecoder's row layouts: a row's dimensions, value types and attributes read without the
// values, for readers that plan before they read (region reads, the xarray backend's open).
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/array/field_path.h"
#include "lance_nd/nd/errors.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/nd/row_encoding.h"
#include "row_parts.h"

namespace lance_nd::nd {
namespace {

using array::ArrayPtr;
using array::FieldPtr;
using array::TypeId;
using internal::Where;

// A projection path that reads back as these two names whatever they hold.
std::string Path(std::string_view column, std::string_view child) {
  return array::JoinFieldPath({std::string(column), std::string(child)});
}

/// Child `name` of the projected struct `column`, of the type the schema's struct field gives.
Result<ArrayPtr> ProjectedChild(const array::ArrayData& column, const array::Field& field,
                                std::string_view name, int64_t slot) {
  FieldPtr expected;
  for (const FieldPtr& f : field.type()->children()) {
    if (f->name() == name) expected = f;
  }
  const auto& got = column.type->children();
  for (std::size_t k = 0; k < got.size() && k < column.children.size(); ++k) {
    if (got[k]->name() != name) continue;
    const ArrayPtr& child = column.children[k];
    if (!expected || !child || !child->type || !child->type->Equals(*expected->type(), false)) {
      return SchemaMismatch("the layout of '" + Path(field.name(), name) + "' has type " +
                            got[k]->type()->ToString() + " but the decoder's schema says " +
                            (expected ? expected->type()->ToString() : "<no such child>"));
    }
    if (child->length <= slot) {
      return InvalidEncoding("column '" + field.name() + "': " + std::string(name) +
                             " is shorter than the column");
    }
    return child;
  }
  return SchemaMismatch("the batch has no '" + Path(field.name(), name) +
                        "'; read it with RowDecoder::LayoutProjection()");
}

/// The struct column named like `field`.
Result<ArrayPtr> BatchColumn(const array::RecordBatch& batch, const array::Field& field) {
  ArrayPtr column = batch.GetColumnByName(field.name());
  if (!column || !column->type || column->type->id() != TypeId::kStruct) {
    return SchemaMismatch("the batch has no struct column '" + field.name() +
                          "'; read it with RowDecoder::LayoutProjection()");
  }
  if (column->length < batch.num_rows()) {
    return InvalidEncoding("column '" + field.name() + "' is shorter than the batch");
  }
  return column;
}

}  // namespace

std::vector<std::string> RowDecoder::LayoutProjection() const {
  std::vector<std::string> out;
  for (const Column& c : columns_) {
    const std::string& name = c.logical->name();
    out.push_back(Path(name, kDimNamesField));
    out.push_back(Path(name, kDimSizesField));
    if (c.has_attrs_child) out.push_back(Path(name, kAttrsField));
  }
  if (global_column_ >= 0) out.push_back(schema_->field(global_column_)->name());
  return out;
}

Result<NdRowLayout> RowDecoder::DecodeRowLayout(const array::RecordBatch& batch,
                                                int64_t row) const {
  if (row < 0 || row >= batch.num_rows()) {
    return InvalidArgument("row " + std::to_string(row) + " is out of range; the batch has " +
                           std::to_string(batch.num_rows()) + " rows");
  }
  NdRowLayout out;
  for (const Column& c : columns_) {
    const array::Field& field = *schema_->field(c.index);
    LND_ASSIGN_OR_RETURN(ArrayPtr column, BatchColumn(batch, field));
    if (column->IsNull(row)) continue;
    const Where where{field.name(), row};
    const int64_t slot = column->offset + row;
    LND_ASSIGN_OR_RETURN(ArrayPtr names, ProjectedChild(*column, field, kDimNamesField, slot));
    LND_ASSIGN_OR_RETURN(ArrayPtr sizes, ProjectedChild(*column, field, kDimSizesField, slot));
    LND_ASSIGN_OR_RETURN(Dimensions dims, internal::DecodeDimensions(*names, *sizes, slot, where));
    Attributes attributes;
    if (c.has_attrs_child && !c.attribute_fields->empty()) {
      LND_ASSIGN_OR_RETURN(ArrayPtr attrs, ProjectedChild(*column, field, kAttrsField, slot));
      LND_ASSIGN_OR_RETURN(attributes,
                           internal::DecodeAttributes(attrs, c.attribute_fields, slot, where));
    }
    out.arrays.push_back(
        {c.logical->name(), std::move(dims), c.logical->type(), std::move(attributes)});
  }
  if (global_column_ >= 0) {
    const array::Field& field = *schema_->field(global_column_);
    LND_ASSIGN_OR_RETURN(ArrayPtr column, BatchColumn(batch, field));
    if (!column->type->Equals(*field.type(), false)) {
      return SchemaMismatch("column '" + field.name() + "' has type " + column->type->ToString() +
                            " but the decoder's schema says " + field.type()->ToString());
    }
    const Where where{field.name(), row};
    LND_ASSIGN_OR_RETURN(out.global_attributes,
                         internal::DecodeAttributes(column, global_fields_, row, where));
  }
  return out;
}

}  // namespace lance_nd::nd
