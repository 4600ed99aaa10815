// Lance's compaction planner: which adjacent fragments are rewritten together.
#pragma once

#include <vector>

#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/manifest.h"

namespace lance_nd::table::internal {

/// \brief Groups (bins) of fragments to rewrite, each a run of adjacent fragments in table
/// order. A fragment is a candidate when its deleted fraction exceeds the threshold (rewritten
/// even alone) or when it has fewer physical rows than the target (only with candidate
/// neighbours); runs are split into bins of at least target rows (the remainder joins the last).
std::vector<std::vector<Fragment>> PlanCompaction(const std::vector<Fragment>& fragments,
                                                  const CompactionOptions& options);

}  // namespace lance_nd::table::internal
