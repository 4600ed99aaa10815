// `lance-nd info TABLE [--json]`: version, rows, variables (dtype, dims, attribute keys), global
// attribute keys, stats, fragments.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli_util.h"
#include "commands.h"
#include "lance_nd/api/json_lines.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/array/field_path.h"
#include "lance_nd/array/view.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/table/scan.h"
#include "term.h"
#include "term_text.h"

namespace lance_nd::cli {
namespace {

constexpr std::string_view kCommand = "info";

struct VariableInfo {
  std::string name;
  std::string dtype;
  std::vector<std::string> dims;  // every dimension name the rows use, first seen first
  std::vector<std::string> attr_keys;
};

struct TableInfo {
  std::string uri;
  std::uint64_t version = 0;
  std::optional<std::uint64_t> bytes;  // data files on disk, when the manifest records them
  std::uint64_t rows = 0;
  std::size_t fragments = 0;
  bool stats = false;
  std::vector<VariableInfo> variables;
  std::vector<std::string> global_keys;
};

std::vector<std::string> FieldNames(const std::vector<array::FieldPtr>& fields) {
  std::vector<std::string> out;
  for (const auto& f : fields) out.push_back(f->name());
  return out;
}

/// Adds `name` to `out` the first time it is seen.
void Note(std::string_view name, std::vector<std::string>& out,
          std::set<std::string, std::less<>>& seen) {
  if (seen.insert(std::string(name)).second) out.emplace_back(name);
}

/// The dimension names the rows of `variable` use, read from its dim_names child alone.
Result<std::vector<std::string>> DimNamesFromColumn(const Table& table,
                                                    const std::string& variable) {
  table::TableScanOptions options;
  options.projection = {array::JoinFieldPath({variable, std::string(nd::kDimNamesField)})};
  LND_ASSIGN_OR_RETURN(auto reader, table::ScanTable(table.dataset(), options));
  std::vector<std::string> out;
  std::set<std::string, std::less<>> seen;
  while (true) {
    LND_ASSIGN_OR_RETURN(array::RecordBatchPtr batch, reader.Next());
    if (batch == nullptr) break;
    const array::ArrayData& column = *batch->column(0);
    if (column.children.size() != 1) {
      return Status::Internal("the projection of ", variable, " is not its dim_names alone");
    }
    const array::ListView lists(*column.children[0]);
    const array::BinaryView names(*lists.values());
    for (int64_t row = 0; row < lists.length(); ++row) {
      if (column.IsNull(row) || lists.IsNull(row)) continue;
      for (int64_t k = lists.ValueOffset(row); k < lists.ValueOffset(row + 1); ++k) {
        Note(names.Value(k), out, seen);
      }
    }
  }
  return out;
}

/// The same, decoding the rows (for names with a dot, which a projection path would split).
Result<std::vector<std::string>> DimNamesFromRows(const Table& table, const std::string& variable) {
  LND_ASSIGN_OR_RETURN(auto reader, table.Scan().Project({variable}).Open());
  std::vector<std::string> out;
  std::set<std::string, std::less<>> seen;
  while (true) {
    LND_ASSIGN_OR_RETURN(auto row, reader.Next());
    if (!row) break;
    if (const nd::NdArrowArray* a = row->GetColumn(variable)) {
      for (const auto& d : a->dimensions().dims()) Note(d.name, out, seen);
    }
  }
  return out;
}

Result<std::vector<std::string>> DimNames(const Table& table, const std::string& variable) {
  return variable.find('.') == std::string::npos ? DimNamesFromColumn(table, variable)
                                                 : DimNamesFromRows(table, variable);
}

/// Bytes of the data files, or nullopt when a size is not recorded.
std::optional<std::uint64_t> DataBytes(const Table& table) {
  std::uint64_t total = 0;
  for (const table::Fragment& f : table.dataset().fragments()) {
    for (const table::DataFile& file : f.files) {
      if (file.file_size_bytes == 0) return std::nullopt;
      total += file.file_size_bytes;
    }
  }
  return total;
}

Result<TableInfo> Describe(const Table& table, std::string uri) {
  TableInfo info;
  info.uri = std::move(uri);
  info.version = table.version();
  info.bytes = DataBytes(table);
  LND_ASSIGN_OR_RETURN(info.rows, table.CountRows());
  info.fragments = table.dataset().fragments().size();
  info.stats = table.has_stats();
  for (const array::FieldPtr& field : table.schema()->fields()) {
    if (nd::IsGlobalAttributesField(*field)) {
      info.global_keys = FieldNames(field->type()->children());
      continue;
    }
    if (!nd::IsNdField(*field)) continue;
    LND_ASSIGN_OR_RETURN(nd::NdStorageLayout layout, nd::ParseNdField(*field));
    VariableInfo v;
    v.name = field->name();
    v.dtype =
        JsonDtypeName(*layout.value_field->type()).ValueOr(layout.value_field->type()->ToString());
    v.attr_keys = FieldNames(layout.attribute_fields);
    LND_ASSIGN_OR_RETURN(v.dims, DimNames(table, v.name));
    info.variables.push_back(std::move(v));
  }
  return info;
}

std::string Joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out.append(out.empty() ? "" : ", ").append(item);
  return out;
}

void PrintText(const TableInfo& info) {
  std::cout << "version: " << info.version << "\n"
            << "rows: " << info.rows << "\n"
            << "fragments: " << info.fragments << "\n"
            << "stats: " << (info.stats ? "on" : "off") << "\n"
            << "variables: " << info.variables.size() << "\n";
  for (const VariableInfo& v : info.variables) {
    std::cout << "  " << v.name << ": " << v.dtype << " [" << Joined(v.dims) << "]";
    if (!v.attr_keys.empty()) std::cout << " attrs: " << Joined(v.attr_keys);
    std::cout << "\n";
  }
  std::cout << "global keys: " << Joined(info.global_keys) << "\n";
}

/// The terminal form: a headline, then the variables and global keys in aligned columns.
void PrintReadable(const TableInfo& info) {
  const Style style = Style::For(1);
  const auto width = static_cast<std::size_t>(TerminalWidth(1));
  std::string headline = style.Bold(info.uri) + "  version " + std::to_string(info.version) +
                         " · " + GroupDigits(info.rows) + (info.rows == 1 ? " row" : " rows") +
                         " · " + GroupDigits(info.fragments) +
                         (info.fragments == 1 ? " fragment" : " fragments");
  if (info.bytes) headline += " · " + HumanBytes(*info.bytes);
  headline += std::string(" · stats ") + (info.stats ? "on" : "off");
  std::cout << TruncateToWidth(headline, width) << "\n\n";
  TextTable table(
      {{"variable", TextTable::Align::kLeft, [&](std::string_view s) { return style.Name(s); }},
       {"dtype[dims]", TextTable::Align::kLeft, [&](std::string_view s) { return style.Type(s); }},
       {"attributes", TextTable::Align::kLeft, nullptr}});
  for (const VariableInfo& v : info.variables) {
    table.AddRow({v.name, v.dtype + ShapeText(v.dims), Joined(v.attr_keys)});
  }
  if (info.variables.empty()) {
    std::cout << style.Dim("no variables") << "\n";
  } else {
    std::cout << table.Render(width, [&](std::string_view s) { return style.Dim(s); });
  }
  std::cout << "\n"
            << style.Dim("global attributes: ")
            << (info.global_keys.empty() ? style.Dim("none") : Joined(info.global_keys)) << "\n";
}

nlohmann::ordered_json ToJson(const TableInfo& info) {
  nlohmann::ordered_json j;
  j["version"] = info.version;
  j["rows"] = info.rows;
  j["fragments"] = info.fragments;
  j["stats"] = info.stats;
  j["variables"] = nlohmann::ordered_json::array();
  for (const VariableInfo& v : info.variables) {
    j["variables"].push_back(
        {{"name", v.name}, {"dtype", v.dtype}, {"dims", v.dims}, {"attr_keys", v.attr_keys}});
  }
  j["global_keys"] = info.global_keys;
  return j;
}

}  // namespace

void AddInfoCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "info",
      "Describe a lance-nd table: version, rows, variables with dtypes and dimensions, "
      "global attribute keys, stats, fragments");
  auto uri = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  cmd->add_option("table", *uri, "the table (a directory, or memory://name)")->required();
  cmd->add_flag("--json", *as_json, "print one JSON object instead of text");
  cmd->footer(
      "Example:\n"
      "  lance-nd info ocean.lance\n"
      "  lance-nd info ocean.lance --json | jq .rows\n"
      "On a terminal the text is laid out for reading; piped, it is the line format of "
      "docs/cli.md.");
  cmd->callback([uri, as_json] {
    const Table table = OpenTable(kCommand, *uri);
    const TableInfo info = OrFail(kCommand, Describe(table, *uri));
    if (*as_json) {
      std::cout << ToJson(info).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                << "\n";
    } else if (IsTerminal(1)) {
      PrintReadable(info);
    } else {
      PrintText(info);
    }
  });
}

}  // namespace lance_nd::cli
