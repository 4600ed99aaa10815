// The evaluator's working columns: one flat vector per value kind, a byte per row for
// validity, offsets for lists. Arrow arrays are read into this form once per referenced column
// (struct validity folded in), then every kernel is a tight loop over plain vectors.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/type.h"

namespace lance_nd::query {

/// \brief How a column's values are held. Temporal values are integers in their unit
/// (date: days; timestamp, duration: the type's unit).
enum class Kind : std::uint8_t {
  kNull,
  kBool,
  kInt,
  kUInt,
  kFloat,
  kString,
  kBinary,
  kDate,
  kTimestamp,
  kDuration,
  kList,
  kStruct,
};

struct Column;
using ColumnPtr = std::shared_ptr<const Column>;

struct Column {
  Kind kind = Kind::kNull;
  array::DataTypePtr type;  // the Arrow type the values stand for
  std::int64_t length = 0;
  std::vector<std::uint8_t> valid;  // 1 where the row has a value
  std::vector<std::uint8_t> bools;
  std::vector<std::int64_t> ints;  // kInt and the temporal kinds
  std::vector<std::uint64_t> uints;
  std::vector<double> floats;
  std::vector<std::string_view> strings;  // kString, kBinary: views into `keep` or `arena`
  std::vector<std::int64_t> offsets;      // kList: row i is items[offsets[i], offsets[i+1])
  ColumnPtr items;
  std::vector<array::ArrayPtr> keep;
  std::shared_ptr<const std::string> arena;

  bool IsValid(std::int64_t i) const { return valid[static_cast<std::size_t>(i)] != 0; }
};

/// \brief The kind that holds values of `type`, or kNull for types the evaluator cannot read.
Kind KindOf(const array::DataType& type);

/// \brief Read rows [base, base + n) of `a` (base relative to the array's offset, as
/// ArrayData::IsValid) into a Column; rows where `parent_valid` (if not null) is 0 are null.
std::shared_ptr<Column> LoadColumn(const array::ArrayData& a, std::int64_t base, std::int64_t n,
                                   const std::vector<std::uint8_t>* parent_valid);

/// \brief A Column of `length` rows all equal to one value (a literal).
std::shared_ptr<Column> NullColumn(std::int64_t length);

/// \brief float16 bits to a float value.
float HalfToFloat(std::uint16_t bits);

}  // namespace lance_nd::query
