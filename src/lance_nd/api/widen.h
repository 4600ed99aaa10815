// Widening a variable's value type in place (Table::Widen, and Casting::kPromote writers).
#pragma once

#include <string_view>

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/table/dataset.h"

namespace lance_nd::api::internal {

/// \brief Change `variable`'s value type in `ds`'s table to `to`, which must hold every old
/// value exactly (the kSafe rule): the variable's column and its stats column (when there is
/// one; min/max get the new type) are rewritten, nothing else, in ONE commit on ds.version().
/// The same type returns `ds` without a commit.
///
/// Errors: InvalidArgument naming the table's variables when `variable` is not one of them;
/// SchemaMismatch + ErrorKind::kCastRejected naming both types when `to` cannot hold every
/// value; Corrupt when the table's schema is not an encoded schema.
Result<table::Dataset> WidenVariable(const table::Dataset& ds, std::string_view variable,
                                     const array::DataTypePtr& to);

}  // namespace lance_nd::api::internal
