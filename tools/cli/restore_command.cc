// `lance-nd restore TABLE N`: make version N's content the latest, in a new commit.
#include <iostream>
#include <memory>
#include <string>

#include "cli_util.h"
#include "commands.h"

namespace lance_nd::cli {

void AddRestoreCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("restore",
                                 "Make an earlier version's content the latest, as a new version");
  auto uri = std::make_shared<std::string>();
  auto version = std::make_shared<std::uint64_t>(0);
  cmd->add_option("table", *uri, "the table (a directory, or memory://name)")->required();
  cmd->add_option("version", *version, "the version to restore")->required();
  cmd->footer(
      "Example:\n"
      "  lance-nd restore ocean.lance 3\n"
      "`lance-nd versions ocean.lance` lists the versions there are.");
  cmd->callback([uri, version] {
    constexpr std::string_view kCommand = "restore";
    Table table = OpenTable(kCommand, *uri);
    OrFail(kCommand, table.Restore(*version));
    std::cout << "restored version " << *version << " as version " << table.version() << "\n";
  });
}

}  // namespace lance_nd::cli
