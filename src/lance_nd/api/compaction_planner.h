// lance-nd's compaction planner: by size on disk, runs of neighbouring fragments that need
// work become fragments of about equal size near the target; rows are never split.
#pragma once

#include <cstdint>
#include <vector>

#include "lance_nd/api/table.h"
#include "lance_nd/table/rewrite.h"

namespace lance_nd::api_internal {

/// \brief What the planner knows of one fragment.
struct FragmentFootprint {
  std::uint64_t id = 0;
  std::uint64_t bytes = 0;  // size on disk of its data files
  std::uint64_t physical_rows = 0;
  std::uint64_t live_rows = 0;
};

/// \brief The groups to rewrite, in table order. A fragment needs work when it is below half
/// the target (merged with neighbours), above twice the target (split), or has at least
/// `deleted_fraction` of its rows deleted. Each maximal run of neighbours needing work is cut
/// into n = max(1, round(bytes / target)) parts of about equal estimated size (a row weighs
/// its fragment's bytes / physical rows); a row is never split, so a row larger than a part
/// makes a fragment of its own. A run whose cut changes nothing (same fragments, no deleted
/// rows) is left out.
std::vector<table::RewriteGroupPlan> PlanCompaction(const std::vector<FragmentFootprint>& fragments,
                                                    const CompactOptions& options);

}  // namespace lance_nd::api_internal
