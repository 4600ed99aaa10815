// Stable row ids at commit time (Lance 12's build_manifest): new fragments get the next row ids
// of the latest version, so a rebased commit numbers its rows after the winner's.
#pragma once

#include <cstdint>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/table/manifest.h"

namespace lance_nd::table::internal {

/// \brief Lance's assign_row_ids + build_version_meta for new fragments of version
/// `new_version`: a fragment without row ids gets the Range [*next_row_id, +physical_rows) and
/// *next_row_id advances; one whose inline sequence already holds physical_rows ids keeps them
/// (partial sequences are InvalidArgument: lance-nd never writes them). Every fragment with rows
/// gets created_at = last_updated_at = one run of `new_version` (Lance does this for Append and
/// Overwrite).
Status AssignRowIds(std::vector<Fragment>* fragments, std::uint64_t* next_row_id,
                    std::uint64_t new_version);

/// \brief 1 + the largest row id stored inline in `fragments` (0 when none): where a created
/// table whose fragments came numbered continues.
Result<std::uint64_t> NextRowIdAfter(const std::vector<Fragment>& fragments);

}  // namespace lance_nd::table::internal
