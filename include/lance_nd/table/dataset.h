// A Lance dataset (table) opened at one version: its manifest, schema and fragments.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/manifest.h"
#include "lance_nd/table/versions.h"

namespace lance_nd::table {

/// \brief The committed versions of a table (ascending) and the naming scheme in use.
struct LANCE_ND_EXPORT VersionList {
  std::vector<std::uint64_t> versions;
  ManifestNaming naming = ManifestNaming::kV2;
};

/// \brief List the table's `_versions/` (FileSystem::ListFileNames: names only, like Lance 12 on
/// local disks). NotFound when there is no `_versions/` or no manifest; InvalidTable when V1 and
/// V2 names are mixed.
LANCE_ND_EXPORT Result<VersionList> ListVersions(const TableLocation& location);

class LANCE_ND_EXPORT Dataset {
 public:
  /// \brief Open the table at `location` at `version` (default: the latest). Unknown reader
  /// feature flags, base paths and branches are refused (NotImplemented naming them).
  static Result<Dataset> Open(const TableLocation& location,
                              std::optional<std::uint64_t> version = std::nullopt);

  /// \brief A dataset from a manifest already in hand, e.g. the one a commit is about to
  /// create: no file is read, the checks are those of Open (reader flags, base paths,
  /// branches, fragment order, schema). `versions` is the caller's list of committed versions
  /// (ascending) and must contain `file.manifest.version`; its naming gives manifest_path(). `file`
  /// must be what ParseManifestFile would return for the bytes written (section offsets included).
  static Result<Dataset> FromManifest(const TableLocation& location, ManifestFile file,
                                      VersionList versions);
  static Result<Dataset> FromManifest(const TableLocation& location,
                                      std::shared_ptr<const ManifestFile> file,
                                      VersionList versions);

  /// \brief Where the table lives (the location it was opened from).
  const TableLocation& location() const { return location_; }
  /// \brief The table's root directory (location().root()).
  const std::string& path() const { return location_.root(); }
  std::uint64_t version() const { return file_->manifest.version; }
  const VersionList& versions() const { return versions_; }
  const Manifest& manifest() const { return file_->manifest; }
  /// \brief The transaction stored inline in the manifest (older Lance versions), if any.
  const std::optional<Transaction>& transaction() const { return file_->transaction; }
  /// \brief The transaction that committed this version: the inline one, else the manifest's
  /// `_transactions/*.txn` file (where Lance 12 keeps it); nullopt when the version records
  /// neither. Errors: the `.txn` file is missing (NotFound) or cannot be parsed (Corrupt).
  Result<std::optional<Transaction>> ReadTransaction() const;
  /// \brief The manifest and transaction, shared: copies of a Dataset share one parse.
  const std::shared_ptr<const ManifestFile>& manifest_file() const { return file_; }
  const array::SchemaPtr& schema() const { return schema_; }
  const std::vector<Fragment>& fragments() const { return file_->manifest.fragments; }
  std::uint64_t CountRows() const { return file_->manifest.num_rows(); }
  const std::shared_ptr<io::FileSystem>& file_system() const { return location_.file_system(); }
  /// \brief Path of the manifest file this dataset was read from.
  const std::string& manifest_path() const { return manifest_path_; }

 private:
  explicit Dataset(TableLocation location) : location_(std::move(location)) {}
  TableLocation location_;
  std::string manifest_path_;
  VersionList versions_;
  std::shared_ptr<const ManifestFile> file_ = std::make_shared<const ManifestFile>();
  array::SchemaPtr schema_;
};

/// \brief Open and the commit loop keep the last parsed manifest of a few tables in memory and
/// reuse a parse only when the manifest file's bytes are identical to the bytes parsed (so a
/// changed or re-created table is always read afresh); takes keep a few data files' parsed
/// footers and column metadata the same way. This drops both, e.g. for a benchmark of cold
/// opens or to release memory.
LANCE_ND_EXPORT void ClearManifestCache();

}  // namespace lance_nd::table
