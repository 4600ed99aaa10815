// Helpers of the table interop and differential tools (tests/table_interop,
// tests/table_rowids_interop, tests/differential): number arguments, opening a local table, writing
// an Arrow IPC file into one, and the body of main().
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "lance_nd/array/ipc.h"
#include "lance_nd/core/result.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/write.h"

namespace lance_nd::tool {

/// \brief A decimal u64 argument; InvalidArgument naming `what` otherwise.
inline Result<std::uint64_t> ParseU64(const std::string& s, const char* what) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (s.empty() || end == nullptr || *end != '\0') {
    return Status::InvalidArgument(std::string(what) + " '" + s + "' is not a number");
  }
  return static_cast<std::uint64_t>(v);
}

/// \brief The table at `path` on the local disk, at `version` or the latest.
inline Result<table::Dataset> OpenLocal(const std::string& path,
                                        std::optional<std::uint64_t> version = {}) {
  return table::Dataset::Open(table::TableLocation::Local(path), version);
}

/// \brief Writes the batches of the IPC file `in` to the local table `path`; `mode` is
/// "create", "append" or anything else for overwrite. `options.mode` is set from it.
inline Result<table::Dataset> WriteIpcToTable(const std::string& mode, const std::string& path,
                                              const std::string& in,
                                              table::WriteOptions options = {}) {
  LND_ASSIGN_OR_RETURN(auto contents, array::ipc::ReadIpcFile(in));
  options.mode = mode == "create"   ? table::WriteMode::kCreate
                 : mode == "append" ? table::WriteMode::kAppend
                                    : table::WriteMode::kOverwrite;
  return table::WriteTable(table::TableLocation::Local(path), contents.batches, options);
}

/// \brief The body of a tool's main(): `run` gets the arguments after the program name; a
/// failure is printed on stderr (exit 1), no arguments print `usage` (exit 2).
template <typename Run>
int ToolMain(int argc, char** argv, const char* usage, Run run) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s %s (see the source header)\n", argv[0], usage);
    return 2;
  }
  const Status st = run(std::vector<std::string>(argv + 1, argv + argc));
  if (!st.ok()) {
    std::fprintf(stderr, "error: %s\n", st.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace lance_nd::tool
