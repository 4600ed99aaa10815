// Schema <-> Arrow IPC flatbuffer Schema table.
#pragma once

#include "lance_nd/array/ipc/fbs.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"

namespace lance_nd::array::ipc::internal {

/// \brief Serialise `schema` (fields, nullability, types, field and schema metadata).
Result<flatbuffers::Offset<fb::Schema>> BuildSchema(flatbuffers::FlatBufferBuilder& fbb,
                                                    const Schema& schema);

/// \brief Decode a verified flatbuffer schema. Unsupported types and dictionary-encoded fields
/// are NotImplemented; inconsistent ones (a list without a child, ...) Corrupt.
Result<SchemaPtr> ParseSchema(const fb::Schema* schema);

}  // namespace lance_nd::array::ipc::internal
