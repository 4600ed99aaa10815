// The fast path of RowDecoder::ValidateRows (row_validator_fast.cc).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "lance_nd/array/array_data.h"

namespace lance_nd::nd::internal {

/// One nd column of a batch as the fast path needs it.
struct FastColumn {
  const array::ArrayData* column = nullptr;
  bool has_attrs = false;     // the struct has an attrs child
  std::size_t num_attrs = 0;  // attribute fields (0: not checked)
};

/// One axis of one array of a row, pointing into the batch's buffers.
struct FastAxis {
  std::string_view name;
  std::uint32_t size = 0;
};

/// \brief True when every row of a batch that passed CheckBatch, array::Validate and
/// CheckRowsBacked keeps the per-row rules of ValidateRows; false when one is broken or the
/// layout is not the common one (then the caller checks row by row for the message).
bool RowsFitFast(std::span<const FastColumn> columns, const array::ArrayData* globals,
                 std::size_t num_global_fields, int64_t rows);

}  // namespace lance_nd::nd::internal
