// NdRecordBatch, broadcasting by name, target inference.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>

#include "lance_nd/array/view.h"
#include "lance_nd/testing/nd_test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::nd {
namespace {

using testing::Batch;
using testing::Dims;
using testing::F32;
using testing::F64;
using testing::I32;
using testing::Iota32;
using testing::Nd;
using testing::Str;

std::vector<float> Floats(const array::ArrayData& a) {
  std::vector<float> out;
  const array::PrimitiveView<float> v(a);
  for (int64_t i = 0; i < v.length(); ++i) out.push_back(v.Value(i));
  return out;
}

TEST(CheckBroadcast, MatchesByName) {
  const Dimensions target = Dims({{"x", 3}, {"y", 4}});
  LND_EXPECT_OK(CheckBroadcast(Dims({{"x", 3}, {"y", 4}}), target));
  LND_EXPECT_OK(CheckBroadcast(Dims({{"y", 4}, {"x", 3}}), target));  // any order
  LND_EXPECT_OK(CheckBroadcast(Dims({{"y", 4}}), target));
  LND_EXPECT_OK(CheckBroadcast(Dims({{"x", 1}}), target));  // size 1 broadcasts
  LND_EXPECT_OK(CheckBroadcast(Dimensions(), target));      // scalar
  LND_EXPECT_ERROR(CheckBroadcast(Dims({{"z", 3}}), target), StatusCode::kInvalidArgument,
                   "shape mismatch: dimensions [z=3] do not broadcast onto [x=3, y=4]: the "
                   "target has no dimension 'z'");
  LND_EXPECT_ERROR(CheckBroadcast(Dims({{"x", 2}}), target), StatusCode::kInvalidArgument,
                   "dimension 'x' has size 2 but the target has 3");
}

TEST(InferTarget, HighestRankSetsOrder) {
  const std::vector<NdArrowArray> cols = {Nd(Iota32(3), {{"x", 3}}), Nd(Iota32(4), {{"y", 4}}),
                                          Nd(Iota32(12), {{"y", 4}, {"x", 3}})};
  LND_ASSERT_OK_AND_ASSIGN(Dimensions t, InferTarget(cols));
  EXPECT_EQ(t, Dims({{"y", 4}, {"x", 3}}));
}

TEST(InferTarget, FirstOfEqualRankWins) {
  const std::vector<NdArrowArray> cols = {Nd(Iota32(3), {{"x", 3}}), Nd(Iota32(4), {{"y", 4}})};
  LND_ASSERT_OK_AND_ASSIGN(Dimensions t, InferTarget(cols));
  EXPECT_EQ(t, Dims({{"x", 3}, {"y", 4}}));
}

TEST(InferTarget, AppendsAxesOfLowerRankColumns) {
  const std::vector<NdArrowArray> cols = {Nd(Iota32(6), {{"t", 2}, {"lat", 3}}),
                                          Nd(Iota32(5), {{"station", 5}}),
                                          Nd(Iota32(2), {{"t", 2}})};
  LND_ASSERT_OK_AND_ASSIGN(Dimensions t, InferTarget(cols));
  EXPECT_EQ(t, Dims({{"t", 2}, {"lat", 3}, {"station", 5}}));
}

TEST(InferTarget, SizeOneTakesOtherSize) {
  const std::vector<NdArrowArray> cols = {Nd(Iota32(3), {{"x", 1}, {"y", 3}}),
                                          Nd(Iota32(4), {{"x", 4}}), Nd(Iota32(1), {{"y", 1}})};
  LND_ASSERT_OK_AND_ASSIGN(Dimensions t, InferTarget(cols));
  EXPECT_EQ(t, Dims({{"x", 4}, {"y", 3}}));
}

TEST(InferTarget, EmptyAndScalars) {
  LND_ASSERT_OK_AND_ASSIGN(Dimensions t, InferTarget(std::vector<NdArrowArray>{}));
  EXPECT_TRUE(t.is_scalar());
  const std::vector<NdArrowArray> scalars = {Nd(Iota32(1), {}), Nd(I32({1}), {})};
  LND_ASSERT_OK_AND_ASSIGN(Dimensions s, InferTarget(scalars));
  EXPECT_TRUE(s.is_scalar());
}

TEST(InferTarget, ConflictingSizesNameBothColumns) {
  const std::vector<NdArrowArray> cols = {Nd(Iota32(6), {{"x", 3}, {"y", 2}}),
                                          Nd(Iota32(4), {{"x", 4}})};
  const std::vector<std::string> names = {"temp", "lon"};
  LND_EXPECT_ERROR(InferTarget(cols, names), StatusCode::kInvalidArgument,
                   "shape mismatch: dimension 'x' has size 4 in column 'lon' but size 3 in "
                   "column 'temp'");
  LND_EXPECT_ERROR(InferTarget(cols), StatusCode::kInvalidArgument, "in column 1");
}

// The first column of the highest rank.
std::size_t HighestRank(const std::vector<NdArrowArray>& cols) {
  std::size_t first = 0;
  for (std::size_t i = 0; i < cols.size(); ++i) {
    if (cols[i].rank() > cols[first].rank()) first = i;
  }
  return first;
}

// The rule of InferTarget stated directly: the first column of the highest rank gives the
// order, other axes are appended as met, a size 1 yields to any other size, and two other
// sizes conflict. Returns nullopt on a conflict.
std::optional<std::vector<Dimension>> ExpectedTarget(const std::vector<NdArrowArray>& cols) {
  std::vector<Dimension> dims = cols[HighestRank(cols)].dimensions().dims();
  for (std::size_t c = 0; c < cols.size(); ++c) {
    for (const Dimension& d : cols[c].dimensions().dims()) {
      auto it = std::find_if(dims.begin(), dims.end(), [&](auto& t) { return t.name == d.name; });
      if (it == dims.end()) {
        dims.push_back(d);
      } else if (it->size == 1) {
        it->size = d.size;
      } else if (d.size != 1 && d.size != it->size) {
        return std::nullopt;
      }
    }
  }
  return dims;
}

// Generated column sets (most lie on the first column's grid, which InferTarget answers
// without a merge; the others need one or conflict), compared with the rule above; a
// conflict's message through MakeInferred names the columns.
TEST(InferTarget, GeneratedColumnSetsFollowTheRule) {
  const std::vector<std::string> axes = {"t", "lat", "lon", "z", "s"};
  int merged = 0, conflicts = 0;
  for (std::uint32_t seed = 0; seed < 600; ++seed) {
    std::mt19937 rng(seed);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
    std::vector<std::string> order = axes;
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<NdArrowArray> cols;
    std::vector<std::pair<std::string, NdArrowArray>> named;
    const int num_cols = 1 + pick(4);
    for (int c = 0; c < num_cols; ++c) {
      std::vector<std::pair<std::string, uint64_t>> dims;
      const int rank = pick(4);
      std::vector<std::string> names = order;
      std::shuffle(names.begin(), names.begin() + rank, rng);
      int64_t n = 1;
      for (int k = 0; k < rank; ++k) {
        // Mostly each axis's own size (2 + its letter count), sometimes 1 or another size.
        const int r = pick(10);
        const uint64_t size = r < 7 ? 2 + names[k].size() : (r < 9 ? 1 : 9);
        dims.push_back({names[k], size});
        n *= static_cast<int64_t>(size);
      }
      cols.push_back(Nd(Iota32(n), dims));
      named.emplace_back("v" + std::to_string(c), cols.back());
    }
    const auto expected = ExpectedTarget(cols);
    const Result<Dimensions> got = InferTarget(cols);
    SCOPED_TRACE("seed " + std::to_string(seed));
    if (!expected) {
      ++conflicts;
      LND_EXPECT_ERROR(got, StatusCode::kInvalidArgument, "in column ");
      LND_EXPECT_ERROR(NdRecordBatch::FromArrays(named), StatusCode::kInvalidArgument,
                       "in column 'v");
      continue;
    }
    LND_ASSERT_OK(got.status());
    EXPECT_EQ(got->dims(), *expected);
    if (!(*got == cols[HighestRank(cols)].dimensions())) ++merged;
    LND_ASSERT_OK_AND_ASSIGN(NdRecordBatch batch, NdRecordBatch::FromArrays(named));
    EXPECT_EQ(batch.target(), *got);
  }
  // Every kind of case was met.
  EXPECT_GT(merged, 50);
  EXPECT_GT(conflicts, 50);
  EXPECT_LT(merged + conflicts, 550);
}

TEST(Broadcast, RepeatsAlongMissingAxes) {
  const NdArrowArray x = Nd(F32({1, 2, 3}), {{"x", 3}});
  LND_ASSERT_OK_AND_ASSIGN(NdArrowArray b, Broadcast(x, Dims({{"x", 3}, {"y", 2}})));
  EXPECT_EQ(b.dimensions(), Dims({{"x", 3}, {"y", 2}}));
  EXPECT_EQ(Floats(*b.values()), (std::vector<float>{1, 1, 2, 2, 3, 3}));
  LND_ASSERT_OK_AND_ASSIGN(NdArrowArray c, Broadcast(x, Dims({{"y", 2}, {"x", 3}})));
  EXPECT_EQ(Floats(*c.values()), (std::vector<float>{1, 2, 3, 1, 2, 3}));
}

TEST(Broadcast, TransposesByName) {
  // a[x][y] = 10x + y, x=2, y=3; target (y, x).
  const NdArrowArray a = Nd(F32({0, 1, 2, 10, 11, 12}), {{"x", 2}, {"y", 3}});
  LND_ASSERT_OK_AND_ASSIGN(NdArrowArray t, Broadcast(a, Dims({{"y", 3}, {"x", 2}})));
  EXPECT_EQ(Floats(*t.values()), (std::vector<float>{0, 10, 1, 11, 2, 12}));
}

TEST(Broadcast, SizeOneAndScalar) {
  const NdArrowArray a = Nd(F32({5, 6}), {{"x", 1}, {"y", 2}});
  LND_ASSERT_OK_AND_ASSIGN(NdArrowArray t, Broadcast(a, Dims({{"x", 2}, {"y", 2}})));
  EXPECT_EQ(Floats(*t.values()), (std::vector<float>{5, 6, 5, 6}));
  Attributes units;
  units.Set("units", "m");
  const NdArrowArray s = Nd(F32({7}), {}, units);
  LND_ASSERT_OK_AND_ASSIGN(NdArrowArray u, Broadcast(s, Dims({{"x", 3}})));
  EXPECT_EQ(Floats(*u.values()), (std::vector<float>{7, 7, 7}));
  EXPECT_EQ(u.attributes(), units);
  LND_ASSERT_OK_AND_ASSIGN(NdArrowArray z, Broadcast(s, Dims({{"x", 0}})));
  EXPECT_EQ(z.values()->length, 0);
}

TEST(Broadcast, KeepsNullsAndStrings) {
  const NdArrowArray a = Nd(Str({"a", std::nullopt}), {{"x", 2}});
  LND_ASSERT_OK_AND_ASSIGN(NdArrowArray t, Broadcast(a, Dims({{"y", 2}, {"x", 2}})));
  EXPECT_TRUE(array::ArrayEquals(*t.values(), *Str({"a", std::nullopt, "a", std::nullopt})));
}

TEST(Broadcast, RejectsIncompatibleTarget) {
  LND_EXPECT_ERROR(Broadcast(Nd(Iota32(3), {{"x", 3}}), Dims({{"x", 4}})),
                   StatusCode::kInvalidArgument, "shape mismatch:");
}

TEST(NdRecordBatch, DefaultIsEmpty) {
  NdRecordBatch b;
  EXPECT_EQ(b.num_columns(), 0);
  EXPECT_TRUE(b.target().is_scalar());
  EXPECT_TRUE(b.attributes().empty());
}

TEST(NdRecordBatch, MakeInferredFromArrays) {
  Attributes g;
  g.Set("id", "a");
  const NdRecordBatch b = Batch(
      {{"x", Nd(Iota32(3), {{"x", 3}})}, {"temperature", Nd(Iota32(12), {{"x", 3}, {"y", 4}})}}, g);
  EXPECT_EQ(b.num_columns(), 2);
  EXPECT_EQ(b.target(), Dims({{"x", 3}, {"y", 4}}));
  EXPECT_EQ(b.column_name(1), "temperature");
  EXPECT_EQ(b.ColumnIndex("x"), 0);
  EXPECT_EQ(b.ColumnIndex("nope"), -1);
  ASSERT_NE(b.GetColumn("temperature"), nullptr);
  EXPECT_EQ(b.GetColumn("nope"), nullptr);
  EXPECT_EQ(b.attributes().GetString("id"), std::optional<std::string>("a"));
  EXPECT_TRUE(b.schema()->field(1)->nullable());
  LND_ASSERT_OK_AND_ASSIGN(NdArrowArray bx, b.BroadcastColumn(0));
  EXPECT_EQ(bx.dimensions(), b.target());
  LND_EXPECT_ERROR(b.BroadcastColumn(2), StatusCode::kInvalidArgument, "out of range");
}

TEST(NdRecordBatch, MakeWithExplicitTarget) {
  auto schema = array::MakeSchema({array::MakeField("x", array::Float32())});
  LND_ASSERT_OK_AND_ASSIGN(NdRecordBatch b, NdRecordBatch::Make(schema, {Nd(Iota32(3), {{"x", 3}})},
                                                                Dims({{"t", 2}, {"x", 3}})));
  EXPECT_EQ(b.target(), Dims({{"t", 2}, {"x", 3}}));
  LND_EXPECT_ERROR(NdRecordBatch::Make(schema, {Nd(Iota32(3), {{"x", 3}})}, Dims({{"x", 2}})),
                   StatusCode::kInvalidArgument, "shape mismatch: array 'x': dimensions [x=3]");
}

TEST(NdRecordBatch, SchemaMustMatchColumns) {
  auto schema = array::MakeSchema({array::MakeField("x", array::Float64())});
  LND_EXPECT_ERROR(NdRecordBatch::MakeInferred(schema, {Nd(Iota32(3), {{"x", 3}})}),
                   StatusCode::kSchemaMismatch,
                   "schema mismatch: field 'x' has type double but its array holds float");
  LND_EXPECT_ERROR(NdRecordBatch::MakeInferred(schema, {}), StatusCode::kSchemaMismatch,
                   "the schema has 1 fields but 0 arrays");
  LND_EXPECT_ERROR(NdRecordBatch::MakeInferred(nullptr, {}), StatusCode::kInvalidArgument,
                   "needs a schema");
}

TEST(NdRecordBatch, NamesMustBeNonEmptyAndUnique) {
  LND_EXPECT_ERROR(NdRecordBatch::FromArrays({{"", Nd(Iota32(1), {})}}),
                   StatusCode::kInvalidArgument, "column 0 has an empty name");
  LND_EXPECT_ERROR(NdRecordBatch::FromArrays({{"a", Nd(Iota32(1), {})}, {"a", Nd(Iota32(1), {})}}),
                   StatusCode::kInvalidArgument, "column name 'a' appears more than once");
}

// Few arrays are checked in place, many are hashed: both find a repeated name anywhere.
TEST(NdRecordBatch, RepeatedNamesAreFoundAmongManyArrays) {
  for (std::size_t count = 2; count <= 40; ++count) {
    SCOPED_TRACE(count);
    std::vector<std::pair<std::string, NdArrowArray>> arrays;
    for (std::size_t i = 0; i < count; ++i) {
      arrays.emplace_back("v" + std::to_string(i), Nd(Iota32(1), {}));
    }
    LND_EXPECT_OK(NdRecordBatch::FromArrays(arrays).status());
    const std::size_t later = 1 + (count * 5) % (count - 1);
    const std::size_t earlier = (count * 3) % later;
    arrays[later].first = arrays[earlier].first;
    LND_EXPECT_ERROR(NdRecordBatch::FromArrays(arrays), StatusCode::kInvalidArgument,
                     "column name '" + arrays[earlier].first + "' appears more than once");
  }
}

TEST(NdRecordBatch, InferredConflictIsShapeMismatch) {
  LND_EXPECT_ERROR(NdRecordBatch::FromArrays(
                       {{"a", Nd(Iota32(3), {{"x", 3}})}, {"b", Nd(Iota32(2), {{"x", 2}})}}),
                   StatusCode::kInvalidArgument,
                   "shape mismatch: dimension 'x' has size 2 in column 'b'");
}

TEST(NdRecordBatch, EqualityIsDatasetEquality) {
  Attributes g;
  g.Set("id", "a");
  const NdRecordBatch ab =
      Batch({{"a", Nd(Iota32(3), {{"x", 3}})}, {"b", Nd(Iota32(4), {{"y", 4}})}}, g);
  const NdRecordBatch ba =
      Batch({{"b", Nd(Iota32(4), {{"y", 4}})}, {"a", Nd(Iota32(3), {{"x", 3}})}}, g);
  EXPECT_EQ(ab, ba);  // column order and target axis order are not compared
  EXPECT_FALSE(ab == ba.WithAttributes({}));
  EXPECT_FALSE(ab == Batch({{"a", Nd(Iota32(3), {{"x", 3}})}}, g));
  EXPECT_FALSE(ab ==
               Batch({{"a", Nd(Iota32(3), {{"x", 3}})}, {"c", Nd(Iota32(4), {{"y", 4}})}}, g));
  EXPECT_FALSE(ab ==
               Batch({{"a", Nd(Iota32(3), {{"x", 3}})}, {"b", Nd(Iota32(4), {{"z", 4}})}}, g));
  auto schema = array::MakeSchema({array::MakeField("a", array::Float32())});
  const NdRecordBatch wide = testing::Unwrap(
      NdRecordBatch::Make(schema, {Nd(Iota32(3), {{"x", 3}})}, Dims({{"x", 3}, {"t", 2}})));
  EXPECT_FALSE(wide == Batch({{"a", Nd(Iota32(3), {{"x", 3}})}}));
  EXPECT_NE(ab.ToString().find("b: float[y=4]"), std::string::npos) << ab.ToString();
}

}  // namespace
}  // namespace lance_nd::nd

