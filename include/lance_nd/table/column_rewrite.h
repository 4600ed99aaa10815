// Replacing whole top-level columns of a table with new versions of them (a type change, for
// instance), the way Lance 12's alter_columns casts: the new columns are written as extra data
// files of each fragment under NEW field ids, and one Merge commit puts them in the schema under
// the old names and positions. The other columns are not touched.
#pragma once

#include <functional>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/manifest.h"

namespace lance_nd::table {

/// \brief Turns the old columns of one fragment (every physical row, deleted ones too, in a
/// batch of the replaced fields in `replacements` order) into the new ones: a batch with exactly
/// the replacement fields and the same number of rows.
using ColumnTransform =
    std::function<Result<array::RecordBatchPtr>(const array::RecordBatchPtr& old_columns)>;

/// \brief Replace the top-level fields of `ds`'s table named like each field of `replacements`
/// by that field (its type, nullability and metadata), with their data computed by `transform`
/// fragment by fragment. Committed as ONE Merge on ds.version(): the schema keeps its order,
/// each replaced subtree gets fresh ids (pre-order, after NextFieldId), every fragment gains one
/// data file holding the new columns, and a data file left without any field of the new schema
/// is dropped from its fragment (the old ids stay listed in the files that still hold other
/// columns; readers ignore ids the schema lacks, as Lance does). Returns the committed dataset.
///
/// Errors: NotImplemented for a table with indices (they would name the old ids);
/// InvalidArgument for an empty `replacements`, a name the table lacks (listing the
/// table's fields) or a repeated name; SchemaMismatch when `transform` returns another schema or
/// row count; errors of reading, writing and committing as they come (files written before an
/// error are left unreferenced: a cleanup removes them).
LANCE_ND_EXPORT Result<Dataset> ReplaceColumns(const Dataset& ds,
                                               const std::vector<array::FieldPtr>& replacements,
                                               const ColumnTransform& transform);

}  // namespace lance_nd::table
