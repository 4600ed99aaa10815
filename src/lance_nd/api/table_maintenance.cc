// Table: counting and deleting rows, versions, checkout, restore and cleanup.
#include <utility>

#include "lance_nd/api/row_selector.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/api/table.h"
#include "lance_nd/api/table_guard.h"
#include "lance_nd/table/version_info.h"

namespace lance_nd {

Result<std::uint64_t> Table::CountRows(std::string_view filter) const {
  if (filter.empty()) return dataset_.CountRows();
  return Scan().Filter(std::string(filter)).CountRows();
}

Result<std::uint64_t> Table::Delete(std::string_view sql) {
  LND_RETURN_NOT_OK(api_internal::CheckWritable(*this, "Delete"));
  if (sql.empty()) {
    return Status::InvalidArgument("Delete: the filter is empty; write `true` to delete every row");
  }
  LND_ASSIGN_OR_RETURN(
      api_internal::RowConditions conditions,
      api_internal::MakeRowConditions(*dataset_.schema(), std::string(sql), std::string()));
  table::RowPredicate predicate;
  predicate.columns = conditions.Columns(*dataset_.schema());
  predicate.select = [conditions](const array::RecordBatch& batch) -> Result<table::RowSelection> {
    return conditions.Select(batch);
  };
  LND_ASSIGN_OR_RETURN(table::DeleteResult deleted, table::DeleteRows(dataset_, predicate));
  dataset_ = std::move(deleted.dataset);
  return deleted.num_deleted_rows;
}

Result<table::CleanupStats> Table::CleanupOldVersions(std::chrono::seconds older_than,
                                                      bool remove_unreferenced) {
  table::CleanupOptions options;
  options.older_than = older_than;
  options.delete_unverified = remove_unreferenced;
  if (location().file_system() == io::LocalFileSystem()) {
    options.modified_time = table::LocalModifiedTime();
  }
  LND_ASSIGN_OR_RETURN(table::CleanupResult result, table::CleanupOldVersions(location(), options));
  // A writable table follows the latest version, which the cleanup always keeps.
  if (writable_) dataset_ = std::move(result.dataset);
  return result.stats;
}

Result<std::vector<TableVersion>> Table::Versions() const {
  LND_ASSIGN_OR_RETURN(auto infos, table::ListVersionInfos(location()));
  std::vector<TableVersion> out;
  out.reserve(infos.size());
  for (const table::VersionInfo& info : infos) {
    out.push_back(TableVersion{
        info.version,
        std::chrono::time_point_cast<std::chrono::system_clock::duration>(info.timestamp)});
  }
  return out;
}

Result<Table> Table::Checkout(std::uint64_t version) const {
  LND_ASSIGN_OR_RETURN_CTX(table::Dataset ds, table::Dataset::Open(location(), version),
                           "Checkout");
  LND_RETURN_NOT_OK(
      CheckFormat(*ds.schema()).WithContext("table '", location().root(), "' version ", version));
  return Table(std::move(ds), /*writable=*/false);
}

Status Table::Restore(std::uint64_t version) {
  LND_RETURN_NOT_OK(api_internal::CheckWritable(*this, "Restore"));
  LND_ASSIGN_OR_RETURN_CTX(table::Dataset old, table::Dataset::Open(location(), version),
                           "Restore");
  LND_RETURN_NOT_OK(
      CheckFormat(*old.schema()).WithContext("table '", location().root(), "' version ", version));
  LND_ASSIGN_OR_RETURN(dataset_, table::Restore(old));
  return Status::OK();
}

}  // namespace lance_nd
