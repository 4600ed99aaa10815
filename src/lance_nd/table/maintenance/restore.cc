// Restore: commit Restore{old version} on top of the latest version.
#include "lance_nd/table/commit.h"
#include "lance_nd/table/maintenance.h"

namespace lance_nd::table {

Result<Dataset> Restore(const Dataset& old_version) {
  if (old_version.file_system() == nullptr) {
    return Status::InvalidArgument("Restore needs a dataset opened with Dataset::Open");
  }
  LND_ASSIGN_OR_RETURN(VersionList versions, ListVersions(old_version.location()));
  Transaction txn;
  txn.read_version = versions.versions.back();  // like Lance: planned against the latest
  txn.operation = op::Restore{old_version.version()};
  return CommitTransaction(old_version.location(), std::move(txn));
}

}  // namespace lance_nd::table
