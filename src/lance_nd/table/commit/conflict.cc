// Whether a transaction can be committed after one committed concurrently
// (docs/lance-table-format.md §11.3; a conservative subset of Lance 12's resolver: anything unclear
// is a conflict).
#include <algorithm>
#include <string>

#include "lance_nd/table/commit/build_manifest.h"

namespace lance_nd::table::internal {
namespace {

using O = OperationType;

bool Shares(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  for (std::uint64_t x : a) {
    if (std::binary_search(b.begin(), b.end(), x)) return true;
  }
  return false;
}

bool Is(const Transaction& t, std::initializer_list<O> ops) {
  return std::find(ops.begin(), ops.end(), t.operation) != ops.end();
}

bool TouchesSchema(const Transaction& t) {
  return t.schema_metadata_updates.has_value() || !t.field_metadata_updates.empty();
}

}  // namespace

Status CheckCompatible(const Transaction& ours, const Transaction& theirs,
                       std::uint64_t their_version) {
  auto conflict = [&](const std::string& why, bool retryable) {
    std::string their_name(OperationTypeName(theirs.operation));
    if (theirs.operation == O::kUnknown && theirs.unknown_operation_field != 0) {
      their_name += " (transaction field " + std::to_string(theirs.unknown_operation_field) + ")";
    }
    return Status::CommitConflict(
               "commit conflict: version " + std::to_string(their_version) +
               " was committed by a " + their_name + " operation after this " +
               std::string(OperationTypeName(ours.operation)) + " was planned at version " +
               std::to_string(ours.read_version) + ", and " + why +
               (retryable ? "; reload the table and retry the operation"
                          : "; the operation must be planned again against the new table state"))
        .WithRetryable(retryable);
  };

  if (ours.operation == O::kReserveFragments) return Status();  // only bumps max_fragment_id
  if (Is(theirs, {O::kUnknown, O::kClone, O::kUpdateMemWalState, O::kUpdateBases})) {
    return conflict("lance-nd cannot tell whether that operation is compatible", false);
  }
  if (Is(theirs, {O::kOverwrite, O::kRestore})) {
    return conflict("it replaced the table content", false);
  }
  if (theirs.operation == O::kReserveFragments) return Status();

  const std::vector<std::uint64_t> our_ids = ours.TouchedFragmentIds();
  const std::vector<std::uint64_t> their_ids = theirs.TouchedFragmentIds();
  const bool same_fragments = Shares(our_ids, their_ids);

  switch (ours.operation) {
    case O::kAppend:
    case O::kRestore:
      return Status();
    case O::kOverwrite:
      if (theirs.operation == O::kUpdateConfig && theirs.config_updates &&
          !ours.config_upserts.empty()) {
        return conflict("both change the table config", true);
      }
      return Status();
    case O::kDelete:
    case O::kUpdate:
      if (Is(theirs, {O::kDelete, O::kUpdate, O::kRewrite, O::kDataReplacement}) &&
          same_fragments) {
        return conflict("both modify the same fragment(s)", true);
      }
      if (ours.operation == O::kUpdate && Is(theirs, {O::kMerge, O::kProject})) {
        return conflict("it changed the schema the updated rows were written with", true);
      }
      return Status();
    case O::kMerge:
      if (Is(theirs, {O::kCreateIndex})) return Status();
      if (theirs.operation == O::kUpdateConfig && !TouchesSchema(theirs)) return Status();
      return conflict(
          "a Merge replaces the fragment list and schema, so it cannot absorb concurrent data "
          "or schema changes",
          true);
    case O::kProject:
      if (Is(theirs, {O::kMerge, O::kProject}) ||
          (theirs.operation == O::kUpdateConfig && TouchesSchema(theirs))) {
        return conflict("both change the schema", true);
      }
      return Status();
    case O::kRewrite:
      if (Is(theirs, {O::kDelete, O::kUpdate, O::kRewrite, O::kDataReplacement}) &&
          same_fragments) {
        return conflict("both modify the same fragment(s)", true);
      }
      if (Is(theirs, {O::kMerge, O::kCreateIndex})) {
        return conflict("it changed the fragments' columns or indices being rewritten", true);
      }
      return Status();
    case O::kUpdateConfig:
      if (theirs.operation == O::kUpdateConfig) {
        return conflict("both update the table configuration / metadata", true);
      }
      if (TouchesSchema(ours) && Is(theirs, {O::kMerge, O::kProject})) {
        return conflict("it changed the schema whose metadata this updates", true);
      }
      return Status();
    case O::kDataReplacement:
      if (Is(theirs, {O::kUpdate, O::kRewrite, O::kDataReplacement}) && same_fragments) {
        return conflict("both modify the same fragment(s)", true);
      }
      if (Is(theirs, {O::kMerge, O::kProject})) {
        return conflict("it changed the schema / data files being replaced", true);
      }
      return Status();
    default:
      return conflict("lance-nd does not commit this operation concurrently", false);
  }
}

}  // namespace lance_nd::table::internal
