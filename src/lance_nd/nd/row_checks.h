// Checks of encoded rows shared by the row decoder and the row validator: where a message
// points, list ranges checked against their items, and row counts backed by buffers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"

namespace lance_nd::nd::internal {

/// The "column 'c' row r: " prefix of a row's messages, built only when a message is.
struct Where {
  std::string_view column;
  int64_t row = 0;
  std::string str() const {
    return "column '" + std::string(column) + "' row " + std::to_string(row) + ": ";
  }
};
inline std::string operator+(const Where& where, std::string_view text) {
  return where.str() + std::string(text);
}

/// \brief InvalidEncoding when two of `fields`, the children of an attributes struct (`what`, e.g.
/// "the attrs struct"), have one name: a row would hold one key twice, and no row can be
/// encoded that way.
Status CheckUniqueAttributeKeys(const std::vector<array::FieldPtr>& fields, std::string_view what);

/// \brief Corrupt when the batch declares more rows than its buffers can back (a row that holds
/// data needs at least one bit), so a corrupt count never sizes an allocation.
Status CheckRowsBacked(const array::RecordBatch& batch);

/// \brief The child slot range [begin, end) of list slot `slot`, checked against the child
/// length; Corrupt for a null slot or offsets outside the items.
Result<std::pair<int64_t, int64_t>> ListRange(const array::ArrayData& list, int64_t slot,
                                              const Where& where, std::string_view what);

/// \brief The item ranges of list slot `slot` of the `dim_names` and `dim_sizes` children,
/// checked against their items and against each other (one size per name: the rank).
struct AxisRanges {
  std::pair<int64_t, int64_t> names, sizes;
  int64_t rank() const { return names.second - names.first; }
};
Result<AxisRanges> DimensionRanges(const array::ArrayData& names_list,
                                   const array::ArrayData& sizes_list, int64_t slot,
                                   const Where& where);

}  // namespace lance_nd::nd::internal
