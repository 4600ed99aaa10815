// Stats columns: names, types, marker, per-row min / max against an independent computation,
// nulls and NaN, absent variables, appends.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <variant>

#include "lance_nd/api/api_test_util.h"
#include "lance_nd/api/nd_writer.h"
#include "lance_nd/api/table.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/array/view.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using api_testing::MemoryTable;
using api_testing::RandomRows;
using api_testing::RandomUniverse;
using array::TypeId;
using nd::testing::Rng;
using nd::testing::Uniform;

using Key = std::variant<double, std::string>;

// Value `i` of a (non-null) slot as a double or a string; nullopt for NaN.
std::optional<Key> KeyAt(const array::ArrayData& a, int64_t i) {
  switch (a.type->id()) {
    case TypeId::kInt16:
      return static_cast<double>(array::PrimitiveView<int16_t>(a).Value(i));
    case TypeId::kInt32:
      return static_cast<double>(array::PrimitiveView<int32_t>(a).Value(i));
    case TypeId::kInt64:
    case TypeId::kTimestamp:
      return static_cast<double>(array::PrimitiveView<int64_t>(a).Value(i));
    case TypeId::kUInt16:
      return static_cast<double>(array::PrimitiveView<uint16_t>(a).Value(i));
    case TypeId::kFloat32: {
      const float f = array::PrimitiveView<float>(a).Value(i);
      if (std::isnan(f)) return std::nullopt;
      return static_cast<double>(f);
    }
    case TypeId::kFloat64: {
      const double d = array::PrimitiveView<double>(a).Value(i);
      if (std::isnan(d)) return std::nullopt;
      return d;
    }
    case TypeId::kUtf8:
      return std::string(array::BinaryView(a).Value(i));
    default:
      ADD_FAILURE() << "no key for " << a.type->ToString();
      return std::nullopt;
  }
}

struct Expected {
  bool present = false;
  std::optional<Key> min, max;
};

Expected Compute(const nd::NdRecordBatch& row, const std::string& var) {
  Expected e;
  const nd::NdArrowArray* c = row.GetColumn(var);
  if (c == nullptr) return e;
  e.present = true;
  std::vector<Key> keys;
  const array::ArrayData& v = *c->values();
  for (int64_t i = 0; i < v.length; ++i) {
    if (v.IsNull(i)) continue;
    if (auto k = KeyAt(v, i)) keys.push_back(*k);
  }
  if (!keys.empty()) {
    e.min = *std::min_element(keys.begin(), keys.end());
    e.max = *std::max_element(keys.begin(), keys.end());
  }
  return e;
}

// Check every stats column of the table against the rows written.
void CheckStats(const table::Dataset& ds, const std::vector<nd::NdRecordBatch>& rows) {
  LND_ASSERT_OK_AND_ASSIGN(auto batch, table::ReadTable(ds));
  ASSERT_EQ(batch->num_rows(), static_cast<int64_t>(rows.size()));
  for (const auto& field : ds.schema()->fields()) {
    auto var = nd::StatsVariable(field->name());
    if (!var) continue;
    const auto& s = *batch->GetColumnByName(field->name());
    for (std::size_t r = 0; r < rows.size(); ++r) {
      SCOPED_TRACE(field->name() + " row " + std::to_string(r));
      const Expected e = Compute(rows[r], std::string(*var));
      const auto i = static_cast<int64_t>(r);
      ASSERT_EQ(!s.IsNull(i), e.present);
      if (!e.present) continue;
      const auto& min = *s.children[0];
      const auto& max = *s.children[1];
      const int64_t slot = s.offset + i;
      ASSERT_EQ(min.IsNull(slot), !e.min.has_value());
      ASSERT_EQ(max.IsNull(slot), !e.max.has_value());
      if (!e.min) continue;
      EXPECT_EQ(KeyAt(min, slot), e.min);
      EXPECT_EQ(KeyAt(max, slot), e.max);
    }
  }
}

