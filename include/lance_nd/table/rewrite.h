// Rewriting chosen runs of neighbouring fragments into new fragments of chosen sizes (a
// compaction whose plan the caller makes), committed as one Rewrite transaction.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/maintenance.h"

namespace lance_nd::table {

/// \brief One run of neighbouring fragments (ids in table order) and the live rows of each new
/// fragment that replaces them, in order; the counts must add up to the run's live rows.
struct LANCE_ND_EXPORT RewriteGroupPlan {
  std::vector<std::uint64_t> fragment_ids;
  std::vector<std::uint64_t> rows_per_fragment;
};

/// \brief Called with the live rows of each new fragment once it is written (for progress).
using RewriteProgress = std::function<void(std::uint64_t rows)>;

/// \brief Replace each group's fragments by new fragments (one data file each) holding their
/// live rows in the same order, split as `rows_per_fragment` says (deleted rows are dropped;
/// fields a fragment lacks are written as nulls of the current schema). The rows of about one
/// new fragment are held in memory at a time. Committed as ONE Rewrite on the version of `ds`;
/// no commit for an empty plan. Errors: InvalidArgument for an unknown or repeated fragment
/// id, fragments that are not neighbours in table order, counts that do not add up or a zero
/// count; NotImplemented for tables with indices or stable row ids. `progress`, when set, is
/// told of each new fragment's rows.
LANCE_ND_EXPORT Result<CompactionResult> RewriteFragments(const Dataset& ds,
                                                          std::span<const RewriteGroupPlan> groups,
                                                          const RewriteProgress& progress = {});

}  // namespace lance_nd::table
