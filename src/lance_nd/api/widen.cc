// Table::Widen: a variable's value type widened, its column and stats column rewritten under
// new field ids in one commit (table::ReplaceColumns).
#include "lance_nd/api/widen.h"

#include <string>
#include <utility>
#include <vector>

#include "lance_nd/api/casting.h"
#include "lance_nd/api/table.h"
#include "lance_nd/array/cast.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/table/column_rewrite.h"

namespace lance_nd {
namespace api::internal {
namespace {

std::string VariableNames(const array::Schema& schema) {
  std::string names;
  for (const auto& f : schema.fields()) {
    if (!nd::IsNdField(*f)) continue;
    names += (names.empty() ? "'" : ", '") + f->name() + "'";
  }
  return names.empty() ? "none" : names;
}

// Each old column cast to its replacement's type (every value fits: checked before).
table::ColumnTransform CastTo(const std::vector<array::FieldPtr>& replacements) {
  return [replacements](const array::RecordBatchPtr& old) -> Result<array::RecordBatchPtr> {
    std::vector<array::ArrayPtr> columns;
    for (std::size_t i = 0; i < replacements.size(); ++i) {
      LND_ASSIGN_OR_RETURN(auto cast, array::Cast(old->column(static_cast<int>(i)),
                                                  replacements[i]->type(), array::CastMode::kSafe));
      columns.push_back(std::move(cast));
    }
    return array::RecordBatch::Make(array::MakeSchema(replacements), old->num_rows(),
                                    std::move(columns));
  };
}

}  // namespace

Result<table::Dataset> WidenVariable(const table::Dataset& ds, std::string_view variable,
                                     const array::DataTypePtr& to) {
  const array::Schema& schema = *ds.schema();
  const array::FieldPtr field = schema.GetField(variable);
  if (field == nullptr || !nd::IsNdField(*field)) {
    return Status::InvalidArgument("cannot widen '", variable, "': the table has no variable of ",
                                   "that name; its variables are ", VariableNames(schema));
  }
  LND_ASSIGN_OR_RETURN(auto layout, nd::ParseNdField(*field));
  const array::DataTypePtr& from = layout.value_field->type();
  if (from->Equals(*to, /*check_metadata=*/false)) return ds;
  if (!CastAllowed(*from, *to, Casting::kSafe)) {
    return Status::SchemaMismatch("cannot widen variable '", variable, "' from ", from->ToString(),
                                  " to ", to->ToString(), ": ", to->ToString(),
                                  " does not hold every ", from->ToString(),
                                  " value exactly; widen to a type that does (float32 -> ",
                                  "float64, int32 -> int64, uint16 -> int32, ...)")
        .WithKind(ErrorKind::kCastRejected);
  }
  const std::string name(variable);
  LND_ASSIGN_OR_RETURN(auto widened, WidenedEncodedSchema(schema, {{name, from, to}}));
  std::vector<array::FieldPtr> replacements = {widened->GetField(name)};
  if (auto stats = widened->GetField(nd::StatsColumn(name))) replacements.push_back(stats);
  return table::ReplaceColumns(ds, replacements, CastTo(replacements));
}

}  // namespace api::internal

Status Table::Widen(std::string_view variable, const array::DataTypePtr& to) {
  if (!writable_) {
    return Status::InvalidArgument("cannot widen '", variable, "': this table is version ",
                                   version(), " opened read-only (a checkout); open the latest ",
                                   "version to change it");
  }
  if (to == nullptr) return Status::InvalidArgument("Widen: no target type given");
  LND_ASSIGN_OR_RETURN(auto latest, table::Dataset::Open(location()));
  LND_ASSIGN_OR_RETURN(dataset_, api::internal::WidenVariable(latest, variable, to));
  return Status::OK();
}

}  // namespace lance_nd
