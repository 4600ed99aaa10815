// Whether a transaction can be committed after one committed concurrently
// (docs/lance-table-format.md §11.3; a conservative subset of Lance 12's resolver: anything unclear
// is a conflict). The rules are one Against overload per operation of ours, after the rules every
// operation shares.
#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/table/commit/build_manifest.h"

namespace lance_nd::table::internal {
namespace {

using O = OperationType;

// Why two transactions conflict, and whether retrying ours (planned again) can succeed.
struct Verdict {
  explicit Verdict(std::string_view reason, bool can_retry = true)
      : why(reason), retryable(can_retry) {}
  std::string_view why;
  bool retryable;
};
using Outcome = std::optional<Verdict>;  // nullopt = compatible

const Outcome kCompatible = std::nullopt;

// The transaction committed first, as the rules look at it.
class Winner {
 public:
  explicit Winner(const Transaction& t) : t_(t), type_(t.type()) {}
  O type() const { return type_; }
  bool Is(std::initializer_list<O> types) const {
    return std::find(types.begin(), types.end(), type_) != types.end();
  }
  // Whether it changed the metadata of the schema or of a field.
  bool ChangesSchemaMetadata() const {
    const auto* c = t_.get<op::UpdateConfig>();
    return c != nullptr && c->ChangesSchemaMetadata();
  }
  bool ChangesConfig() const {
    const auto* c = t_.get<op::UpdateConfig>();
    return c != nullptr && c->config_updates.has_value();
  }
  // Whether it modified or removed one of `ids` (sorted).
  bool Touches(const std::vector<std::uint64_t>& ids) const {
    for (std::uint64_t id : t_.TouchedFragmentIds()) {
      if (std::binary_search(ids.begin(), ids.end(), id)) return true;
    }
    return false;
  }

 private:
  const Transaction& t_;
  O type_;
};

constexpr std::string_view kSameFragments = "both modify the same fragment(s)";

// A winner that modified a fragment ours modifies too.
bool SameFragments(const Transaction& ours, const Winner& w, std::initializer_list<O> types) {
  return w.Is(types) && w.Touches(ours.TouchedFragmentIds());
}

Outcome Against(const op::Append&, const Transaction&, const Winner&) { return kCompatible; }

Outcome Against(const op::Restore&, const Transaction&, const Winner&) { return kCompatible; }

Outcome Against(const op::Overwrite& o, const Transaction&, const Winner& w) {
  if (w.ChangesConfig() && !o.config_upserts.empty()) {
    return Verdict{"both change the table config"};
  }
  return kCompatible;
}

Outcome Against(const op::Delete&, const Transaction& ours, const Winner& w) {
  if (SameFragments(ours, w, {O::kDelete, O::kUpdate, O::kRewrite, O::kDataReplacement})) {
    return Verdict{kSameFragments};
  }
  return kCompatible;
}

Outcome Against(const op::Update&, const Transaction& ours, const Winner& w) {
  if (SameFragments(ours, w, {O::kDelete, O::kUpdate, O::kRewrite, O::kDataReplacement})) {
    return Verdict{kSameFragments};
  }
  if (w.Is({O::kMerge, O::kProject})) {
    return Verdict{"it changed the schema the updated rows were written with"};
  }
  return kCompatible;
}

Outcome Against(const op::Merge&, const Transaction&, const Winner& w) {
  if (w.type() == O::kCreateIndex) return kCompatible;
  if (w.type() == O::kUpdateConfig && !w.ChangesSchemaMetadata()) return kCompatible;
  return Verdict{
      "a Merge replaces the fragment list and schema, so it cannot absorb concurrent data or "
      "schema changes"};
}

Outcome Against(const op::Project&, const Transaction&, const Winner& w) {
  if (w.Is({O::kMerge, O::kProject}) || w.ChangesSchemaMetadata()) {
    return Verdict{"both change the schema"};
  }
  return kCompatible;
}

Outcome Against(const op::Rewrite&, const Transaction& ours, const Winner& w) {
  if (SameFragments(ours, w, {O::kDelete, O::kUpdate, O::kRewrite, O::kDataReplacement})) {
    return Verdict{kSameFragments};
  }
  if (w.Is({O::kMerge, O::kCreateIndex})) {
    return Verdict{"it changed the fragments' columns or indices being rewritten"};
  }
  return kCompatible;
}

Outcome Against(const op::UpdateConfig& o, const Transaction&, const Winner& w) {
  if (w.type() == O::kUpdateConfig) {
    return Verdict{"both update the table configuration / metadata"};
  }
  if (o.ChangesSchemaMetadata() && w.Is({O::kMerge, O::kProject})) {
    return Verdict{"it changed the schema whose metadata this updates"};
  }
  return kCompatible;
}

Outcome Against(const op::DataReplacement&, const Transaction& ours, const Winner& w) {
  if (SameFragments(ours, w, {O::kUpdate, O::kRewrite, O::kDataReplacement})) {
    return Verdict{kSameFragments};
  }
  if (w.Is({O::kMerge, O::kProject})) {
    return Verdict{"it changed the schema / data files being replaced"};
  }
  return kCompatible;
}

// ReserveFragments never gets here; CreateIndex and unmodelled operations are never rebased.
template <typename Op>
Outcome Against(const Op&, const Transaction&, const Winner&) {
  return Verdict{"lance-nd does not commit this operation concurrently", false};
}

// The rules every operation of ours shares, before its own.
Outcome Shared(const Transaction& ours, const Winner& w) {
  if (w.Is({O::kUnknown, O::kClone, O::kUpdateMemWalState, O::kUpdateBases})) {
    return Verdict{"lance-nd cannot tell whether that operation is compatible", false};
  }
  if (w.Is({O::kOverwrite, O::kRestore})) return Verdict{"it replaced the table content", false};
  if (w.type() == O::kReserveFragments) return kCompatible;
  return std::visit([&](const auto& o) { return Against(o, ours, w); }, ours.operation);
}

Status ConflictStatus(const Transaction& ours, const Transaction& theirs,
                      std::uint64_t their_version, const Verdict& verdict) {
  std::string their_name(theirs.name());
  const auto* unknown = theirs.get<op::Unknown>();
  if (theirs.type() == O::kUnknown && unknown->field_number != 0) {
    their_name += " (transaction field " + std::to_string(unknown->field_number) + ")";
  }
  return Status::CommitConflict(
             "commit conflict: version ", their_version, " was committed by a ", their_name,
             " operation after this ", ours.name(), " was planned at version ", ours.read_version,
             ", and ", verdict.why,
             verdict.retryable
                 ? "; reload the table and retry the operation"
                 : "; the operation must be planned again against the new table state")
      .WithRetryable(verdict.retryable);
}

}  // namespace

Status CheckCompatible(const Transaction& ours, const Transaction& theirs,
                       std::uint64_t their_version) {
  if (ours.get<op::ReserveFragments>() != nullptr) return Status();  // only bumps max id
  const Outcome outcome = Shared(ours, Winner(theirs));
  if (!outcome) return Status();
  return ConflictStatus(ours, theirs, their_version, *outcome);
}

}  // namespace lance_nd::table::internal
