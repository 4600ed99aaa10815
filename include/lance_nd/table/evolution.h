// Schema evolution: add new top-level fields and new children of existing structs to a table,
// as one metadata-only Merge commit (Lance 12's `addColumns(Field)` with all-null columns).
#pragma once

#include <cstdint>
#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/manifest.h"

namespace lance_nd::table {

/// \brief Extend the LATEST schema of `ds`'s table so that it covers `wanted`: fields of
/// `wanted` the table lacks are added (new top-level fields after the existing ones; new children
/// of existing structs after the struct's existing children, recursively), with fresh field ids
/// assigned as Lance 12 does (pre-order over the merged schema, starting after the largest id in
/// the schema or in any data file). Committed as one Merge transaction with the fragments
/// unchanged: old fragments read the new fields as null. The root of each added subtree is stored
/// nullable; field metadata of new fields (extension types, `lance-encoding:*`) is kept; fields
/// of the table missing from `wanted` are kept; the table's schema metadata is kept.
///
/// Returns the latest dataset without committing when nothing is new.
/// Errors: SchemaMismatch naming the field path, the table's type and the offered type (a leaf
/// offered with another type, a struct offered as a non-struct or the reverse, a changed list or
/// fixed-size-list type); InvalidArgument for a top-level name containing '.' or duplicate names;
/// NotImplemented for new struct children on tables whose data format is older than 2.2 (Lance
/// 12 refuses those too) or for all-null column adds on legacy (0.x) tables.
LANCE_ND_EXPORT Result<Dataset> EvolveSchema(const Dataset& ds, const array::Schema& wanted);

/// \brief The pure part of EvolveSchema: the merged field list (pre-order) for `table_fields`
/// (whose Arrow schema is `table_schema`) extended by `wanted`, with new ids starting at
/// `first_new_id`. `added` (optional) receives the dotted paths of the added fields' roots.
/// Same errors as EvolveSchema except the data-format checks.
LANCE_ND_EXPORT Result<std::vector<LanceField>> MergeFields(
    const std::vector<LanceField>& table_fields, const array::Schema& table_schema,
    const array::Schema& wanted, std::int32_t first_new_id,
    std::vector<std::string>* added = nullptr);

/// \brief The first id a newly added field may take: one more than the largest id in the
/// manifest's schema or in any data file's field list (ids are never reused).
LANCE_ND_EXPORT std::int32_t NextFieldId(const Manifest& manifest);

}  // namespace lance_nd::table
