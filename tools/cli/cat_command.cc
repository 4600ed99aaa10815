// `lance-nd cat TABLE [--filter SQL] [--prune SQL] [--project a,b] [--version N] [--limit N]`:
// the rows as JSON Lines on stdout.
#include <algorithm>
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
#include "progress.h"
#include "term.h"
#include "term_text.h"
#include "term_values.h"

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
  bool json = false;
};

std::string TypeText(const nd::NdArrowArray& a) {
  return DtypeText(*a.value_type()) + ShapeText(a.dimensions().names(), a.dimensions().sizes());
}

/// A variable's line: name and dtype[dims] (padded to the row's widths) and as many values as
/// fit the width.
std::string VariableLine(const std::string& name, const nd::NdArrowArray& a, std::size_t name_width,
                         std::size_t type_width, const Style& style, std::size_t width) {
  const std::string head = "  " + style.Bold(PadRight(name, name_width)) + "  " +
                           style.Type(PadRight(TypeText(a), type_width)) + "  ";
  std::string line;
  for (std::size_t items = 16;; items /= 2) {
    line = head + PreviewValues(a.values(), items, a.dimensions().is_scalar());
    if (DisplayWidth(line) <= width || items <= 2) break;
  }
  return TruncateToWidth(line, width);
}

/// The terminal form of one row: "row N" with its global attributes, then a line per
/// variable (and one for its attributes).
void PrintReadableRow(const nd::NdRecordBatch& row, std::uint64_t number, const Style& style,
                      std::size_t width) {
  std::string head = style.Bold("row " + std::to_string(number));
  const std::string globals = AttributesText(row.attributes());
  if (!globals.empty()) head += "  " + globals;
  std::cout << (number > 1 ? "\n" : "") << TruncateToWidth(head, width) << "\n";
  std::size_t name_width = 0, type_width = 0;
  for (int i = 0; i < row.num_columns(); ++i) {
    name_width = std::max(name_width, DisplayWidth(row.column_name(i)));
    type_width = std::max(type_width, DisplayWidth(TypeText(row.column(i))));
  }
  for (int i = 0; i < row.num_columns(); ++i) {
    const nd::NdArrowArray& a = row.column(i);
    std::cout << VariableLine(row.column_name(i), a, name_width, type_width, style, width) << "\n";
    const std::string attrs = AttributesText(a.attributes());
    if (!attrs.empty()) {
      std::cout << TruncateToWidth(std::string(name_width + 4, ' ') + style.Dim(attrs), width)
                << "\n";
    }
  }
  if (row.num_columns() == 0) std::cout << style.Dim("  (no variables)") << "\n";
}

/// The rows the scan will give, when known without a pass over the data.
std::uint64_t ExpectedRows(const Table& table, const CatOptions& o) {
  if (!o.filter.empty() || !o.prune.empty()) return 0;
  const std::uint64_t rows = table.dataset().CountRows();
  return o.limit ? std::min(rows, *o.limit) : rows;
}

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
  const bool readable = !o.json && IsTerminal(1);
  const Style style = Style::For(1);
  const auto width = static_cast<std::size_t>(TerminalWidth(1));
  // A bar only when the rows go elsewhere than the terminal.
  Progress::Options progress_options;
  progress_options.enabled = !IsTerminal(1) && IsTerminal(2);
  Progress progress("cat", ExpectedRows(table, o), Progress::Unit::kRows, progress_options);
  std::uint64_t rows = 0;
  while (true) {
    std::optional<nd::NdRecordBatch> row = OrFail(kCommand, reader.Next());
    if (!row) break;
    ++rows;
    progress.Advance();
    const nd::NdRecordBatch ordered = OrFail(kCommand, InTableOrder(*row, variables));
    if (readable) {
      PrintReadableRow(ordered, rows, style, width);
      continue;
    }
    std::string line = OrFail(kCommand, EncodeJsonLine(ordered));
    ReplaceInvalidUtf8(line);  // a stored string that is not UTF-8 must not break the JSON
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
  cmd->add_flag("--json", o->json,
                "write JSON Lines also on a terminal (they are always written when piped)");
  cmd->footer(
      "Example:\n"
      "  lance-nd cat ocean.lance --filter \"__global_attrs__.id = 'coads'\" --project SST "
      "--limit 2\n"
      "  lance-nd cat ocean.lance > rows.jsonl\n"
      "On a terminal rows are shown for reading (values cut with …); piped or with --json, "
      "they are JSON Lines.");
  cmd->callback([o] { Run(*o); });
}

}  // namespace lance_nd::cli
