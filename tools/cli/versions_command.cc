// `lance-nd versions TABLE [--json]`: one line per version, oldest first: number and time.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_util.h"
#include "commands.h"

namespace lance_nd::cli {

void AddVersionsCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "versions", "List the versions of a table, oldest first: number and UTC time of the commit");
  auto uri = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  cmd->add_option("table", *uri, "the table (a directory, or memory://name)")->required();
  cmd->add_flag("--json", *as_json,
                "print one JSON array of {\"version\": N, \"timestamp\": TIME} instead");
  cmd->callback([uri, as_json] {
    constexpr std::string_view kCommand = "versions";
    const Table table = OpenTable(kCommand, *uri);
    const std::vector<TableVersion> versions = OrFail(kCommand, table.Versions());
    if (*as_json) {
      nlohmann::ordered_json j = nlohmann::ordered_json::array();
      for (const TableVersion& v : versions) {
        j.push_back({{"version", v.version}, {"timestamp", FormatTime(v.timestamp)}});
      }
      std::cout << j.dump() << "\n";
      return;
    }
    for (const TableVersion& v : versions) {
      std::cout << v.version << "\t" << FormatTime(v.timestamp) << "\n";
    }
  });
}

}  // namespace lance_nd::cli
