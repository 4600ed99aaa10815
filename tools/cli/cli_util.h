// Shared pieces of the table commands: one-line errors, exit codes, opening tables, parsing
// durations and lists.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lance_nd/api/table.h"
#include "lance_nd/core/result.h"

namespace lance_nd::cli {

/// Exit status of a command that failed (usage errors exit with 2, from main).
inline constexpr int kFailure = 1;

/// \brief Thrown by a command to stop with `exit_code` after it printed its error; main returns
/// the code. (CLI11 calls the commands from inside its parser, so an exception is the way out.)
struct CommandExit {
  int exit_code;
};

/// \brief Print "lance-nd: COMMAND: MESSAGE" as one line on stderr (newlines in the message
/// become "; ") and throw CommandExit{kFailure}.
[[noreturn]] void Fail(std::string_view command, std::string_view message);
[[noreturn]] void Fail(std::string_view command, const Status& status);

/// \brief The value of `result`, or Fail(command, its status).
template <typename T>
T OrFail(std::string_view command, Result<T> result) {
  if (!result.ok()) Fail(command, result.status());
  return std::move(*result);
}
inline void OrFail(std::string_view command, const Status& status) {
  if (!status.ok()) Fail(command, status);
}

/// \brief Table::Open(uri), failing the command with its message. A local path that is a
/// regular file fails with NotATable's message.
Table OpenTable(std::string_view command, std::string_view uri);

/// \brief When `uri` is a local path to a regular file: "no table at X: it is a netCDF file;
/// import it with `lance-nd import TABLE X`" (netCDF classic, 64-bit offset, CDF5 or HDF5
/// magic) or "no table at X: it is a file, not a table directory". nullopt otherwise.
std::optional<std::string> NotATable(std::string_view uri);

/// \brief "7d", "12h", "30m", "45s", "0s", or a sequence of those ("1d12h").
Result<std::chrono::seconds> ParseDuration(std::string_view text);

/// \brief "a,b" -> {"a", "b"}; "" -> {}.
std::vector<std::string> SplitList(std::string_view text);

/// \brief "2026-11-29T13:44:19.510Z" (UTC, milliseconds).
std::string FormatTime(std::chrono::system_clock::time_point time);

}  // namespace lance_nd::cli