TEST(Stats, ColumnsNamesTypesAndMarker) {
  Rng rng(1);
  auto u = RandomUniverse(rng, 10);
  auto rows = RandomRows(rng, u, 12, 0.9);
  WriteOptions o;
  o.stats = true;
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(MemoryTable(), rows, o));
  EXPECT_EQ(t.schema()->metadata().Get(nd::kStatsMetadataKey),
            std::optional<std::string_view>("1"));
  for (const auto& var : t.Variables()) {
    const auto stats = t.schema()->GetField("__stats__:" + var->name());
    if (var->type()->id() == TypeId::kBool) {
      EXPECT_EQ(stats, nullptr) << var->name();
      continue;
    }
    ASSERT_NE(stats, nullptr) << var->name();
    EXPECT_TRUE(stats->nullable());
    ASSERT_EQ(stats->type()->id(), TypeId::kStruct);
    ASSERT_EQ(stats->type()->children().size(), 2u);
    EXPECT_EQ(stats->type()->children()[0]->name(), "min");
    EXPECT_EQ(stats->type()->children()[1]->name(), "max");
    for (const auto& c : stats->type()->children()) {
      EXPECT_TRUE(c->nullable());
      EXPECT_TRUE(c->type()->Equals(*var->type(), false)) << c->type()->ToString();
    }
  }
  LND_ASSERT_OK_AND_ASSIGN(Table plain, Table::Write(MemoryTable(), rows));
  EXPECT_FALSE(plain.schema()->metadata().Contains(nd::kStatsMetadataKey));
  EXPECT_FALSE(nd::HasStats(*plain.schema()));
}

TEST(Stats, ValuesMatchAnIndependentComputation) {
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    SCOPED_TRACE(seed);
    Rng rng(seed);
    auto u = RandomUniverse(rng);
    auto rows = RandomRows(rng, u, static_cast<int>(Uniform(rng, 1, 20)));
    WriteOptions o;
    o.stats = true;
    LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(MemoryTable(), rows, o));
    CheckStats(t.dataset(), rows);
  }
}

// Float rows mixing nulls, NaN and numbers, including rows with no counted value.
TEST(Stats, NullsAndNanAreNotCounted) {
  Rng rng(9);
  std::vector<nd::NdRecordBatch> rows;
  for (int r = 0; r < 60; ++r) {
    std::vector<std::optional<double>> v;
    const int n = static_cast<int>(Uniform(rng, 0, 5));
    for (int i = 0; i < n; ++i) {
      switch (Uniform(rng, 0, 2)) {
        case 0:
          v.emplace_back(std::nullopt);
          break;
        case 1:
          v.emplace_back(std::numeric_limits<double>::quiet_NaN());
          break;
        default:
          v.emplace_back(static_cast<double>(Uniform(rng, -50, 50)) / 4);
      }
    }
    if (nd::testing::Chance(rng, 0.2)) {  // a row without the variable
      rows.push_back(nd::testing::Unwrap(
          nd::NdRecordBatch::FromArrays({{"other", nd::testing::Nd(nd::testing::I32({r}), {})}})));
      continue;
    }
    rows.push_back(nd::testing::Unwrap(nd::NdRecordBatch::FromArrays(
        {{"f", nd::testing::Nd(nd::testing::F64(v), {{"x", static_cast<std::uint64_t>(n)}})}})));
  }
  WriteOptions o;
  o.stats = true;
  o.max_rows_per_group = 7;
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(MemoryTable(), rows, o));
  CheckStats(t.dataset(), rows);
}

