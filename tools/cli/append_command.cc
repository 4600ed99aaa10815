// `lance-nd append TABLE FILE.jsonl|- [--create] [--casting MODE] [--stats]`: add the rows of a
// JSON Lines file as one commit; any error commits nothing.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "append_checks.h"
#include "cli_util.h"
#include "commands.h"
#include "lance_nd/api/json_lines.h"
#include "lance_nd/api/nd_writer.h"
#include "lance_nd/api/scanner.h"
#include "output_file.h"
#include "progress.h"
#include "term.h"

namespace lance_nd::cli {
namespace {

constexpr std::string_view kCommand = "append";

struct AppendOptions {
  std::string uri;
  std::string input;
  bool create = false;
  bool stats = false;
  std::string casting = "no";
};

/// The table at `uri`, or nullopt when there is none and `create` allows making it.
std::optional<Table> ExistingTable(const AppendOptions& o) {
  auto table = Table::Open(o.uri);
  if (table.ok()) return std::move(*table);
  if (auto file = NotATable(o.uri)) Fail(kCommand, *file);
  if (table.status().kind() != ErrorKind::kTableNotFound) Fail(kCommand, table.status());
  if (!o.create) {
    Fail(kCommand, std::string(table.status().message()) + " (use --create to make it)");
  }
  return std::nullopt;
}

/// A bar over the bytes of a file, or a count of rows from stdin.
std::unique_ptr<Progress> MakeProgress(const AppendOptions& o, std::ifstream& file) {
  if (o.input == "-" || !IsTerminal(2)) {
    return std::make_unique<Progress>("append", 0, Progress::Unit::kRows);
  }
  file.seekg(0, std::ios::end);
  const std::streamoff size = file.tellg();
  file.seekg(0, std::ios::beg);
  if (size <= 0) return std::make_unique<Progress>("append", 0, Progress::Unit::kRows);
  return std::make_unique<Progress>("append", static_cast<std::uint64_t>(size),
                                    Progress::Unit::kBytes);
}

/// Decode, check and write every line; the writer commits at the end or aborts on an error.
std::uint64_t WriteRows(std::istream& in, const std::optional<Table>& table, NdWriter& writer,
                        Casting casting, Progress& progress, bool by_bytes) {
  JsonLinesReader reader(in);
  RowTypeChecker checker(table ? &*table : nullptr, casting);
  const auto fail = [&](const Status& status) {
    (void)writer.Abort();
    Fail(kCommand, status);
  };
  std::uint64_t rows = 0;
  while (true) {
    auto row = reader.Next();
    if (!row.ok()) fail(row.status());
    if (!*row) break;
    const std::uint64_t line = reader.line_number();
    if (Status s = checker.Check(**row, line); !s.ok()) fail(s.WithContext("line ", line));
    if (Status s = writer.Write(**row); !s.ok()) fail(s.WithContext("line ", line));
    ++rows;
    if (!progress.enabled()) continue;
    if (!by_bytes) {
      progress.Advance();
    } else if (const std::streamoff at = in.tellg(); at >= 0) {
      progress.Set(static_cast<std::uint64_t>(at));
    }
  }
  return rows;
}

std::istream& OpenInput(const AppendOptions& o, std::ifstream& file) {
  if (o.input == "-") return std::cin;
  file.open(o.input);
  if (!file) Fail(kCommand, "cannot open " + o.input + ": " + std::strerror(errno));
  return file;
}

/// Write every row of the input with `writer` and commit; the rows and the new version, or
/// nullopt when the input has no rows (nothing is committed then).
std::optional<std::pair<std::uint64_t, std::uint64_t>> WriteInput(const AppendOptions& o,
                                                                  const std::optional<Table>& table,
                                                                  NdWriter& writer,
                                                                  Casting casting) {
  std::ifstream file;
  std::istream& in = OpenInput(o, file);
  const std::unique_ptr<Progress> progress = MakeProgress(o, file);
  const bool by_bytes = progress->unit() == Progress::Unit::kBytes;
  const std::uint64_t rows = WriteRows(in, table, writer, casting, *progress, by_bytes);
  progress->Finish();
  if (rows == 0) {
    (void)writer.Abort();
    return std::nullopt;
  }
  const Table written = OrFail(kCommand, writer.Finish());
  return std::make_pair(rows, written.version());
}

void PrintAppended(std::uint64_t rows, std::uint64_t version) {
  std::cout << "appended " << rows << (rows == 1 ? " row" : " rows") << "; version " << version
            << "\n";
}

/// Removes a directory tree this process made, unless it was published.
struct StagingDirectory {
  explicit StagingDirectory(std::string p) : path(std::move(p)) {}
  StagingDirectory(const StagingDirectory&) = delete;
  StagingDirectory& operator=(const StagingDirectory&) = delete;
  ~StagingDirectory() {
    std::error_code ignored;
    if (!published) std::filesystem::remove_all(path, ignored);
  }
  std::string path;
  bool published = false;
};

/// The rows of the staged table `staging` appended to the table that another process created
/// at the target meanwhile; the new version.
std::uint64_t AppendStaged(const AppendOptions& o, WriteOptions options,
                           const std::string& staging) {
  const auto context = [&](const Status& s) {
    return s.WithContext("another process created the table at ", o.uri,
                         " while this one was creating it; appending to it instead");
  };
  const auto or_fail = [&](const Status& s) {
    if (!s.ok()) Fail(kCommand, context(s));
  };
  Result<Table> staged = Table::Open(staging);
  or_fail(staged.status());
  Result<NdBatchReader> reader = staged->Scan().Open();
  or_fail(reader.status());
  options.mode = WriteMode::kAppend;
  Result<NdWriter> writer = NdWriter::Append(o.uri, options);
  or_fail(writer.status());
  while (true) {
    Result<std::optional<nd::NdRecordBatch>> row = reader->Next();
    or_fail(row.status());
    if (!*row) break;
    or_fail(writer->Write(**row));
  }
  Result<Table> written = writer->Finish();
  or_fail(written.status());
  return written->version();
}

/// --create of a table on the local disk: the table is written in a directory beside the
/// target and renamed onto it when committed, so a failure leaves nothing; when another
/// process created the table first, the rows are appended to it.
void CreateLocal(const AppendOptions& o, const WriteOptions& options) {
  std::string target = o.uri;
  while (target.size() > 1 && target.back() == '/') target.pop_back();
  StagingDirectory staging(TemporarySibling(target));
  NdWriter writer = OrFail(kCommand, NdWriter::Create(staging.path, options));
  const auto written = WriteInput(o, std::nullopt, writer, options.casting);
  if (!written) Fail(kCommand, "no rows in " + o.input + " to create the table from");
  if (std::rename(staging.path.c_str(), target.c_str()) == 0) {
    staging.published = true;
    PrintAppended(written->first, written->second);
    return;
  }
  const int error = errno;
  if (error != ENOTEMPTY && error != EEXIST) {
    Fail(kCommand, "cannot create the table at " + o.uri + ": " + std::strerror(error));
  }
  auto existing = Table::Open(target);
  if (!existing.ok() && existing.status().kind() == ErrorKind::kTableNotFound) {
    Fail(kCommand, "cannot create the table at " + o.uri +
                       ": the directory is there, not empty, and holds no table");
  }
  PrintAppended(written->first, AppendStaged(o, options, staging.path));
}

bool IsLocalPath(std::string_view uri) { return uri.find("://") == std::string_view::npos; }

void Run(const AppendOptions& o) {
  WriteOptions options;
  options.casting = OrFail(kCommand, ParseCasting(o.casting));
  options.stats = o.stats;
  options.mode = WriteMode::kCreate;
  const std::optional<Table> table = ExistingTable(o);
  if (table && o.stats && !table->has_stats()) {
    Fail(kCommand, "--stats: the table at " + o.uri +
                       " has no stats, and only a new table chooses them (copy the rows into a "
                       "new table made with --create --stats)");
  }
  if (!table && IsLocalPath(o.uri)) return CreateLocal(o, options);
  NdWriter writer =
      OrFail(kCommand, table ? NdWriter::Append(o.uri, options) : NdWriter::Create(o.uri, options));
  const auto written = WriteInput(o, table, writer, options.casting);
  if (written) return PrintAppended(written->first, written->second);
  if (!table) Fail(kCommand, "no rows in " + o.input + " to create the table from");
  std::cout << "appended 0 rows; version " << table->version() << " (unchanged)\n";
}

}  // namespace

void AddAppendCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "append", "Add the rows of a JSON Lines file (one nd record batch per line) as one commit");
  auto o = std::make_shared<AppendOptions>();
  cmd->add_option("table", o->uri, "the table (a directory, or memory://name)")->required();
  cmd->add_option("input", o->input, "the JSON Lines file, or - for stdin")->required();
  cmd->add_flag("--create", o->create, "make the table when it does not exist");
  cmd->add_option("--casting", o->casting,
                  "how a type that differs from the table's is handled: no (default), safe, "
                  "same_kind, promote");
  cmd->add_flag("--stats", o->stats, "write per-row min/max stats (a new table only)");
  cmd->footer(
      "Example:\n"
      "  lance-nd append ocean.lance rows.jsonl --create --stats\n"
      "  lance-nd cat old.lance | lance-nd append ocean.lance - --casting safe\n"
      "A bar shows the progress on a terminal; any error commits nothing.");
  cmd->callback([o] { Run(*o); });
}

}  // namespace lance_nd::cli
