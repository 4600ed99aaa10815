#include "table_rows.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/view.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/table/write.h"
#if __has_include("lance_nd/table/scan.h")
#include "lance_nd/table/scan.h"
#define LND_TABLE_TEST_HAVE_SCAN 1
#endif

namespace lance_nd::table_test {
namespace {

std::string KeyName(const RowKey& k) {
  return "(writer " + std::to_string(k.writer) + ", commit " + std::to_string(k.commit) + ", row " +
         std::to_string(k.row) + ")";
}

using Group = std::pair<std::int32_t, std::int64_t>;  // (writer, commit)

std::string GroupName(const Group& g) {
  return "(writer " + std::to_string(g.first) + ", commit " + std::to_string(g.second) + ")";
}

Result<const array::ArrayData*> Column(const array::RecordBatch& batch, std::string_view name,
                                       array::TypeId id) {
  const auto col = batch.GetColumnByName(name);
  if (col == nullptr) {
    return Status::Corrupt("table rows lack column '" + std::string(name) +
                           "'; expected writer/commit/row/payload");
  }
  if (col->type->id() != id) {
    return Status::Corrupt("column '" + std::string(name) + "' has type " + col->type->ToString() +
                           ", expected another type");
  }
  return col.get();
}

// Rows of a fragment read straight from its one data file with the file layer (independent of
// the table scan, which is cross-checked against it when it exists).
Result<array::RecordBatchPtr> ReadFragmentFile(const table::Dataset& ds, const table::Fragment& f) {
  if (f.files.size() != 1 || f.deletion_file.has_value()) {
    return Status::NotImplemented("fragment " + std::to_string(f.id) + " has " +
                                  std::to_string(f.files.size()) +
                                  " data files or a deletion file; the checker reads append-only "
                                  "tables with one file per fragment");
  }
  const std::string file = ds.path() + "/data/" + f.files[0].path;
  LND_ASSIGN_OR_RETURN(auto in, ds.file_system()->OpenForRead(file));
  LND_ASSIGN_OR_RETURN(auto reader, file::FileReader::Open(in));
  auto batch = reader.ReadAll();
  if (!batch.ok()) return batch.status().WithContext(file);
  return batch;
}

}  // namespace

array::SchemaPtr RowsSchema() {
  return array::MakeSchema(
      {array::MakeField("writer", array::Int32()), array::MakeField("commit", array::Int64()),
       array::MakeField("row", array::Int32()), array::MakeField("payload", array::Utf8())});
}

std::string Payload(std::int32_t writer, std::int64_t commit, std::int32_t row) {
  std::string s = "w" + std::to_string(writer) + "-c" + std::to_string(commit) + "-r" +
                  std::to_string(row) + "-";
  while (s.size() < 48) s.push_back(static_cast<char>('a' + (s.size() % 26)));
  return s;
}

Result<array::RecordBatchPtr> MakeCommitBatch(std::int32_t writer, std::int64_t commit,
                                              std::int32_t rows) {
  std::vector<std::optional<std::int32_t>> w, r;
  std::vector<std::optional<std::int64_t>> c;
  std::vector<std::optional<std::string>> p;
  for (std::int32_t i = 0; i < rows; ++i) {
    w.emplace_back(writer);
    c.emplace_back(commit);
    r.emplace_back(i);
    p.emplace_back(Payload(writer, commit, i));
  }
  return array::RecordBatch::Make(
      RowsSchema(), rows,
      {array::MakePrimitiveArray<std::int32_t>(array::Int32(), w),
       array::MakePrimitiveArray<std::int64_t>(array::Int64(), c),
       array::MakePrimitiveArray<std::int32_t>(array::Int32(), r), array::MakeStringArray(p)});
}

Result<std::vector<RowKey>> KeysOfBatch(const array::RecordBatch& batch) {
  LND_ASSIGN_OR_RETURN(const auto* wc, Column(batch, "writer", array::TypeId::kInt32));
  LND_ASSIGN_OR_RETURN(const auto* cc, Column(batch, "commit", array::TypeId::kInt64));
  LND_ASSIGN_OR_RETURN(const auto* rc, Column(batch, "row", array::TypeId::kInt32));
  const auto pcol = batch.GetColumnByName("payload");
  if (pcol == nullptr) return Status::Corrupt("table rows lack column 'payload'");
  array::PrimitiveView<std::int32_t> w(*wc), r(*rc);
  array::PrimitiveView<std::int64_t> c(*cc);
  array::BinaryView p(*pcol);
  std::vector<RowKey> keys;
  keys.reserve(static_cast<std::size_t>(batch.num_rows()));
  for (std::int64_t i = 0; i < batch.num_rows(); ++i) {
    if (w.IsNull(i) || c.IsNull(i) || r.IsNull(i) || p.IsNull(i)) {
      return Status::Corrupt("row " + std::to_string(i) +
                             " has a null key or payload: a partial or foreign row");
    }
    RowKey k{w.Value(i), c.Value(i), r.Value(i)};
    if (p.Value(i) != Payload(k.writer, k.commit, k.row)) {
      return Status::Corrupt("row " + std::to_string(i) + " " + KeyName(k) + " has payload '" +
                             std::string(p.Value(i)) + "', expected '" +
                             Payload(k.writer, k.commit, k.row) + "'");
    }
    keys.push_back(k);
  }
  return keys;
}

Result<table::Dataset> CreateRowsTable(std::shared_ptr<io::FileSystem> fs, const std::string& path,
                                       std::int32_t rows) {
  LND_ASSIGN_OR_RETURN(auto batch, MakeCommitBatch(0, 0, rows));
  std::vector<array::RecordBatchPtr> batches{batch};
  table::WriteOptions options;
  options.mode = table::WriteMode::kCreate;
  return table::WriteTable(table::TableLocation(std::move(fs), path), batches, options);
}

Result<AppendResult> AppendCommit(std::shared_ptr<io::FileSystem> fs, const std::string& path,
                                  std::int32_t writer, std::int64_t commit, std::int32_t rows,
                                  int max_attempts, const table::CommitOptions& commit_options) {
  LND_ASSIGN_OR_RETURN(auto batch, MakeCommitBatch(writer, commit, rows));
  std::vector<array::RecordBatchPtr> batches{batch};
  table::WriteOptions options;
  options.mode = table::WriteMode::kAppend;
  options.commit = commit_options;
  Status last;
  for (int attempt = 1; attempt <= max_attempts; ++attempt) {
    auto written = table::WriteTable(table::TableLocation(fs, path), batches, options);
    if (written.ok()) return AppendResult{written->version(), attempt};
    last = written.status();
    if (!(last.IsCommitConflict() && last.retryable())) return last;
  }
  return last.WithContext("append of " + GroupName({writer, commit}) + " after " +
                          std::to_string(max_attempts) + " attempts");
}

Result<std::int64_t> ReadWriterLog(const std::string& file) {
  std::ifstream in(file);
  if (!in) return std::int64_t{0};
  std::set<std::int64_t> ok;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string word;
    std::int64_t commit = -1;
    if (ls >> word >> commit && word == "ok" && commit >= 0) ok.insert(commit);
  }
  std::int64_t k = 0;
  while (ok.count(k) != 0) ++k;
  if (static_cast<std::size_t>(k) != ok.size()) {
    return Status::Corrupt("writer log '" + file + "' has gaps: commits 0.." +
                           std::to_string(k - 1) + " then " + std::to_string(*ok.rbegin()));
  }
  return k;
}

