// lance-nd: command line tool for lance-nd tables and Lance files.
#include <CLI/CLI.hpp>

#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"lance-nd: N-dimensional arrays in Lance tables"};
  app.require_subcommand(1);
  lance_nd::cli::AddInspectCommand(app);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
