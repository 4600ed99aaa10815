// `lance-nd info TABLE [--json]`: version, rows, variables (dtype, dims, attribute keys), global
// attribute keys, stats, fragments.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cli_util.h"
#include "commands.h"
#include "lance_nd/api/json_lines.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/array/view.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/table/scan.h"

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
  std::uint64_t version = 0;
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
  options.projection = {variable + "." + std::string(nd::kDimNamesField)};
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

Result<TableInfo> Describe(const Table& table) {
  TableInfo info;
  info.version = table.version();
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
  cmd->callback([uri, as_json] {
    const Table table = OpenTable(kCommand, *uri);
    const TableInfo info = OrFail(kCommand, Describe(table));
    if (*as_json) {
      std::cout << ToJson(info).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                << "\n";
    } else {
      PrintText(info);
    }
  });
}

}  // namespace lance_nd::cli
