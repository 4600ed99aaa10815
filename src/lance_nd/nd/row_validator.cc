// RowDecoder::ValidateRows: the decoder's checks of encoded rows, column by column, without
// building nd record batches (a writer given encoded rows keeps them as they are).
#include <string>
#include <vector>

#include "lance_nd/array/view.h"
#include "lance_nd/nd/errors.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/nd/row_encoding.h"
#include "row_checks.h"
#include "row_validator_fast.h"

namespace lance_nd::nd {

namespace {

using array::ArrayData;
using internal::AxisRanges;
using internal::DimensionRanges;
using internal::ListRange;
using internal::Where;

constexpr uint64_t kMaxElements = INT64_MAX;

// One axis of one array of a row, pointing into the batch's buffers.
struct Axis {
  std::string_view name;
  uint32_t size = 0;
};

// The axes of non-null row `row` of nd column `column` (appended to `axes`), checked as the
// decoder checks them: three lists in range, equal rank, named and sized axes with unique
// non-empty names, and as many values as the sizes' product.
Status CheckArrayRow(const ArrayData& column, std::string_view name, bool has_attrs, int64_t row,
                     std::vector<Axis>* axes) {
  const Where where{name, row};
  const int64_t slot = column.offset + row;
  const std::size_t expected_children = has_attrs ? 4 : 3;
  if (column.children.size() != expected_children) {
    return InvalidEncoding(where + "the struct has " + std::to_string(column.children.size()) +
                           " children but its type has " + std::to_string(expected_children));
  }
  for (const array::ArrayPtr& child : column.children) {
    if (!child || child->length <= slot) {
      return InvalidEncoding(where + "a child array is shorter than the column");
    }
  }
  LND_ASSIGN_OR_RETURN(auto values, ListRange(*column.children[0], slot, where, kValuesField));
  LND_ASSIGN_OR_RETURN(const AxisRanges ranges,
                       DimensionRanges(*column.children[1], *column.children[2], slot, where));
  const int64_t rank = ranges.rank();
  const ArrayData& name_items = *column.children[1]->children[0];
  const ArrayData& size_items = *column.children[2]->children[0];
  const array::BinaryView name_view(name_items);
  const array::PrimitiveView<uint32_t> size_view(size_items);
  const std::size_t first_axis = axes->size();
  // The product of the sizes, saturated: a later size 0 still makes it 0.
  uint64_t elements = 1;
  bool overflow = false;
  bool zero = false;
  for (int64_t k = 0; k < rank; ++k) {
    const int64_t ni = ranges.names.first + k;
    const int64_t si = ranges.sizes.first + k;
    if (name_items.IsNull(ni) || size_items.IsNull(si)) {
      return InvalidEncoding(where + "axis " + std::to_string(k) +
                             " has a null dimension name or size");
    }
    const Axis axis{name_view.Value(ni), size_view.Value(si)};
    for (std::size_t j = first_axis; j < axes->size(); ++j) {
      if ((*axes)[j].name == axis.name) {
        return InvalidEncoding(where + "invalid dimensions: dimension name '" +
                               std::string(axis.name) + "' appears more than once");
      }
    }
    if (axis.name.empty()) return InvalidEncoding(where + "invalid dimensions: empty name");
    zero = zero || axis.size == 0;
    overflow = overflow || (axis.size != 0 && elements > kMaxElements / axis.size);
    if (!overflow) elements *= axis.size;
    axes->push_back(axis);
  }
  if (zero) elements = 0;
  if (overflow && !zero) {
    return InvalidEncoding(where +
                           "invalid dimensions: the element count overflows a 64-bit "
                           "integer");
  }
  if (values.second - values.first != static_cast<int64_t>(elements)) {
    return InvalidEncoding(where + "values length " + std::to_string(values.second - values.first) +
                           " does not match dimensions (" +
                           std::to_string(static_cast<int64_t>(elements)) + " elements)");
  }
  return Status::OK();
}

// Attribute struct slot `slot` has one child per attribute field, each long enough.
Status CheckAttributesRow(const ArrayData& attrs, std::size_t num_fields, int64_t slot,
                          const Where& where) {
  if (attrs.IsNull(slot)) return Status::OK();
  if (attrs.children.size() != num_fields) {
    return InvalidEncoding(where + "the attributes struct has " +
                           std::to_string(attrs.children.size()) + " children but its type has " +
                           std::to_string(num_fields));
  }
  for (const array::ArrayPtr& child : attrs.children) {
    if (!child || child->length <= attrs.offset + slot) {
      return InvalidEncoding(where + "an attribute is shorter than the column");
    }
  }
  return Status::OK();
}

// The arrays of one row share a grid: one axis name never has two sizes other than 1.
Status CheckSharedGrid(const std::vector<Axis>& axes, int64_t row) {
  for (std::size_t i = 0; i < axes.size(); ++i) {
    for (std::size_t j = i + 1; j < axes.size(); ++j) {
      const Axis& a = axes[i];
      const Axis& b = axes[j];
      if (a.name == b.name && a.size != b.size && a.size != 1 && b.size != 1) {
        return InvalidEncoding("row " + std::to_string(row) + ": shape mismatch: axis '" +
                               std::string(a.name) + "' has sizes " + std::to_string(a.size) +
                               " and " + std::to_string(b.size));
      }
    }
  }
  return Status::OK();
}

}  // namespace

Status RowDecoder::ValidateRows(const array::RecordBatch& batch) const {
  LND_RETURN_NOT_OK(CheckBatch(batch));
  const Status valid = batch.Validate();
  if (!valid.ok()) {
    return InvalidEncoding("the batch is not valid Arrow data: " + std::string(valid.message()));
  }
  LND_RETURN_NOT_OK(internal::CheckRowsBacked(batch));
  std::vector<internal::FastColumn> fast;
  for (const Column& c : columns_) {
    fast.push_back({batch.column(c.index).get(), c.has_attrs_child, c.attribute_fields->size()});
  }
  const ArrayData* globals = global_column_ >= 0 ? batch.column(global_column_).get() : nullptr;
  if (internal::RowsFitFast(fast, globals, global_fields_->size(), batch.num_rows())) {
    return Status::OK();
  }
  // Row by row: the first broken rule, named.
  std::vector<Axis> axes;
  for (int64_t row = 0; row < batch.num_rows(); ++row) {
    axes.clear();
    for (const Column& c : columns_) {
      const ArrayData& column = *batch.column(c.index);
      if (column.IsNull(row)) continue;
      LND_RETURN_NOT_OK(CheckArrayRow(column, c.logical->name(), c.has_attrs_child, row, &axes));
      if (c.has_attrs_child && !c.attribute_fields->empty()) {
        LND_RETURN_NOT_OK(CheckAttributesRow(*column.children[3], c.attribute_fields->size(),
                                             column.offset + row, Where{c.logical->name(), row}));
      }
    }
    if (global_column_ >= 0) {
      LND_RETURN_NOT_OK(CheckAttributesRow(*batch.column(global_column_), global_fields_->size(),
                                           row, Where{kGlobalAttributesField, row}));
    }
    LND_RETURN_NOT_OK(CheckSharedGrid(axes, row));
  }
  return Status::OK();
}

}  // namespace lance_nd::nd