// Rows without nulls take the dense scan: NaN is skipped, a row of only NaN has no extremes,
// and among equal extremes (0.0 and -0.0) the first is kept, bit for bit.
TEST(Stats, DenseFloatRowsKeepTheFirstOfEqualExtremes) {
  const double specials[] = {
      std::numeric_limits<double>::quiet_NaN(), 0.0, -0.0, std::numeric_limits<double>::infinity(),
      -std::numeric_limits<double>::infinity(), 1.5, -2.0};
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    SCOPED_TRACE(seed);
    Rng rng(seed);
    std::vector<nd::NdRecordBatch> rows;
    std::vector<std::vector<double>> values;
    for (int r = 0; r < 80; ++r) {
      const int n = static_cast<int>(Uniform(rng, 1, 40));
      std::vector<std::optional<double>> v;
      values.emplace_back();
      for (int i = 0; i < n; ++i) {
        const double x = specials[Uniform(rng, 0, 6)];
        v.emplace_back(x);
        values.back().push_back(x);
      }
      rows.push_back(nd::testing::Unwrap(nd::NdRecordBatch::FromArrays(
          {{"f", nd::testing::Nd(nd::testing::F64(v), {{"x", static_cast<std::uint64_t>(n)}})}})));
    }
    WriteOptions o;
    o.stats = true;
    LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(MemoryTable(), rows, o));
    LND_ASSERT_OK_AND_ASSIGN(auto batch, table::ReadTable(t.dataset()));
    const auto& s = *batch->GetColumnByName("__stats__:f");
    for (std::size_t r = 0; r < rows.size(); ++r) {
      std::optional<double> min, max;
      for (double x : values[r]) {
        if (std::isnan(x)) continue;
        if (!min || x < *min) min = x;
        if (!max || *max < x) max = x;
      }
      const int64_t slot = s.offset + static_cast<int64_t>(r);
      ASSERT_EQ(s.children[0]->IsNull(slot), !min.has_value()) << "row " << r;
      if (!min) continue;
      const double got_min = array::PrimitiveView<double>(*s.children[0]).Value(slot);
      const double got_max = array::PrimitiveView<double>(*s.children[1]).Value(slot);
      EXPECT_EQ(std::bit_cast<std::uint64_t>(got_min), std::bit_cast<std::uint64_t>(*min))
          << "row " << r;
      EXPECT_EQ(std::bit_cast<std::uint64_t>(got_max), std::bit_cast<std::uint64_t>(*max))
          << "row " << r;
    }
  }
}

TEST(Stats, AppendsKeepStatsAndTablesWithoutStayWithout) {
  for (std::uint64_t seed = 50; seed < 60; ++seed) {
    SCOPED_TRACE(seed);
    Rng rng(seed);
    auto u = RandomUniverse(rng);
    auto first_u = u;
    first_u.vars.resize(3);
    for (bool stats : {true, false}) {
      auto loc = MemoryTable();
      WriteOptions create;
      create.stats = stats;
      auto all = RandomRows(rng, first_u, 4);
      LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(loc, all, create));
      WriteOptions append;
      append.stats = !stats;  // ignored by appends
      for (int i = 0; i < 3; ++i) {
        auto more = RandomRows(rng, u, 4);  // new variables get stats columns too
        LND_ASSERT_OK(t.Append(more, append));
        all.insert(all.end(), more.begin(), more.end());
      }
      EXPECT_EQ(t.has_stats(), stats);
      EXPECT_EQ(
          nd::HasStats(*t.schema()), stats && [&] {
            for (const auto& v : t.Variables()) {
              if (v->type()->id() != TypeId::kBool) return true;
            }
            return false;
          }());
      if (stats) {
        for (const auto& v : t.Variables()) {
          if (v->type()->id() == TypeId::kBool) continue;
          EXPECT_NE(t.schema()->GetField("__stats__:" + v->name()), nullptr) << v->name();
        }
      }
      CheckStats(t.dataset(), all);
    }
  }
}

TEST(Stats, Float16) {
  array::PrimitiveBuilder<uint16_t> b(array::Float16());
  for (int bits : {0x3E00, 0x7E00, 0xC000, 0x0001})
    b.Append(static_cast<uint16_t>(bits));  // 1.5 NaN -2 tiny
  b.AppendNull();
  auto values = nd::testing::Unwrap(b.Finish());
  auto row = nd::testing::Unwrap(
      nd::NdRecordBatch::FromArrays({{"h", nd::testing::Nd(values, {{"x", 5}})}}));
  WriteOptions o;
  o.stats = true;
  auto t = Table::Write(MemoryTable(), std::vector{row}, o);
  LND_ASSERT_OK(t.status());
  LND_ASSERT_OK_AND_ASSIGN(auto batch, table::ReadTable(t->dataset()));
  const auto& s = *batch->GetColumnByName("__stats__:h");
  EXPECT_EQ(array::PrimitiveView<uint16_t>(*s.children[0]).Value(s.offset), 0xC000);
  EXPECT_EQ(array::PrimitiveView<uint16_t>(*s.children[1]).Value(s.offset), 0x3E00);
}

