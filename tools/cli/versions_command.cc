// `lance-nd versions TABLE [--json]`: one line per version, oldest first: number and time. On a
// terminal: a table with the operation, rows, fragments and size of each version, and its age.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_util.h"
#include "commands.h"
#include "lance_nd/table/version_info.h"
#include "term.h"
#include "term_text.h"

namespace lance_nd::cli {
namespace {

constexpr std::string_view kCommand = "versions";

void PrintReadable(const Table& table) {
  const std::vector<table::VersionInfo> infos =
      OrFail(kCommand, table::ListVersionInfos(table.location()));
  const Style style = Style::For(1);
  const auto now = std::chrono::system_clock::now();
  const auto right = TextTable::Align::kRight;
  TextTable out({{"version", right, [&](std::string_view s) { return style.Bold(s); }},
                 {"committed (UTC)", TextTable::Align::kLeft, nullptr},
                 {"age", right, [&](std::string_view s) { return style.Dim(s); }},
                 {"operation", TextTable::Align::kLeft, nullptr},
                 {"rows", right, nullptr},
                 {"fragments", right, nullptr},
                 {"size", right, nullptr}});
  for (const table::VersionInfo& v : infos) {
    const auto time = std::chrono::time_point_cast<std::chrono::system_clock::duration>(
        std::chrono::system_clock::time_point(v.timestamp.time_since_epoch()));
    const double age = std::chrono::duration<double>(now - time).count();
    std::string operation = v.operation.empty() ? "-" : v.operation;
    if (v.version == table.version()) operation += "  ← latest";
    out.AddRow({std::to_string(v.version), FormatTime(time), HumanDuration(age) + " ago", operation,
                GroupDigits(v.num_rows), GroupDigits(v.num_fragments),
                HumanBytes(v.total_files_size)});
  }
  std::cout << out.Render(static_cast<std::size_t>(TerminalWidth(1)),
                          [&](std::string_view s) { return style.Dim(s); });
}

}  // namespace

void AddVersionsCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "versions", "List the versions of a table, oldest first: number and UTC time of the commit");
  auto uri = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  cmd->add_option("table", *uri, "the table (a directory, or memory://name)")->required();
  cmd->add_flag("--json", *as_json,
                "print one JSON array of {\"version\": N, \"timestamp\": TIME} instead");
  cmd->footer(
      "Example:\n"
      "  lance-nd versions ocean.lance\n"
      "  lance-nd versions ocean.lance --json\n"
      "On a terminal each version also shows its operation, rows, fragments and size; piped, "
      "the output is one `N<TAB>TIME` line per version.");
  cmd->callback([uri, as_json] {
    const Table table = OpenTable(kCommand, *uri);
    if (!*as_json && IsTerminal(1)) {
      PrintReadable(table);
      return;
    }
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
