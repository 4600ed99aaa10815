// `lance-nd cleanup TABLE --older-than DURATION`: remove old versions and their files.
#include <iostream>
#include <memory>
#include <string>

#include "cli_util.h"
#include "commands.h"

namespace lance_nd::cli {

void AddCleanupCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "cleanup",
      "Remove the versions older than a duration, and the files only they use (the "
      "latest version always stays)");
  auto uri = std::make_shared<std::string>();
  auto older_than = std::make_shared<std::string>();
  cmd->add_option("table", *uri, "the table (a directory, or memory://name)")->required();
  cmd->add_option("--older-than", *older_than, "e.g. 7d, 12h, 30m, 45s, 0s")->required();
  auto unreferenced = std::make_shared<bool>(false);
  cmd->add_flag("--remove-unreferenced", *unreferenced,
                "also remove files no version references (left by killed writers) once they "
                "are older than --older-than; without it they wait 7 days, in case a writer is "
                "still committing them");
  cmd->footer(
      "Example:\n"
      "  lance-nd cleanup ocean.lance --older-than 7d\n"
      "  lance-nd cleanup ocean.lance --older-than 1h --remove-unreferenced\n"
      "Versions removed can no longer be read with --version or restored.");
  cmd->callback([uri, older_than, unreferenced] {
    constexpr std::string_view kCommand = "cleanup";
    const std::chrono::seconds age = OrFail(kCommand, ParseDuration(*older_than));
    Table table = OpenTable(kCommand, *uri);
    const table::CleanupStats stats =
        OrFail(kCommand, table.CleanupOldVersions(age, *unreferenced));
    std::cout << "versions removed " << stats.old_versions << ", files removed "
              << stats.files_removed << ", bytes removed " << stats.bytes_removed << "\n";
  });
}

}  // namespace lance_nd::cli
