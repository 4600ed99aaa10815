// DeleteRows: deletions by row address, committed as one Delete transaction.
#include <map>
#include <string>
#include <vector>

#include "lance_nd/table/commit.h"
#include "lance_nd/table/deletion.h"
#include "lance_nd/table/maintenance.h"

namespace lance_nd::table {

Result<Dataset> DeleteRows(const Dataset& ds, std::span<const std::uint64_t> row_addresses) {
  std::map<std::uint64_t, const Fragment*> by_id;
  for (const Fragment& f : ds.fragments()) by_id[f.id] = &f;
  std::map<std::uint64_t, std::vector<std::uint32_t>> wanted;  // fragment id -> offsets
  for (const std::uint64_t addr : row_addresses) {
    const std::uint64_t frag = addr >> 32;
    const auto offset = static_cast<std::uint32_t>(addr & 0xffffffffu);
    const auto it = by_id.find(frag);
    const std::string where = "row address " + std::to_string(addr) + " (fragment " +
                              std::to_string(frag) + ", offset " + std::to_string(offset) + ")";
    if (it == by_id.end()) {
      return Status::InvalidArgument("cannot delete " + where + ": version " +
                                     std::to_string(ds.version()) + " of table '" + ds.path() +
                                     "' has no fragment " + std::to_string(frag) +
                                     "; row addresses are (fragment_id << 32) | offset");
    }
    if (offset >= it->second->physical_rows) {
      return Status::InvalidArgument("cannot delete " + where + ": fragment " +
                                     std::to_string(frag) + " has only " +
                                     std::to_string(it->second->physical_rows) + " rows");
    }
    wanted[frag].push_back(offset);
  }

  op::Delete del;
  io::FileSystem& fs = *ds.file_system();
  for (auto& [id, offsets] : wanted) {
    const Fragment& frag = *by_id[id];
    LND_ASSIGN_OR_RETURN(DeletionVector rows, ReadFragmentDeletions(fs, ds.path(), frag));
    const std::size_t before = rows.size();
    rows.InsertMany(offsets);
    if (rows.size() == before) continue;  // all already deleted
    if (rows.size() >= frag.physical_rows) {
      del.deleted_fragment_ids.push_back(id);
      continue;
    }
    LND_ASSIGN_OR_RETURN(DeletionFile file,
                         WriteDeletionFile(fs, ds.path(), id, ds.version(), rows));
    Fragment updated = frag;
    updated.deletion_file = file;
    del.updated_fragments.push_back(std::move(updated));
  }
  if (del.updated_fragments.empty() && del.deleted_fragment_ids.empty()) return ds;
  Transaction txn;
  txn.read_version = ds.version();
  txn.operation = std::move(del);
  return CommitTransaction(ds.file_system(), ds.path(), std::move(txn));
}

}  // namespace lance_nd::table
