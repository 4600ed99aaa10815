#include "lance_nd/nd/nd_array.h"

#include "lance_nd/nd/errors.h"

namespace lance_nd::nd {

Result<NdArrowArray> NdArrowArray::Make(array::ArrayPtr values, Dimensions dimensions,
                                        Attributes attributes) {
  if (!values || !values->type) {
    return InvalidArgument("an nd array needs a values array (got none)");
  }
  if (values->length != dimensions.num_elements()) {
    return ShapeMismatch("values length " + std::to_string(values->length) +
                         " does not match dimensions " + dimensions.ToString() + " (" +
                         std::to_string(dimensions.num_elements()) + " elements)");
  }
  return NdArrowArray(std::move(values), std::move(dimensions), std::move(attributes));
}

NdArrowArray NdArrowArray::WithAttributes(Attributes attributes) const {
  return NdArrowArray(values_, dimensions_, std::move(attributes));
}

bool NdArrowArray::Equals(const NdArrowArray& other) const {
  return dimensions_ == other.dimensions_ && attributes_ == other.attributes_ &&
         array::ArrayEquals(*values_, *other.values_);
}

std::string NdArrowArray::ToString() const {
  std::string out = values_->type->ToString() + dimensions_.ToString();
  if (!attributes_.empty()) out += " " + attributes_.ToString();
  return out;
}

}  // namespace lance_nd::nd
