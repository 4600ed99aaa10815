// PLACEHOLDER until the casting sources (casting.cc, Table::Widen) are merged into this tree;
// delete this file then. Rows pass through unchanged, so a type that differs from the table's
// is refused by the row encoding (SchemaMismatch) whatever the casting mode.
#include <string_view>

#include "lance_nd/api/casting.h"
#include "lance_nd/api/table.h"

namespace lance_nd {

std::string_view CastingName(Casting casting) {
  switch (casting) {
    case Casting::kNo:
      return "no";
    case Casting::kSafe:
      return "safe";
    case Casting::kSameKind:
      return "same_kind";
    case Casting::kPromote:
      return "promote";
  }
  return "no";
}

Result<Casting> ParseCasting(std::string_view name) {
  for (Casting c : {Casting::kNo, Casting::kSafe, Casting::kSameKind, Casting::kPromote}) {
    if (CastingName(c) == name) return c;
  }
  return Status::InvalidArgument("unknown casting '", name,
                                 "'; expected one of: no, safe, same_kind, promote");
}

Status Table::Widen(std::string_view, const array::DataTypePtr&) {
  return Status::NotImplemented("Table::Widen is not in this build");
}

namespace api::internal {

Result<CastOutcome> CastRowForTable(const nd::NdRecordBatch& row, const array::Schema&, Casting) {
  return CastOutcome{row, {}};
}

}  // namespace api::internal
}  // namespace lance_nd
