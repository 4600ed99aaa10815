// `lance-nd verify TABLE [--version N] [--json]`: read every page of one version and check it
// (lance_nd::Verify); exit 0 with a one-line summary, or non-zero with the first bad place.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cli_util.h"
#include "commands.h"
#include "lance_nd/api/verify.h"

namespace lance_nd::cli {
namespace {

constexpr std::string_view kCommand = "verify";

nlohmann::ordered_json ReportJson(const VerifyReport& report) {
  nlohmann::ordered_json j = {{"ok", report.ok()},         {"version", report.version},
                              {"rows", report.rows},       {"fragments", report.fragments},
                              {"columns", report.columns}, {"data_files", report.data_files}};
  if (report.problem) {
    const VerifyProblem& p = *report.problem;
    nlohmann::ordered_json problem = {{"fragment", p.fragment_id}};
    if (!p.data_file.empty()) problem["data_file"] = p.data_file;
    if (!p.column.empty()) problem["column"] = p.column;
    if (p.first_row >= 0) {
      problem["first_row"] = p.first_row;
      problem["num_rows"] = p.num_rows;
    }
    problem["what"] = p.what;
    j["problem"] = std::move(problem);
  }
  return j;
}

void Run(const std::string& uri, std::optional<std::uint64_t> version, bool as_json) {
  (void)OpenTable(kCommand, uri);  // the usual messages for a missing table or a file
  VerifyOptions options;
  options.version = version;
  const VerifyReport report = OrFail(kCommand, Verify(uri, options));
  if (as_json) {
    std::cout << ReportJson(report).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
              << "\n";
    if (!report.ok()) throw CommandExit{kFailure};
    return;
  }
  if (!report.ok()) {
    Fail(kCommand, report.Summary() +
                       "; the data file is damaged: restore it from a copy, or `lance-nd restore` "
                       "a version that does not use it");
  }
  std::cout << report.Summary() << "\n";
}

}  // namespace

void AddVerifyCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "verify",
      "Read every page of a table version and check it: pages decode, values pass "
      "their type's checks, rows decode as nd record batches");
  auto uri = std::make_shared<std::string>();
  auto version = std::make_shared<std::uint64_t>(0);
  auto as_json = std::make_shared<bool>(false);
  cmd->add_option("table", *uri, "the table (a directory, or memory://name)")->required();
  auto* version_opt =
      cmd->add_option("--version", *version, "the version to verify (default: the latest)")
          ->check(CLI::PositiveNumber);
  cmd->add_flag("--json", *as_json,
                "print one JSON object {\"ok\": ..., \"rows\": N, ..., \"problem\": {...}}");
  cmd->footer(
      "Example:\n"
      "  lance-nd verify ocean.lance\n"
      "  lance-nd verify ocean.lance --version 3 --json\n"
      "Exit status 0 when everything checked is consistent, 1 at the first bad place (fragment, "
      "data file, column, rows). Lance files have no checksums: a damaged byte inside a "
      "fixed-width value (a float's bits) cannot be seen.");
  cmd->callback([uri, version, version_opt, as_json] {
    Run(*uri, version_opt->count() > 0 ? std::optional<std::uint64_t>(*version) : std::nullopt,
        *as_json);
  });
}

}  // namespace lance_nd::cli
