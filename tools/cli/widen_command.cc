// `lance-nd widen TABLE VAR TYPE`: change a variable's value type to one that holds every value.
#include <iostream>
#include <memory>
#include <string>

#include "cli_util.h"
#include "commands.h"
#include "lance_nd/api/json_lines.h"

namespace lance_nd::cli {

void AddWidenCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "widen", "Change a variable's value type to a wider one (its stats follow), in one commit");
  auto uri = std::make_shared<std::string>();
  auto variable = std::make_shared<std::string>();
  auto type = std::make_shared<std::string>();
  cmd->add_option("table", *uri, "the table (a directory, or memory://name)")->required();
  cmd->add_option("variable", *variable, "the variable to widen")->required();
  cmd->add_option("type", *type, "the new dtype (a JSON Lines dtype, e.g. float64)")->required();
  cmd->footer(
      "Example:\n"
      "  lance-nd widen ocean.lance SST float64\n"
      "The new type must hold every value exactly (int32 -> int64, float32 -> float64).");
  cmd->callback([uri, variable, type] {
    constexpr std::string_view kCommand = "widen";
    const array::DataTypePtr to = OrFail(kCommand, ParseJsonDtype(*type));
    Table table = OpenTable(kCommand, *uri);
    OrFail(kCommand, table.Widen(*variable, to));
    std::cout << "widened " << *variable << " to " << *type << "; version " << table.version()
              << "\n";
  });
}

}  // namespace lance_nd::cli
