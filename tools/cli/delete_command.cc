// `lance-nd delete TABLE --where SQL`: delete the matching rows; prints how many.
#include <iostream>
#include <memory>
#include <string>

#include "cli_util.h"
#include "commands.h"

namespace lance_nd::cli {

void AddDeleteCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "delete", "Delete the rows for which a Lance SQL predicate is true; prints how many");
  auto uri = std::make_shared<std::string>();
  auto where = std::make_shared<std::string>();
  cmd->add_option("table", *uri, "the table (a directory, or memory://name)")->required();
  cmd->add_option("--where", *where, "the Lance SQL predicate, exact per row")->required();
  cmd->footer(
      "Example:\n"
      "  lance-nd delete ocean.lance --where \"__global_attrs__.id = 'coads'\"\n"
      "The rows stay in older versions until `lance-nd cleanup`.");
  cmd->callback([uri, where] {
    constexpr std::string_view kCommand = "delete";
    Table table = OpenTable(kCommand, *uri);
    const std::uint64_t deleted = OrFail(kCommand, table.Delete(*where));
    std::cout << deleted << "\n";
  });
}

}  // namespace lance_nd::cli
