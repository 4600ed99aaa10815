// `lance-nd ls TABLE [--json]`: the datasets of a table (rows grouped by the global attribute
// `id`, docs/FORMAT.md §3.6) with their dimensions, chunks and variables.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_util.h"
#include "commands.h"
#include "dataset_list.h"
#include "term.h"
#include "term_text.h"
#include "term_values.h"

namespace lance_nd::cli {
namespace {

constexpr std::string_view kCommand = "ls";

nlohmann::ordered_json ToJson(const DatasetSummary& d) {
  nlohmann::ordered_json j;
  j["id"] = d.id ? nlohmann::ordered_json(*d.id) : nlohmann::ordered_json(nullptr);
  j["first_row"] = d.first_row;
  j["rows"] = d.rows;
  j["chunk_count"] = d.chunked ? nlohmann::ordered_json(d.chunk_count) : nullptr;
  j["dim_names"] = d.dim_names;
  j["dim_sizes"] = d.dim_sizes;
  j["unlimited_dims"] = d.unlimited_dims;
  j["global_attrs"] = AttributesJson(d.global_attributes);
  j["variables"] = nlohmann::ordered_json::array();
  for (const VariableSummary& v : d.variables) {
    j["variables"].push_back({{"name", v.name},
                              {"dtype", v.dtype},
                              {"dim_names", v.dim_names},
                              {"dim_sizes", v.dim_sizes},
                              {"attrs", AttributesJson(v.attributes)}});
  }
  return j;
}

std::string Plural(std::uint64_t n, std::string_view word) {
  return GroupDigits(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

/// "coads  4 chunks  TIME=12 (unlimited), COADSY=90"; missing chunks are flagged.
std::string Headline(const DatasetSummary& d, const Style& style) {
  std::string name =
      d.id ? style.Name(*d.id) : style.Dim("(row " + std::to_string(d.first_row) + ", no id)");
  std::string out = name + "  ";
  if (d.chunked) {
    out.append(Plural(d.chunk_count, "chunk"));
    if (d.rows != d.chunk_count) {
      out.append(" ").append(style.Warn("(" + GroupDigits(d.rows) + " rows found)"));
    }
  } else {
    out.append(Plural(d.rows, "row"));
  }
  std::vector<std::string> axes;
  for (std::size_t i = 0; i < d.dim_names.size(); ++i) {
    std::string axis = d.dim_names[i];
    if (i < d.dim_sizes.size()) axis.append("=").append(std::to_string(d.dim_sizes[i]));
    for (const auto& u : d.unlimited_dims) {
      if (u == d.dim_names[i]) axis.append(" (unlimited)");
    }
    axes.push_back(std::move(axis));
  }
  const std::string dims = JoinCapped(axes, kMaxListedItems);
  if (!dims.empty()) out.append("  ").append(style.Dim(dims));
  return out;
}

TreeNode DatasetTree(const DatasetSummary& d, const Style& style) {
  TreeNode node{Headline(d, style), {}};
  std::size_t name_width = 0, type_width = 0;
  std::vector<std::string> types;
  for (const VariableSummary& v : d.variables) {
    types.push_back(v.dtype + ShapeText(v.dim_names, v.dim_sizes));
    name_width = std::max(name_width, DisplayWidth(v.name));
    type_width = std::max(type_width, DisplayWidth(types.back()));
  }
  for (std::size_t i = 0; i < d.variables.size(); ++i) {
    const VariableSummary& v = d.variables[i];
    std::string text = style.Bold(PadRight(v.name, name_width)) + "  ";
    const std::string attrs = AttributesText(v.attributes);
    text.append(attrs.empty() ? style.Type(types[i])
                              : style.Type(PadRight(types[i], type_width)) + "  " + attrs);
    node.children.push_back({text, {}});
  }
  const std::string globals = AttributesText(d.global_attributes);
  if (!globals.empty()) node.children.push_back({style.Dim("global: ") + globals, {}});
  return node;
}

void PrintText(const std::vector<DatasetSummary>& datasets, const Table& table) {
  const Style style = Style::For(1);
  const std::size_t width = IsTerminal(1) ? static_cast<std::size_t>(TerminalWidth(1)) : 0;
  std::uint64_t rows = 0;
  for (const DatasetSummary& d : datasets) rows += d.rows;
  std::cout << style.Bold(Plural(datasets.size(), "dataset")) << " in " << Plural(rows, "row")
            << " (version " << table.version() << ")\n";
  for (const DatasetSummary& d : datasets) {
    std::cout << "\n" << RenderTree(DatasetTree(d, style), width);
  }
}

}  // namespace

void AddLsCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "ls",
      "List the datasets of a table (rows grouped by the global attribute id): dimensions, "
      "chunks, variables with dtype[dims] and attributes");
  auto uri = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  cmd->add_option("table", *uri, "the table (a directory, or memory://name)")->required();
  cmd->add_flag("--json", *as_json, "print one JSON object instead of text");
  cmd->footer(
      "Example:\n"
      "  lance-nd ls ocean.lance\n"
      "  lance-nd ls ocean.lance --json | jq '.datasets[].id'\n"
      "Rows without an id are listed as datasets of their own, named by their row.");
  cmd->callback([uri, as_json] {
    const Table table = OpenTable(kCommand, *uri);
    const auto datasets = OrFail(kCommand, ListDatasets(table));
    if (*as_json) {
      nlohmann::ordered_json j;
      j["version"] = table.version();
      j["datasets"] = nlohmann::ordered_json::array();
      for (const DatasetSummary& d : datasets) j["datasets"].push_back(ToJson(d));
      std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
      return;
    }
    PrintText(datasets, table);
  });
}

}  // namespace lance_nd::cli
