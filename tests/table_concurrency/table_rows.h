// Rows that identify themselves, for concurrency and crash tests of table commits: each row
// carries (writer, commit, row) and a payload derived from them, so a reader can tell a lost,
// duplicated, partial or foreign row apart from a good one.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/commit.h"
#include "lance_nd/table/dataset.h"

namespace lance_nd::table_test {

/// \brief writer int32, commit int64, row int32, payload utf8 (all nullable, as LanceDB makes
/// them from JSON rows).
array::SchemaPtr RowsSchema();

/// \brief The payload of one row: "w<writer>-c<commit>-r<row>-" + filler to ~48 bytes.
std::string Payload(std::int32_t writer, std::int64_t commit, std::int32_t row);

/// \brief `rows` rows of one commit: (writer, commit, 0..rows-1, payload).
Result<array::RecordBatchPtr> MakeCommitBatch(std::int32_t writer, std::int64_t commit,
                                              std::int32_t rows);

struct RowKey {
  std::int32_t writer = 0;
  std::int64_t commit = 0;
  std::int32_t row = 0;
  auto operator<=>(const RowKey&) const = default;
};

/// \brief Check a batch of RowsSchema rows (no nulls, payload matches the key) and return
/// its keys. Corrupt naming the bad row otherwise.
Result<std::vector<RowKey>> KeysOfBatch(const array::RecordBatch& batch);

/// \brief Create a new table at `path` holding one commit of writer 0 (commit 0, `rows` rows).
Result<table::Dataset> CreateRowsTable(std::shared_ptr<io::FileSystem> fs, const std::string& path,
                                       std::int32_t rows);

struct AppendResult {
  std::uint64_t version = 0;
  int attempts = 0;  // 1 = no conflict seen
};

/// \brief Append one commit of rows; retries (up to `max_attempts`) on a retryable
/// CommitConflict returned by the table API; any other error is returned. `commit` is passed to
/// WriteTable (its back-off after a lost race, for instance).
Result<AppendResult> AppendCommit(std::shared_ptr<io::FileSystem> fs, const std::string& path,
                                  std::int32_t writer, std::int64_t commit, std::int32_t rows,
                                  int max_attempts = 50,
                                  const table::CommitOptions& commit_options = {});

/// \brief What a writer claims: commits 0..logged-1 succeeded (from its log); commits up to
/// logged+unlogged_slack-1 may also be present (a writer killed after its commit but before
/// logging it). rows_per_commit rows each.
struct WriterClaim {
  std::int64_t logged = 0;
  std::int64_t unlogged_slack = 0;
  std::int32_t rows_per_commit = 0;
};

struct VerifyReport {
  std::uint64_t latest_version = 0;
  std::uint64_t rows = 0;
  std::uint64_t commits = 0;  // (writer, commit) groups present
  std::uint64_t versions_checked = 0;
  std::vector<RowKey> keys;  // sorted
};

/// \brief The full check of an append-only table written by writers of `claims` (writer id ->
/// claim; writer 0 is the creator with one commit):
/// - versions are exactly 1..N (contiguous) and the latest opens;
/// - every row decodes, its payload matches its key, no key appears twice;
/// - every (writer, commit) group is complete (rows 0..rows_per_commit-1);
/// - each writer's commits are 0..k-1 with logged <= k <= logged + slack; no unknown writer;
/// - version chain: version v's fragments contain version v-1's and exactly one more commit
///   (version 1 holds the creator's commit only), checked with the rows read per fragment.
/// `check_chain` = false skips the per-version walk (for very long tables).
Result<VerifyReport> VerifyRowsTable(std::shared_ptr<io::FileSystem> fs, const std::string& path,
                                     const std::map<std::int32_t, WriterClaim>& claims,
                                     bool check_chain = true);

/// \brief Read a writer log: lines "ok <commit> <version>"; returns the number of leading
/// contiguous commits 0..k-1 logged. Missing file -> 0.
Result<std::int64_t> ReadWriterLog(const std::string& file);

}  // namespace lance_nd::table_test
