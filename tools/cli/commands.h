// Registration of the lance-nd subcommands.
#pragma once

#include <CLI/CLI.hpp>

namespace lance_nd::cli {

/// \brief `lance-nd inspect FILE.lance [--json]`: footer, versions, schema, columns and pages.
void AddInspectCommand(CLI::App& app);

}  // namespace lance_nd::cli
