#include "retype.h"

#include "lance_nd/nd/errors.h"

namespace lance_nd::nd::internal {

Result<array::ArrayPtr> Retype(const array::ArrayPtr& array, const array::DataTypePtr& type) {
  if (array->type == type || array->type->Equals(*type)) return array;
  const auto& from = *array->type;
  if (from.id() != type->id() || from.children().size() != type->children().size() ||
      !from.Equals(*type, /*check_metadata=*/false)) {
    return InvalidEncoding("an array of type " + from.ToString() + " was found where " +
                           type->ToString() + " was expected");
  }
  auto out = std::make_shared<array::ArrayData>(*array);
  out->type = type;
  if (type->id() == array::TypeId::kStruct) {
    if (array->children.size() != type->children().size()) {
      return InvalidEncoding("a struct array has " + std::to_string(array->children.size()) +
                             " children but its type has " +
                             std::to_string(type->children().size()));
    }
    for (std::size_t i = 0; i < array->children.size(); ++i) {
      LND_ASSIGN_OR_RETURN(out->children[i],
                           Retype(array->children[i], type->children()[i]->type()));
    }
  } else if (type->is_list_like()) {
    if (array->children.size() != 1) {
      return InvalidEncoding("a list array has " + std::to_string(array->children.size()) +
                             " children but 1 was expected");
    }
    LND_ASSIGN_OR_RETURN(out->children[0], Retype(array->children[0], type->value_type()));
  }
  return array::ArrayPtr(std::move(out));
}

}  // namespace lance_nd::nd::internal