Result<VerifyReport> VerifyRowsTable(std::shared_ptr<io::FileSystem> fs, const std::string& path,
                                     const std::map<std::int32_t, WriterClaim>& claims,
                                     bool check_chain) {
  VerifyReport report;
  LND_ASSIGN_OR_RETURN(auto latest, table::Dataset::Open(table::TableLocation(fs, path)));
  report.latest_version = latest.version();
  const auto& versions = latest.versions().versions;
  for (std::size_t i = 0; i < versions.size(); ++i) {
    if (versions[i] != i + 1) {
      return Status::Corrupt("versions are not contiguous 1..N: position " + std::to_string(i) +
                             " holds version " + std::to_string(versions[i]));
    }
  }
  if (versions.empty() || versions.back() != latest.version()) {
    return Status::Corrupt("latest opened version " + std::to_string(latest.version()) +
                           " is not the highest listed version");
  }

  // Rows per fragment of the latest version.
  std::map<std::uint64_t, std::vector<RowKey>> by_fragment;
  std::map<Group, std::int64_t> group_rows;
  std::set<RowKey> seen;
  for (const auto& fragment : latest.fragments()) {
    LND_ASSIGN_OR_RETURN(auto batch, ReadFragmentFile(latest, fragment));
    LND_ASSIGN_OR_RETURN(auto keys, KeysOfBatch(*batch));
    if (keys.size() != fragment.num_rows()) {
      return Status::Corrupt("fragment " + std::to_string(fragment.id) + " read " +
                             std::to_string(keys.size()) + " rows, manifest says " +
                             std::to_string(fragment.num_rows()));
    }
    for (const auto& k : keys) {
      if (!seen.insert(k).second) return Status::Corrupt("row " + KeyName(k) + " appears twice");
      ++group_rows[{k.writer, k.commit}];
    }
    by_fragment[fragment.id] = std::move(keys);
  }
#ifdef LND_TABLE_TEST_HAVE_SCAN
  // The whole-table scan must agree with the data files.
  LND_ASSIGN_OR_RETURN(auto all, table::ReadTable(latest));
  LND_ASSIGN_OR_RETURN(auto all_keys, KeysOfBatch(*all));
  std::sort(all_keys.begin(), all_keys.end());
  if (!std::equal(all_keys.begin(), all_keys.end(), seen.begin(), seen.end())) {
    return Status::Corrupt("ReadTable returned " + std::to_string(all_keys.size()) +
                           " rows that differ from the " + std::to_string(seen.size()) +
                           " rows of the data files");
  }
#endif

  // Groups complete; writers' commits contiguous and within their claims.
  std::map<std::int32_t, std::int64_t> commits_of;
  for (const auto& [g, n] : group_rows) {
    auto claim = claims.find(g.first);
    if (claim == claims.end()) return Status::Corrupt("rows of unknown writer " + GroupName(g));
    if (n != claim->second.rows_per_commit) {
      return Status::Corrupt("commit " + GroupName(g) + " has " + std::to_string(n) +
                             " rows, expected " + std::to_string(claim->second.rows_per_commit));
    }
    ++commits_of[g.first];
  }
  for (const auto& [w, claim] : claims) {
    const std::int64_t k = commits_of.count(w) != 0 ? commits_of[w] : 0;
    for (std::int64_t c = 0; c < k; ++c) {
      if (group_rows.count({w, c}) == 0) {
        return Status::Corrupt("commit " + GroupName({w, c}) +
                               " is missing but a later commit of "
                               "that writer is present");
      }
    }
    if (k < claim.logged || k > claim.logged + claim.unlogged_slack) {
      return Status::Corrupt("writer " + std::to_string(w) + " has " + std::to_string(k) +
                             " commits in the table, its log claims " +
                             std::to_string(claim.logged) + " (+" +
                             std::to_string(claim.unlogged_slack) + " unlogged allowed)");
    }
  }
  report.rows = seen.size();
  report.commits = group_rows.size();
  report.keys.assign(seen.begin(), seen.end());

  if (!check_chain) return report;
  std::set<std::uint64_t> previous;
  std::set<Group> previous_groups;
  for (const std::uint64_t v : versions) {
    auto opened = table::Dataset::Open(table::TableLocation(fs, path), v);
    if (!opened.ok()) return opened.status().WithContext("version " + std::to_string(v));
    std::set<std::uint64_t> current;
    for (const auto& f : opened->fragments()) current.insert(f.id);
    if (!std::includes(current.begin(), current.end(), previous.begin(), previous.end())) {
      return Status::Corrupt("version " + std::to_string(v) + " dropped fragments of version " +
                             std::to_string(v - 1) + " (append-only table)");
    }
    std::map<Group, std::int64_t> added;
    for (const auto id : current) {
      if (previous.count(id) != 0) continue;
      auto it = by_fragment.find(id);
      if (it == by_fragment.end()) {
        return Status::Corrupt("version " + std::to_string(v) + " has fragment " +
                               std::to_string(id) + " that the latest version lacks");
      }
      for (const auto& k : it->second) ++added[{k.writer, k.commit}];
    }
    if (added.size() != 1) {
      return Status::Corrupt("version " + std::to_string(v) + " adds " +
                             std::to_string(added.size()) + " commits, expected exactly one");
    }
    const auto& [g, n] = *added.begin();
    if (previous_groups.count(g) != 0 || n != group_rows[g]) {
      return Status::Corrupt("version " + std::to_string(v) + " adds " + GroupName(g) +
                             " partially or twice");
    }
    if (v == 1 && g != Group{0, 0}) {
      return Status::Corrupt("version 1 holds " + GroupName(g) + ", expected the creator's commit");
    }
    previous_groups.insert(g);
    previous = std::move(current);
    ++report.versions_checked;
  }
  return report;
}

}  // namespace lance_nd::table_test
