// ResolveLocation, CheckFormat / HasStats, Table::Open at a version, Refresh, reserved names.
#include <gtest/gtest.h>

#include "lance_nd/api/api_test_util.h"
#include "lance_nd/api/table.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using api_testing::MemoryTable;
using api_testing::RandomRows;
using api_testing::RandomUniverse;
using api_testing::ReadRows;
using nd::testing::Rng;

nd::NdRecordBatch Row(const std::string& var, float v) {
  return nd::testing::Unwrap(
      nd::NdRecordBatch::FromArrays({{var, nd::testing::Nd(nd::testing::F32({v}), {{"x", 1}})}}));
}

TEST(ResolveLocation, MemoryUrisNameOneProcessWideTable) {
  const std::string uri = "memory://resolve-" + std::to_string(::getpid());
  LND_ASSERT_OK(Table::Write(uri, std::vector{Row("a", 1)}).status());
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(uri));
  EXPECT_EQ(t.dataset().CountRows(), 1u);
  EXPECT_EQ(ResolveLocation(uri).file_system(), t.location().file_system());
  EXPECT_EQ(ResolveLocation("/data/x/").root(), "/data/x");
  EXPECT_EQ(ResolveLocation("file:///data/x").root(), "/data/x");
  auto fs = io::MakeMemoryFileSystem();
  EXPECT_EQ(ResolveLocation("a/b", fs).file_system(), fs);
  // A write with its own file system puts the table there.
  WriteOptions o;
  o.file_system = fs;
  LND_ASSERT_OK(Table::Write("a/b", std::vector{Row("a", 1)}, o).status());
  LND_ASSERT_OK(Table::Open(ResolveLocation("a/b", fs)).status());
}

TEST(CheckFormat, MarkerRules) {
  auto with = [](std::vector<std::pair<std::string, std::string>> md) {
    return array::Schema({}, array::Metadata(std::move(md)));
  };
  LND_EXPECT_OK(CheckFormat(with({{"lance_nd:format", "1"}})));
  LND_EXPECT_ERROR(CheckFormat(with({})), StatusCode::kInvalidTable, "no 'lance_nd:format'");
  LND_EXPECT_ERROR(CheckFormat(with({{"lance_nd:format", "10"}})), StatusCode::kInvalidTable,
                   "\"10\"");
  EXPECT_TRUE(HasStats(with({{"lance_nd:stats", "1"}})));
  EXPECT_FALSE(HasStats(with({{"lance_nd:stats", "0"}})));
  EXPECT_FALSE(HasStats(with({})));
}

TEST(TableOpen, OldVersionsAreReadOnlyRefreshGoesToTheLatest) {
  auto loc = MemoryTable();
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(loc, std::vector{Row("a", 1)}));
  LND_ASSERT_OK(t.Append(std::vector{Row("a", 2)}));
  LND_ASSERT_OK_AND_ASSIGN(Table v1, Table::Open(loc, 1));
  EXPECT_FALSE(v1.writable());
  EXPECT_EQ(v1.dataset().CountRows(), 1u);
  LND_EXPECT_ERROR(v1.Append(std::vector{Row("a", 3)}), StatusCode::kInvalidArgument, "read-only");
  LND_ASSERT_OK_AND_ASSIGN(Table latest, Table::Open(loc, 2));
  EXPECT_TRUE(latest.writable());
  LND_ASSERT_OK(v1.Refresh());
  EXPECT_EQ(v1.version(), 2u);
  EXPECT_TRUE(v1.writable());
}

TEST(TableWrite, ReservedVariableNamesAreRefused) {
  for (const char* name : {"__stats__:a", "__stats__", "__global_attrs__"}) {
    auto r = Table::Write(MemoryTable(), std::vector{Row(name, 1)});
    LND_EXPECT_ERROR(r, StatusCode::kSchemaMismatch, "reserved");
  }
}

TEST(TableWrite, StatsOnlyMarkerTableGetsStatsForLaterVariables) {
  auto loc = MemoryTable();
  auto flags = nd::testing::Unwrap(nd::NdRecordBatch::FromArrays(
      {{"flag", nd::testing::Nd(array::MakeBoolArray({true, false}), {{"x", 2}})}}));
  WriteOptions o;
  o.stats = true;
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(loc, std::vector{flags}, o));
  EXPECT_TRUE(t.has_stats());
  EXPECT_EQ(t.schema()->GetField("__stats__:flag"), nullptr);  // booleans have no stats type
  LND_ASSERT_OK(t.Append(std::vector{Row("temp", 5)}));
  EXPECT_NE(t.schema()->GetField("__stats__:temp"), nullptr);
}

}  // namespace
}  // namespace lance_nd
