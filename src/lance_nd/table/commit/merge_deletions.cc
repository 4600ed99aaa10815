// Rebasing a Delete over concurrent Deletes of the same fragments: the two deletion vectors are
// merged into one new deletion file (docs §11.3; Lance 12 does the same).
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

}  // namespace

Result<std::vector<std::uint64_t>> DeletionsToMerge(const Transaction& ours,
                                                    const Transaction& theirs,
                                                    std::uint64_t their_version) {
  const std::vector<std::uint64_t> their_removed = Sorted(theirs.deleted_fragment_ids);
  std::vector<std::uint64_t> their_updated;
  for (const Fragment& f : theirs.updated_fragments) their_updated.push_back(f.id);
  std::sort(their_updated.begin(), their_updated.end());
  std::vector<std::uint64_t> merge;
  for (const Fragment& f : ours.updated_fragments) {
    if (Contains(their_removed, f.id)) {
      return Status::CommitConflict(
                 "commit conflict: version " + std::to_string(their_version) +
                 " was committed by a Delete operation after this Delete was planned at version " +
                 std::to_string(ours.read_version) + ", and it removed fragment " +
                 std::to_string(f.id) +
                 " (all its rows deleted) that this Delete modifies; reload the table and retry "
                 "the "
                 "operation")
          .WithRetryable();
    }
    if (Contains(their_updated, f.id)) merge.push_back(f.id);
  }
  for (std::uint64_t id : ours.deleted_fragment_ids) {
    if (Contains(their_removed, id)) {
      return Status::CommitConflict(
                 "commit conflict: version " + std::to_string(their_version) +
                 " was committed by a Delete operation after this Delete was planned at version " +
                 std::to_string(ours.read_version) + ", and both removed fragment " +
                 std::to_string(id) + "; reload the table and retry the operation")
          .WithRetryable();
    }
  }
  return merge;
}

Status MergeDeletions(io::FileSystem& fs, const std::string& table_path, const Manifest& latest,
                      const std::vector<std::uint64_t>& ids, Transaction* ours) {
  // Non-owning: `fs` outlives this call.
  const TableLocation location(std::shared_ptr<io::FileSystem>(std::shared_ptr<void>(), &fs),
                               table_path);
  for (std::uint64_t id : ids) {
    const auto theirs = std::find_if(latest.fragments.begin(), latest.fragments.end(),
                                     [&](const Fragment& f) { return f.id == id; });
    if (theirs == latest.fragments.end()) {
      return Status::CommitConflict("commit conflict: fragment " + std::to_string(id) +
                                    " modified by this Delete (planned "
                                    "at version " +
                                    std::to_string(ours->read_version) +
                                    ") is no longer in version " + std::to_string(latest.version) +
                                    "; reload the table and retry the operation")
          .WithRetryable();
    }
    const auto mine = std::find_if(ours->updated_fragments.begin(), ours->updated_fragments.end(),
                                   [&](const Fragment& f) { return f.id == id; });
    if (mine == ours->updated_fragments.end()) continue;
    // Data files may differ (a concurrent Merge adds columns); the rows must be the same.
    if (theirs->physical_rows != mine->physical_rows) {
      return Status::CommitConflict(
                 "commit conflict: fragment " + std::to_string(id) + " has " +
                 std::to_string(theirs->physical_rows) + " rows in version " +
                 std::to_string(latest.version) + " but " + std::to_string(mine->physical_rows) +
                 " when this Delete was planned at version " + std::to_string(ours->read_version) +
                 "; reload the table and retry the operation")
          .WithRetryable();
    }
    LND_ASSIGN_OR_RETURN(DeletionVector rows, ReadFragmentDeletions(location, *mine));
    LND_ASSIGN_OR_RETURN(DeletionVector other, ReadFragmentDeletions(location, *theirs));
    rows.Union(other);
    if (rows.size() >= theirs->physical_rows) {
      ours->deleted_fragment_ids.push_back(id);
      ours->updated_fragments.erase(mine);
      continue;
    }
    LND_ASSIGN_OR_RETURN(DeletionFile file, WriteDeletionFile(location, id, latest.version, rows,
                                                              DeletionFileType::kBitmap));
    Fragment merged = *theirs;
    merged.deletion_file = file;
    *mine = std::move(merged);
  }
  std::sort(ours->deleted_fragment_ids.begin(), ours->deleted_fragment_ids.end());
  return Status();
}

}  // namespace lance_nd::table::internal
