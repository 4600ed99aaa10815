// Widening a variable: one commit, only its column and stats rewritten, every row reads back
// with the new type; the kSafe rule, no-ops and errors.
#include "lance_nd/api/widen.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "lance_nd/api/cast_test_util.h"
#include "lance_nd/table/maintenance.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::api::internal {
namespace {

using array::DataTypePtr;
using testing::Doubles;

// Values of `type` drawn from [lo, hi] with some nulls.
array::ArrayPtr RandomNumbers(std::mt19937_64& rng, const DataTypePtr& type, int64_t n, int64_t lo,
                              int64_t hi) {
  std::vector<std::optional<int64_t>> v;
  for (int64_t i = 0; i < n; ++i) {
    if (std::bernoulli_distribution(0.1)(rng)) {
      v.emplace_back(std::nullopt);
    } else {
      v.emplace_back(std::uniform_int_distribution<int64_t>(lo, hi)(rng));
    }
  }
  // Built as int64 and narrowed with checks: every value fits by construction.
  std::vector<std::optional<int64_t>> copy = v;
  auto i64 = array::MakePrimitiveArray<int64_t>(array::Int64(), copy);
  if (type->is_floating()) {
    return *array::Cast(i64, type, array::CastMode::kSameKind);
  }
  if (type->is_unsigned_integer()) {
    auto u64 = array::MakePrimitiveArray<uint64_t>(array::UInt64(), [&] {
      std::vector<std::optional<uint64_t>> u;
      for (const auto& x : v)
        u.push_back(x ? std::optional(static_cast<uint64_t>(*x)) : std::nullopt);
      return u;
    }());
    return *array::Cast(u64, type, array::CastMode::kSameKind);
  }
  return *array::Cast(i64, type, array::CastMode::kSameKind);
}

struct WidenCase {
  DataTypePtr from, to;
  int64_t lo, hi;  // value range (fits `from`)
};

std::vector<WidenCase> SafeCases() {
  return {{array::Float32(), array::Float64(), -1000, 1000},
          {array::Int16(), array::Int32(), -30000, 30000},
          {array::UInt16(), array::Int32(), 0, 65535},
          {array::Int32(), array::Int64(), -2000000000, 2000000000},
          {array::Int32(), array::Float64(), -2000000000, 2000000000},
          {array::Int8(), array::Float16(), -128, 127},
          {array::UInt8(), array::UInt64(), 0, 255}};
}

// Rows with `v` (the widened type, absent now and then, with attributes), `w` (float32, kept)
// and global attributes.
std::vector<nd::NdRecordBatch> RandomRows(std::mt19937_64& rng, const WidenCase& c, int n) {
  std::vector<nd::NdRecordBatch> rows;
  for (int r = 0; r < n; ++r) {
    std::vector<std::pair<std::string, nd::NdArrowArray>> arrays;
    const auto size = static_cast<uint64_t>(std::uniform_int_distribution<int>(0, 5)(rng));
    if (std::bernoulli_distribution(0.8)(rng)) {
      nd::Attributes attrs;
      attrs.Set("units", "K").Set("scale", static_cast<double>(r));
      arrays.emplace_back("v",
                          *nd::NdArrowArray::Make(
                              RandomNumbers(rng, c.from, static_cast<int64_t>(size), c.lo, c.hi),
                              *nd::Dimensions::Make({"x"}, {size}), attrs));
    }
    arrays.emplace_back("w", *nd::NdArrowArray::Make(RandomNumbers(rng, array::Float32(), 3, -5, 5),
                                                     *nd::Dimensions::Make({"y"}, {3})));
    nd::Attributes globals;
    globals.Set("id", static_cast<int64_t>(r));
    rows.push_back(*nd::NdRecordBatch::FromArrays(std::move(arrays), globals));
  }
  return rows;
}

std::set<std::int32_t> FieldIdsOf(const table::Manifest& m, const std::string& root) {
  std::set<std::int32_t> ids;
  for (const auto& f : m.fields) {
    if ((f.parent_id < 0 && f.name == root) || ids.count(f.parent_id) > 0) ids.insert(f.id);
  }
  return ids;
}

TEST(WidenVariable, RewritesOnlyTheVariableAndItsStatsInOneCommit) {
  std::mt19937_64 rng(4242);
  for (const WidenCase& c : SafeCases()) {
    for (int trial = 0; trial < 3; ++trial) {
      SCOPED_TRACE(c.from->ToString() + " -> " + c.to->ToString() + " trial " +
                   std::to_string(trial));
      const auto rows = RandomRows(rng, c, std::uniform_int_distribution<int>(1, 40)(rng));
      const auto location = testing::MemoryTable();
      LND_ASSERT_OK_AND_ASSIGN(
          auto ds, testing::WriteNdTable(location, rows, {{"v", c.from}, {"w", array::Float32()}},
                                         std::uniform_int_distribution<int64_t>(1, 9)(rng)));
      // Delete the first row now and then: deleted rows stay deleted.
      std::vector<nd::NdRecordBatch> live = rows;
      if (trial == 1) {
        const std::uint64_t address = ds.fragments().front().id << 32;
        LND_ASSERT_OK_AND_ASSIGN(auto deleted, table::DeleteRows(ds, std::span(&address, 1)));
        ds = deleted.dataset;
        live.erase(live.begin());
      }
      const auto w_ids = FieldIdsOf(ds.manifest(), "w");
      const auto old_v_ids = FieldIdsOf(ds.manifest(), "v");
      LND_ASSERT_OK_AND_ASSIGN(auto widened, WidenVariable(ds, "v", c.to));
      EXPECT_EQ(widened.version(), ds.version() + 1);
      // Schema: v and its stats retyped in place, w untouched (same ids).
      LND_ASSERT_OK_AND_ASSIGN(auto layout, nd::ParseNdField(*widened.schema()->GetField("v")));
      EXPECT_TRUE(layout.value_field->type()->Equals(*c.to));
      EXPECT_EQ(widened.schema()->FieldIndex("v"), ds.schema()->FieldIndex("v"));
      EXPECT_TRUE(widened.schema()
                      ->GetField("__stats__:v")
                      ->Equals(*nd::StatsField("v", c.to), /*check_metadata=*/false));
      EXPECT_TRUE(widened.schema()->GetField("w")->Equals(*ds.schema()->GetField("w")));
      EXPECT_EQ(FieldIdsOf(widened.manifest(), "w"), w_ids);
      for (std::int32_t id : FieldIdsOf(widened.manifest(), "v")) {
        EXPECT_EQ(old_v_ids.count(id), 0u) << "id " << id << " reused";
      }
      // Each fragment gained one data file; the old file still holds w.
      ASSERT_EQ(widened.fragments().size(), ds.fragments().size());
      for (std::size_t i = 0; i < ds.fragments().size(); ++i) {
        EXPECT_EQ(widened.fragments()[i].files.size(), ds.fragments()[i].files.size() + 1);
        EXPECT_EQ(widened.fragments()[i].deletion_file, ds.fragments()[i].deletion_file);
      }
      // Every row reads back, v in the new type with the old values, the rest unchanged.
      LND_ASSERT_OK_AND_ASSIGN(auto reopened, table::Dataset::Open(location));
      LND_ASSERT_OK_AND_ASSIGN(auto back, testing::ReadRows(reopened));
      ASSERT_EQ(back.size(), live.size());
      for (std::size_t r = 0; r < live.size(); ++r) {
        const nd::NdArrowArray* before = live[r].GetColumn("v");
        const nd::NdArrowArray* after = back[r].GetColumn("v");
        ASSERT_EQ(before == nullptr, after == nullptr) << "row " << r;
        EXPECT_TRUE(back[r].GetColumn("w")->Equals(*live[r].GetColumn("w")));
        EXPECT_EQ(back[r].attributes(), live[r].attributes());
        if (before == nullptr) continue;
        EXPECT_TRUE(after->value_type()->Equals(*c.to));
        EXPECT_EQ(Doubles(after->values()), Doubles(before->values())) << "row " << r;
        EXPECT_EQ(after->dimensions(), before->dimensions());
        EXPECT_EQ(after->attributes(), before->attributes());
      }
      // The stats read back in the new type with the old values.
      table::TableScanOptions o;
      o.projection = {"__stats__:v"};
      LND_ASSERT_OK_AND_ASSIGN(auto stats, table::ReadTable(reopened, o));
      const auto expected = testing::StatsColumnFor(live, "v", c.from);
      const auto& got = stats->column(0);
      ASSERT_EQ(got->length, expected->length);
      for (int k = 0; k < 2; ++k) {
        EXPECT_TRUE(got->children[static_cast<std::size_t>(k)]->type->Equals(*c.to));
        EXPECT_EQ(Doubles(got->children[static_cast<std::size_t>(k)]),
                  Doubles(expected->children[static_cast<std::size_t>(k)]));
      }
      for (int64_t r = 0; r < got->length; ++r) EXPECT_EQ(got->IsNull(r), expected->IsNull(r));
    }
  }
}

TEST(WidenVariable, TwiceInARowKeepsEveryRow) {
  std::mt19937_64 rng(5);
  const WidenCase c{array::Int8(), array::Int16(), -100, 100};
  const auto rows = RandomRows(rng, c, 25);
  const auto location = testing::MemoryTable();
  LND_ASSERT_OK_AND_ASSIGN(auto ds, testing::WriteNdTable(location, rows, {{"v", c.from}}, 7));
  LND_ASSERT_OK_AND_ASSIGN(auto once, WidenVariable(ds, "v", array::Int16()));
  LND_ASSERT_OK_AND_ASSIGN(auto twice, WidenVariable(once, "v", array::Float64()));
  EXPECT_EQ(twice.version(), ds.version() + 2);
  // Files left with no field of the schema (the first widen's) are dropped.
  for (std::size_t i = 0; i < ds.fragments().size(); ++i) {
    EXPECT_EQ(twice.fragments()[i].files.size(), ds.fragments()[i].files.size() + 1);
  }
  LND_ASSERT_OK_AND_ASSIGN(auto back, testing::ReadRows(twice));
  ASSERT_EQ(back.size(), rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto* before = rows[r].GetColumn("v");
    const auto* after = back[r].GetColumn("v");
    ASSERT_EQ(before == nullptr, after == nullptr);
    if (before) {
      EXPECT_EQ(Doubles(after->values()), Doubles(before->values()));
    }
  }
}

// Widenings other than numbers: strings to large strings, dates to 64-bit dates, lists of
// integers to lists of wider integers.
TEST(WidenVariable, StringsDatesAndLists) {
  std::mt19937_64 rng(10);
  struct Case {
    array::ArrayPtr values;
    DataTypePtr to;
  };
  auto item = std::make_shared<array::Field>("item", array::Int16());
  const auto list_values =
      array::MakePrimitiveArray<int16_t>(array::Int16(), {1, 2, std::nullopt, 4});
  auto list = array::MakeArrayData(
      array::List(item), 2,
      {nullptr, array::Buffer::Copy(std::vector<int32_t>{0, 1, 4}.data(), 12)}, {list_values});
  const std::vector<Case> cases = {
      {array::MakeStringArray({"a", std::nullopt, "long text", ""}), array::LargeUtf8()},
      {array::MakePrimitiveArray<int32_t>(array::Date32(), {0, 19000, std::nullopt, -5}),
       array::Date64()},
      {list, array::List(array::Int32())}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.values->type->ToString() + " -> " + c.to->ToString());
    const auto n = static_cast<uint64_t>(c.values->length);
    const std::vector<nd::NdRecordBatch> rows = {
        *nd::NdRecordBatch::FromArrays(
            {{"v", *nd::NdArrowArray::Make(c.values, *nd::Dimensions::Make({"x"}, {n}))}}),
        *nd::NdRecordBatch::FromArrays(
            {{"w", *nd::NdArrowArray::Make(RandomNumbers(rng, array::Int32(), 2, 0, 9),
                                           *nd::Dimensions::Make({"y"}, {2}))}})};
    const auto location = testing::MemoryTable();
    LND_ASSERT_OK_AND_ASSIGN(auto ds, testing::WriteNdTable(location, rows, {}, 1));
    LND_ASSERT_OK_AND_ASSIGN(auto widened, WidenVariable(ds, "v", c.to));
    EXPECT_EQ(widened.version(), ds.version() + 1);
    LND_ASSERT_OK_AND_ASSIGN(auto back, testing::ReadRows(widened));
    ASSERT_EQ(back.size(), 2u);
    LND_ASSERT_OK_AND_ASSIGN(auto want, array::Cast(c.values, c.to));
    EXPECT_TRUE(array::ArrayEquals(*back[0].GetColumn("v")->values(), *want));
    EXPECT_TRUE(back[1].Equals(rows[1]));
  }
}

