// `lance-nd cat TABLE [--filter SQL] [--prune SQL] [--project a,b] [--version N] [--limit N]`:
// the rows as JSON Lines on stdout.
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli_util.h"
#include "commands.h"
#include "lance_nd/api/json_lines.h"
#include "lance_nd/api/scanner.h"

namespace lance_nd::cli {
namespace {

constexpr std::string_view kCommand = "cat";

struct CatOptions {
  std::string uri;
  std::string filter;
  std::string prune;
  std::optional<std::string> project;
  std::optional<std::uint64_t> version;
  std::optional<std::uint64_t> limit;
};

/// `row` with its arrays in table column order (the order of `variables`).
Result<nd::NdRecordBatch> InTableOrder(const nd::NdRecordBatch& row,
                                       const std::vector<array::FieldPtr>& variables) {
  std::vector<array::FieldPtr> fields;
  std::vector<nd::NdArrowArray> columns;
  for (const auto& variable : variables) {
    const int i = row.ColumnIndex(variable->name());
    if (i < 0) continue;
    fields.push_back(row.schema()->field(i));
    columns.push_back(row.column(i));
  }
  if (static_cast<int>(columns.size()) != row.num_columns()) return row;  // not all known
  return nd::NdRecordBatch::Make(array::MakeSchema(std::move(fields), row.schema()->metadata()),
                                 std::move(columns), row.target(), row.attributes());
}

void Run(const CatOptions& o) {
  Table table = OpenTable(kCommand, o.uri);
  if (o.version) table = OrFail(kCommand, table.Checkout(*o.version));
  Scanner scanner = table.Scan();
  if (o.project) scanner.Project(SplitList(*o.project));
  if (!o.filter.empty()) scanner.Filter(o.filter);
  if (!o.prune.empty()) scanner.Prune(o.prune);
  if (o.limit) scanner.Limit(*o.limit);
  NdBatchReader reader = OrFail(kCommand, scanner.Open());
  const std::vector<array::FieldPtr> variables = table.Variables();
  std::uint64_t rows = 0;
  while (true) {
    std::optional<nd::NdRecordBatch> row = OrFail(kCommand, reader.Next());
    if (!row) break;
    ++rows;
    const nd::NdRecordBatch ordered = OrFail(kCommand, InTableOrder(*row, variables));
    const std::string line = OrFail(kCommand, EncodeJsonLine(ordered));
    std::cout << line << '\n';
    if (!std::cout) Fail(kCommand, "writing row " + std::to_string(rows) + " to stdout failed");
  }
  std::cout.flush();
}

}  // namespace

void AddCatCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "cat", "Write the rows of a table as JSON Lines (one nd record batch per line) to stdout");
  auto o = std::make_shared<CatOptions>();
  cmd->add_option("table", o->uri, "the table (a directory, or memory://name)")->required();
  cmd->add_option("--filter", o->filter, "keep the rows for which this Lance SQL is true");
  cmd->add_option("--prune", o->prune,
                  "skip the rows that the stats prove cannot match this Lance SQL");
  cmd->add_option("--project", o->project,
                  "the variables to read, comma-separated (\"\" reads only global attributes)");
  cmd->add_option("--version", o->version, "the table version to read (default: the latest)");
  cmd->add_option("--limit", o->limit, "the most rows to write");
  cmd->callback([o] { Run(*o); });
}

}  // namespace lance_nd::cli
