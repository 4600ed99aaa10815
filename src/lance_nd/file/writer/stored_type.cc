#include "lance_nd/file/lance_schema.h"

#include <utility>
#include <vector>

namespace lance_nd::file {

namespace {

array::FieldPtr StoredField(const array::FieldPtr& f, bool nullable) {
  return array::MakeField(f->name(), StoredType(f->type()), nullable);
}

}  // namespace

array::DataTypePtr StoredType(const array::DataTypePtr& type) {
  switch (type->id()) {
    case array::TypeId::kFixedSizeList:
      return array::FixedSizeList(StoredField(type->value_field(), true), type->fixed_size());
    case array::TypeId::kList:
      return array::List(StoredField(type->value_field(), type->value_field()->nullable()));
    case array::TypeId::kLargeList:
      return array::LargeList(StoredField(type->value_field(), type->value_field()->nullable()));
    case array::TypeId::kStruct: {
      std::vector<array::FieldPtr> fields;
      for (const auto& f : type->children()) fields.push_back(StoredField(f, f->nullable()));
      return array::Struct(std::move(fields));
    }
    default:
      return type;
  }
}

bool SameStoredType(const array::DataTypePtr& schema, const array::DataTypePtr& data) {
  if (schema->Equals(*data, /*check_metadata=*/false)) return true;
  return StoredType(schema)->Equals(*StoredType(data), /*check_metadata=*/false);
}

}  // namespace lance_nd::file