// Types the random rows do not draw: exact 64-bit integers (beyond a double's precision), large
// strings, dates, durations. The expected values come straight from the generated vectors.
template <typename T>
void CheckExactStats(const array::DataTypePtr& type, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<nd::NdRecordBatch> rows;
  std::vector<std::optional<std::pair<T, T>>> want;
  for (int r = 0; r < 30; ++r) {
    std::vector<std::optional<T>> v;
    std::vector<T> counted;
    const int n = static_cast<int>(Uniform(rng, 0, 6));
    for (int i = 0; i < n; ++i) {
      if (nd::testing::Chance(rng, 0.2)) {
        v.emplace_back(std::nullopt);
        continue;
      }
      // Values near the top of the range: neighbours differ by less than a double's step.
      const auto off = static_cast<T>(Uniform(rng, 0, 50));
      const T x = static_cast<T>(std::numeric_limits<T>::max() - off);
      v.emplace_back(x);
      counted.push_back(x);
    }
    want.emplace_back(counted.empty() ? std::nullopt
                                      : std::optional<std::pair<T, T>>(
                                            {*std::min_element(counted.begin(), counted.end()),
                                             *std::max_element(counted.begin(), counted.end())}));
    rows.push_back(nd::testing::Unwrap(nd::NdRecordBatch::FromArrays(
        {{"v", nd::testing::Nd(array::MakePrimitiveArray<T>(type, v),
                               {{"x", static_cast<std::uint64_t>(n)}})}})));
  }
  WriteOptions o;
  o.stats = true;
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(MemoryTable(), rows, o));
  LND_ASSERT_OK_AND_ASSIGN(auto batch, table::ReadTable(t.dataset()));
  const auto& s = *batch->GetColumnByName("__stats__:v");
  ASSERT_TRUE(s.children[0]->type->Equals(*type, false));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const int64_t slot = s.offset + static_cast<int64_t>(r);
    ASSERT_FALSE(s.IsNull(static_cast<int64_t>(r)));
    ASSERT_EQ(s.children[0]->IsNull(slot), !want[r].has_value()) << r;
    if (!want[r]) continue;
    EXPECT_EQ(array::PrimitiveView<T>(*s.children[0]).Value(slot), want[r]->first) << r;
    EXPECT_EQ(array::PrimitiveView<T>(*s.children[1]).Value(slot), want[r]->second) << r;
  }
}

TEST(Stats, ExactIntegersDatesAndDurations) {
  CheckExactStats<uint64_t>(array::UInt64(), 1);
  CheckExactStats<int64_t>(array::Int64(), 2);
  CheckExactStats<int64_t>(array::Duration(array::TimeUnit::kMicro), 3);
  CheckExactStats<int64_t>(array::Date64(), 4);
  CheckExactStats<int32_t>(array::Date32(), 5);
  CheckExactStats<int8_t>(array::Int8(), 6);
  CheckExactStats<uint32_t>(array::UInt32(), 7);
}

