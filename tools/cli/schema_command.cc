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
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"
#include "term.h"
#include "term_text.h"
#include "term_values.h"

namespace lance_nd::cli {
namespace {

constexpr std::string_view kCommand = "schema";

/// Metadata entries of `field` and its descendants, by path below it ("" for the field),
/// without the extension tags every nd column carries.
void CollectMetadata(const array::Field& field, const std::string& path,
                     nlohmann::ordered_json& out) {
  nlohmann::ordered_json entries = nlohmann::ordered_json::object();
  for (const auto& [key, value] : field.metadata().entries()) {
    if (key == nd::kExtensionNameKey || key == nd::kExtensionMetadataKey) continue;
    entries[key] = value;
  }
  if (!entries.empty()) out[path] = std::move(entries);
  for (const array::FieldPtr& child : field.type()->children()) {
    CollectMetadata(*child, path.empty() ? child->name() : path + "." + child->name(), out);
  }
}

nlohmann::ordered_json KeysJson(const std::vector<array::FieldPtr>& fields) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& f : fields)
    out.push_back({{"key", f->name()}, {"dtype", DtypeText(*f->type())}});
  return out;
}

Result<nlohmann::ordered_json> SchemaJson(const array::Schema& schema) {
  nlohmann::ordered_json j;
  j["variables"] = nlohmann::ordered_json::array();
  j["global_attrs"] = nlohmann::ordered_json::array();
  j["stats"] = nlohmann::ordered_json::array();
  for (const array::FieldPtr& field : schema.fields()) {
    if (nd::IsGlobalAttributesField(*field)) {
      j["global_attrs"] = KeysJson(field->type()->children());
    } else if (auto variable = nd::StatsVariable(field->name())) {
      const auto& children = field->type()->children();
      j["stats"].push_back({{"name", field->name()},
                            {"variable", *variable},
                            {"dtype", children.empty() ? "" : DtypeText(*children[0]->type())}});
    } else if (nd::IsNdField(*field)) {
      LND_ASSIGN_OR_RETURN(nd::NdStorageLayout layout, nd::ParseNdField(*field));
      nlohmann::ordered_json metadata = nlohmann::ordered_json::object();
      CollectMetadata(*field, "", metadata);
      j["variables"].push_back({{"name", field->name()},
                                {"dtype", DtypeText(*layout.value_field->type())},
                                {"nullable_values", layout.value_field->nullable()},
                                {"attrs", KeysJson(layout.attribute_fields)},
                                {"field_metadata", std::move(metadata)}});
    }
  }
  j["metadata"] = nlohmann::ordered_json::object();
  for (const auto& [key, value] : schema.metadata().entries()) j["metadata"][key] = value;
  return j;
}

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
