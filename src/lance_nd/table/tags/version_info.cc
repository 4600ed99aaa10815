#include "lance_nd/table/version_info.h"

#include <utility>

#include "lance_nd/table/dataset.h"

namespace lance_nd::table {
namespace {

// The operation of a version: the inline transaction, else the `.txn` file, else "".
std::string OperationOf(const TableLocation& location, const ManifestFile& mf) {
  if (mf.transaction) return std::string(mf.transaction->name());
  if (mf.manifest.transaction_file.empty()) return "";
  const std::string file = location.Path(kTransactionsDir, mf.manifest.transaction_file);
  auto f = location.fs().OpenForRead(file);
  if (!f.ok()) return "";
  auto bytes = io::ReadWholeFile(**f);
  if (!bytes.ok()) return "";
  auto txn = ParseTransaction(**bytes, file);
  return txn.ok() ? std::string(txn->name()) : "";
}

}  // namespace

Result<std::vector<VersionInfo>> ListVersionInfos(const TableLocation& location) {
  LND_ASSIGN_OR_RETURN(VersionList versions, ListVersions(location));
  std::vector<VersionInfo> out;
  out.reserve(versions.versions.size());
  for (const std::uint64_t v : versions.versions) {
    const std::string file = location.Path(kVersionsDir, ManifestFileName(v, versions.naming));
    LND_ASSIGN_OR_RETURN(auto f, location.fs().OpenForRead(file));
    LND_ASSIGN_OR_RETURN(ManifestFile mf, ReadManifestFile(*f));
    const Manifest& m = mf.manifest;
    VersionInfo info;
    info.version = m.version;
    info.timestamp = std::chrono::sys_time<std::chrono::nanoseconds>(
        std::chrono::seconds(m.timestamp_seconds) + std::chrono::nanoseconds(m.timestamp_nanos));
    info.operation = OperationOf(location, mf);
    info.num_fragments = m.fragments.size();
    for (const Fragment& frag : m.fragments) {
      info.num_rows += frag.num_rows();
      info.num_physical_rows += frag.physical_rows;
      info.num_data_files += frag.files.size();
      for (const DataFile& df : frag.files) info.total_files_size += df.file_size_bytes;
      if (frag.deletion_file) {
        ++info.num_deletion_files;
        info.num_deleted_rows += frag.deletion_file->num_deleted_rows;
      }
    }
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace lance_nd::table
