// lance-nd: command line tool for lance-nd tables and Lance files.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "cli_util.h"
#include "commands.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);  // rows stream through std::cin / std::cout
  CLI::App app{"lance-nd: N-dimensional arrays in Lance tables"};
  app.require_subcommand(1);
  lance_nd::cli::AddInspectCommand(app);
  lance_nd::cli::AddInfoCommand(app);
  lance_nd::cli::AddCatCommand(app);
  lance_nd::cli::AddAppendCommand(app);
  lance_nd::cli::AddDeleteCommand(app);
  lance_nd::cli::AddVersionsCommand(app);
  lance_nd::cli::AddRestoreCommand(app);
  lance_nd::cli::AddCompactCommand(app);
  lance_nd::cli::AddWidenCommand(app);
  lance_nd::cli::AddCleanupCommand(app);
  lance_nd::cli::AddSliceCommand(app);
  lance_nd::cli::AddVerifyCommand(app);
#ifdef LANCE_ND_WITH_NETCDF
  lance_nd::cli::AddImportCommand(app);
  lance_nd::cli::AddExportCommand(app);
#endif
  lance_nd::cli::AddLsCommand(app);
  lance_nd::cli::AddSchemaCommand(app);
  app.footer(
      "Example:\n"
      "  lance-nd append ocean.lance rows.jsonl --create\n"
      "  lance-nd ls ocean.lance\n"
      "  lance-nd cat ocean.lance --limit 3\n"
      "Run `lance-nd COMMAND --help` for a command's options and examples.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Usage errors: one line, exit status 2.
    std::string where, help = "lance-nd --help";
    for (const CLI::App* sub : app.get_subcommands()) {
      where = sub->get_name() + ": ";
      help = "lance-nd " + sub->get_name() + " --help";
    }
    std::cerr << "lance-nd: " << where << e.what() << " (see " << help << ")" << std::endl;
    return 2;
  } catch (const lance_nd::cli::CommandExit& e) {
    // Leave without the exit handlers: after a failed write (a full disk) libhdf5 keeps the
    // file it could not close and crashes when its own handler closes it at exit.
    std::cout.flush();
    std::cerr.flush();
    std::_Exit(e.exit_code);
  }
  return 0;
}