TEST(Stats, LargeStringsByBytes) {
  Rng rng(8);
  std::vector<nd::NdRecordBatch> rows;
  std::vector<std::optional<std::pair<std::string, std::string>>> want;
  for (int r = 0; r < 30; ++r) {
    std::vector<std::optional<std::string>> v;
    std::vector<std::string> counted;
    const int n = static_cast<int>(Uniform(rng, 0, 5));
    for (int i = 0; i < n; ++i) {
      if (nd::testing::Chance(rng, 0.2)) {
        v.emplace_back(std::nullopt);
        continue;
      }
      std::string x = nd::testing::RandomString(rng);
      if (nd::testing::Chance(rng, 0.3)) x += "\xc3\xa9";  // a two-byte code point sorts high
      v.emplace_back(x);
      counted.push_back(x);
    }
    want.emplace_back(counted.empty() ? std::nullopt
                                      : std::optional<std::pair<std::string, std::string>>(
                                            {*std::min_element(counted.begin(), counted.end()),
                                             *std::max_element(counted.begin(), counted.end())}));
    rows.push_back(nd::testing::Unwrap(nd::NdRecordBatch::FromArrays(
        {{"s", nd::testing::Nd(array::MakeStringArray(v, array::LargeUtf8()),
                               {{"x", static_cast<std::uint64_t>(n)}})}})));
  }
  WriteOptions o;
  o.stats = true;
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(MemoryTable(), rows, o));
  LND_ASSERT_OK_AND_ASSIGN(auto batch, table::ReadTable(t.dataset()));
  const auto& s = *batch->GetColumnByName("__stats__:s");
  ASSERT_TRUE(s.children[0]->type->Equals(*array::LargeUtf8(), false));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const int64_t slot = s.offset + static_cast<int64_t>(r);
    ASSERT_EQ(s.children[0]->IsNull(slot), !want[r].has_value()) << r;
    if (!want[r]) continue;
    EXPECT_EQ(array::BinaryView(*s.children[0]).Value(slot), want[r]->first) << r;
    EXPECT_EQ(array::BinaryView(*s.children[1]).Value(slot), want[r]->second) << r;
  }
}

// Batches of many rows get their stats in parallel ranges of rows: every row must still get its
// own extremes, nulls, NaN and absent rows included, on the row path (one large group) and on
// the encoded path (the whole batch at once).
TEST(Stats, ManyRowsInParallelRangesMatchAnIndependentComputation) {
  for (std::uint64_t seed = 0; seed < 2; ++seed) {
    SCOPED_TRACE(seed);
    Rng rng(100 + seed);
    std::vector<nd::NdRecordBatch> rows;
    const int n = static_cast<int>(Uniform(rng, 17000, 26000));
    for (int r = 0; r < n; ++r) {
      std::vector<std::optional<double>> f;
      std::vector<std::optional<int32_t>> i;
      const int k = static_cast<int>(Uniform(rng, 0, 4));
      for (int j = 0; j < k; ++j) {
        const auto kind = Uniform(rng, 0, 9);
        f.emplace_back(kind == 0   ? std::nullopt
                       : kind == 1 ? std::optional<double>(std::nan(""))
                                   : static_cast<double>(Uniform(rng, -1000, 1000)) / 8);
        i.emplace_back(kind == 2
                           ? std::nullopt
                           : std::optional<int32_t>(static_cast<int32_t>(Uniform(rng, 0, 99))));
      }
      const std::vector<std::pair<std::string, std::uint64_t>> dims{
          {"x", static_cast<std::uint64_t>(k)}};
      std::vector<std::pair<std::string, nd::NdArrowArray>> arrays;
      if (!nd::testing::Chance(rng, 0.1)) {
        arrays.emplace_back("f", nd::testing::Nd(nd::testing::F64(f), dims));
      }
      if (!nd::testing::Chance(rng, 0.1)) {
        arrays.emplace_back("i", nd::testing::Nd(nd::testing::I32(i), dims));
      }
      if (arrays.empty()) arrays.emplace_back("other", nd::testing::Nd(nd::testing::I32({r}), {}));
      rows.push_back(nd::testing::Unwrap(nd::NdRecordBatch::FromArrays(std::move(arrays))));
    }
    WriteOptions o;
    o.stats = true;
    o.max_rows_per_group = rows.size();
    LND_ASSERT_OK_AND_ASSIGN(Table by_rows, Table::Write(MemoryTable("rows"), rows, o));
    CheckStats(by_rows.dataset(), rows);

    LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr encoded, nd::EncodeRows(rows));
    LND_ASSERT_OK_AND_ASSIGN(NdWriter w, NdWriter::Create(MemoryTable("encoded"), o));
    LND_ASSERT_OK(w.WriteEncoded(encoded));
    LND_ASSERT_OK_AND_ASSIGN(Table by_batch, w.Finish());
    CheckStats(by_batch.dataset(), rows);
  }
}

}  // namespace
}  // namespace lance_nd
