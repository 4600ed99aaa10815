// Test helpers of the nd layer (not part of the library).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/array/builder.h"
#include "lance_nd/nd/nd_array.h"
#include "lance_nd/nd/record_batch.h"
#include "lance_nd/nd/row_encoding.h"

namespace lance_nd::nd::testing {

/// The value of `r`; a failed Result ends the test binary with its message.
template <typename T>
T Unwrap(Result<T> r) {
  if (!r.ok()) {
    ADD_FAILURE() << "unexpected error: " << r.status().ToString();
    std::abort();
  }
  return std::move(*r);
}

/// Expect `layout` to describe `row`: the same arrays in order, dimensions, value types and
/// attributes, and the same global attributes. `where` names the case in messages.
inline void ExpectLayoutOf(const NdRecordBatch& row, const NdRowLayout& layout,
                           const std::string& where) {
  ASSERT_EQ(layout.arrays.size(), static_cast<std::size_t>(row.num_columns())) << where;
  for (int i = 0; i < row.num_columns(); ++i) {
    const NdArrayLayout& got = layout.arrays[static_cast<std::size_t>(i)];
    const NdArrowArray& want = row.column(i);
    EXPECT_EQ(got.name, row.column_name(i)) << where;
    EXPECT_EQ(got.dimensions, want.dimensions()) << where << " array " << got.name;
    EXPECT_TRUE(got.value_type->Equals(*want.value_type()))
        << where << " array " << got.name << ": " << got.value_type->ToString() << " vs "
        << want.value_type()->ToString();
    EXPECT_EQ(got.attributes, want.attributes()) << where << " array " << got.name;
  }
  EXPECT_EQ(layout.global_attributes, row.attributes()) << where;
}

inline array::ArrayPtr F32(const std::vector<std::optional<float>>& v) {
  return array::MakePrimitiveArray<float>(array::Float32(), v);
}
inline array::ArrayPtr F64(const std::vector<std::optional<double>>& v) {
  return array::MakePrimitiveArray<double>(array::Float64(), v);
}
inline array::ArrayPtr I32(const std::vector<std::optional<int32_t>>& v) {
  return array::MakePrimitiveArray<int32_t>(array::Int32(), v);
}
inline array::ArrayPtr I64(const std::vector<std::optional<int64_t>>& v) {
  return array::MakePrimitiveArray<int64_t>(array::Int64(), v);
}
inline array::ArrayPtr Str(const std::vector<std::optional<std::string>>& v) {
  return array::MakeStringArray(v);
}

/// A float32 array 0, 1, 2, ... of `n` values.
inline array::ArrayPtr Iota32(int64_t n) {
  std::vector<std::optional<float>> v;
  for (int64_t i = 0; i < n; ++i) v.emplace_back(static_cast<float>(i));
  return F32(v);
}

inline Dimensions Dims(const std::vector<std::pair<std::string, uint64_t>>& dims) {
  std::vector<Dimension> out;
  for (const auto& [name, size] : dims) out.push_back(Dimension{name, size});
  return Unwrap(Dimensions::Make(std::move(out)));
}

inline NdArrowArray Nd(array::ArrayPtr values, std::vector<std::pair<std::string, uint64_t>> dims,
                       Attributes attributes = {}) {
  return Unwrap(
      NdArrowArray::Make(std::move(values), Dims(std::move(dims)), std::move(attributes)));
}

inline NdRecordBatch Batch(std::vector<std::pair<std::string, NdArrowArray>> arrays,
                           Attributes attributes = {}) {
  return Unwrap(NdRecordBatch::FromArrays(std::move(arrays), std::move(attributes)));
}

}  // namespace lance_nd::nd::testing
