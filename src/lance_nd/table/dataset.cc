#include "lance_nd/table/dataset.h"

#include <algorithm>
#include <set>
#include <utility>

#include "lance_nd/table/manifest_cache.h"
#include "lance_nd/table/scan/data_file_cache.h"

namespace lance_nd::table {

Result<VersionList> ListVersions(const TableLocation& location) {
  if (location.file_system() == nullptr) {
    return Status::InvalidArgument("the table location '", location.root(), "' has no file system");
  }
  const std::string& path = location.root();
  const std::string dir = location.VersionsDir();
  auto entries = location.fs().ListFileNames(dir);
  if (!entries.ok()) {
    if (entries.status().code() == StatusCode::kNotFound) {
      return Status::NotFound("no Lance table at '", path, "': '", dir,
                              "' does not exist; create the table first");
    }
    return std::move(entries).status();
  }
  VersionList out;
  bool seen_v1 = false;
  bool seen_v2 = false;
  out.versions.reserve(entries->size());
  for (const std::string& name : *entries) {
    auto parsed = ParseManifestFileName(name);
    if (!parsed) continue;
    (parsed->naming == ManifestNaming::kV1 ? seen_v1 : seen_v2) = true;
    out.versions.push_back(parsed->version);
  }
  if (seen_v1 && seen_v2) {
    return Status::InvalidTable("'" + dir +
                                "' mixes V1 ({n}.manifest) and V2 (20-digit) manifest names; a "
                                "table must use one scheme (Lance refuses such tables too)");
  }
  if (out.versions.empty()) {
    return Status::NotFound("no Lance table at '" + path + "': '" + dir +
                            "' holds no committed manifest");
  }
  out.naming = seen_v1 ? ManifestNaming::kV1 : ManifestNaming::kV2;
  std::sort(out.versions.begin(), out.versions.end());
  out.versions.erase(std::unique(out.versions.begin(), out.versions.end()), out.versions.end());
  return out;
}

Result<Dataset> Dataset::Open(const TableLocation& location, std::optional<std::uint64_t> version) {
  const std::string& path = location.root();
  LND_ASSIGN_OR_RETURN(VersionList versions, ListVersions(location));
  const std::uint64_t want = version.value_or(versions.versions.back());
  if (!std::binary_search(versions.versions.begin(), versions.versions.end(), want)) {
    return Status::NotFound("table '" + path + "' has no version " + std::to_string(want) +
                            "; its versions are " + std::to_string(versions.versions.front()) +
                            ".." + std::to_string(versions.versions.back()));
  }
  const std::string manifest_path =
      location.Path(kVersionsDir, ManifestFileName(want, versions.naming));
  LND_ASSIGN_OR_RETURN(std::shared_ptr<const ManifestFile> mf,
                       internal::ReadManifestShared(location.fs(), manifest_path));
  if (mf->manifest.version != want) {
    return Status::Corrupt("manifest file '" + manifest_path + "' holds version " +
                           std::to_string(mf->manifest.version) + " but its name says version " +
                           std::to_string(want));
  }
  return FromManifest(location, std::move(mf), std::move(versions));
}

Result<Dataset> Dataset::FromManifest(const TableLocation& location, ManifestFile file,
                                      VersionList versions) {
  return FromManifest(location, std::make_shared<const ManifestFile>(std::move(file)),
                      std::move(versions));
}

void ClearManifestCache() {
  internal::ForgetManifests();
  internal::ForgetDataFiles();
}

Result<Dataset> Dataset::FromManifest(const TableLocation& location,
                                      std::shared_ptr<const ManifestFile> file,
                                      VersionList versions) {
  if (file == nullptr) return Status::InvalidArgument("Dataset::FromManifest needs a manifest");
  if (location.file_system() == nullptr) {
    return Status::InvalidArgument("Dataset::FromManifest needs a file system");
  }
  const std::string& path = location.root();
  const std::uint64_t v = file->manifest.version;
  if (std::find(versions.versions.begin(), versions.versions.end(), v) == versions.versions.end()) {
    return Status::InvalidArgument("Dataset::FromManifest: the version list given for '" + path +
                                   "' does not contain the manifest's version " +
                                   std::to_string(v) + "; pass the committed versions");
  }
  Dataset ds(location);
  ds.manifest_path_ = location.Path(kVersionsDir, ManifestFileName(v, versions.naming));
  const Manifest& m = file->manifest;
  // Stable row ids (flag 2) are readable: the scan decodes them for "_rowid". Writers still
  // refuse the flag (CheckWriterFeatureFlags in the commit path).
  LND_RETURN_NOT_OK(
      CheckReaderFeatureFlags(m.reader_feature_flags & ~kFlagStableRowIds, ds.manifest_path_));
  if (m.num_base_paths != 0) {
    return Status::NotImplemented("manifest '" + ds.manifest_path_ +
                                  "' uses base paths (shallow clone / multi-base), which "
                                  "lance-nd does not support yet");
  }
  if (m.branch) {
    return Status::NotImplemented("manifest '" + ds.manifest_path_ + "' belongs to branch '" +
                                  *m.branch + "'; branches are not supported yet");
  }
  // Fragments are in table order; after a compaction their ids need not increase (Lance puts
  // rewritten fragments in place), but each id appears once.
  std::set<std::uint64_t> fragment_ids;
  for (const Fragment& f : m.fragments) {
    if (!fragment_ids.insert(f.id).second) {
      return Status::Corrupt("manifest file '" + ds.manifest_path_ + "' lists fragment id " +
                             std::to_string(f.id) + " twice; fragment ids must be unique");
    }
  }
  LND_ASSIGN_OR_RETURN(ds.schema_, SchemaFromFields(m.fields, m.schema_metadata)
                                       .WithContext("manifest file '" + ds.manifest_path_ + "'"));
  ds.versions_ = std::move(versions);
  ds.file_ = std::move(file);
  return ds;
}

Result<std::optional<Transaction>> Dataset::ReadTransaction() const {
  if (file_->transaction) return file_->transaction;
  const std::string& name = file_->manifest.transaction_file;
  if (name.empty()) return std::optional<Transaction>();
  const std::string txn_path = location_.Path(kTransactionsDir, name);
  auto file = location_.fs().OpenForRead(txn_path);
  if (!file.ok()) {
    return std::move(file).status().WithContext("version " + std::to_string(version()) +
                                                " names transaction file '" + txn_path + "'");
  }
  LND_ASSIGN_OR_RETURN(io::Bytes bytes, io::ReadWholeFile(**file));
  LND_ASSIGN_OR_RETURN(Transaction txn, ParseTransaction(*bytes, txn_path));
  return std::optional<Transaction>(std::move(txn));
}

}  // namespace lance_nd::table
