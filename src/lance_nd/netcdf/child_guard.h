// Reads that libnetcdf or libhdf5 may crash or loop on, tried first in a child process.
//
// libhdf5 trusts much of what a file says (global heap object sizes, addresses inside object
// headers): a damaged netCDF-4 file can crash or hang it, and with it every program that opens
// the file (ncdump too). Such a read is first run in a forked child: if the child dies or does
// not finish, the caller gets an error naming the file instead of losing its process.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "lance_nd/core/status.h"

namespace lance_nd::netcdf::internal {

/// \brief How long a child may take over the structure of one file before it is stopped.
inline constexpr std::chrono::seconds kStructureReadTimeout{300};

/// \brief Runs `read` in a forked child process and waits for it. OK when the child finished,
/// whatever `read` returned: the caller reads again in this process, and reports read errors
/// itself. IOError naming `what` when the child was killed by a signal (a crash inside the
/// library), left through an exit of its own (a library's exit call, or a sanitizer's report
/// of a fault) or ran longer than `timeout` (it is then killed). Where processes cannot be forked,
/// OK without running `read`.
Status SurvivesInChild(const std::string& what, const std::function<Status()>& read,
                       std::chrono::milliseconds timeout);

}  // namespace lance_nd::netcdf::internal
