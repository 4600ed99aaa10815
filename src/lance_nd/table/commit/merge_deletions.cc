// Rebasing a Delete over concurrent Deletes of the same fragments: the two deletion vectors are
// merged into one new deletion file (docs/lance-table-format.md §11.3; Lance 12 does the same).
#include <algorithm>
#include <string>

#include "lance_nd/table/commit/build_manifest.h"
#include "lance_nd/table/deletion.h"

namespace lance_nd::table::internal {
namespace {

bool Contains(const std::vector<std::uint64_t>& sorted, std::uint64_t id) {
  return std::binary_search(sorted.begin(), sorted.end(), id);
}

std::vector<std::uint64_t> Sorted(std::vector<std::uint64_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

template <typename... P>
Status RetryableConflict(const P&... pieces) {
  return Status::CommitConflict("commit conflict: ", pieces...,
                                "; reload the table and retry the operation")
      .WithRetryable();
}

Result<op::Delete*> DeleteOf(Transaction* t) {
  if (auto* d = t->get<op::Delete>()) return d;
  return Status::Internal("merging deletion vectors into a ", t->name(), " transaction");
}

// Our updated fragment `mine` and the latest version's `theirs` of the same fragment, their
// deletion vectors merged into a new deletion file: `mine` becomes the latest fragment with it,
// or goes to the removed ids when every row is deleted.
Status MergeOne(const TableLocation& location, const Manifest& latest, const Fragment& theirs,
                std::vector<Fragment>::iterator mine, std::uint64_t read_version,
                op::Delete* ours) {
  const std::uint64_t id = theirs.id;
  // Data files may differ (a concurrent Merge adds columns); the rows must be the same.
  if (theirs.physical_rows != mine->physical_rows) {
    return RetryableConflict("fragment ", id, " has ", theirs.physical_rows, " rows in version ",
                             latest.version, " but ", mine->physical_rows,
                             " when this Delete was planned at version ", read_version);
  }
  LND_ASSIGN_OR_RETURN(DeletionVector rows, ReadFragmentDeletions(location, *mine));
  LND_ASSIGN_OR_RETURN(DeletionVector other, ReadFragmentDeletions(location, theirs));
  rows.Union(other);
  if (rows.size() >= theirs.physical_rows) {
    ours->deleted_fragment_ids.push_back(id);
    ours->updated_fragments.erase(mine);
    return Status();
  }
  LND_ASSIGN_OR_RETURN(DeletionFile file, WriteDeletionFile(location, id, latest.version, rows,
                                                            DeletionFileType::kBitmap));
  Fragment merged = theirs;
  merged.deletion_file = file;
  *mine = std::move(merged);
  return Status();
}

}  // namespace

Result<std::vector<std::uint64_t>> DeletionsToMerge(const Transaction& ours,
                                                    const op::Delete& theirs,
                                                    std::uint64_t their_version) {
  const auto* mine = ours.get<op::Delete>();
  if (mine == nullptr) {
    return Status::Internal("deletion vectors to merge for a ", ours.name(), " transaction");
  }
  const std::vector<std::uint64_t> their_removed = Sorted(theirs.deleted_fragment_ids);
  std::vector<std::uint64_t> their_updated;
  for (const Fragment& f : theirs.updated_fragments) their_updated.push_back(f.id);
  std::sort(their_updated.begin(), their_updated.end());
  std::vector<std::uint64_t> merge;
  for (const Fragment& f : mine->updated_fragments) {
    if (Contains(their_removed, f.id)) {
      return RetryableConflict(
          "version ", their_version,
          " was committed by a Delete operation after this Delete was planned at version ",
          ours.read_version, ", and it removed fragment ", f.id,
          " (all its rows deleted) that this Delete modifies");
    }
    if (Contains(their_updated, f.id)) merge.push_back(f.id);
  }
  for (std::uint64_t id : mine->deleted_fragment_ids) {
    if (Contains(their_removed, id)) {
      return RetryableConflict(
          "version ", their_version,
          " was committed by a Delete operation after this Delete was planned at version ",
          ours.read_version, ", and both removed fragment ", id);
    }
  }
  return merge;
}

Status MergeDeletions(const TableLocation& location, const Manifest& latest,
                      const std::vector<std::uint64_t>& ids, Transaction* ours) {
  LND_ASSIGN_OR_RETURN(op::Delete * del, DeleteOf(ours));
  for (std::uint64_t id : ids) {
    const auto theirs = std::find_if(latest.fragments.begin(), latest.fragments.end(),
                                     [&](const Fragment& f) { return f.id == id; });
    if (theirs == latest.fragments.end()) {
      return RetryableConflict("fragment ", id, " modified by this Delete (planned at version ",
                               ours->read_version, ") is no longer in version ", latest.version);
    }
    const auto mine = std::find_if(del->updated_fragments.begin(), del->updated_fragments.end(),
                                   [&](const Fragment& f) { return f.id == id; });
    if (mine == del->updated_fragments.end()) continue;
    LND_RETURN_NOT_OK(MergeOne(location, latest, *theirs, mine, ours->read_version, del));
  }
  std::sort(del->deleted_fragment_ids.begin(), del->deleted_fragment_ids.end());
  return Status();
}

}  // namespace lance_nd::table::internal
