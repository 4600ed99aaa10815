// `lance-nd inspect TABLE`: describe a Lance table directory (versions, manifest, schema with
// field ids, fragments, data and deletion files, tags).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace lance_nd::cli {

/// \brief True when `path` is a directory holding `_versions/`.
bool IsTableDirectory(const std::string& path);

/// \brief Print the description of the table at `path` (at `version`, default latest) to
/// stdout, as text or JSON. Returns the process exit code (errors go to stderr).
int InspectTable(const std::string& path, std::optional<std::uint64_t> version, bool as_json);

}  // namespace lance_nd::cli
