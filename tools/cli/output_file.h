// The files the commands write (export's netCDF, slice --out): written under a temporary name
// beside the target and renamed onto it once complete, so a command that fails leaves what was
// there and no partial file.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "lance_nd/core/result.h"

namespace lance_nd::cli {

/// \brief Make the file `target` with `write`, which is given the path to write to: a new empty
/// file in the target's directory named `.NAME.tmp-PID-RANDOM` (with the mode of the file it
/// replaces, or 0666 less the umask). When `write` succeeds the file is flushed to disk and
/// renamed onto `target`; when anything fails it is removed and `target` is left as it was.
/// Errors name `target` (never the temporary name): IOError "cannot write TARGET: ...".
/// A target that exists and is not a regular file (/dev/stdout, a pipe) is written in place.
Status WriteReplacing(const std::string& target,
                      const std::function<Status(const std::string& path)>& write);

/// \brief WriteReplacing with `bytes` as the content.
Status WriteReplacing(const std::string& target, std::string_view bytes);

/// \brief A path beside `target` for something made in its place and renamed onto it when
/// complete: `.NAME.tmp-PID-RANDOM` in the target's directory (nothing is created).
std::string TemporarySibling(const std::string& target);

}  // namespace lance_nd::cli
