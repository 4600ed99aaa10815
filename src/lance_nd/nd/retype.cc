#include "retype.h"

#include <memory>
#include <vector>

#include "lance_nd/nd/errors.h"

namespace lance_nd::nd::internal {

namespace {

/// Nested type `type` (a list or struct: no parameters but the list size) with `children`.
array::DataTypePtr WithChildren(const array::DataType& type,
                                std::vector<array::FieldPtr> children) {
  return std::make_shared<const array::DataType>(type.id(), type.fixed_size(), type.unit(),
                                                 type.timezone(), std::move(children));
}

}  // namespace

bool SameUpToNullability(const array::DataType& a, const array::DataType& b, bool check_metadata) {
  if (&a == &b) return true;
  const auto& ac = a.children();
  const auto& bc = b.children();
  if (ac.empty() || bc.empty()) return a.Equals(b, check_metadata);
  if (a.id() != b.id() || a.fixed_size() != b.fixed_size() || ac.size() != bc.size()) {
    return false;
  }
  for (std::size_t i = 0; i < ac.size(); ++i) {
    if (!ac[i] || !bc[i] || ac[i]->name() != bc[i]->name() ||
        (check_metadata && ac[i]->metadata() != bc[i]->metadata()) ||
        !SameUpToNullability(*ac[i]->type(), *bc[i]->type(), check_metadata)) {
      return false;
    }
  }
  return true;
}

array::DataTypePtr NullableUnion(const array::DataTypePtr& a, const array::DataTypePtr& b) {
  const auto& ac = a->children();
  const auto& bc = b->children();
  if (ac.empty() || ac.size() != bc.size()) return a;
  std::vector<array::FieldPtr> children;
  children.reserve(ac.size());
  bool changed = false;
  for (std::size_t i = 0; i < ac.size(); ++i) {
    array::DataTypePtr type = NullableUnion(ac[i]->type(), bc[i]->type());
    const bool nullable = ac[i]->nullable() || bc[i]->nullable();
    changed = changed || type != ac[i]->type() || nullable != ac[i]->nullable();
    children.push_back(
        array::MakeField(ac[i]->name(), std::move(type), nullable, ac[i]->metadata()));
  }
  return changed ? WithChildren(*a, std::move(children)) : a;
}

Result<array::ArrayPtr> Retype(const array::ArrayPtr& array, const array::DataTypePtr& type) {
  if (array->type == type || array->type->Equals(*type)) return array;
  const auto& from = *array->type;
  // Nullable where the array's type is not: the same data, a looser promise.
  const bool looser = SameUpToNullability(from, *type) &&
                      NullableUnion(type, array->type)->Equals(*type, /*check_metadata=*/false);
  if (from.id() != type->id() || from.children().size() != type->children().size() || !looser) {
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
