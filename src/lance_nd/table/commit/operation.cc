// Operation names and kinds, and the fragments a transaction touches.
#include <algorithm>

#include "lance_nd/table/manifest.h"

namespace lance_nd::table {
namespace {

// lance.table.Transaction field numbers of the operations lance-nd only classifies.
constexpr std::uint32_t kUpdateMemWalStateField = 112;
constexpr std::uint32_t kCloneField = 113;
constexpr std::uint32_t kUpdateBasesField = 114;

OperationType TypeOf(const op::Unknown& o) {
  switch (o.field_number) {
    case kUpdateMemWalStateField:
      return OperationType::kUpdateMemWalState;
    case kCloneField:
      return OperationType::kClone;
    case kUpdateBasesField:
      return OperationType::kUpdateBases;
    default:
      return OperationType::kUnknown;
  }
}
OperationType TypeOf(const op::Append&) { return OperationType::kAppend; }
OperationType TypeOf(const op::Delete&) { return OperationType::kDelete; }
OperationType TypeOf(const op::Overwrite&) { return OperationType::kOverwrite; }
OperationType TypeOf(const op::Merge&) { return OperationType::kMerge; }
OperationType TypeOf(const op::Restore&) { return OperationType::kRestore; }
OperationType TypeOf(const op::ReserveFragments&) { return OperationType::kReserveFragments; }
OperationType TypeOf(const op::Rewrite&) { return OperationType::kRewrite; }
OperationType TypeOf(const op::Project&) { return OperationType::kProject; }
OperationType TypeOf(const op::Update&) { return OperationType::kUpdate; }
OperationType TypeOf(const op::UpdateConfig&) { return OperationType::kUpdateConfig; }
OperationType TypeOf(const op::DataReplacement&) { return OperationType::kDataReplacement; }
OperationType TypeOf(const op::CreateIndex&) { return OperationType::kCreateIndex; }

void AddIds(const std::vector<Fragment>& fragments, std::vector<std::uint64_t>* ids) {
  for (const Fragment& f : fragments) ids->push_back(f.id);
}

// The existing fragments an operation modifies or removes (unsorted, may repeat).
template <typename Op>
std::vector<std::uint64_t> TouchedBy(const Op&) {
  return {};
}
std::vector<std::uint64_t> TouchedBy(const op::Delete& o) {
  std::vector<std::uint64_t> ids = o.deleted_fragment_ids;
  AddIds(o.updated_fragments, &ids);
  return ids;
}
std::vector<std::uint64_t> TouchedBy(const op::Update& o) {
  std::vector<std::uint64_t> ids = o.removed_fragment_ids;
  AddIds(o.updated_fragments, &ids);
  return ids;
}
std::vector<std::uint64_t> TouchedBy(const op::Rewrite& o) {
  std::vector<std::uint64_t> ids;
  for (const RewriteGroup& g : o.groups) AddIds(g.old_fragments, &ids);
  return ids;
}
std::vector<std::uint64_t> TouchedBy(const op::DataReplacement& o) {
  std::vector<std::uint64_t> ids;
  for (const op::FileReplacement& r : o.replacements) ids.push_back(r.fragment_id);
  return ids;
}

}  // namespace

std::string_view OperationTypeName(OperationType type) {
  switch (type) {
    case OperationType::kAppend:
      return "Append";
    case OperationType::kDelete:
      return "Delete";
    case OperationType::kOverwrite:
      return "Overwrite";
    case OperationType::kMerge:
      return "Merge";
    case OperationType::kRestore:
      return "Restore";
    case OperationType::kReserveFragments:
      return "ReserveFragments";
    case OperationType::kProject:
      return "Project";
    case OperationType::kCreateIndex:
      return "CreateIndex";
    case OperationType::kRewrite:
      return "Rewrite";
    case OperationType::kUpdate:
      return "Update";
    case OperationType::kUpdateConfig:
      return "UpdateConfig";
    case OperationType::kDataReplacement:
      return "DataReplacement";
    case OperationType::kUpdateMemWalState:
      return "UpdateMemWalState";
    case OperationType::kClone:
      return "Clone";
    case OperationType::kUpdateBases:
      return "UpdateBases";
    case OperationType::kUnknown:
      break;
  }
  return "Unknown";
}

OperationType Transaction::type() const {
  return std::visit([](const auto& o) { return TypeOf(o); }, operation);
}

std::vector<std::uint64_t> Transaction::TouchedFragmentIds() const {
  std::vector<std::uint64_t> ids =
      std::visit([](const auto& o) { return TouchedBy(o); }, operation);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace lance_nd::table