namespace lance_nd::nd {
namespace {

// Many independent 1-D arrays (as netCDF files with one dimension per variable have): the
// logical grid's element count passes int64, each array's does not.
TEST(NdRecordBatch, GridsPastInt64AreLogicalAndOnlyMaterialisingThemFails) {
  std::mt19937 rng(33);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = std::uniform_int_distribution<int>(20, 300)(rng);
    std::vector<std::pair<std::string, NdArrowArray>> arrays;
    for (int i = 0; i < n; ++i) {
      const int size = std::uniform_int_distribution<int>(9, 200)(rng);
      arrays.emplace_back(
          "v" + std::to_string(i),
          Nd(Iota32(size), {{"d" + std::to_string(i), static_cast<uint64_t>(size)}}));
    }
    LND_ASSERT_OK_AND_ASSIGN(NdRecordBatch b, NdRecordBatch::FromArrays(arrays, Attributes()));
    EXPECT_EQ(b.target().rank(), static_cast<std::size_t>(n));
    EXPECT_EQ(b.target().num_elements(), Dimensions::kUncountable);
    LND_EXPECT_ERROR(b.BroadcastColumn(0), StatusCode::kInvalidArgument,
                     "its element count overflows a 64-bit integer; read each array on its own");
    // Messages summarise the axes instead of listing them all.
    const std::string text = b.target().ToString();
    EXPECT_NE(text.find(" more axes ..."), std::string::npos) << text;
    EXPECT_LT(text.size(), 300u) << text;
  }
  // A zero-size axis makes the count 0, however many others there are.
  std::vector<Dimension> dims;
  for (int i = 0; i < 80; ++i) dims.push_back({"d" + std::to_string(i), 7});
  dims.push_back({"empty", 0});
  LND_ASSERT_OK_AND_ASSIGN(Dimensions zero, Dimensions::MakeGrid(dims));
  EXPECT_EQ(zero.num_elements(), 0);
  dims.pop_back();
  LND_EXPECT_ERROR(Dimensions::Make(dims), StatusCode::kInvalidArgument,
                   "overflows a 64-bit integer");
}

}  // namespace
}  // namespace lance_nd::nd
