// Compact: rewrite the planned groups of fragments (live rows, in order) and commit one Rewrite.
#include <utility>
#include <vector>

#include "lance_nd/table/commit.h"
#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/maintenance/compaction_plan.h"
#include "lance_nd/table/rowids/rewrite_row_ids.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/write.h"

namespace lance_nd::table {
namespace {

// Lance's reserve_fragment_ids: commit ReserveFragments{n} and number the new fragments with
// the n ids below the new max_fragment_id, in order.
Status ReserveFragmentIds(const Dataset& ds, op::Rewrite* rewrite) {
  std::vector<Fragment*> fresh;
  for (RewriteGroup& g : rewrite->groups) {
    for (Fragment& f : g.new_fragments) fresh.push_back(&f);
  }
  Transaction reserve;
  reserve.read_version = ds.version();
  reserve.operation = op::ReserveFragments{static_cast<std::uint32_t>(fresh.size())};
  LND_ASSIGN_OR_RETURN(Dataset reserved, CommitTransaction(ds.location(), std::move(reserve)));
  const std::uint64_t end = std::uint64_t{reserved.manifest().max_fragment_id.value_or(0)} + 1;
  if (end < fresh.size()) {
    return Status::InvalidTable("ReserveFragments committed max fragment id " +
                                std::to_string(end - 1) + " below the " +
                                std::to_string(fresh.size()) + " ids reserved");
  }
  std::uint64_t id = end - fresh.size();
  for (Fragment* f : fresh) f->id = id++;
  return Status::OK();
}

}  // namespace

Result<CompactionResult> Compact(const Dataset& ds, const CompactionOptions& options) {
  if (options.target_rows_per_fragment <= 0) {
    return Status::InvalidArgument("Compact: target_rows_per_fragment must be positive (got " +
                                   std::to_string(options.target_rows_per_fragment) + ")");
  }
  if (ds.manifest().index_section_blob) {
    return Status::NotImplemented("table '" + ds.path() + "' version " +
                                  std::to_string(ds.version()) +
                                  " has indices; compacting it would need index remapping, "
                                  "which lance-nd does not do yet (compact it with Lance)");
  }
  const auto groups = internal::PlanCompaction(ds.fragments(), options);
  CompactionMetrics metrics;
  if (groups.empty()) return CompactionResult{ds, metrics};

  // Stable row ids (flag 2): the new fragments keep their rows' ids and versions, and, like
  // Lance 12, their fragment ids are reserved by a ReserveFragments commit first.
  const bool stable = (ds.manifest().reader_feature_flags & kFlagStableRowIds) != 0;
  WriteOptions write;
  write.mode = WriteMode::kAppend;
  write.max_rows_per_file = options.target_rows_per_fragment;
  LND_ASSIGN_OR_RETURN(write.file_options.version, TableFileVersion(ds.manifest()));
  op::Rewrite rewrite;
  for (const auto& group : groups) {
    std::vector<array::RecordBatchPtr> batches;
    for (const Fragment& f : group) {
      LND_ASSIGN_OR_RETURN(auto batch, ReadFragment(ds, f));
      if (batch->num_rows() > 0) batches.push_back(std::move(batch));
      metrics.files_removed += f.files.size() + (f.deletion_file ? 1 : 0);
    }
    RewriteGroup rg;
    rg.old_fragments = group;
    if (!batches.empty()) {
      LND_ASSIGN_OR_RETURN(rg.new_fragments,
                           WriteFragments(ds.location(), ds.manifest().fields, batches, write));
    }
    if (stable) {
      LND_RETURN_NOT_OK(
          internal::CarryRowIdsThroughRewrite(ds.location(), rg.old_fragments, &rg.new_fragments));
    }
    metrics.fragments_removed += group.size();
    metrics.fragments_added += rg.new_fragments.size();
    for (const Fragment& f : rg.new_fragments) {
      metrics.files_added += f.files.size() + (f.deletion_file ? 1 : 0);
    }
    rewrite.groups.push_back(std::move(rg));
  }
  if (stable) LND_RETURN_NOT_OK(ReserveFragmentIds(ds, &rewrite));
  Transaction txn;
  txn.read_version = ds.version();
  txn.operation = std::move(rewrite);
  LND_ASSIGN_OR_RETURN(Dataset committed, CommitTransaction(ds.location(), std::move(txn)));
  metrics.committed_version = committed.version();
  return CompactionResult{std::move(committed), metrics};
}

}  // namespace lance_nd::table
