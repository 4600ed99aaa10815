// CleanupOldVersions: read every manifest, split them into retained (latest, tagged, young) and
// old, compute the files each set references, then delete old manifests and the files no
// retained version references (unreferenced files only when provably old, see CleanupOptions).
#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/maintenance/index_uuids.h"
#include "lance_nd/table/tags.h"

namespace lance_nd::table {
namespace {

using Clock = std::chrono::system_clock;

constexpr std::chrono::hours kUnverifiedThreshold{7 * 24};  // Lance: 7 days

// Paths relative to the table root ("data/x.lance", "_deletions/...", "_transactions/...") and
// index uuids.
struct FileSet {
  std::set<std::string> files;
  std::set<std::string> index_uuids;
};

struct OldManifest {
  std::string path;
  std::uint64_t size = 0;
};

Status AddReferences(const ManifestFile& mf, const std::string& manifest_path, FileSet* set) {
  const Manifest& m = mf.manifest;
  for (const Fragment& f : m.fragments) {
    for (const DataFile& df : f.files) {
      if (df.base_id) {
        return Status::NotImplemented("manifest '" + manifest_path +
                                      "' has data files under other base paths; cleanup of "
                                      "such tables is not supported");
      }
      set->files.insert(JoinPath(kDataDir, df.path));
    }
    if (f.deletion_file) {
      if (f.deletion_file->base_id) {
        return Status::NotImplemented("manifest '" + manifest_path +
                                      "' has deletion files under other base paths; cleanup "
                                      "of such tables is not supported");
      }
      set->files.insert(f.deletion_file->RelativePath(f.id));
    }
  }
  if (!m.transaction_file.empty()) {
    set->files.insert(JoinPath(kTransactionsDir, m.transaction_file));
  }
  if (m.index_section_blob) {
    LND_ASSIGN_OR_RETURN(auto uuids, internal::IndexUuids(*m.index_section_blob, manifest_path));
    set->index_uuids.insert(uuids.begin(), uuids.end());
  }
  return Status::OK();
}

Result<ManifestFile> ReadManifestAt(io::FileSystem& fs, const std::string& manifest_path,
                                    std::uint64_t version, std::uint64_t* size) {
  LND_ASSIGN_OR_RETURN(auto file, fs.OpenForRead(manifest_path));
  *size = file->Size();
  LND_ASSIGN_OR_RETURN(ManifestFile mf, ReadManifestFile(*file));
  if (mf.manifest.version != version) {
    return Status::Corrupt("manifest file '" + manifest_path + "' holds version " +
                           std::to_string(mf.manifest.version) + " but its name says version " +
                           std::to_string(version));
  }
  // Features that reference files lance-nd cannot see (base paths, external row-id files)
  // would make the referenced set incomplete: refuse rather than delete something in use.
  LND_RETURN_NOT_OK(CheckReaderFeatureFlags(mf.manifest.reader_feature_flags, manifest_path));
  if (mf.manifest.num_base_paths != 0) {
    return Status::NotImplemented("manifest '" + manifest_path +
                                  "' uses base paths; cleanup of such tables is not supported");
  }
  return mf;
}

class Cleaner {
 public:
  Cleaner(const TableLocation& location, const CleanupOptions& options)
      : location_(location), fs_(location.fs()), path_(location.root()), options_(options) {
    now_ = options.now.value_or(Clock::now());
    cutoff_ = now_ - options.older_than;
    unverified_cutoff_ = now_ - std::max<Clock::duration>(options.older_than, kUnverifiedThreshold);
  }

  Result<CleanupStats> Run() {
    LND_ASSIGN_OR_RETURN(VersionList versions, ListVersions(location_));
    LND_ASSIGN_OR_RETURN(auto tags, ListTags(location_));
    std::set<std::uint64_t> tagged;
    for (const TagInfo& t : tags) tagged.insert(t.version);
    const std::uint64_t latest = versions.versions.back();
    for (const std::uint64_t v : versions.versions) {
      LND_RETURN_NOT_OK(Inspect(v, versions.naming, v == latest || tagged.count(v) > 0));
    }
    // Versions committed while we were reading (e.g. a Restore of an old version) are retained
    // and their files protected too.
    LND_ASSIGN_OR_RETURN(VersionList again, ListVersions(location_));
    for (const std::uint64_t v : again.versions) {
      if (v > latest) LND_RETURN_NOT_OK(Inspect(v, again.naming, /*force_retain=*/true));
    }

    CleanupStats stats;
    for (const OldManifest& m : old_manifests_) {
      LND_RETURN_NOT_OK(RemoveFile(m.path, m.size, &stats));
      ++stats.old_versions;
    }
    LND_RETURN_NOT_OK(SweepDir(kDataDir, &stats.data_files_removed, &stats));
    LND_RETURN_NOT_OK(SweepDir(kDeletionsDir, &stats.deletion_files_removed, &stats));
    LND_RETURN_NOT_OK(SweepDir(kTransactionsDir, &stats.transaction_files_removed, &stats));
    LND_RETURN_NOT_OK(SweepIndices(&stats));
    return stats;
  }

