// Operation names and the fragments a transaction touches.
#include <algorithm>

#include "lance_nd/table/manifest.h"

namespace lance_nd::table {

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

std::vector<std::uint64_t> Transaction::TouchedFragmentIds() const {
  std::vector<std::uint64_t> ids;
  switch (operation) {
    case OperationType::kDelete:
    case OperationType::kUpdate:
      ids = deleted_fragment_ids;
      for (const Fragment& f : updated_fragments) ids.push_back(f.id);
      break;
    case OperationType::kRewrite:
      for (const RewriteGroup& g : rewrite_groups) {
        for (const Fragment& f : g.old_fragments) ids.push_back(f.id);
      }
      break;
    case OperationType::kDataReplacement:
      for (const auto& r : replacements) ids.push_back(r.first);
      break;
    default:
      break;
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace lance_nd::table
