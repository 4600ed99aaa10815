// Table::Compact: lance-nd's size-based planner (compaction_planner.h) over
// table::RewriteFragments.
#include <utility>

#include "lance_nd/api/compaction_planner.h"
#include "lance_nd/api/table.h"
#include "lance_nd/api/table_guard.h"

namespace lance_nd {
namespace {

/// Bytes on disk of a fragment's data files; a size the manifest does not record (0) is read
/// from the file system.
Result<std::uint64_t> FragmentBytes(const table::Dataset& ds, const table::Fragment& f) {
  std::uint64_t total = 0;
  for (const table::DataFile& file : f.files) {
    if (file.file_size_bytes > 0) {
      total += file.file_size_bytes;
      continue;
    }
    LND_ASSIGN_OR_RETURN(
        auto opened, ds.file_system()->OpenForRead(ds.location().Path(table::kDataDir, file.path)));
    total += opened->Size();
  }
  return total;
}

}  // namespace

Result<CompactionStats> Table::Compact(const CompactOptions& options) {
  LND_RETURN_NOT_OK(api_internal::CheckWritable(*this, "Compact"));
  if (options.target_fragment_bytes == 0) {
    return Status::InvalidArgument("Compact: target_fragment_bytes must be positive (got 0)");
  }
  if (!(options.deleted_fraction >= 0)) {
    return Status::InvalidArgument("Compact: deleted_fraction must be 0 or more (got ",
                                   options.deleted_fraction, "); above 1 disables it");
  }
  if ((dataset_.manifest().reader_feature_flags & table::kFlagStableRowIds) != 0) {
    return Status::NotImplemented(
        "Compact: table '", location().root(),
        "' has stable row ids, which lance-nd's compaction does not carry over yet (lance-nd "
        "writes tables without them; compact this one with Lance)");
  }
  std::vector<api_internal::FragmentFootprint> footprints;
  for (const table::Fragment& f : dataset_.fragments()) {
    LND_ASSIGN_OR_RETURN(std::uint64_t bytes, FragmentBytes(dataset_, f));
    footprints.push_back({f.id, bytes, f.physical_rows, f.num_rows()});
  }
  const auto plan = api_internal::PlanCompaction(footprints, options);
  CompactionStats stats;
  if (plan.empty()) return stats;
  for (const table::RewriteGroupPlan& group : plan) {
    for (std::uint64_t id : group.fragment_ids) {
      for (const auto& f : footprints) {
        if (f.id != id) continue;
        stats.rows_rewritten += f.live_rows;
        stats.deleted_rows_removed += f.physical_rows - f.live_rows;
      }
    }
  }
  std::uint64_t done = 0;
  table::RewriteProgress on_rows;
  if (options.progress) {
    options.progress(0, stats.rows_rewritten);
    on_rows = [&](std::uint64_t rows) { options.progress(done += rows, stats.rows_rewritten); };
  }
  LND_ASSIGN_OR_RETURN(table::CompactionResult result,
                       table::RewriteFragments(dataset_, plan, on_rows));
  stats.fragments_removed = result.metrics.fragments_removed;
  stats.fragments_added = result.metrics.fragments_added;
  stats.committed_version = result.metrics.committed_version;
  dataset_ = std::move(result.dataset);
  return stats;
}

}  // namespace lance_nd
