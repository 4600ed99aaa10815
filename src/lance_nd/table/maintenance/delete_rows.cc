// DeleteRows: deletions by row address or by a row predicate, committed as one Delete
// transaction.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/table/commit.h"
#include "lance_nd/table/deletion.h"
#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/scan.h"

namespace lance_nd::table {
namespace {

using FragmentsById = std::map<std::uint64_t, const Fragment*>;
using OffsetsById = std::map<std::uint64_t, std::vector<std::uint32_t>>;

// The addresses grouped by fragment; InvalidArgument naming the first address that is not a
// row of `ds`.
Result<OffsetsById> GroupByFragment(const Dataset& ds, const FragmentsById& by_id,
                                    std::span<const std::uint64_t> row_addresses) {
  OffsetsById wanted;
  for (const std::uint64_t addr : row_addresses) {
    const std::uint64_t frag = addr >> 32;
    const auto offset = static_cast<std::uint32_t>(addr & 0xffffffffu);
    const auto it = by_id.find(frag);
    if (it == by_id.end()) {
      return Status::InvalidArgument("cannot delete row address ", addr, " (fragment ", frag,
                                     ", offset ", offset, "): version ", ds.version(),
                                     " of table '", ds.path(), "' has no fragment ", frag,
                                     "; row addresses are (fragment_id << 32) | offset");
    }
    if (offset >= it->second->physical_rows) {
      return Status::InvalidArgument("cannot delete row address ", addr, " (fragment ", frag,
                                     ", offset ", offset, "): fragment ", frag, " has only ",
                                     it->second->physical_rows, " rows");
    }
    wanted[frag].push_back(offset);
  }
  return wanted;
}

// The batch without its last column (the row addresses the scan appended).
Result<array::RecordBatchPtr> WithoutLastColumn(const array::RecordBatch& batch) {
  std::vector<array::FieldPtr> fields = batch.schema()->fields();
  std::vector<array::ArrayPtr> columns = batch.columns();
  fields.pop_back();
  columns.pop_back();
  return array::RecordBatch::Make(array::MakeSchema(std::move(fields), batch.schema()->metadata()),
                                  batch.num_rows(), std::move(columns));
}

// The row addresses of the live rows `predicate` selects.
Result<std::vector<std::uint64_t>> SelectedAddresses(const Dataset& ds,
                                                     const RowPredicate& predicate) {
  TableScanOptions scan;
  scan.projection = predicate.columns;
  scan.with_row_address = true;
  LND_ASSIGN_OR_RETURN(TableBatchReader reader, ScanTable(ds, scan));
  std::vector<std::uint64_t> addresses;
  for (;;) {
    LND_ASSIGN_OR_RETURN(array::RecordBatchPtr batch, reader.Next());
    if (batch == nullptr) break;
    const array::ArrayData& addr_column = *batch->column(batch->num_columns() - 1);
    const std::uint64_t* addr = addr_column.values<std::uint64_t>(1);
    LND_ASSIGN_OR_RETURN(array::RecordBatchPtr columns, WithoutLastColumn(*batch));
    LND_ASSIGN_OR_RETURN(RowSelection selected,
                         predicate.select(*columns).WithContext(
                             "the delete predicate of table '", ds.path(), "' version ",
                             ds.version(), " (nothing was deleted)"));
    for (const std::int64_t row : selected) {
      if (row < 0 || row >= batch->num_rows()) {
        return Status::InvalidArgument("the delete predicate selected row ", row, " of a batch of ",
                                       batch->num_rows(),
                                       " rows; a selection holds indices 0..num_rows-1");
      }
      addresses.push_back(addr[row]);
    }
  }
  return addresses;
}

}  // namespace

Result<DeleteResult> DeleteRows(const Dataset& ds, std::span<const std::uint64_t> row_addresses) {
  FragmentsById by_id;
  for (const Fragment& f : ds.fragments()) by_id[f.id] = &f;
  LND_ASSIGN_OR_RETURN(OffsetsById wanted, GroupByFragment(ds, by_id, row_addresses));

  op::Delete del;
  std::uint64_t newly_deleted = 0;
  for (auto& [id, offsets] : wanted) {
    const Fragment& frag = *by_id[id];
    LND_ASSIGN_OR_RETURN(DeletionVector rows, ReadFragmentDeletions(ds.location(), frag));
    const std::size_t before = rows.size();
    rows.InsertMany(offsets);
    if (rows.size() == before) continue;  // all already deleted
    newly_deleted += rows.size() - before;
    if (rows.size() >= frag.physical_rows) {
      del.deleted_fragment_ids.push_back(id);
      continue;
    }
    LND_ASSIGN_OR_RETURN(DeletionFile file,
                         WriteDeletionFile(ds.location(), id, ds.version(), rows));
    Fragment updated = frag;
    updated.deletion_file = file;
    del.updated_fragments.push_back(std::move(updated));
  }
  if (del.updated_fragments.empty() && del.deleted_fragment_ids.empty()) {
    return DeleteResult{ds, 0};
  }
  Transaction txn;
  txn.read_version = ds.version();
  txn.operation = std::move(del);
  LND_ASSIGN_OR_RETURN(Dataset committed, CommitTransaction(ds.location(), std::move(txn)));
  return DeleteResult{std::move(committed), newly_deleted};
}

Result<DeleteResult> DeleteRows(const Dataset& ds, const RowPredicate& predicate) {
  if (!predicate.select) {
    return Status::InvalidArgument("DeleteRows on table '", ds.path(),
                                   "': the predicate has no select function");
  }
  LND_ASSIGN_OR_RETURN(std::vector<std::uint64_t> addresses, SelectedAddresses(ds, predicate));
  return DeleteRows(ds, addresses);
}

}  // namespace lance_nd::table
