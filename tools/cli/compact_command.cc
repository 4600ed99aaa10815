// `lance-nd compact TABLE`: merge small fragments, split large ones, drop deleted rows.
#include <iostream>
#include <memory>
#include <string>

#include "cli_util.h"
#include "commands.h"

namespace lance_nd::cli {

void AddCompactCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "compact",
      "Rewrite fragments towards the target size (128 MiB) and without deleted rows; "
      "row order is kept");
  auto uri = std::make_shared<std::string>();
  cmd->add_option("table", *uri, "the table (a directory, or memory://name)")->required();
  cmd->callback([uri] {
    constexpr std::string_view kCommand = "compact";
    Table table = OpenTable(kCommand, *uri);
    const CompactionStats stats = OrFail(kCommand, table.Compact());
    if (stats.committed_version == 0) {
      std::cout << "nothing to compact; version " << table.version() << "\n";
      return;
    }
    std::cout << "fragments removed " << stats.fragments_removed << ", added "
              << stats.fragments_added << ", rows rewritten " << stats.rows_rewritten
              << ", deleted rows removed " << stats.deleted_rows_removed << "; version "
              << stats.committed_version << "\n";
  });
}

}  // namespace lance_nd::cli
