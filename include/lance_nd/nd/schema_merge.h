// Encoded-schema checks and merging (schema evolution of a lance-nd table).
#pragma once

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"

namespace lance_nd::nd {

/// \brief OK when every field of `schema` is an nd column (tag, version, storage layout), the
/// global-attributes column (a Struct with named children; at most one) or a `__stats__*`
/// column, with unique names. Errors are Corrupt "invalid nd encoding: ...".
LANCE_ND_EXPORT Status ValidateEncodedSchema(const array::Schema& schema);

/// \brief The schema a table must have to hold both its rows and rows encoded as `incoming`
/// (docs/FORMAT.md §3.5): the table's fields in their order, keeping their metadata; then the
/// incoming fields the table lacks, in incoming order. For an array in both, attribute keys the
/// table lacks are appended to its `attrs` struct (which is added if absent); the same for
/// `__global_attrs__`. Schema metadata: the table's, plus incoming keys it lacks. The result
/// equals `table` (Schema::Equals) when nothing is new.
///
/// Errors: SchemaMismatch when an array has another value type, an attribute key or global
/// key another type, or a stats column another type (metadata is not compared); Corrupt when
/// either schema is not an encoded schema.
LANCE_ND_EXPORT Result<array::SchemaPtr> MergeEncodedSchema(const array::Schema& table,
                                                            const array::Schema& incoming);

}  // namespace lance_nd::nd
