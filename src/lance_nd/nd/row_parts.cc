#include "row_parts.h"

#include <string>
#include <utility>
#include <vector>

#include "lance_nd/array/view.h"
#include "lance_nd/nd/errors.h"
#include "lance_nd/nd/format.h"

namespace lance_nd::nd::internal {

Result<Dimensions> DecodeDimensions(const array::ArrayData& names_list,
                                    const array::ArrayData& sizes_list, int64_t slot,
                                    const Where& where) {
  LND_ASSIGN_OR_RETURN(const AxisRanges axes, DimensionRanges(names_list, sizes_list, slot, where));
  const int64_t rank = axes.rank();
  const array::ArrayData& name_items = *names_list.children[0];
  const array::ArrayData& size_items = *sizes_list.children[0];
  const array::BinaryView name_view(name_items);
  const array::PrimitiveView<uint32_t> size_view(size_items);
  std::vector<Dimension> dims;
  dims.reserve(static_cast<std::size_t>(rank));
  for (int64_t k = 0; k < rank; ++k) {
    const int64_t ni = axes.names.first + k;
    const int64_t si = axes.sizes.first + k;
    if (name_items.IsNull(ni) || size_items.IsNull(si)) {
      return InvalidEncoding(where + "axis " + std::to_string(k) +
                             " has a null dimension name or size");
    }
    dims.push_back(Dimension{std::string(name_view.Value(ni)), size_view.Value(si)});
  }
  auto dimensions = Dimensions::Make(std::move(dims));
  if (!dimensions.ok()) return InvalidEncoding(where + std::string(dimensions.status().message()));
  return dimensions;
}

Result<Attributes> DecodeAttributes(const array::ArrayPtr& attrs,
                                    const RowDecoder::FieldList& fields, int64_t slot,
                                    const Where& where) {
  if (attrs->IsNull(slot)) return Attributes();
  if (attrs->children.size() != fields->size()) {
    return InvalidEncoding(where + "the attributes struct has " +
                           std::to_string(attrs->children.size()) + " children but its type has " +
                           std::to_string(fields->size()));
  }
  const int64_t child_slot = attrs->offset + slot;
  for (std::size_t k = 0; k < fields->size(); ++k) {
    const array::ArrayPtr& child = attrs->children[k];
    if (!child || child->length <= child_slot) {
      return InvalidEncoding(where + "attribute '" + (*fields)[k]->name() +
                             "' is shorter than the column");
    }
  }
  return Attributes::Deferred(attrs, fields, slot);
}

}  // namespace lance_nd::nd::internal
