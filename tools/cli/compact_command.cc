// `lance-nd compact TABLE`: merge small fragments, split large ones, drop deleted rows.
#include <iostream>
#include <memory>
#include <string>

#include "cli_util.h"
#include "commands.h"
#include "progress.h"

namespace lance_nd::cli {

void AddCompactCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "compact",
      "Rewrite fragments towards the target size (128 MiB) and without deleted rows; "
      "row order is kept");
  auto uri = std::make_shared<std::string>();
  cmd->add_option("table", *uri, "the table (a directory, or memory://name)")->required();
  cmd->footer(
      "Example:\n"
      "  lance-nd compact ocean.lance\n"
      "Old versions keep their files until `lance-nd cleanup ocean.lance --older-than 7d`.");
  cmd->callback([uri] {
    constexpr std::string_view kCommand = "compact";
    Table table = OpenTable(kCommand, *uri);
    Progress progress("compact", 0);
    CompactOptions options;
    options.progress = [&](std::uint64_t done, std::uint64_t total) {
      progress.SetTotal(total);
      progress.Set(done);
    };
    const CompactionStats stats = OrFail(kCommand, table.Compact(options));
    progress.Finish();
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
