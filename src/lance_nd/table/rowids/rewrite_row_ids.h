// Stable row ids through compaction (Lance 12's rechunk_stable_row_ids and
// recalc_versions_for_rewritten_fragments): the rewritten fragments keep the row ids of the
// live rows they hold, and their created_at / last_updated_at versions.
#pragma once

#include <string>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/manifest.h"

namespace lance_nd::table::internal {

/// \brief Give `new_fragments` (the live rows of `old_fragments`, in order, split by their
/// physical_rows) the old fragments' row ids minus deleted rows, re-chunked as Lance does, and
/// the matching version runs (missing created_at = version 1, missing last_updated_at =
/// created_at, as Lance assumes). InvalidArgument when the row counts do not add up; Corrupt
/// for damaged row-id metadata.
Status CarryRowIdsThroughRewrite(const TableLocation& location,
                                 const std::vector<Fragment>& old_fragments,
                                 std::vector<Fragment>* new_fragments);

}  // namespace lance_nd::table::internal
