// NdArrowArray: one N-dimensional array: flat C-order values, named dimensions, attributes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/nd/attributes.h"
#include "lance_nd/nd/dimensions.h"

namespace lance_nd::nd {

/// \brief Values (any Arrow type, nulls are missing elements) laid out in C order over
/// `dimensions`, plus per-array attributes. Always valid: the values length equals the
/// product of the sizes (1 for a scalar).
class LANCE_ND_EXPORT NdArrowArray {
 public:
  /// \brief Errors: InvalidArgument "shape mismatch: values length {n} does not match
  /// dimensions {dims} ({k} elements)"; "invalid argument: ..." for missing values.
  static Result<NdArrowArray> Make(array::ArrayPtr values, Dimensions dimensions,
                                   Attributes attributes = {});

  const array::ArrayPtr& values() const { return values_; }
  const array::DataTypePtr& value_type() const { return values_->type; }
  const Dimensions& dimensions() const { return dimensions_; }
  const Attributes& attributes() const { return attributes_; }
  Attributes& mutable_attributes() { return attributes_; }
  NdArrowArray WithAttributes(Attributes attributes) const;

  std::size_t rank() const { return dimensions_.rank(); }
  int64_t num_elements() const { return dimensions_.num_elements(); }
  std::vector<uint64_t> shape() const { return dimensions_.sizes(); }

  /// \brief Same value type and values, same dimensions in the same order, same attributes.
  bool Equals(const NdArrowArray& other) const;
  bool operator==(const NdArrowArray& other) const { return Equals(other); }
  /// \brief "float32[x=3, y=4] {units: ...}".
  std::string ToString() const;

 private:
  NdArrowArray(array::ArrayPtr values, Dimensions dimensions, Attributes attributes)
      : values_(std::move(values)),
        dimensions_(std::move(dimensions)),
        attributes_(std::move(attributes)) {}

  array::ArrayPtr values_;
  Dimensions dimensions_;
  Attributes attributes_;
};

}  // namespace lance_nd::nd
