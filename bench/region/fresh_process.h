// Timing a read in a new process: what a command-line tool or a script pays on its first read.
#pragma once

#include <string>
#include <vector>

#include "lance_nd/core/result.h"

namespace region_bench {

/// One run of a child process.
struct FreshRun {
  double reported_ms = 0;  // the time the child printed (its open + read)
  double process_ms = 0;   // spawn to exit, as seen by the parent
};

/// Runs `argv` (argv[0] is the executable's path) and reads the single number it prints.
lance_nd::Result<FreshRun> RunFresh(const std::vector<std::string>& argv);

}  // namespace region_bench
