// Concatenation of arrays of one type.
#include <string>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/builder.h"

namespace lance_nd::array {

Result<ArrayPtr> Concatenate(const std::vector<ArrayPtr>& arrays) {
  if (arrays.empty()) {
    return Status::InvalidArgument("cannot concatenate zero arrays: the type is unknown");
  }
  if (!arrays[0] || !arrays[0]->type) {
    return Status::InvalidArgument("cannot concatenate: array 0 is null or has no type");
  }
  const DataTypePtr& type = arrays[0]->type;
  if (arrays.size() == 1) return arrays[0];
  for (std::size_t i = 1; i < arrays.size(); ++i) {
    if (!arrays[i] || !arrays[i]->type || !arrays[i]->type->Equals(*type, false)) {
      return Status::InvalidArgument(
          "cannot concatenate: array " + std::to_string(i) + " has type " +
          (arrays[i] && arrays[i]->type ? arrays[i]->type->ToString() : "<none>") + ", expected " +
          type->ToString());
    }
  }
  std::unique_ptr<ArrayBuilder> builder = MakeBuilder(type);
  for (const auto& a : arrays) {
    LND_RETURN_NOT_OK(builder->AppendArraySlice(*a, 0, a->length));
  }
  return builder->Finish();
}

}  // namespace lance_nd::array
