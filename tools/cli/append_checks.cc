#include "append_checks.h"

#include "lance_nd/api/json_lines.h"
#include "lance_nd/array/cast.h"
#include "lance_nd/nd/encoded_schema.h"

namespace lance_nd::cli {
namespace {

std::string Name(const array::DataType& type) {
  return JsonDtypeName(type).ValueOr(type.ToString());
}

/// Equal types by their JSON Lines names (list item names and nullability do not count).
bool SameType(const array::DataType& a, const array::DataType& b) { return Name(a) == Name(b); }

/// Whether `casting` lets values of `from` go into a column of `to`.
Status Accepts(Casting casting, const array::DataType& from, const array::DataType& to) {
  using array::CanCast;
  using array::CastMode;
  bool ok = false;
  switch (casting) {
    case Casting::kNo:
      ok = false;
      break;
    case Casting::kSafe:
      ok = CanCast(from, to, CastMode::kSafe);
      break;
    case Casting::kSameKind:
      ok = CanCast(from, to, CastMode::kSameKind);
      break;
    case Casting::kPromote:  // the table widens when needed; they must share a kind order
      ok = CanCast(from, to, CastMode::kSameKind) || CanCast(to, from, CastMode::kSameKind);
      break;
  }
  if (ok) return Status::OK();
  return Status::SchemaMismatch("casting '", CastingName(casting), "' refuses it");
}

}  // namespace

RowTypeChecker::RowTypeChecker(const Table* table, Casting casting) : casting_(casting) {
  if (table == nullptr) return;
  for (const array::FieldPtr& field : table->schema()->fields()) {
    if (nd::IsGlobalAttributesField(*field)) {
      for (const auto& key : field->type()->children()) {
        attributes_["\n" + key->name()] = Known{key->type(), 0};
      }
      continue;
    }
    if (!nd::IsNdField(*field)) continue;
    auto layout = nd::ParseNdField(*field);
    if (!layout.ok()) continue;  // the writer reports it
    variables_[field->name()] = Known{layout->value_field->type(), 0};
    for (const auto& key : layout->attribute_fields) {
      attributes_[field->name() + "\n" + key->name()] = Known{key->type(), 0};
    }
  }
}

Status RowTypeChecker::CheckType(const std::string& key, const std::string& label,
                                 const array::ArrayPtr& values, bool is_attribute,
                                 std::uint64_t line,
                                 std::map<std::string, Known, std::less<>>& known) {
  const array::DataTypePtr& type = values->type;
  const auto it = known.find(key);
  if (it == known.end()) {
    known.emplace(key, Known{type, line});
    return Status::OK();
  }
  const array::DataType& want = *it->second.type;
  if (SameType(*type, want)) return Status::OK();
  // Attributes are never promoted: they follow the safe rule.
  const Casting casting = is_attribute && casting_ == Casting::kPromote ? Casting::kSafe : casting_;
  Status accepted = Accepts(casting, *type, want);
  if (accepted.ok() && casting == Casting::kSameKind) {  // every value must fit
    auto cast = array::Cast(values, it->second.type, array::CastMode::kSameKind);
    if (!cast.ok()) accepted = Status::SchemaMismatch(cast.status().message());
  }
  if (accepted.ok()) return Status::OK();
  const std::string origin = it->second.line == 0 ? std::string("in the table")
                                                  : "on line " + std::to_string(it->second.line);
  return Status::SchemaMismatch(label, " is ", Name(*type), " here but ", Name(want), " ", origin,
                                ": ", accepted.message(),
                                casting == Casting::kNo ? " (see --casting)" : "")
      .WithKind(ErrorKind::kCastRejected);
}

Status RowTypeChecker::CheckAttributes(const std::string& owner, const nd::Attributes& attributes,
                                       std::uint64_t line) {
  for (const auto& [key, value] : attributes.entries()) {
    const std::string label = owner.empty() ? "global attribute '" + key + "'"
                                            : "attribute '" + key + "' of '" + owner + "'";
    LND_RETURN_NOT_OK(
        CheckType(owner + "\n" + key, label, value, /*is_attribute=*/true, line, attributes_));
  }
  return Status::OK();
}

Status RowTypeChecker::Check(const nd::NdRecordBatch& row, std::uint64_t line) {
  for (int i = 0; i < row.num_columns(); ++i) {
    const std::string& name = row.column_name(i);
    const nd::NdArrowArray& column = row.column(i);
    LND_RETURN_NOT_OK(CheckType(name, "variable '" + name + "'", column.values(),
                                /*is_attribute=*/false, line, variables_));
    LND_RETURN_NOT_OK(CheckAttributes(name, column.attributes(), line));
  }
  return CheckAttributes("", row.attributes(), line);
}

}  // namespace lance_nd::cli
