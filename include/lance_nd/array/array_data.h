// ArrayData: the Arrow columnar layout of one array (type, length, offset, buffers, children).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lance_nd/array/buffer.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"

namespace lance_nd::array {

struct ArrayData;
using ArrayPtr = std::shared_ptr<const ArrayData>;

/// \brief One immutable Arrow array in the standard columnar layout.
///
/// Buffers follow the Arrow C Data Interface order for each type:
///   null: none | bool, primitives, temporal: [validity, values]
///   utf8/binary (int32 offsets), large_* (int64 offsets): [validity, offsets, data]
///   fixed_size_binary: [validity, values] | list/large_list: [validity, offsets]
///   fixed_size_list, struct: [validity]
/// A null validity buffer means "no nulls". `offset` is in logical elements, with Arrow's
/// semantics: it applies to this array's buffers, and for struct and fixed_size_list also to
/// the children (struct row i is child slot offset+i; fixed-size-list row i starts at child
/// slot (offset+i)*list_size). List offsets index into the child as they are.
struct LANCE_ND_EXPORT ArrayData {
  DataTypePtr type;
  int64_t length = 0;
  /// Number of nulls, or kUnknownNullCount to compute lazily with null_count().
  int64_t null_count_hint = 0;
  int64_t offset = 0;
  std::vector<BufferPtr> buffers;
  std::vector<ArrayPtr> children;

  static constexpr int64_t kUnknownNullCount = -1;

  /// \brief The null count (counted from the validity bitmap if unknown). The null type has
  /// length nulls.
  int64_t null_count() const;
  bool IsValid(int64_t i) const;  // i is relative to `offset`
  bool IsNull(int64_t i) const { return !IsValid(i); }
  /// \brief No null among slots [begin, begin + count) (relative to `offset`) by the validity
  /// bitmap: true without one, or when every bit of the range is set. (The null type aside.)
  bool AllValid(int64_t begin, int64_t count) const;
  const std::uint8_t* validity() const {
    return buffers.empty() || !buffers[0] ? nullptr : buffers[0]->data();
  }
  /// \brief Typed pointer to buffer `i`, already advanced by `offset` for fixed-width values.
  /// Null when the buffer is absent (allowed for empty arrays).
  template <typename T>
  const T* values(std::size_t i = 1) const {
    if (i >= buffers.size() || !buffers[i]) return nullptr;
    return reinterpret_cast<const T*>(buffers[i]->data()) + offset;
  }
};

LANCE_ND_EXPORT ArrayPtr MakeArrayData(DataTypePtr type, int64_t length,
                                       std::vector<BufferPtr> buffers,
                                       std::vector<ArrayPtr> children = {},
                                       int64_t null_count = ArrayData::kUnknownNullCount,
                                       int64_t offset = 0);

/// \brief Zero-copy slice of [offset, offset + length): adjusts `offset` and `length` only.
LANCE_ND_EXPORT Result<ArrayPtr> Slice(const ArrayPtr& array, int64_t offset, int64_t length);

/// \brief An array of `length` nulls of any type, with valid empty children where required.
LANCE_ND_EXPORT ArrayPtr MakeArrayOfNulls(const DataTypePtr& type, int64_t length);

/// \brief An empty (length 0) array of any type.
LANCE_ND_EXPORT ArrayPtr MakeEmptyArray(const DataTypePtr& type);

/// \brief Concatenate arrays of one type into a new array.
LANCE_ND_EXPORT Result<ArrayPtr> Concatenate(const std::vector<ArrayPtr>& arrays);

/// \brief Full validation of untrusted data: buffer counts and sizes, offsets monotonic and in
/// range, utf8 valid, child lengths, null counts. Errors are InvalidArgument naming what was
/// wrong and where.
LANCE_ND_EXPORT Status Validate(const ArrayData& array);

/// \brief Logical equality: same type and length, same validity and same valid values
/// (offsets and slicing do not matter; values under a null slot are ignored).
LANCE_ND_EXPORT bool ArrayEquals(const ArrayData& a, const ArrayData& b,
                                 bool check_metadata = true);

/// \brief Readable multi-line rendering: "[1, null, 3]", structs as "-- child: ..." blocks.
LANCE_ND_EXPORT std::string PrettyPrint(const ArrayData& array, int indent = 0);

/// \brief A set of equal-length columns with a schema.
class LANCE_ND_EXPORT RecordBatch {
 public:
  RecordBatch(SchemaPtr schema, int64_t num_rows, std::vector<ArrayPtr> columns);

  /// \brief Checks that the columns match the schema types and the row count.
  static Result<std::shared_ptr<const RecordBatch>> Make(SchemaPtr schema, int64_t num_rows,
                                                         std::vector<ArrayPtr> columns);

  const SchemaPtr& schema() const { return schema_; }
  int64_t num_rows() const { return num_rows_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  const ArrayPtr& column(int i) const { return columns_.at(static_cast<std::size_t>(i)); }
  const std::vector<ArrayPtr>& columns() const { return columns_; }
  ArrayPtr GetColumnByName(std::string_view name) const;

  /// \brief The batch as one struct array (schema metadata is dropped).
  ArrayPtr ToStructArray() const;
  Result<std::shared_ptr<const RecordBatch>> Slice(int64_t offset, int64_t length) const;
  Status Validate() const;
  bool Equals(const RecordBatch& other, bool check_metadata = true) const;
  std::string ToString() const;

 private:
  SchemaPtr schema_;
  int64_t num_rows_;
  std::vector<ArrayPtr> columns_;
};

using RecordBatchPtr = std::shared_ptr<const RecordBatch>;

}  // namespace lance_nd::array
