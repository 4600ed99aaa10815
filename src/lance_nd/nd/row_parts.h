// Parts of one encoded row decoded alike for whole rows (row_decoder.cc) and for row layouts
// read without values (row_layout.cc): the dimensions and the attributes.
#pragma once

#include <cstdint>

#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"
#include "lance_nd/nd/attributes.h"
#include "lance_nd/nd/dimensions.h"
#include "lance_nd/nd/row_encoding.h"
#include "row_checks.h"

namespace lance_nd::nd::internal {

/// \brief The dimensions of list slot `slot` of the `dim_names` and `dim_sizes` children.
/// Corrupt when the two lists differ in length, hold a null, or break Dimensions::Make.
Result<Dimensions> DecodeDimensions(const array::ArrayData& names_list,
                                    const array::ArrayData& sizes_list, int64_t slot,
                                    const Where& where);

/// \brief The non-null children of struct slot `slot` as attributes (none when the slot is
/// null), decoded when first read: here only the struct's shape is checked.
Result<Attributes> DecodeAttributes(const array::ArrayPtr& attrs,
                                    const RowDecoder::FieldList& fields, int64_t slot,
                                    const Where& where);

}  // namespace lance_nd::nd::internal
