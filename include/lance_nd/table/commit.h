// Committing a transaction to a table: the new version's manifest is built from the LATEST
// manifest plus the transaction and created atomically (io::FileSystem::CreateIfAbsent), so a
// concurrent writer (lance-nd or Lance) can never be overwritten; compatible concurrent commits
// are rebased over, incompatible ones give Status::CommitConflict.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/manifest.h"
#include "lance_nd/version.h"

namespace lance_nd::table {

struct LANCE_ND_EXPORT CommitOptions {
  /// Attempts at creating the next manifest before giving up (Lance: 20).
  int max_attempts = 20;
  /// Also write `_transactions/{read_version}-{uuid}.txn` (Lance 12 always does).
  bool write_transaction_file = true;
  /// Back-off after losing a race for a version, shaped like Lance 12's own (SlotBackoff):
  /// after the k-th lost race (k = 0, 1, ...) sleep a random whole number of slots in
  /// [0, 2^(k+2)) (at most 256), where the slot is the larger of `backoff_slot` and 1.1x the time
  /// this commit's first attempt took. Lance writers back off the same way, so neither side
  /// starves the other; a shorter slot let 6 lance-nd writers starve 2 Lance writers past
  /// Lance's 30 s budget on a loaded machine (tests/table_concurrency/README.md). A writer that
  /// never loses a race never sleeps. 0 disables the back-off (tests).
  std::chrono::milliseconds backoff_slot{200};
  /// Give up (retryable CommitConflict) once this much time has passed since the first attempt
  /// and a race was lost again (Lance 12: 30 s).
  std::chrono::milliseconds max_retry_time{30'000};
};

/// \brief Commit `txn` to the table at `location` (planned against txn.read_version; 0 = create
/// a new table).
///
/// Steps: (1) every data / deletion file the transaction references must already be written
/// (and synced); (2) `_transactions/{read_version}-{uuid}.txn` is created (not fsynced: readers
/// use the manifest's inline copy); (3) the new manifest is built from the latest manifest +
/// txn: version = latest + 1, new fragment ids from max_fragment_id + 1, schema / config /
/// table metadata / index section / unmodelled manifest fields carried forward, feature flags
/// recomputed, writer "lance-nd", and the Dataset of the new version is built from it and
/// checked as Open would; (4) the manifest is created with CreateIfAbsent under the table's
/// naming scheme (V2 for new tables), the commit point; (5)
/// `_versions/latest_version_hint.json` is updated (best effort).
/// When another writer created that version first, the transactions of all versions after
/// read_version are checked (inline section, else their .txn file): compatible ones are rebased
/// over (e.g. Append vs Append, Delete vs Delete), anything else is CommitConflict naming the
/// winner's operation and version; between attempts the writer backs off (CommitOptions), and
/// gives up with a retryable CommitConflict after max_attempts or max_retry_time. Fails with
/// InvalidArgument for a malformed transaction (e.g. Overwrite without schema), NotFound when
/// appending to a missing table, NotImplemented when the latest manifest has writer flags
/// lance-nd cannot honour. Returns the dataset at the committed version, built in memory (no
/// re-read): nothing can fail after the manifest is created. `txn.uuid` is generated when empty.
LANCE_ND_EXPORT Result<Dataset> CommitTransaction(const TableLocation& location, Transaction txn,
                                                  const CommitOptions& options = {});

/// \brief A random hyphenated version-4 UUID ("xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx").
LANCE_ND_EXPORT std::string NewUuid();

/// \brief The writer version lance-nd records in manifests ("lance-nd", this value).
inline constexpr const char* kWriterLibrary = "lance-nd";
inline constexpr const char* kWriterVersion = LANCE_ND_VERSION_STRING;

}  // namespace lance_nd::table