 private:
  Status Inspect(std::uint64_t version, ManifestNaming naming, bool force_retain) {
    const std::string manifest_path =
        location_.Path(kVersionsDir, ManifestFileName(version, naming));
    std::uint64_t size = 0;
    LND_ASSIGN_OR_RETURN(ManifestFile mf, ReadManifestAt(fs_, manifest_path, version, &size));
    const Clock::time_point committed =
        Clock::time_point(std::chrono::duration_cast<Clock::duration>(
            std::chrono::seconds(mf.manifest.timestamp_seconds) +
            std::chrono::nanoseconds(mf.manifest.timestamp_nanos)));
    const bool retain = force_retain || committed >= cutoff_;
    LND_RETURN_NOT_OK(AddReferences(mf, manifest_path, retain ? &referenced_ : &verified_));
    if (!retain) old_manifests_.push_back({manifest_path, size});
    return Status::OK();
  }

  // Whether an unreferenced file (not known to any manifest) may be removed.
  bool MayRemoveUnverified(const std::string& full_path) const {
    if (!options_.modified_time) return options_.delete_unverified;
    const auto mtime = options_.modified_time(full_path);
    if (!mtime) return options_.delete_unverified;
    return *mtime < (options_.delete_unverified ? cutoff_ : unverified_cutoff_);
  }

  Status RemoveFile(const std::string& full_path, std::uint64_t size, CleanupStats* stats) {
    const Status st = fs_.Delete(full_path);
    if (st.code() == StatusCode::kNotFound) return Status::OK();  // removed concurrently
    LND_RETURN_NOT_OK_CTX(st, "cleanup of '" + path_ + "'");
    ++stats->files_removed;
    stats->bytes_removed += size;
    return Status::OK();
  }

  Status SweepDir(std::string_view dir, std::uint64_t* counter, CleanupStats* stats) {
    const std::string full_dir = location_.Path(dir);
    auto entries = fs_.List(full_dir);
    if (!entries.ok()) {
      if (entries.status().code() == StatusCode::kNotFound) return Status::OK();
      return std::move(entries).status();
    }
    for (const io::FileInfo& e : *entries) {
      if (e.is_directory) continue;  // Lance keeps these directories flat; leave anything else
      const std::string rel = JoinPath(dir, e.name);
      if (referenced_.files.count(rel) > 0) continue;
      const std::string full = location_.Path(rel);
      if (verified_.files.count(rel) == 0 && !MayRemoveUnverified(full)) continue;
      const std::uint64_t before = stats->files_removed;
      LND_RETURN_NOT_OK(RemoveFile(full, e.size, stats));
      *counter += stats->files_removed - before;
    }
    return Status::OK();
  }

  Status RemoveTree(const std::string& dir, CleanupStats* stats) {
    LND_ASSIGN_OR_RETURN(auto entries, fs_.List(dir));
    for (const io::FileInfo& e : entries) {
      const std::string full = JoinPath(dir, e.name);
      if (e.is_directory) {
        LND_RETURN_NOT_OK(RemoveTree(full, stats));
        continue;
      }
      const std::uint64_t before = stats->files_removed;
      LND_RETURN_NOT_OK(RemoveFile(full, e.size, stats));
      stats->index_files_removed += stats->files_removed - before;
    }
    return Status::OK();
  }

  Status SweepIndices(CleanupStats* stats) {
    const std::string full_dir = location_.IndicesDir();
    auto entries = fs_.List(full_dir);
    if (!entries.ok()) {
      if (entries.status().code() == StatusCode::kNotFound) return Status::OK();
      return std::move(entries).status();
    }
    for (const io::FileInfo& e : *entries) {
      if (!e.is_directory || referenced_.index_uuids.count(e.name) > 0) continue;
      const std::string full = JoinPath(full_dir, e.name);
      if (verified_.index_uuids.count(e.name) == 0 && !MayRemoveUnverified(full)) continue;
      LND_RETURN_NOT_OK(RemoveTree(full, stats));
    }
    return Status::OK();
  }

  const TableLocation& location_;
  io::FileSystem& fs_;
  const std::string& path_;
  const CleanupOptions& options_;
  Clock::time_point now_, cutoff_, unverified_cutoff_;
  FileSet referenced_;  // by retained versions: never removed
  FileSet verified_;    // by old versions only: removed
  std::vector<OldManifest> old_manifests_;
};

}  // namespace

ModifiedTimeFn LocalModifiedTime() {
  return [](const std::string& path) -> std::optional<Clock::time_point> {
    std::error_code ec;
    const auto t = std::filesystem::last_write_time(path, ec);
    if (ec) return std::nullopt;
    return std::chrono::time_point_cast<Clock::duration>(std::chrono::file_clock::to_sys(t));
  };
}

Result<CleanupResult> CleanupOldVersions(const TableLocation& location,
                                         const CleanupOptions& options) {
  if (location.file_system() == nullptr) {
    return Status::InvalidArgument("CleanupOldVersions needs a file system");
  }
  if (options.older_than.count() < 0) {
    return Status::InvalidArgument("CleanupOldVersions: older_than must not be negative (got " +
                                   std::to_string(options.older_than.count()) + " s)");
  }
  LND_ASSIGN_OR_RETURN(CleanupStats stats, Cleaner(location, options).Run());
  LND_ASSIGN_OR_RETURN(Dataset latest, Dataset::Open(location));
  return CleanupResult{std::move(latest), stats};
}

}  // namespace lance_nd::table
