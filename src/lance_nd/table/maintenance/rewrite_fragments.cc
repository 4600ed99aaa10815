// RewriteFragments: a caller-planned compaction. Each group's live rows are streamed in table
// order and cut into new fragments of the planned row counts, one new fragment in memory at a
// time; all groups are committed as one Rewrite.
#include <algorithm>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "lance_nd/table/commit.h"
#include "lance_nd/table/rewrite.h"
#include "lance_nd/table/scan/fragment_reader.h"
#include "lance_nd/table/scan/plan.h"
#include "lance_nd/table/write.h"

namespace lance_nd::table {
namespace {

/// The fragments of `plan`, checked: known ids, each used once, neighbours in table order.
Result<std::vector<const Fragment*>> GroupFragments(const Dataset& ds, const RewriteGroupPlan& plan,
                                                    std::map<std::uint64_t, bool>& used) {
  std::map<std::uint64_t, std::size_t> position;
  for (std::size_t i = 0; i < ds.fragments().size(); ++i) position[ds.fragments()[i].id] = i;
  std::vector<const Fragment*> out;
  std::uint64_t live = 0;
  for (std::size_t k = 0; k < plan.fragment_ids.size(); ++k) {
    const std::uint64_t id = plan.fragment_ids[k];
    auto it = position.find(id);
    if (it == position.end()) {
      return Status::InvalidArgument("RewriteFragments: version ", ds.version(),
                                     " has no fragment ", id);
    }
    if (used[id]) {
      return Status::InvalidArgument("RewriteFragments: fragment ", id,
                                     " is listed more than once");
    }
    used[id] = true;
    if (k > 0 && it->second != position[plan.fragment_ids[k - 1]] + 1) {
      return Status::InvalidArgument("RewriteFragments: fragments ", plan.fragment_ids[k - 1],
                                     " and ", id,
                                     " are not neighbours in table order; a group must be a run "
                                     "of neighbouring fragments");
    }
    out.push_back(&ds.fragments()[it->second]);
    live += out.back()->num_rows();
  }
  std::uint64_t planned = 0;
  for (std::uint64_t n : plan.rows_per_fragment) {
    if (n == 0) return Status::InvalidArgument("RewriteFragments: a new fragment of 0 rows");
    planned += n;
  }
  if (out.empty() || planned != live) {
    return Status::InvalidArgument("RewriteFragments: a group of ", out.size(), " fragments holds ",
                                   live, " live rows but its new fragments ",
                                   "are planned to hold ", planned);
  }
  return out;
}

/// Streams the live rows of a run of fragments and writes them as new fragments.
class GroupRewriter {
 public:
  GroupRewriter(const Dataset& ds, const internal::ScanPlan& plan, WriteOptions write,
                const RewriteProgress& progress)
      : ds_(ds), plan_(plan), write_(std::move(write)), progress_(progress) {}

  Result<std::vector<Fragment>> Rewrite(const std::vector<const Fragment*>& fragments,
                                        const std::vector<std::uint64_t>& rows_per_fragment) {
    std::vector<Fragment> written;
    std::size_t source = 0;
    std::unique_ptr<internal::FragmentCursor> cursor;
    for (const std::uint64_t rows : rows_per_fragment) {
      std::uint64_t want = rows;
      std::vector<array::RecordBatchPtr> batches;
      while (want > 0) {
        if (cursor == nullptr) {
          LND_ASSIGN_OR_RETURN(cursor, internal::OpenFragment(ds_, plan_, *fragments[source++]));
        }
        internal::RowSelection sel = cursor->NextSelection(std::min<std::uint64_t>(want, kSlice));
        if (sel.size() == 0) {
          cursor.reset();
          continue;
        }
        LND_ASSIGN_OR_RETURN(auto batch, internal::ReadSelection(plan_, *cursor, sel));
        want -= sel.size();
        batches.push_back(std::move(batch));
      }
      LND_ASSIGN_OR_RETURN(auto fragments_out,
                           WriteFragments(ds_.location(), ds_.manifest().fields, batches, write_));
      written.insert(written.end(), fragments_out.begin(), fragments_out.end());
      if (progress_) progress_(rows);
    }
    return written;
  }

 private:
  static constexpr std::uint64_t kSlice = 64 * 1024;
  const Dataset& ds_;
  const internal::ScanPlan& plan_;
  WriteOptions write_;
  const RewriteProgress& progress_;
};

}  // namespace

Result<CompactionResult> RewriteFragments(const Dataset& ds,
                                          std::span<const RewriteGroupPlan> groups,
                                          const RewriteProgress& progress) {
  CompactionMetrics metrics;
  if (groups.empty()) return CompactionResult{ds, metrics};
  if (ds.manifest().index_section_blob) {
    return Status::NotImplemented("RewriteFragments: table '", ds.path(), "' version ",
                                  ds.version(),
                                  " has indices; rewriting its fragments would need index "
                                  "remapping, which lance-nd does not do");
  }
  if ((ds.manifest().reader_feature_flags & kFlagStableRowIds) != 0) {
    return Status::NotImplemented("RewriteFragments: table '", ds.path(),
                                  "' has stable row ids; use table::Compact for it");
  }
  WriteOptions write;
  write.mode = WriteMode::kAppend;
  write.max_rows_per_file = std::numeric_limits<std::int64_t>::max();
  write.max_bytes_per_file = std::numeric_limits<std::int64_t>::max();
  LND_ASSIGN_OR_RETURN(write.file_options.version, TableFileVersion(ds.manifest()));
  LND_ASSIGN_OR_RETURN(auto plan, internal::MakeScanPlan(ds, TableScanOptions{}));
  GroupRewriter rewriter(ds, *plan, write, progress);
  std::map<std::uint64_t, bool> used;
  op::Rewrite rewrite;
  for (const RewriteGroupPlan& group : groups) {
    LND_ASSIGN_OR_RETURN(auto fragments, GroupFragments(ds, group, used));
    RewriteGroup rg;
    for (const Fragment* f : fragments) {
      rg.old_fragments.push_back(*f);
      metrics.files_removed += f->files.size() + (f->deletion_file ? 1 : 0);
    }
    LND_ASSIGN_OR_RETURN(rg.new_fragments, rewriter.Rewrite(fragments, group.rows_per_fragment));
    metrics.fragments_removed += rg.old_fragments.size();
    metrics.fragments_added += rg.new_fragments.size();
    for (const Fragment& f : rg.new_fragments) metrics.files_added += f.files.size();
    rewrite.groups.push_back(std::move(rg));
  }
  Transaction txn;
  txn.read_version = ds.version();
  txn.operation = std::move(rewrite);
  LND_ASSIGN_OR_RETURN(Dataset committed, CommitTransaction(ds.location(), std::move(txn)));
  metrics.committed_version = committed.version();
  return CompactionResult{std::move(committed), metrics};
}

}  // namespace lance_nd::table
