// Accumulates decoded value slots (DataBlocks from several pages / chunks) into one Arrow array
// of a leaf type, with the validity computed from the definition levels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"
#include "lance_nd/file/encoding/compressive.h"

namespace lance_nd::file::internal {

using encoding::DataBlock;

class ValueBuilder {
 public:
  /// \brief `type` is the leaf's Arrow type: null, bool, fixed-width primitives and temporal,
  /// fixed_size_binary, utf8/binary (and large), or a fixed_size_list of fixed-width items.
  static Result<ValueBuilder> Make(array::DataTypePtr type);

  /// \brief Append values [from, from + count) of `block`.
  Status Append(const DataBlock& block, std::uint64_t from, std::uint64_t count);

  std::uint64_t length() const { return length_; }

  /// \brief Build the array. `validity` holds length() bits (null = all valid).
  Result<array::ArrayPtr> Finish(array::BufferPtr validity, int64_t null_count);

 private:
  enum class Kind : std::uint8_t { kNull, kBool, kFixed, kVariable, kFsl };
  explicit ValueBuilder(array::DataTypePtr type) : type_(std::move(type)) {}
  void AppendBits(const std::uint8_t* bits, std::uint64_t from, std::uint64_t count,
                  std::vector<std::uint8_t>* out, std::uint64_t* out_len);
  void AppendConstantBits(bool v, std::uint64_t count, std::vector<std::uint8_t>* out,
                          std::uint64_t* out_len);

  array::DataTypePtr type_;
  Kind kind_ = Kind::kFixed;
  std::uint64_t width_ = 0;        // bytes per slot (fixed, fsl)
  std::uint64_t fsl_size_ = 0;     // items per slot (fsl)
  std::uint64_t length_ = 0;
  std::vector<std::uint8_t> data_;
  std::vector<std::int64_t> offsets_{0};
  std::uint64_t bit_len_ = 0;               // bool: bits in data_
  std::vector<std::uint8_t> item_validity_;  // fsl items (lazy)
  std::uint64_t item_validity_len_ = 0;
  bool has_item_validity_ = false;
};

}  // namespace lance_nd::file::internal
