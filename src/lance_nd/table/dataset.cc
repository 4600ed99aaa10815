#include "lance_nd/table/dataset.h"

#include <algorithm>
#include <utility>

namespace lance_nd::table {
namespace {

std::string Join(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

}  // namespace

Result<VersionList> ListVersions(io::FileSystem& fs, const std::string& path) {
  const std::string dir = Join(path, "_versions");
  auto entries = fs.List(dir);
  if (!entries.ok()) {
    if (entries.status().code() == StatusCode::kNotFound) {
      return Status::NotFound("no Lance table at '" + path + "': '" + dir +
                              "' does not exist; create the table first");
    }
    return std::move(entries).status();
  }
  VersionList out;
  bool seen_v1 = false;
  bool seen_v2 = false;
  for (const io::FileInfo& e : *entries) {
    if (e.is_directory) continue;
    auto parsed = ParseManifestFileName(e.name);
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

Result<Dataset> Dataset::Open(std::shared_ptr<io::FileSystem> fs, std::string path,
                              std::optional<std::uint64_t> version) {
  if (fs == nullptr) return Status::InvalidArgument("Dataset::Open needs a file system");
  Dataset ds;
  LND_ASSIGN_OR_RETURN(ds.versions_, ListVersions(*fs, path));
  const std::uint64_t want = version.value_or(ds.versions_.versions.back());
  if (!std::binary_search(ds.versions_.versions.begin(), ds.versions_.versions.end(), want)) {
    return Status::NotFound("table '" + path + "' has no version " + std::to_string(want) +
                            "; its versions are " + std::to_string(ds.versions_.versions.front()) +
                            ".." + std::to_string(ds.versions_.versions.back()));
  }
  ds.manifest_path_ = Join(Join(path, "_versions"), ManifestFileName(want, ds.versions_.naming));
  LND_ASSIGN_OR_RETURN(auto file, fs->OpenForRead(ds.manifest_path_));
  LND_ASSIGN_OR_RETURN(ManifestFile mf, ReadManifestFile(*file));
  if (mf.manifest.version != want) {
    return Status::Corrupt("manifest file '" + ds.manifest_path_ + "' holds version " +
                           std::to_string(mf.manifest.version) + " but its name says version " +
                           std::to_string(want));
  }
  // Stable row ids (flag 2) are readable: the scan decodes them for "_rowid". Writers still
  // refuse the flag (CheckWriterFeatureFlags in the commit path).
  LND_RETURN_NOT_OK(CheckReaderFeatureFlags(mf.manifest.reader_feature_flags & ~kFlagStableRowIds,
                                            ds.manifest_path_));
  if (mf.manifest.num_base_paths != 0) {
    return Status::NotImplemented("manifest '" + ds.manifest_path_ +
                                  "' uses base paths (shallow clone / multi-base), which "
                                  "lance-nd does not support yet");
  }
  if (mf.manifest.branch) {
    return Status::NotImplemented("manifest '" + ds.manifest_path_ + "' belongs to branch '" +
                                  *mf.manifest.branch + "'; branches are not supported yet");
  }
  for (std::size_t i = 1; i < mf.manifest.fragments.size(); ++i) {
    if (mf.manifest.fragments[i].id <= mf.manifest.fragments[i - 1].id) {
      return Status::Corrupt("manifest file '" + ds.manifest_path_ + "' lists fragment id " +
                             std::to_string(mf.manifest.fragments[i].id) + " after " +
                             std::to_string(mf.manifest.fragments[i - 1].id) +
                             "; fragments must be sorted by unique id");
    }
  }
  LND_ASSIGN_OR_RETURN(ds.schema_, SchemaFromFields(mf.manifest.fields, mf.manifest.schema_metadata)
                                       .WithContext("manifest file '" + ds.manifest_path_ + "'"));
  ds.fs_ = std::move(fs);
  ds.path_ = std::move(path);
  ds.manifest_ = std::move(mf.manifest);
  ds.transaction_ = std::move(mf.transaction);
  return ds;
}

}  // namespace lance_nd::table
