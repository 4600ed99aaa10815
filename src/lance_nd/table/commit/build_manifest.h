// Building the next manifest from the latest one plus a transaction, and the conflict rules
// between a transaction and one committed concurrently. Private to the table layer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "lance_nd/core/result.h"
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

/// \brief Reader/writer feature flags of `manifest` recomputed from its content (deletion files,
/// table config, no transaction file).
void ApplyFeatureFlags(Manifest* manifest, bool transaction_file_written);

}  // namespace lance_nd::table::internal
