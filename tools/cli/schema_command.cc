// `lance-nd schema TABLE [--json]`: the table schema as a tree: variables (value type,
// attribute keys and types, field metadata such as lance-encoding:*), global attribute keys,
// stats columns and schema metadata.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_util.h"
#include "commands.h"
#include "schema_json.h"
#include "term.h"
#include "term_text.h"
#include "term_values.h"

namespace lance_nd::cli {
namespace {

constexpr std::string_view kCommand = "schema";

TreeNode KeysNode(const nlohmann::ordered_json& keys, const Style& style) {
  TreeNode node;
  std::size_t width = 0;
  for (const auto& k : keys) width = std::max(width, DisplayWidth(k["key"].get<std::string>()));
  for (const auto& k : keys) {
    node.children.push_back({style.Key(PadRight(k["key"].get<std::string>(), width)) + "  " +
                                 style.Type(k["dtype"].get<std::string>()),
                             {}});
  }
  return node;
}

TreeNode VariableNode(const nlohmann::ordered_json& v, const Style& style) {
  TreeNode node{style.Name(v["name"].get<std::string>()) + "  " +
                    style.Type(v["dtype"].get<std::string>()) +
                    (v["nullable_values"].get<bool>() ? "" : style.Dim("  (values not null)")),
                {}};
  if (!v["attrs"].empty()) {
    TreeNode attrs = KeysNode(v["attrs"], style);
    attrs.text = style.Dim("attrs");
    node.children.push_back(std::move(attrs));
  }
  for (const auto& item : v["field_metadata"].items()) {
    TreeNode meta{style.Dim(item.key().empty() ? "metadata" : "metadata of " + item.key()), {}};
    for (const auto& entry : item.value().items()) {
      meta.children.push_back({entry.key() + " = " + entry.value().get<std::string>(), {}});
    }
    node.children.push_back(std::move(meta));
  }
  return node;
}

void PrintText(const nlohmann::ordered_json& j, const std::string& uri, std::uint64_t version) {
  const Style style = Style::For(1);
  const std::size_t width = IsTerminal(1) ? static_cast<std::size_t>(TerminalWidth(1)) : 0;
  TreeNode root{style.Bold(uri) + "  version " + std::to_string(version), {}};
  TreeNode variables{style.Bold("variables (" + std::to_string(j["variables"].size()) + ")"), {}};
  for (const auto& v : j["variables"]) variables.children.push_back(VariableNode(v, style));
  root.children.push_back(std::move(variables));
  TreeNode globals = KeysNode(j["global_attrs"], style);
  globals.text = style.Bold("global attributes (" + std::to_string(j["global_attrs"].size()) + ")");
  root.children.push_back(std::move(globals));
  TreeNode stats{style.Bold("stats columns (" + std::to_string(j["stats"].size()) + ")"), {}};
  for (const auto& s : j["stats"]) {
    stats.children.push_back({s["name"].get<std::string>() + "  " +
                                  style.Type("{min, max}: " + s["dtype"].get<std::string>()),
                              {}});
  }
  root.children.push_back(std::move(stats));
  TreeNode metadata{style.Bold("schema metadata (" + std::to_string(j["metadata"].size()) + ")"),
                    {}};
  for (const auto& item : j["metadata"].items()) {
    metadata.children.push_back({item.key() + " = " + item.value().get<std::string>(), {}});
  }
  root.children.push_back(std::move(metadata));
  std::cout << RenderTree(root, width);
}

}  // namespace

void AddSchemaCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "schema",
      "Show the table schema as a tree: variables (value type, attribute keys and types, "
      "column options), global attribute keys, stats columns, schema metadata");
  auto uri = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  auto version = std::make_shared<std::optional<std::uint64_t>>();
  cmd->add_option("table", *uri, "the table (a directory, or memory://name)")->required();
  cmd->add_option("--version", *version, "the table version to show (default: the latest)");
  cmd->add_flag("--json", *as_json, "print one JSON object instead of text");
  cmd->footer(
      "Example:\n"
      "  lance-nd schema ocean.lance\n"
      "  lance-nd schema ocean.lance --json | jq '.variables[].name'");
  cmd->callback([uri, as_json, version] {
    Table table = OpenTable(kCommand, *uri);
    if (*version) table = OrFail(kCommand, table.Checkout(**version));
    const nlohmann::ordered_json j = OrFail(kCommand, SchemaJson(*table.schema()));
    if (*as_json) {
      std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      PrintText(j, *uri, table.version());
    }
  });
}

}  // namespace lance_nd::cli
