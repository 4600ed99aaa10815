// Casting rows to a table's types: the rules of each Casting mode, numpy-style promotion and
// the cast of one nd row (values, attributes, global attributes).
#include "lance_nd/api/casting.h"

#include <algorithm>
#include <array>
#include <utility>

#include "lance_nd/array/cast.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"

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
  return "unknown";
}

Result<Casting> ParseCasting(std::string_view name) {
  for (Casting c : {Casting::kNo, Casting::kSafe, Casting::kSameKind, Casting::kPromote}) {
    if (CastingName(c) == name) return c;
  }
  return Status::InvalidArgument("unknown casting '", name,
                                 "': expected one of 'no', 'safe', 'same_kind', 'promote'");
}

namespace api::internal {
namespace {

using array::DataType;
using array::DataTypePtr;
using array::TypeId;

bool SameType(const DataType& a, const DataType& b) {
  return a.Equals(b, /*check_metadata=*/false);
}

bool IsNumber(const DataType& t) { return t.id() == TypeId::kBool || t.is_numeric(); }

// Significand bits (with the implicit bit) of a float type.
int SignificandBits(const DataType& t) {
  switch (t.id()) {
    case TypeId::kFloat16:
      return 11;
    case TypeId::kFloat32:
      return 24;
    default:
      return 53;
  }
}

DataTypePtr SignedOfBits(int bits) {
  switch (bits) {
    case 8:
      return array::Int8();
    case 16:
      return array::Int16();
    case 32:
      return array::Int32();
    case 64:
      return array::Int64();
    default:
      return array::Float64();  // no signed integer is wide enough: numpy's answer
  }
}

// The smallest float whose significand holds every value of integer type `t`, or float64.
DataTypePtr FloatForInteger(const DataType& t) {
  const int magnitude = t.bit_width() - (t.is_signed_integer() ? 1 : 0);
  if (magnitude <= 11) return array::Float16();
  if (magnitude <= 24) return array::Float32();
  return array::Float64();
}

const DataTypePtr& Wider(const DataTypePtr& a, const DataTypePtr& b) {
  return a->bit_width() >= b->bit_width() ? a : b;
}

// Promotion of two different numeric types (bool included), numpy's table.
DataTypePtr PromoteNumbers(const DataTypePtr& a, const DataTypePtr& b) {
  if (a->id() == TypeId::kBool) return b;
  if (b->id() == TypeId::kBool) return a;
  if (a->is_floating() && b->is_floating()) return Wider(a, b);
  if (a->is_floating() || b->is_floating()) {
    const DataTypePtr& f = a->is_floating() ? a : b;
    const DataTypePtr& i = a->is_floating() ? b : a;
    const DataTypePtr needed = FloatForInteger(*i);
    return SignificandBits(*needed) > SignificandBits(*f) ? needed : f;
  }
  if (a->is_signed_integer() == b->is_signed_integer()) return Wider(a, b);
  const DataTypePtr& u = a->is_unsigned_integer() ? a : b;
  const DataTypePtr& s = a->is_unsigned_integer() ? b : a;
  if (s->bit_width() > u->bit_width()) return s;
  return SignedOfBits(2 * u->bit_width());
}

// The modes, in the order suggested to the user.
constexpr std::array<Casting, 4> kModes = {Casting::kNo, Casting::kSafe, Casting::kSameKind,
                                           Casting::kPromote};

// What kPromote does with a variable whose table type is `table` and row type `row`.
struct PromotePlan {
  DataTypePtr cast_to;  // nullptr: rejected
  bool widens = false;  // cast_to is a widened table type
};

PromotePlan PlanPromote(const DataTypePtr& row, const DataTypePtr& table) {
  if (CastAllowed(*row, *table, Casting::kSafe)) return {table, false};
  DataTypePtr promoted = PromoteTypes(table, row);
  if (promoted && array::CanRepresentAll(*table, *promoted) &&
      array::CanRepresentAll(*row, *promoted)) {
    return {std::move(promoted), true};
  }
  return {};
}

// "variable 'v'", "attribute 'v.attrs.units'", "global attribute '__global_attrs__.id'".
struct Subject {
  std::string what;
  bool promotable = false;  // variables: kPromote may widen the table
};

Status Rejected(const Subject& subject, const DataTypePtr& row_type, const DataTypePtr& table_type,
                Casting mode) {
  const DataType& row = *row_type;
  const DataType& table = *table_type;
  std::string hint;
  for (Casting m : kModes) {
    if (m == mode) continue;
    if (m == Casting::kPromote && subject.promotable) {
      const PromotePlan plan = PlanPromote(row_type, table_type);
      if (plan.cast_to) {
        hint = plan.widens ? "use casting='promote' (the table's type becomes " +
                                 plan.cast_to->ToString() + ")"
                           : "use casting='promote'";
        break;
      }
      continue;
    }
    if (CastAllowed(row, table, m)) {
      hint = "use casting='" + std::string(CastingName(m)) + "'";
      break;
    }
  }
  if (hint.empty()) {
    hint = "no casting mode converts " + row.ToString() + " to " + table.ToString();
  }
  return Status::SchemaMismatch("cannot cast ", subject.what, " from ", row.ToString(),
                                " (row) to ", table.ToString(), " (table) with casting='",
                                CastingName(mode), "': ", hint)
      .WithKind(ErrorKind::kCastRejected);
}

// `values` cast to `to` under `mode` (kSafe or kSameKind rule), value errors as rejections.
Result<array::ArrayPtr> CastValues(const Subject& subject, const array::ArrayPtr& values,
                                   const DataTypePtr& to, Casting mode) {
  const array::CastMode cast_mode =
      mode == Casting::kSameKind ? array::CastMode::kSameKind : array::CastMode::kSafe;
  auto cast = array::Cast(values, to, cast_mode);
  if (!cast.ok()) {
    return Status::SchemaMismatch("cannot cast ", subject.what, " from ", values->type->ToString(),
                                  " (row) to ", to->ToString(), " (table) with casting='",
                                  CastingName(mode), "': ", cast.status().message())
        .WithKind(ErrorKind::kCastRejected);
  }
  return std::move(cast).value();
}

// One attribute-like value (attribute or global attribute) against the table's type; null
// `table_type` (a key the table lacks) keeps it. Attributes follow kSafe under kPromote.
Result<array::ArrayPtr> CastAttribute(const Subject& subject, const array::ArrayPtr& value,
                                      const DataTypePtr& table_type, Casting mode) {
  if (!table_type || SameType(*value->type, *table_type)) return value;
  const Casting rule = mode == Casting::kPromote ? Casting::kSafe : mode;
  if (!CastAllowed(*value->type, *table_type, rule)) {
    return Rejected(subject, value->type, table_type, mode);
  }
  return CastValues(subject, value, table_type, rule);
}

DataTypePtr FieldType(const std::vector<array::FieldPtr>& fields, std::string_view name) {
  for (const auto& f : fields) {
    if (f->name() == name) return f->type();
  }
  return nullptr;
}

// The attributes cast to the table's key types; nullopt when none needs a cast.
Result<std::optional<nd::Attributes>> CastAttributes(
    const nd::Attributes& attributes, const std::vector<array::FieldPtr>& table_fields,
    const std::string& prefix, Casting mode) {
  if (attributes.empty() || table_fields.empty()) return std::optional<nd::Attributes>{};
  std::vector<nd::Attributes::Entry> entries;
  entries.reserve(attributes.size());
  bool changed = false;
  for (const auto& [key, value] : attributes.entries()) {
    const Subject subject{prefix + key + "'"};
    LND_ASSIGN_OR_RETURN(auto cast,
                         CastAttribute(subject, value, FieldType(table_fields, key), mode));
    changed = changed || cast != value;
    entries.emplace_back(key, std::move(cast));
  }
  if (!changed) return std::optional<nd::Attributes>{};
  LND_ASSIGN_OR_RETURN(auto cast, nd::Attributes::Make(std::move(entries)));
  return std::optional<nd::Attributes>(std::move(cast));
}

// The table's view of one nd column: value type and attribute fields.
struct TableColumn {
  DataTypePtr value_type;
  std::vector<array::FieldPtr> attribute_fields;
};

// The row's column cast to the table column, and the widening the table needs first.
struct ColumnCast {
  nd::NdArrowArray array;
  std::optional<Widening> widening;
  bool changed = false;  // false: `array` is the row's column as it was
};

Result<ColumnCast> CastColumn(const std::string& name, const nd::NdArrowArray& column,
                              const TableColumn& table, Casting mode) {
  const Subject subject{"variable '" + name + "'", /*promotable=*/true};
  const DataTypePtr& row_type = column.value_type();
  DataTypePtr to = table.value_type;
  Casting rule = mode;
  std::optional<Widening> widening;
  if (!SameType(*row_type, *to)) {
    if (mode == Casting::kPromote) {
      const PromotePlan plan = PlanPromote(row_type, to);
      if (!plan.cast_to) return Rejected(subject, row_type, to, mode);
      if (plan.widens) widening = Widening{name, to, plan.cast_to};
      to = plan.cast_to;
      rule = Casting::kSafe;
    } else if (!CastAllowed(*row_type, *to, mode)) {
      return Rejected(subject, row_type, to, mode);
    }
  }
  array::ArrayPtr values = column.values();
  if (!SameType(*row_type, *to)) {
    LND_ASSIGN_OR_RETURN(values, CastValues(subject, values, to, rule));
  }
  LND_ASSIGN_OR_RETURN(auto attributes, CastAttributes(column.attributes(), table.attribute_fields,
                                                       "attribute '" + name + ".attrs.", mode));
  if (values == column.values() && !attributes && !widening) return ColumnCast{column, {}, false};
  LND_ASSIGN_OR_RETURN(auto array, nd::NdArrowArray::Make(
                                       std::move(values), column.dimensions(),
                                       attributes ? std::move(*attributes) : column.attributes()));
  return ColumnCast{std::move(array), std::move(widening), true};
}

Result<std::optional<TableColumn>> FindTableColumn(const array::Schema& schema,
                                                   std::string_view name) {
  const array::FieldPtr field = schema.GetField(name);
  if (!field || !nd::IsNdField(*field)) return std::optional<TableColumn>{};
  LND_ASSIGN_OR_RETURN(auto layout, nd::ParseNdField(*field));
  return std::optional<TableColumn>{
      TableColumn{layout.value_field->type(), std::move(layout.attribute_fields)}};
}

std::vector<array::FieldPtr> GlobalFields(const array::Schema& schema) {
  const array::FieldPtr field = schema.GetField(nd::kGlobalAttributesField);
  if (!field || field->type()->id() != TypeId::kStruct) return {};
  return field->type()->children();
}

// The values child of an nd storage struct retyped to `value_type` (item field metadata and
// nullability kept).
Result<array::FieldPtr> RetypeNdField(const array::Field& field, const DataTypePtr& value_type) {
  LND_RETURN_NOT_OK(nd::ParseNdField(field).status());
  std::vector<array::FieldPtr> children = field.type()->children();
  const array::FieldPtr& values = children.at(0);
  const array::FieldPtr item = values->type()->value_field()->WithType(value_type);
  children[0] = values->WithType(array::List(item));
  return field.WithType(array::Struct(std::move(children)));
}

array::FieldPtr RetypeStatsField(const array::Field& field, const DataTypePtr& value_type) {
  std::vector<array::FieldPtr> children;
  for (const auto& child : field.type()->children()) {
    children.push_back(child->WithType(value_type));
  }
  return field.WithType(array::Struct(std::move(children)));
}

}  // namespace

bool CastAllowed(const array::DataType& from, const array::DataType& to, Casting mode) {
  if (SameType(from, to)) return true;
  if (IsNumber(from) != IsNumber(to) && (from.is_binary_like() || to.is_binary_like())) {
    return false;  // strings and numbers never mix
  }
  switch (mode) {
    case Casting::kNo:
      return false;
    case Casting::kSafe:
    case Casting::kPromote:
      return array::CanRepresentAll(from, to) && array::CanCast(from, to, array::CastMode::kSafe);
    case Casting::kSameKind:
      return array::CanCast(from, to, array::CastMode::kSameKind);
  }
  return false;
}

array::DataTypePtr PromoteTypes(const array::DataTypePtr& a, const array::DataTypePtr& b) {
  if (SameType(*a, *b)) return a;
  if (array::CanRepresentAll(*b, *a)) return a;
  if (array::CanRepresentAll(*a, *b)) return b;
  if (IsNumber(*a) && IsNumber(*b)) return PromoteNumbers(a, b);
  return nullptr;
}

Result<CastOutcome> CastRowForTable(const nd::NdRecordBatch& row,
                                    const array::Schema& table_encoded_schema, Casting mode) {
  CastOutcome outcome;
  bool changed = false;
  std::vector<array::FieldPtr> fields;
  std::vector<nd::NdArrowArray> columns;
  for (int i = 0; i < row.num_columns(); ++i) {
    const array::FieldPtr& field = row.schema()->field(i);
    LND_ASSIGN_OR_RETURN(auto table_column, FindTableColumn(table_encoded_schema, field->name()));
    if (!table_column) {  // a new variable: it extends the schema as it is
      fields.push_back(field);
      columns.push_back(row.column(i));
      continue;
    }
    LND_ASSIGN_OR_RETURN(auto cast, CastColumn(field->name(), row.column(i), *table_column, mode));
    changed = changed || cast.changed;
    fields.push_back(cast.changed ? field->WithType(cast.array.value_type()) : field);
    columns.push_back(std::move(cast.array));
    if (cast.widening) outcome.widenings.push_back(std::move(*cast.widening));
  }
  LND_ASSIGN_OR_RETURN(
      auto globals,
      CastAttributes(row.attributes(), GlobalFields(table_encoded_schema),
                     "global attribute '" + std::string(nd::kGlobalAttributesField) + ".", mode));
  // Widenings in table column order (the row's order may differ).
  std::ranges::sort(outcome.widenings, {},
                    [&](const Widening& w) { return table_encoded_schema.FieldIndex(w.variable); });
  if (!changed && !globals) {
    outcome.row = row;  // nothing to cast: the row as it is
    return outcome;
  }
  LND_ASSIGN_OR_RETURN(
      outcome.row,
      nd::NdRecordBatch::Make(array::MakeSchema(std::move(fields), row.schema()->metadata()),
                              std::move(columns), row.target(),
                              globals ? std::move(*globals) : row.attributes()));
  return outcome;
}

RowCastCheck::RowCastCheck(const array::Schema& table_encoded_schema) {
  const auto keys = [](const std::vector<array::FieldPtr>& fields) {
    std::vector<Key> out;
    out.reserve(fields.size());
    for (const auto& f : fields) out.push_back(Key{f->name(), f->type()});
    return out;
  };
  variables_.reserve(static_cast<std::size_t>(table_encoded_schema.num_fields()));
  for (const array::FieldPtr& field : table_encoded_schema.fields()) {
    Variable v{field->name(), nd::IsNdField(*field), nullptr, {}};
    if (v.nd) {
      auto layout = nd::ParseNdField(*field);
      if (layout.ok()) {
        v.value_type = layout->value_field->type();
        v.attributes = keys(layout->attribute_fields);
      }
    }
    variables_.push_back(std::move(v));
  }
  globals_ = keys(GlobalFields(table_encoded_schema));
}

const RowCastCheck::Variable* RowCastCheck::Find(std::string_view name) const {
  for (const Variable& v : variables_) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

// As CastAttributes: a key the table lacks is kept, a key it has must have its type.
bool RowCastCheck::KeysUnchanged(const nd::Attributes& attributes, const std::vector<Key>& table) {
  for (const auto& [key, value] : attributes.entries()) {
    for (const Key& k : table) {
      if (k.name != key) continue;
      if (!SameType(*value->type, *k.type)) return false;
      break;
    }
  }
  return true;
}

bool RowCastCheck::Unchanged(const nd::NdRecordBatch& row) const {
  for (int i = 0; i < row.num_columns(); ++i) {
    const Variable* v = Find(row.column_name(i));
    if (v == nullptr || !v->nd) continue;  // a new variable is kept as it is
    if (!v->value_type) return false;
    const nd::NdArrowArray& column = row.column(i);
    if (!SameType(*column.value_type(), *v->value_type)) return false;
    if (!KeysUnchanged(column.attributes(), v->attributes)) return false;
  }
  return KeysUnchanged(row.attributes(), globals_);
}

Result<array::SchemaPtr> WidenedEncodedSchema(const array::Schema& schema,
                                              const std::vector<Widening>& widenings) {
  std::vector<array::FieldPtr> fields = schema.fields();
  for (const Widening& w : widenings) {
    const int index = schema.FieldIndex(w.variable);
    if (index < 0) {
      return Status::InvalidArgument("cannot widen variable '", w.variable,
                                     "': the table has no such column");
    }
    LND_ASSIGN_OR_RETURN(fields[static_cast<std::size_t>(index)],
                         RetypeNdField(*schema.field(index), w.to));
    const int stats = schema.FieldIndex(nd::StatsColumn(w.variable));
    if (stats >= 0) {
      fields[static_cast<std::size_t>(stats)] = RetypeStatsField(*schema.field(stats), w.to);
    }
  }
  return array::MakeSchema(std::move(fields), schema.metadata());
}

}  // namespace api::internal
}  // namespace lance_nd
