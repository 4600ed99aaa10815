// CastRowForTable over every pair of value types and every mode, against expectations written
// here from the casting rules (kinds bool < unsigned < signed < float, exactness by bits), plus
// value-level checks of checked casts with generated values.
#include "lance_nd/api/casting.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/cast.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::api::internal {
namespace {

using array::DataTypePtr;
using array::TypeId;

enum class Kind { kBool = 0, kUnsigned = 1, kSigned = 2, kFloat = 3, kString = 4 };

struct TypeInfo {
  DataTypePtr type;
  Kind kind;
  int bits;
};

std::vector<TypeInfo> AllTypes() {
  return {{array::Bool(), Kind::kBool, 1},        {array::UInt8(), Kind::kUnsigned, 8},
          {array::UInt16(), Kind::kUnsigned, 16}, {array::UInt32(), Kind::kUnsigned, 32},
          {array::UInt64(), Kind::kUnsigned, 64}, {array::Int8(), Kind::kSigned, 8},
          {array::Int16(), Kind::kSigned, 16},    {array::Int32(), Kind::kSigned, 32},
          {array::Int64(), Kind::kSigned, 64},    {array::Float16(), Kind::kFloat, 16},
          {array::Float32(), Kind::kFloat, 32},   {array::Float64(), Kind::kFloat, 64},
          {array::Utf8(), Kind::kString, 32},     {array::LargeUtf8(), Kind::kString, 64}};
}

const std::vector<Casting> kAllModes = {Casting::kNo, Casting::kSafe, Casting::kSameKind,
                                        Casting::kPromote};

bool IsNumber(const TypeInfo& t) { return t.kind != Kind::kString; }

int Significand(int float_bits) { return float_bits == 16 ? 11 : float_bits == 32 ? 24 : 53; }
int Magnitude(const TypeInfo& t) { return t.kind == Kind::kSigned ? t.bits - 1 : t.bits; }

// The kSafe rule: every value of `from` exactly representable in `to`.
bool ExpectSafe(const TypeInfo& from, const TypeInfo& to) {
  if (from.type->Equals(*to.type)) return true;
  if (from.kind == Kind::kString || to.kind == Kind::kString) {
    return from.kind == to.kind && to.bits > from.bits;  // utf8 -> large_utf8
  }
  if (from.kind == Kind::kBool) return true;
  if (to.kind == Kind::kBool) return false;
  if (from.kind == Kind::kFloat) return to.kind == Kind::kFloat && to.bits >= from.bits;
  if (to.kind == Kind::kFloat) return Magnitude(from) <= Significand(to.bits);
  if (from.kind == Kind::kSigned && to.kind == Kind::kUnsigned) return false;
  if (from.kind == Kind::kUnsigned && to.kind == Kind::kSigned) return to.bits > from.bits;
  return to.bits >= from.bits;
}

// The kSameKind rule: safe, or a number moving within its kind or to a later kind.
bool ExpectSameKind(const TypeInfo& from, const TypeInfo& to) {
  if (ExpectSafe(from, to)) return true;
  if (IsNumber(from) != IsNumber(to)) return false;
  if (!IsNumber(from)) return true;  // large_utf8 -> utf8, checked offsets
  return static_cast<int>(to.kind) >= static_cast<int>(from.kind);
}

const TypeInfo* FindInfo(const std::vector<TypeInfo>& all, const DataTypePtr& t) {
  for (const auto& i : all) {
    if (t && i.type->Equals(*t)) return &i;
  }
  return nullptr;
}

// kPromote on a variable: safe, or a promoted type that holds both sides exactly.
std::optional<DataTypePtr> ExpectPromote(const TypeInfo& row, const TypeInfo& table) {
  if (ExpectSafe(row, table)) return table.type;
  const auto all = AllTypes();
  const TypeInfo* p = FindInfo(all, PromoteTypes(table.type, row.type));
  if (p && ExpectSafe(table, *p) && ExpectSafe(row, *p)) return p->type;
  return std::nullopt;
}

bool ExpectAccepted(const TypeInfo& row, const TypeInfo& table, Casting mode, bool variable) {
  switch (mode) {
    case Casting::kNo:
      return row.type->Equals(*table.type);
    case Casting::kSafe:
      return ExpectSafe(row, table);
    case Casting::kSameKind:
      return ExpectSameKind(row, table);
    case Casting::kPromote:
      return variable ? ExpectPromote(row, table).has_value() : ExpectSafe(row, table);
  }
  return false;
}

// Small values every number type holds (0/1 when bool is involved); strings otherwise.
array::ArrayPtr MakeValues(const DataTypePtr& type, const std::vector<std::optional<int64_t>>& v) {
  auto conv = [&]<typename T>(T) {
    std::vector<std::optional<T>> out;
    for (const auto& x : v) out.push_back(x ? std::optional<T>(static_cast<T>(*x)) : std::nullopt);
    return out;
  };
  switch (type->id()) {
    case TypeId::kBool: {
      std::vector<std::optional<bool>> out;
      for (const auto& x : v) out.push_back(x ? std::optional<bool>(*x != 0) : std::nullopt);
      return array::MakeBoolArray(out);
    }
    case TypeId::kInt8:
      return array::MakePrimitiveArray<int8_t>(type, conv(int8_t{}));
    case TypeId::kInt16:
      return array::MakePrimitiveArray<int16_t>(type, conv(int16_t{}));
    case TypeId::kInt32:
      return array::MakePrimitiveArray<int32_t>(type, conv(int32_t{}));
    case TypeId::kInt64:
      return array::MakePrimitiveArray<int64_t>(type, conv(int64_t{}));
    case TypeId::kUInt8:
      return array::MakePrimitiveArray<uint8_t>(type, conv(uint8_t{}));
    case TypeId::kUInt16:
      return array::MakePrimitiveArray<uint16_t>(type, conv(uint16_t{}));
    case TypeId::kUInt32:
      return array::MakePrimitiveArray<uint32_t>(type, conv(uint32_t{}));
    case TypeId::kUInt64:
      return array::MakePrimitiveArray<uint64_t>(type, conv(uint64_t{}));
    case TypeId::kFloat32:
      return array::MakePrimitiveArray<float>(type, conv(float{}));
    case TypeId::kFloat64:
      return array::MakePrimitiveArray<double>(type, conv(double{}));
    case TypeId::kFloat16:
      return *array::Cast(array::MakePrimitiveArray<float>(array::Float32(), conv(float{})), type,
                          array::CastMode::kSameKind);
    default: {
      std::vector<std::optional<std::string>> out;
      for (const auto& x : v) out.push_back(x ? std::optional(std::to_string(*x)) : std::nullopt);
      return array::MakeStringArray(out, type);
    }
  }
}

// Number values as doubles (nullopt for nulls), read through a float64 cast.
std::vector<std::optional<double>> AsDoubles(const array::ArrayPtr& values) {
  auto f64 = array::Cast(values, array::Float64(), array::CastMode::kSameKind);
  EXPECT_TRUE(f64.ok()) << f64.status().ToString();
  std::vector<std::optional<double>> out;
  if (!f64.ok()) return out;
  const array::ArrayPtr& a = *f64;
  for (int64_t i = 0; i < a->length; ++i) {
    out.push_back(a->IsNull(i) ? std::nullopt : std::optional(a->values<double>()[i]));
  }
  return out;
}

array::SchemaPtr TableSchema(const DataTypePtr& value_type, std::vector<array::FieldPtr> attrs = {},
                             std::vector<array::FieldPtr> globals = {}) {
  std::vector<array::FieldPtr> fields = {nd::EncodedField(array::Field("v", value_type), attrs)};
  if (!globals.empty()) fields.push_back(nd::GlobalAttributesField(std::move(globals)));
  return array::MakeSchema(std::move(fields), {{std::string(nd::kFormatMetadataKey), "1"}});
}

nd::NdRecordBatch OneVariableRow(const std::string& name, array::ArrayPtr values,
                                 nd::Attributes attrs = {}, nd::Attributes globals = {}) {
  const auto n = static_cast<uint64_t>(values->length);
  auto dims = nd::Dimensions::Make({"x"}, {n});
  auto array = nd::NdArrowArray::Make(std::move(values), *dims, std::move(attrs));
  auto row = nd::NdRecordBatch::FromArrays({{name, *array}}, std::move(globals));
  EXPECT_TRUE(row.ok()) << row.status().ToString();
  return *row;
}

std::string ModeText(Casting m) { return "casting='" + std::string(CastingName(m)) + "'"; }

// The hint a rejection must carry: the first other mode that accepts, else "no casting mode".
std::string ExpectedHint(const TypeInfo& row, const TypeInfo& table, Casting mode, bool variable) {
  for (Casting m : kAllModes) {
    if (m != mode && ExpectAccepted(row, table, m, variable)) return "use " + ModeText(m);
  }
  return "no casting mode";
}

void ExpectRejection(const Status& s, const std::string& subject, const TypeInfo& row,
                     const TypeInfo& table, Casting mode, bool variable) {
  EXPECT_EQ(s.code(), StatusCode::kSchemaMismatch) << s.ToString();
  EXPECT_EQ(s.kind(), ErrorKind::kCastRejected) << s.ToString();
  const std::string m(s.message());
  for (const std::string& piece : {subject, row.type->ToString(), table.type->ToString(),
                                   ModeText(mode), ExpectedHint(row, table, mode, variable)}) {
    EXPECT_NE(m.find(piece), std::string::npos) << "'" << piece << "' missing in: " << m;
  }
}

std::vector<std::optional<int64_t>> SmallValues(std::mt19937_64& rng, bool bool_involved) {
  std::vector<std::optional<int64_t>> v;
  const int64_t hi = bool_involved ? 1 : 100;
  const int n = std::uniform_int_distribution<int>(0, 12)(rng);
  for (int i = 0; i < n; ++i) {
    if (std::bernoulli_distribution(0.15)(rng)) {
      v.emplace_back(std::nullopt);
    } else {
      v.emplace_back(std::uniform_int_distribution<int64_t>(0, hi)(rng));
    }
  }
  return v;
}

TEST(CastRowForTable, VariableValueTypesOverEveryPairAndMode) {
  const auto types = AllTypes();
  std::mt19937_64 rng(20261202);
  int accepted = 0, rejected = 0;
  for (const TypeInfo& row_t : types) {
    for (const TypeInfo& table_t : types) {
      const bool has_bool = row_t.kind == Kind::kBool || table_t.kind == Kind::kBool;
      const auto input = SmallValues(rng, has_bool);
      const auto row = OneVariableRow("v", MakeValues(row_t.type, input));
      const auto schema = TableSchema(table_t.type);
      for (Casting mode : kAllModes) {
        SCOPED_TRACE(row_t.type->ToString() + " -> " + table_t.type->ToString() + " " +
                     ModeText(mode));
        auto outcome = CastRowForTable(row, *schema, mode);
        if (!ExpectAccepted(row_t, table_t, mode, /*variable=*/true)) {
          ExpectRejection(outcome.status(), "variable 'v'", row_t, table_t, mode, true);
          ++rejected;
          continue;
        }
        ASSERT_TRUE(outcome.ok()) << outcome.status().ToString();
        ++accepted;
        DataTypePtr expected = table_t.type;
        if (mode == Casting::kPromote) expected = *ExpectPromote(row_t, table_t);
        const auto& column = outcome->row.column(0);
        EXPECT_TRUE(column.value_type()->Equals(*expected)) << column.value_type()->ToString();
        EXPECT_TRUE(outcome->row.schema()->field(0)->type()->Equals(*expected));
        const bool widens = !expected->Equals(*table_t.type);
        ASSERT_EQ(outcome->widenings.size(), widens ? 1u : 0u);
        if (widens) {
          EXPECT_EQ(outcome->widenings[0].variable, "v");
          EXPECT_TRUE(outcome->widenings[0].from->Equals(*table_t.type));
          EXPECT_TRUE(outcome->widenings[0].to->Equals(*expected));
        }
        if (IsNumber(row_t)) {
          EXPECT_EQ(AsDoubles(column.values()), AsDoubles(row.column(0).values()));
        } else {
          EXPECT_EQ(column.values()->length, row.column(0).values()->length);
        }
      }
    }
  }
  // Every mode both accepts and rejects something in this grid.
  EXPECT_GT(accepted, 100);
  EXPECT_GT(rejected, 100);
}

TEST(CastRowForTable, AttributeTypesFollowTheRulesAndPromoteActsAsSafe) {
  const auto types = AllTypes();
  std::mt19937_64 rng(7);
  for (const TypeInfo& row_t : types) {
    for (const TypeInfo& table_t : types) {
      const bool has_bool = row_t.kind == Kind::kBool || table_t.kind == Kind::kBool;
      const int64_t value = std::uniform_int_distribution<int64_t>(0, has_bool ? 1 : 100)(rng);
      nd::Attributes attrs;
      LND_ASSERT_OK(attrs.SetValue("units", MakeValues(row_t.type, {value})));
      nd::Attributes globals;
      LND_ASSERT_OK(globals.SetValue("id", MakeValues(row_t.type, {value})));
      const auto values = MakeValues(array::Float64(), {1, 2});
      const auto attr_row = OneVariableRow("v", values, attrs);
      const auto global_row = OneVariableRow("v", values, {}, globals);
      const auto schema = TableSchema(array::Float64(), {array::MakeField("units", table_t.type)},
                                      {array::MakeField("id", table_t.type)});
      for (Casting mode : kAllModes) {
        SCOPED_TRACE(row_t.type->ToString() + " -> " + table_t.type->ToString() + " " +
                     ModeText(mode));
        const bool ok = ExpectAccepted(row_t, table_t, mode, /*variable=*/false);
        auto a = CastRowForTable(attr_row, *schema, mode);
        auto g = CastRowForTable(global_row, *schema, mode);
        if (!ok) {
          ExpectRejection(a.status(), "v.attrs.units", row_t, table_t, mode, false);
          ExpectRejection(g.status(), "__global_attrs__.id", row_t, table_t, mode, false);
          continue;
        }
        ASSERT_TRUE(a.ok()) << a.status().ToString();
        ASSERT_TRUE(g.ok()) << g.status().ToString();
        EXPECT_TRUE(a->widenings.empty());
        const auto units = a->row.column(0).attributes().Get("units");
        const auto id = g->row.attributes().Get("id");
        ASSERT_NE(units, nullptr);
        ASSERT_NE(id, nullptr);
        EXPECT_TRUE(units->type->Equals(*table_t.type));
        EXPECT_TRUE(id->type->Equals(*table_t.type));
        if (IsNumber(row_t)) {
          EXPECT_EQ(AsDoubles(units), AsDoubles(attrs.Get("units")));
          EXPECT_EQ(AsDoubles(id), AsDoubles(globals.Get("id")));
        }
      }
    }
  }
}

// RowCastCheck says "unchanged" exactly when every type the table has is the row's, and then
// CastRowForTable returns the row as it is with no widenings in every mode.
void ExpectCheckAgrees(const nd::NdRecordBatch& row, const array::Schema& schema, bool same) {
  const RowCastCheck check(schema);
  EXPECT_EQ(check.Unchanged(row), same);
  if (!same) return;
  for (Casting mode : kAllModes) {
    auto outcome = CastRowForTable(row, schema, mode);
    ASSERT_TRUE(outcome.ok()) << outcome.status().ToString();
    EXPECT_TRUE(outcome->widenings.empty());
    EXPECT_TRUE(outcome->row.Equals(row));
  }
}

TEST(RowCastCheck, AgreesWithCastRowForTableOverEveryPair) {
  const auto types = AllTypes();
  for (const TypeInfo& row_t : types) {
    for (const TypeInfo& table_t : types) {
      SCOPED_TRACE(row_t.type->ToString() + " -> " + table_t.type->ToString());
      const bool same = row_t.type->Equals(*table_t.type);
      const auto values = MakeValues(row_t.type, {1, 0});
      nd::Attributes attrs;
      LND_ASSERT_OK(attrs.SetValue("units", MakeValues(row_t.type, {1})));
      nd::Attributes globals;
      LND_ASSERT_OK(globals.SetValue("id", MakeValues(row_t.type, {0})));
      const auto f64 = MakeValues(array::Float64(), {1, 2});
      const auto schema = TableSchema(table_t.type);
      const auto keyed = TableSchema(array::Float64(), {array::MakeField("units", table_t.type)},
                                     {array::MakeField("id", table_t.type)});
      ExpectCheckAgrees(OneVariableRow("v", values), *schema, same);
      ExpectCheckAgrees(OneVariableRow("v", f64, attrs), *keyed, same);
      ExpectCheckAgrees(OneVariableRow("v", f64, {}, globals), *keyed, same);
      // Names the table lacks are kept as they are: no cast.
      ExpectCheckAgrees(OneVariableRow("w", values, attrs, globals), *schema, true);
      ExpectCheckAgrees(OneVariableRow("v", f64, attrs, globals), *TableSchema(array::Float64()),
                        true);
    }
  }
}

// numpy's promotion table at points it documents, and the least-upper-bound property.
TEST(PromoteTypes, MatchesNumpyAnchors) {
  struct Case {
    DataTypePtr a, b, expected;
  };
  const std::vector<Case> cases = {
      {array::Int8(), array::UInt8(), array::Int16()},
      {array::Int64(), array::UInt64(), array::Float64()},
      {array::UInt16(), array::Int8(), array::Int32()},
      {array::UInt32(), array::Int32(), array::Int64()},
      {array::UInt8(), array::Int16(), array::Int16()},
      {array::Int8(), array::Float16(), array::Float16()},
      {array::Int16(), array::Float16(), array::Float32()},
      {array::Int32(), array::Float32(), array::Float64()},
      {array::Int64(), array::Float32(), array::Float64()},
      {array::Float32(), array::Float64(), array::Float64()},
      {array::Bool(), array::Int8(), array::Int8()},
      {array::Bool(), array::Float16(), array::Float16()},
      {array::Utf8(), array::LargeUtf8(), array::LargeUtf8()},
  };
  for (const auto& c : cases) {
    for (const auto& [x, y] : {std::pair{c.a, c.b}, std::pair{c.b, c.a}}) {
      const DataTypePtr p = PromoteTypes(x, y);
      ASSERT_NE(p, nullptr) << x->ToString() << " + " << y->ToString();
      EXPECT_TRUE(p->Equals(*c.expected))
          << x->ToString() << " + " << y->ToString() << " gave " << p->ToString();
    }
  }
  EXPECT_EQ(PromoteTypes(array::Utf8(), array::Int32()), nullptr);
  EXPECT_EQ(PromoteTypes(array::Float64(), array::LargeUtf8()), nullptr);
}

TEST(PromoteTypes, IsTheNarrowestOfTheLaterKindHoldingBoth) {
  const auto types = AllTypes();
  for (const auto& a : types) {
    for (const auto& b : types) {
      const DataTypePtr p = PromoteTypes(a.type, b.type);
      const DataTypePtr q = PromoteTypes(b.type, a.type);
      SCOPED_TRACE(a.type->ToString() + " + " + b.type->ToString());
      ASSERT_EQ(p == nullptr, q == nullptr);
      if (!p) {
        EXPECT_NE(IsNumber(a), IsNumber(b));
        continue;
      }
      EXPECT_TRUE(p->Equals(*q));
      const TypeInfo* pi = FindInfo(types, p);
      ASSERT_NE(pi, nullptr);
      // numpy's rule: the promoted type is of the later kind of the two (float when no type
      // of that kind holds both), the narrowest of its kind that holds both exactly where one
      // does, and float64 for 64-bit integers that no type holds.
      const Kind later = std::max(a.kind, b.kind);
      bool kind_holds = false;
      const TypeInfo* narrowest = nullptr;
      for (const auto& c : types) {
        if (c.kind == later && ExpectSafe(a, c) && ExpectSafe(b, c)) {
          kind_holds = true;
          if (!narrowest || c.bits < narrowest->bits) narrowest = &c;
        }
      }
      if (kind_holds) {
        EXPECT_TRUE(p->Equals(*narrowest->type)) << p->ToString();
        continue;
      }
      EXPECT_EQ(pi->kind, Kind::kFloat);
      const TypeInfo* narrowest_float = nullptr;
      for (const auto& c : types) {
        if (c.kind == Kind::kFloat && ExpectSafe(a, c) && ExpectSafe(b, c) &&
            (!narrowest_float || c.bits < narrowest_float->bits)) {
          narrowest_float = &c;
        }
      }
      EXPECT_TRUE(p->Equals(narrowest_float ? *narrowest_float->type : *array::Float64()))
          << p->ToString();
    }
  }
}

// The values of an integer type that fit int64.
std::pair<int64_t, int64_t> IntRange(const TypeInfo& t) {
  if (t.kind == Kind::kSigned) {
    if (t.bits == 64)
      return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
    return {-(int64_t{1} << (t.bits - 1)), (int64_t{1} << (t.bits - 1)) - 1};
  }
  if (t.bits == 64) return {0, std::numeric_limits<int64_t>::max()};
  return {0, (int64_t{1} << t.bits) - 1};
}

// kSameKind narrowing with generated values across the row type's range: the cast fails
// exactly when a value does not fit the table's type, naming the variable and the mode.
TEST(CastRowForTable, CheckedIntegerCastsFailExactlyWhenAValueDoesNotFit) {
  const auto types = AllTypes();
  std::mt19937_64 rng(99);
  int failures = 0, successes = 0;
  for (const TypeInfo& row_t : types) {
    for (const TypeInfo& table_t : types) {
      const bool ints = (row_t.kind == Kind::kSigned || row_t.kind == Kind::kUnsigned) &&
                        (table_t.kind == Kind::kSigned || table_t.kind == Kind::kUnsigned);
      if (!ints || ExpectSafe(row_t, table_t) || !ExpectSameKind(row_t, table_t)) continue;
      const auto [lo, hi] = IntRange(row_t);
      const auto [t_lo, t_hi] = IntRange(table_t);
      for (int trial = 0; trial < 40; ++trial) {
        // Mostly values that fit the table, sometimes one from the whole row range.
        std::vector<std::optional<int64_t>> v;
        bool fits = true;
        const int n = std::uniform_int_distribution<int>(1, 8)(rng);
        for (int i = 0; i < n; ++i) {
          const bool wide = std::bernoulli_distribution(0.05)(rng);
          const int64_t a = wide ? lo : std::max(lo, t_lo);
          const int64_t b = wide ? hi : std::min(hi, t_hi);
          const int64_t x = std::uniform_int_distribution<int64_t>(a, b)(rng);
          if (std::bernoulli_distribution(0.1)(rng)) {
            v.emplace_back(std::nullopt);
            continue;
          }
          fits = fits && x >= t_lo && x <= t_hi;
          v.emplace_back(x);
        }
        const auto row = OneVariableRow("v", MakeValues(row_t.type, v));
        auto out = CastRowForTable(row, *TableSchema(table_t.type), Casting::kSameKind);
        SCOPED_TRACE(row_t.type->ToString() + " -> " + table_t.type->ToString());
        if (fits) {
          ASSERT_TRUE(out.ok()) << out.status().ToString();
          EXPECT_EQ(AsDoubles(out->row.column(0).values()), AsDoubles(row.column(0).values()));
          ++successes;
        } else {
          EXPECT_EQ(out.status().code(), StatusCode::kSchemaMismatch);
          EXPECT_EQ(out.status().kind(), ErrorKind::kCastRejected);
          EXPECT_NE(out.status().message().find("variable 'v'"), std::string::npos);
          EXPECT_NE(out.status().message().find("same_kind"), std::string::npos);
          ++failures;
        }
      }
    }
  }
  EXPECT_GT(failures, 20);
  EXPECT_GT(successes, 200);
}

TEST(CastRowForTable, NewVariablesAndKeysExtendTheSchemaAsTheyAre) {
  nd::Attributes attrs;
  attrs.Set("new_key", int64_t{5}).Set("units", "K");
  nd::Attributes globals;
  globals.Set("fresh", 3.5);
  auto a = *nd::NdArrowArray::Make(MakeValues(array::Int16(), {1, 2}),
                                   *nd::Dimensions::Make({"x"}, {2}), attrs);
  auto b = *nd::NdArrowArray::Make(MakeValues(array::Int8(), {7}), {});
  auto row = *nd::NdRecordBatch::FromArrays({{"new_var", b}, {"v", a}}, globals);
  const auto schema = TableSchema(array::Int32(), {array::MakeField("units", array::Utf8())},
                                  {array::MakeField("id", array::Utf8())});
  for (Casting mode : {Casting::kSafe, Casting::kSameKind, Casting::kPromote}) {
    LND_ASSERT_OK_AND_ASSIGN(auto out, CastRowForTable(row, *schema, mode));
    EXPECT_TRUE(out.widenings.empty());
    EXPECT_TRUE(out.row.GetColumn("new_var")->value_type()->Equals(*array::Int8()));
    EXPECT_TRUE(out.row.GetColumn("v")->value_type()->Equals(*array::Int32()));
    EXPECT_TRUE(out.row.GetColumn("v")->attributes().Get("new_key")->type->Equals(*array::Int64()));
    EXPECT_TRUE(out.row.attributes().Get("fresh")->type->Equals(*array::Float64()));
    EXPECT_EQ(out.row.column_name(0), "new_var");
  }
  auto rejected = CastRowForTable(row, *schema, Casting::kNo);
  EXPECT_EQ(rejected.status().kind(), ErrorKind::kCastRejected);
}

TEST(CastRowForTable, ARowOfTheTablesTypesIsReturnedAsItIs) {
  nd::Attributes attrs;
  attrs.Set("units", "K");
  nd::Attributes globals;
  globals.Set("id", "a");
  const auto row =
      OneVariableRow("v", MakeValues(array::Int32(), {1, 2, std::nullopt}), attrs, globals);
  const auto schema = TableSchema(array::Int32(), {array::MakeField("units", array::Utf8())},
                                  {array::MakeField("id", array::Utf8())});
  for (Casting mode : kAllModes) {
    LND_ASSERT_OK_AND_ASSIGN(auto out, CastRowForTable(row, *schema, mode));
    EXPECT_TRUE(out.row.Equals(row));
    EXPECT_EQ(out.row.column(0).values().get(), row.column(0).values().get()) << "not copied";
    EXPECT_TRUE(out.widenings.empty());
  }
}

TEST(CastRowForTable, PromoteListsEveryWideningInTableOrder) {
  std::vector<array::FieldPtr> fields = {nd::EncodedField(array::Field("a", array::Int8())),
                                         nd::EncodedField(array::Field("b", array::Float32())),
                                         nd::EncodedField(array::Field("c", array::Int64()))};
  const auto schema = array::MakeSchema(fields);
  auto b = *nd::NdArrowArray::Make(MakeValues(array::Float64(), {1}), {});
  auto a = *nd::NdArrowArray::Make(MakeValues(array::UInt8(), {200}), {});
  auto c = *nd::NdArrowArray::Make(MakeValues(array::Int32(), {4}), {});
  auto row = *nd::NdRecordBatch::FromArrays({{"b", b}, {"c", c}, {"a", a}});
  LND_ASSERT_OK_AND_ASSIGN(auto out, CastRowForTable(row, *schema, Casting::kPromote));
  ASSERT_EQ(out.widenings.size(), 2u);
  EXPECT_EQ(out.widenings[0].variable, "a");
  EXPECT_TRUE(out.widenings[0].to->Equals(*array::Int16()));
  EXPECT_EQ(out.widenings[1].variable, "b");
  EXPECT_TRUE(out.widenings[1].to->Equals(*array::Float64()));
  EXPECT_TRUE(out.row.GetColumn("c")->value_type()->Equals(*array::Int64()));
  EXPECT_EQ(AsDoubles(out.row.GetColumn("a")->values()), (std::vector<std::optional<double>>{200}));
}

TEST(WidenedEncodedSchema, RetypesTheVariableAndItsStatsOnly) {
  std::vector<array::FieldPtr> fields = {
      nd::EncodedField(array::Field("v", array::Float32()),
                       {array::MakeField("units", array::Utf8())}),
      nd::EncodedField(array::Field("w", array::Int32())), nd::StatsField("v", array::Float32()),
      nd::StatsField("w", array::Int32())};
  const auto schema = array::MakeSchema(fields, {{"lance_nd:format", "1"}});
  LND_ASSERT_OK_AND_ASSIGN(
      auto widened, WidenedEncodedSchema(*schema, {{"v", array::Float32(), array::Float64()}}));
  std::vector<array::FieldPtr> want = {nd::EncodedField(array::Field("v", array::Float64()),
                                                        {array::MakeField("units", array::Utf8())}),
                                       fields[1], nd::StatsField("v", array::Float64()), fields[3]};
  EXPECT_TRUE(widened->Equals(*array::MakeSchema(want, schema->metadata()))) << widened->ToString();
  auto missing = WidenedEncodedSchema(*schema, {{"zz", array::Int8(), array::Int16()}});
  EXPECT_EQ(missing.status().code(), StatusCode::kInvalidArgument);
}

TEST(Casting, NamesRoundTripAndUnknownNamesAreListed) {
  for (Casting m : kAllModes) {
    LND_ASSERT_OK_AND_ASSIGN(auto parsed, ParseCasting(CastingName(m)));
    EXPECT_EQ(parsed, m);
  }
  LND_EXPECT_ERROR(ParseCasting("unsafe"), StatusCode::kInvalidArgument, "'same_kind'");
}

}  // namespace
}  // namespace lance_nd::api::internal
