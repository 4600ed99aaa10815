// Building the next manifest from the latest one plus a transaction, and the conflict rules
// between a transaction and one committed concurrently. Private to the table layer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/manifest.h"

namespace lance_nd::table::internal {

struct BuildContext {
  /// The latest committed manifest, nullopt when the table does not exist yet.
  const Manifest* latest = nullptr;
  /// Restore only: the manifest of the version restored.
  const Manifest* restored = nullptr;
  /// `{read_version}-{uuid}.txn`, or "" when no transaction file is written.
  std::string transaction_file;
  std::int64_t timestamp_seconds = 0;
  std::int32_t timestamp_nanos = 0;
};

/// \brief The manifest of version latest+1 (1 without `latest`). InvalidArgument for a
/// transaction that cannot apply (Append to no table, Overwrite without a schema, duplicate
/// fragment ids...), CommitConflict when a fragment it modifies is no longer in `latest`.
Result<Manifest> BuildManifest(const Transaction& txn, const BuildContext& context);

/// \brief OK when `ours` can be committed after `theirs` (committed as `their_version`),
/// CommitConflict naming both operations and the version otherwise.
Status CheckCompatible(const Transaction& ours, const Transaction& theirs,
                       std::uint64_t their_version);

/// \brief The Delete `ours` vs the Delete `theirs` (committed as `their_version`): the fragment
/// ids both gave a new deletion file, to be merged by MergeDeletions (Lance 12 rebases these). A
/// fragment `theirs` removed while `ours` updates it is a retryable CommitConflict naming the
/// winner; `ours` not a Delete is Internal.
Result<std::vector<std::uint64_t>> DeletionsToMerge(const Transaction& ours,
                                                    const op::Delete& theirs,
                                                    std::uint64_t their_version);

/// \brief Rebase the Delete `ours` over concurrent deletes: for each fragment id in `ids`, read
/// the deletion vector of that fragment in `latest` and of ours, write their union as a NEW
/// deletion file (a `.bin` bitmap, like Lance's rebase) and replace our updated fragment by the
/// latest one carrying it (all rows deleted: the fragment goes to deleted_fragment_ids).
/// A fragment missing from `latest` is a retryable CommitConflict; `ours` not a Delete is
/// Internal.
Status MergeDeletions(const TableLocation& location, const Manifest& latest,
                      const std::vector<std::uint64_t>& ids, Transaction* ours);

/// \brief Reader/writer feature flags of `manifest` recomputed from its content (deletion files,
/// table config, no transaction file).
void ApplyFeatureFlags(Manifest* manifest, bool transaction_file_written);

}  // namespace lance_nd::table::internal