TEST(WidenVariable, TheSameTypeIsANoOp) {
  std::mt19937_64 rng(6);
  const WidenCase c{array::Float32(), array::Float32(), -1, 1};
  const auto rows = RandomRows(rng, c, 5);
  const auto location = testing::MemoryTable();
  LND_ASSERT_OK_AND_ASSIGN(auto ds, testing::WriteNdTable(location, rows));
  LND_ASSERT_OK_AND_ASSIGN(auto same, WidenVariable(ds, "v", array::Float32()));
  EXPECT_EQ(same.version(), ds.version());
  LND_ASSERT_OK_AND_ASSIGN(auto latest, table::Dataset::Open(location));
  EXPECT_EQ(latest.version(), ds.version());
}

TEST(WidenVariable, RejectsTypesThatDoNotHoldEveryValue) {
  struct Bad {
    DataTypePtr from, to;
  };
  const std::vector<Bad> bad = {
      {array::Int64(), array::Float64()},  {array::Float64(), array::Float32()},
      {array::Int32(), array::UInt32()},   {array::Int32(), array::Int16()},
      {array::UInt32(), array::Float32()}, {array::Float32(), array::Utf8()}};
  std::mt19937_64 rng(8);
  for (const Bad& b : bad) {
    const auto rows = RandomRows(rng, {b.from, b.to, 0, 100}, 3);
    const auto location = testing::MemoryTable();
    LND_ASSERT_OK_AND_ASSIGN(auto ds, testing::WriteNdTable(location, rows));
    auto r = WidenVariable(ds, "v", b.to);
    EXPECT_EQ(r.status().code(), StatusCode::kSchemaMismatch) << r.status().ToString();
    EXPECT_EQ(r.status().kind(), ErrorKind::kCastRejected);
    const std::string m(r.status().message());
    EXPECT_NE(m.find("'v'"), std::string::npos) << m;
    EXPECT_NE(m.find(b.from->ToString()), std::string::npos) << m;
    EXPECT_NE(m.find(b.to->ToString()), std::string::npos) << m;
    LND_ASSERT_OK_AND_ASSIGN(auto latest, table::Dataset::Open(location));
    EXPECT_EQ(latest.version(), ds.version());
  }
}

TEST(WidenVariable, UnknownVariablesAreListed) {
  std::mt19937_64 rng(9);
  const auto rows = RandomRows(rng, {array::Int16(), array::Int32(), 0, 9}, 4);
  const auto location = testing::MemoryTable();
  LND_ASSERT_OK_AND_ASSIGN(auto ds, testing::WriteNdTable(location, rows, {{"v", array::Int16()}}));
  for (const char* name : {"nope", "__stats__:v", "__global_attrs__"}) {
    auto r = WidenVariable(ds, name, array::Int32());
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << name;
    EXPECT_NE(r.status().message().find("'v', 'w'"), std::string::npos) << r.status().message();
  }
}

}  // namespace
}  // namespace lance_nd::api::internal
