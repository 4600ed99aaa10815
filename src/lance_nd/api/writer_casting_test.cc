// The writer under each casting mode: the table's type wins, kPromote commits what is buffered,
// widens the table (variable and stats), then goes on.
#include <gtest/gtest.h>

#include "lance_nd/api/api_test_util.h"
#include "lance_nd/api/nd_writer.h"
#include "lance_nd/api/table.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using api_testing::MemoryTable;
using api_testing::ReadRows;

template <typename T>
nd::NdRecordBatch Row(const std::string& var, const array::DataTypePtr& type,
                      std::vector<std::optional<T>> values) {
  const auto n = static_cast<std::uint64_t>(values.size());
  return nd::testing::Unwrap(nd::NdRecordBatch::FromArrays(
      {{var, nd::testing::Nd(array::MakePrimitiveArray<T>(type, values), {{"x", n}})}}));
}

TEST(WriterCasting, NoRejectsSafeCastsToTheTableType) {
  auto loc = MemoryTable();
  LND_ASSERT_OK_AND_ASSIGN(Table t,
                           Table::Write(loc, std::vector{Row<double>("v", array::Float64(), {1})}));
  auto f32 = Row<float>("v", array::Float32(), {2.5F, -1});
  auto rejected = t.Append(std::vector{f32});
  EXPECT_EQ(rejected.kind(), ErrorKind::kCastRejected) << rejected.ToString();
  EXPECT_EQ(t.version(), 1u);
  WriteOptions safe;
  safe.casting = Casting::kSafe;
  LND_ASSERT_OK(t.Append(std::vector{f32}, safe));
  LND_ASSERT_OK_AND_ASSIGN(auto got, ReadRows(t.dataset()));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TRUE(got[1].column(0).value_type()->Equals(*array::Float64()));
  EXPECT_TRUE(got[1].Equals(Row<double>("v", array::Float64(), {2.5, -1})));
}

// A new variable's first row fixes its type; later rows of the same write are cast to it.
TEST(WriterCasting, LaterRowsFollowTheTypeANewVariableGot) {
  WriteOptions safe;
  safe.casting = Casting::kSafe;
  std::vector rows = {Row<float>("n", array::Float32(), {1}),
                      Row<int16_t>("n", array::Int16(), {7, 8})};
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(MemoryTable(), rows, safe));
  LND_ASSERT_OK_AND_ASSIGN(auto got, ReadRows(t.dataset()));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TRUE(got[1].Equals(Row<float>("n", array::Float32(), {7, 8})));
}

TEST(WriterCasting, PromoteCommitsBufferedRowsWidensThenGoesOn) {
  auto loc = MemoryTable();
  WriteOptions create;
  create.stats = true;
  LND_ASSERT_OK_AND_ASSIGN(
      Table t, Table::Write(loc, std::vector{Row<float>("v", array::Float32(), {1, 2})}, create));
  WriteOptions promote;
  promote.casting = Casting::kPromote;
  LND_ASSERT_OK_AND_ASSIGN(NdWriter w, NdWriter::Append(loc, promote));
  LND_ASSERT_OK(w.Write(Row<float>("v", array::Float32(), {3})));
  LND_ASSERT_OK(w.Write(Row<double>("v", array::Float64(), {0.1})));  // needs float64
  // The row before the widening is committed already, and the table is float64 now.
  LND_ASSERT_OK_AND_ASSIGN(Table mid, Table::Open(loc));
  EXPECT_EQ(mid.dataset().CountRows(), 2u);
  EXPECT_TRUE(mid.Variables().at(0)->type()->Equals(*array::Float64()));
  LND_ASSERT_OK(w.Write(Row<float>("v", array::Float32(), {4})));
  LND_ASSERT_OK_AND_ASSIGN(Table done, w.Finish());
  EXPECT_GE(done.version(), 4u);  // create, the buffered row, the widen, the rest
  const auto stats = done.schema()->GetField("__stats__:v");
  ASSERT_NE(stats, nullptr);
  EXPECT_TRUE(stats->type()->children()[0]->type()->Equals(*array::Float64()));
  LND_ASSERT_OK_AND_ASSIGN(auto got, ReadRows(done.dataset()));
  std::vector want = {
      Row<double>("v", array::Float64(), {1, 2}), Row<double>("v", array::Float64(), {3}),
      Row<double>("v", array::Float64(), {0.1}), Row<double>("v", array::Float64(), {4})};
  api_testing::ExpectSameRows(want, got);
}

}  // namespace
}  // namespace lance_nd
