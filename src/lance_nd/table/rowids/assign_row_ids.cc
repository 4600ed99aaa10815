// Assigning stable row ids to new fragments (see assign_row_ids.h).
#include "lance_nd/table/rowids/assign_row_ids.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

#include "lance_nd/table/rowids/row_id_codec.h"
#include "lance_nd/table/rowids/row_ids.h"
#include "table.pb.h"

namespace lance_nd::table::internal {
namespace {

// The inline sequence of a fragment that has one; nullopt for an external file.
Result<std::optional<std::vector<std::uint64_t>>> InlineIds(const Fragment& f) {
  lance::table::DataFragment proto;
  if (!proto.ParseFromString(f.unmodelled_proto)) {
    return Status::Corrupt("fragment " + std::to_string(f.id) +
                           ": its stored row id members do not parse");
  }
  if (proto.row_id_sequence_case() != lance::table::DataFragment::kInlineRowIds) {
    return std::optional<std::vector<std::uint64_t>>();
  }
  // Decoding with the physical row count as the limit also checks the count.
  LND_ASSIGN_OR_RETURN(auto ids, DecodeRowIdSequence(proto.inline_row_ids(), f.id, f.physical_rows)
                                     .WithContext("new fragment row ids"));
  return std::optional<std::vector<std::uint64_t>>(std::move(ids));
}

}  // namespace

Status AssignRowIds(std::vector<Fragment>* fragments, std::uint64_t* next_row_id,
                    std::uint64_t new_version) {
  for (Fragment& f : *fragments) {
    const std::string versions = EncodeUniformVersionRuns(f.physical_rows, new_version);
    const std::string* v = f.physical_rows > 0 ? &versions : nullptr;
    if (!f.has_row_ids) {
      if (f.physical_rows > std::numeric_limits<std::uint64_t>::max() - *next_row_id) {
        return Status::InvalidArgument("row id space exhausted: next row id " +
                                       std::to_string(*next_row_id) + " + " +
                                       std::to_string(f.physical_rows) + " rows overflows 64 bits");
      }
      LND_RETURN_NOT_OK(SetFragmentRowIdMeta(
          &f, EncodeRowIdRange(*next_row_id, *next_row_id + f.physical_rows), v, v));
      *next_row_id += f.physical_rows;
      continue;
    }
    // Row ids given with the fragment (inline or external) are kept; they must fit it.
    auto existing = InlineIds(f);
    if (!existing.ok()) {
      return Status::InvalidArgument("new fragment with " + std::to_string(f.physical_rows) +
                                     " rows carries row ids that do not fit it (" +
                                     std::string(existing.status().message()) +
                                     "); give new fragments no row ids (assigned at commit) or "
                                     "one per physical row");
    }
    lance::table::DataFragment proto;
    (void)proto.ParseFromString(f.unmodelled_proto);
    if (v != nullptr) {
      proto.set_inline_created_at_versions(*v);
      proto.set_inline_last_updated_at_versions(*v);
    } else {
      proto.clear_created_at_version_sequence();
      proto.clear_last_updated_at_version_sequence();
    }
    f.unmodelled_proto = proto.SerializeAsString();
  }
  return Status::OK();
}

Result<std::uint64_t> NextRowIdAfter(const std::vector<Fragment>& fragments) {
  std::uint64_t next = 0;
  for (const Fragment& f : fragments) {
    if (!f.has_row_ids) continue;
    LND_ASSIGN_OR_RETURN(auto ids, InlineIds(f));
    if (!ids) continue;
    for (std::uint64_t id : *ids) {
      if (id == std::numeric_limits<std::uint64_t>::max()) {
        return Status::InvalidArgument("fragment row id " + std::to_string(id) +
                                       " leaves no next row id");
      }
      next = std::max(next, id + 1);
    }
  }
  return next;
}

}  // namespace lance_nd::table::internal
