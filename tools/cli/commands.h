// Registration of the lance-nd subcommands.
#pragma once

#include <CLI/CLI.hpp>

namespace lance_nd::cli {

/// \brief `lance-nd inspect FILE.lance [--json]`: footer, versions, schema, columns and pages.
void AddInspectCommand(CLI::App& app);

// The lance-nd table commands (docs/cli.md).
void AddInfoCommand(CLI::App& app);      // info TABLE [--json]
void AddCatCommand(CLI::App& app);       // cat TABLE [--filter] [--prune] [--project] ...
void AddAppendCommand(CLI::App& app);    // append TABLE FILE.jsonl|- [--create] ...
void AddDeleteCommand(CLI::App& app);    // delete TABLE --where SQL
void AddVersionsCommand(CLI::App& app);  // versions TABLE [--json]
void AddRestoreCommand(CLI::App& app);   // restore TABLE N
void AddCompactCommand(CLI::App& app);   // compact TABLE
void AddWidenCommand(CLI::App& app);     // widen TABLE VAR TYPE
void AddCleanupCommand(CLI::App& app);   // cleanup TABLE --older-than DURATION
void AddLsCommand(CLI::App& app);        // ls TABLE [--json]
void AddSchemaCommand(CLI::App& app);    // schema TABLE [--json] [--version N]
void AddSliceCommand(CLI::App& app);     // slice TABLE --id ID --var NAME [--isel] [--sel] ...
void AddVerifyCommand(CLI::App& app);    // verify TABLE [--version N] [--json]

// netCDF (built with libnetcdf only: LANCE_ND_WITH_NETCDF).
void AddImportCommand(CLI::App& app);  // import TABLE FILE.nc... [--id] [--chunks] ...
void AddExportCommand(CLI::App& app);  // export TABLE OUT.nc --id ID | --filter SQL

}  // namespace lance_nd::cli
