// `lance-nd export TABLE OUT.nc (--id ID | --filter SQL)`: rows of a table as a netCDF-4 file,
// chunked datasets reassembled (docs/netcdf.md).
#include <iostream>
#include <memory>
#include <string>

#include "cli_util.h"
#include "commands.h"
#include "lance_nd/netcdf/export.h"
#include "output_file.h"
#include "progress.h"

namespace lance_nd::cli {
namespace {

constexpr std::string_view kCommand = "export";

struct ExportArgs {
  std::string uri;
  std::string output;
  std::string id;
  std::string filter;
};

void Run(const ExportArgs& a) {
  netcdf::ExportOptions options;
  if (!a.id.empty()) options.id = a.id;
  if (!a.filter.empty()) options.filter = a.filter;
  if (options.id.has_value() == options.filter.has_value()) {
    Fail(kCommand, "give exactly one of --id ID and --filter SQL to say which rows to export");
  }
  (void)OpenTable(kCommand, a.uri);  // a missing table or a file fails as in every command
  const netcdf::ExportResult result = OrFail(kCommand, [&] {
    // A bar on a terminal, over the rows written (stdout keeps the one-line summary).
    Progress progress("export", 0, Progress::Unit::kRows);
    options.progress = [&](std::uint64_t written, std::uint64_t total) {
      progress.SetTotal(total);
      progress.Set(written);
    };
    Result<netcdf::ExportResult> exported = netcdf::ExportResult{};
    const Status written = WriteReplacing(a.output, [&](const std::string& path) {
      exported = netcdf::ExportNetcdf(a.uri, path, options);
      return exported.status();
    });
    if (!written.ok()) exported = written;
    progress.Finish();
    return exported;
  }());
  std::cout << "exported " << result.rows << (result.rows == 1 ? " row, " : " rows, ")
            << result.datasets << (result.datasets == 1 ? " dataset" : " datasets") << " to "
            << a.output << "\n";
}

}  // namespace

void AddExportCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "export",
      "Write a dataset (and its groups) or the rows a filter selects as a netCDF-4 file, "
      "reassembling chunk rows");
  auto a = std::make_shared<ExportArgs>();
  cmd->add_option("table", a->uri, "the table")->required();
  cmd->add_option("output", a->output, "the netCDF-4 file to write (replaced when present)")
      ->required();
  cmd->add_option("--id", a->id, "the dataset id; its groups (ID/...) come along");
  cmd->add_option("--filter", a->filter,
                  "Lance SQL on the rows, e.g. \"__global_attrs__.id = 'coads'\"");
  cmd->footer(
      "Example:\n"
      "  lance-nd export coads.lance coads.nc --id coads_climatology\n"
      "  ncdump -h coads.nc");
  cmd->callback([a] { Run(*a); });
}

}  // namespace lance_nd::cli
