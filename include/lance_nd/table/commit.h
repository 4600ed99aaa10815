// Committing a transaction to a table: the new version's manifest is built from the LATEST
// manifest plus the transaction and created atomically (io::FileSystem::CreateIfAbsent), so a
// concurrent writer (lance-nd or Lance) can never be overwritten; compatible concurrent commits
// are rebased over, incompatible ones give Status::CommitConflict.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "lance_nd/core/result.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/manifest.h"

namespace lance_nd::table {

struct CommitOptions {
  /// Attempts at creating the next manifest before giving up (Lance: 20).
  int max_attempts = 20;
  /// Also write `_transactions/{read_version}-{uuid}.txn` (Lance 12 always does).
  bool write_transaction_file = true;
  /// Back-off after losing a race for a version: attempt k sleeps a random time in
  /// [slot * 2^k / 2, slot * 2^k) (k capped at 5, so at most 32 slots) before re-listing. The
  /// default is about Lance's own commit slot so that concurrent Lance writers are not starved;
  /// a writer that never loses a race never sleeps. 0 disables the back-off (tests).
  std::chrono::milliseconds backoff_slot{50};
};

/// \brief Commit `txn` (planned against txn.read_version; 0 = create a new table).
///
/// Steps: (1) every data / deletion file the transaction references must already be written
/// (and synced); (2) `_transactions/{read_version}-{uuid}.txn` is created; (3) the new manifest
/// is built from the latest manifest + txn: version = latest + 1, new fragment ids from
/// max_fragment_id + 1 (Overwrite: from 0, like Lance), schema / config / table metadata /
/// index section / unmodelled manifest fields carried forward, feature flags recomputed,
/// writer "lance-nd"; (4) it is created with CreateIfAbsent under the table's naming scheme
/// (V2 for new tables); (5) `_versions/latest_version_hint.json` is updated (best effort).
/// When another writer created that version first, the transactions of all versions after
/// read_version are checked (inline section, else their .txn file): compatible ones are rebased
/// over (e.g. Append vs Append, Delete vs Delete on other fragments), anything else is
/// CommitConflict naming the winner's operation and version. Fails with InvalidArgument for a
/// malformed transaction (e.g. Overwrite without schema), NotFound when appending to a missing
/// table, NotImplemented when the latest manifest has writer flags lance-nd cannot honour.
/// Returns the dataset opened at the committed version. `txn.uuid` is generated when empty.
/// Once the manifest is created the commit is durable: if re-opening the new version then fails
/// (after a few tries), the error is an IOError (never retryable) whose
/// message starts with "COMMITTED version N" so that callers do not repeat the write.
Result<Dataset> CommitTransaction(std::shared_ptr<io::FileSystem> fs, const std::string& path,
                                  Transaction txn, const CommitOptions& options = {});

/// \brief A random hyphenated version-4 UUID ("xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx").
std::string NewUuid();

/// \brief The writer version lance-nd records in manifests ("lance-nd", this value).
inline constexpr const char* kWriterLibrary = "lance-nd";
inline constexpr const char* kWriterVersion = "0.1.0";

}  // namespace lance_nd::table
