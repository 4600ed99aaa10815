// Arrow types as a Lance schema stores them, for checking written data against a schema.
#pragma once

#include "lance_nd/array/type.h"

namespace lance_nd::file {

/// \brief `type` as it reads back from a Lance schema: a fixed-size list's item is always
/// nullable there (its logical type "fixed_size_list:T:n" keeps no item nullability).
array::DataTypePtr StoredType(const array::DataTypePtr& type);

/// \brief Whether data of type `data` can be written under the schema type `schema`: equal
/// types once both are in their stored form (metadata ignored).
bool SameStoredType(const array::DataTypePtr& schema, const array::DataTypePtr& data);

}  // namespace lance_nd::file
