// Tags: named pointers to versions, stored as `<table>/_refs/tags/<name>.json` exactly as Lance 12
// writes them (pretty-printed JSON with `branch`, `version`, `createdAt`, `updatedAt`,
// `manifestSize`, `metadata`). A tag keeps its version alive through CleanupOldVersions.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/location.h"

namespace lance_nd::table {

struct LANCE_ND_EXPORT TagInfo {
  std::string name;
  std::uint64_t version = 0;
  std::uint64_t manifest_size = 0;    // bytes of the tagged version's manifest file; 0 = unknown
  std::optional<std::string> branch;  // nullopt = main (Lance writes `null`)
  std::string created_at;             // RFC 3339 UTC, as stored ("" when absent)
  std::string updated_at;
  bool operator==(const TagInfo&) const = default;
};

/// \brief Lance's tag-name rules: non-empty; only ASCII letters, digits, '.', '-', '_'; not
/// starting or ending with '.'; no ".."; not ending in ".lock". (Lance also admits non-ASCII
/// letters, but Lance 12 then cannot read such tags back, so lance-nd refuses them.)
/// InvalidArgument naming the rule broken.
LANCE_ND_EXPORT Status ValidateTagName(std::string_view tag);

/// \brief Tag `version` as `tag`; returns the tag created (what its file holds).
/// InvalidArgument for a bad name, AlreadyExists when the tag exists (tags are never
/// overwritten), NotFound when the version does not exist.
LANCE_ND_EXPORT Result<TagInfo> CreateTag(const TableLocation& location, const std::string& tag,
                                          std::uint64_t version);

/// \brief Remove a tag. NotFound when it does not exist.
LANCE_ND_EXPORT Status DeleteTag(const TableLocation& location, const std::string& tag);

/// \brief Read one tag. NotFound when it does not exist, Corrupt when its file is not a tag.
LANCE_ND_EXPORT Result<TagInfo> GetTag(const TableLocation& location, const std::string& tag);

/// \brief All tags, sorted by name (empty when the table has none). Files under `_refs/tags/`
/// that are not `<valid name>.json` (temporary files) are skipped.
LANCE_ND_EXPORT Result<std::vector<TagInfo>> ListTags(const TableLocation& location);

/// \brief Open the dataset at the tagged version. NotImplemented for a tag on a branch.
LANCE_ND_EXPORT Result<Dataset> OpenTag(const TableLocation& location, const std::string& tag);

/// \brief The bytes Lance 12 writes for a tag file (also used by tests).
LANCE_ND_EXPORT std::string TagFileJson(const TagInfo& tag);

/// \brief Parse a tag file; `name` is the tag name (not stored in the file), `file` is used in
/// messages. Corrupt for anything that is not a tag object with an unsigned `version`.
LANCE_ND_EXPORT Result<TagInfo> ParseTagFileJson(std::string_view json, const std::string& name,
                                                 const std::string& file);

}  // namespace lance_nd::table
