// Distributed writes: any process stages rows as fragments that no reader sees; one coordinator
// commits any number of staged sets as one version with the merged schema. Staged fragments never
// committed stay invisible, and CleanupOldVersions removes their files once they are old enough.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "lance_nd/api/options.h"
#include "lance_nd/api/table.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/nd/record_batch.h"

namespace lance_nd {

/// \brief Fragments written but not committed, with the encoded schema their rows need and
/// the table version they were staged against. Serialises to JSON for shipping to the
/// coordinator.
class LANCE_ND_EXPORT StagedFragments {
 public:
  StagedFragments();
  std::string ToJson() const;
  /// \brief InvalidArgument naming what is wrong in `json`.
  static Result<StagedFragments> FromJson(std::string_view json);
  std::uint64_t num_rows() const;
  std::size_t num_fragments() const;

 private:
  friend Result<StagedFragments> StageRows(std::string_view, std::span<const nd::NdRecordBatch>,
                                           const WriteOptions&);
  friend Result<Table> CommitStaged(std::string_view, std::span<const StagedFragments>,
                                    const WriteOptions&);
  std::string json_;  // the serialised form is the state
};

/// \brief Write `rows` as fragments of the table at `uri` (which may not exist yet) without
/// committing. options: mode (kCreate: TableExists when there is a table; kOverwrite: staged as
/// for a new table), stats (a new table's; an existing table's stats are always written),
/// casting against the latest version as a write would (a cast that needs the table widened is
/// rejected: widen first). InvalidArgument for no rows.
LANCE_ND_EXPORT Result<StagedFragments> StageRows(std::string_view uri,
                                                  std::span<const nd::NdRecordBatch> rows,
                                                  const WriteOptions& options = {});
/// \brief Commit every staged set as ONE version: an Overwrite that creates the table when it is
/// missing (or options.mode is kOverwrite), else an Append, or one Merge when the staged rows
/// bring new variables or keys. The row order is the order of `staged`, then of each set's
/// rows. A set whose schema no longer fits the table (a type changed since it was staged) is
/// SchemaMismatch naming it; kCreate on an existing table is TableExists; nothing is committed
/// on an error.
LANCE_ND_EXPORT Result<Table> CommitStaged(std::string_view uri,
                                           std::span<const StagedFragments> staged,
                                           const WriteOptions& options = {});

}  // namespace lance_nd
