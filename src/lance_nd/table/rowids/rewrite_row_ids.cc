// Carrying stable row ids into compacted fragments (see rewrite_row_ids.h).
#include "lance_nd/table/rowids/rewrite_row_ids.h"

#include <utility>

#include "lance_nd/table/deletion.h"
#include "lance_nd/table/rowids/row_id_codec.h"

namespace lance_nd::table::internal {

Status CarryRowIdsThroughRewrite(const TableLocation& location,
                                 const std::vector<Fragment>& old_fragments,
                                 std::vector<Fragment>* new_fragments) {
  SegmentList ids;
  VersionRuns created;
  VersionRuns updated;
  for (const Fragment& old : old_fragments) {
    if (!old.has_row_ids) {
      return Status::Corrupt("fragment " + std::to_string(old.id) +
                             " of a table with stable row ids carries no row ids");
    }
    LND_ASSIGN_OR_RETURN(FragmentRowIdMeta meta, ReadFragmentRowIdMeta(location, old));
    if (!meta.has_created_at) meta.created_at = UniformVersionRuns(old.physical_rows, 1);
    if (!meta.has_last_updated_at) meta.last_updated_at = meta.created_at;
    LND_ASSIGN_OR_RETURN(DeletionVector deleted, ReadFragmentDeletions(location, old));
    if (!deleted.empty()) {
      const std::vector<std::uint64_t> positions(deleted.begin(), deleted.end());
      MaskSegments(&meta.row_ids, positions);
      MaskVersionRuns(&meta.created_at, positions);
      MaskVersionRuns(&meta.last_updated_at, positions);
    }
    for (auto& s : meta.row_ids) ids.push_back(std::move(s));
    for (auto& r : meta.created_at) created.push_back(std::move(r));
    for (auto& r : meta.last_updated_at) updated.push_back(std::move(r));
  }
  std::vector<std::uint64_t> sizes;
  for (const Fragment& f : *new_fragments) sizes.push_back(f.physical_rows);
  LND_ASSIGN_OR_RETURN(auto id_chunks,
                       RechunkSegments(ids, sizes).WithContext("compacting row ids"));
  LND_ASSIGN_OR_RETURN(
      auto updated_chunks,
      RechunkVersionRuns(updated, sizes).WithContext("compacting last_updated_at versions"));
  LND_ASSIGN_OR_RETURN(
      auto created_chunks,
      RechunkVersionRuns(created, sizes).WithContext("compacting created_at versions"));
  for (std::size_t i = 0; i < new_fragments->size(); ++i) {
    const std::string c = EncodeVersionRuns(created_chunks[i]);
    const std::string u = EncodeVersionRuns(updated_chunks[i]);
    LND_RETURN_NOT_OK(
        SetFragmentRowIdMeta(&(*new_fragments)[i], EncodeRowIdSegments(id_chunks[i]), &c, &u));
  }
  return Status::OK();
}

}  // namespace lance_nd::table::internal
