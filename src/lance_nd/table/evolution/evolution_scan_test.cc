// EvolveSchema on a table with data: old fragments read the new fields as null, appends with
// the evolved schema work, the data files are untouched.
#include <gtest/gtest.h>

#include "lance_nd/table/evolution.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/test_util.h"
#include "lance_nd/table/write.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

TEST(EvolutionScan, OldFragmentsReadNewFieldsAsNull) {
  auto fs = io::MakeMemoryFileSystem();
  const std::string path = "db/t.lance";
  std::vector<array::RecordBatchPtr> rows = {testing::TestBatch(0, 10)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, WriteTable(TableLocation(fs, path), rows));

  using array::MakeField;
  auto wanted =
      array::MakeSchema({MakeField("s", array::Struct({MakeField("note", array::Utf8())})),
                         MakeField("extra", array::Int32())});
  LND_ASSERT_OK_AND_ASSIGN(Dataset v2, EvolveSchema(v1, *wanted));
  EXPECT_EQ(v2.version(), 2u);
  EXPECT_EQ(v2.fragments(), v1.fragments());  // metadata only

  LND_ASSERT_OK_AND_ASSIGN(auto batch, ReadTable(v2));
  ASSERT_EQ(batch->num_rows(), 10);
  ASSERT_EQ(batch->schema()->num_fields(), 3);
  EXPECT_EQ(batch->schema()->field(2)->name(), "extra");
  EXPECT_EQ(batch->column(2)->null_count(), 10);  // a missing top-level field: all null
  const auto& s = *batch->column(1);
  ASSERT_EQ(s.children.size(), 3u);
  EXPECT_EQ(batch->schema()->field(1)->type()->children()[2]->name(), "note");
  // The struct keeps its own validity (ids divisible by 7 are null); note is null everywhere.
  EXPECT_EQ(s.null_count(), 2);
  for (std::int64_t i = 0; i < 10; ++i) EXPECT_TRUE(s.children[2]->IsNull(s.offset + i)) << i;

  // Version 1 still reads with its own schema.
  LND_ASSERT_OK_AND_ASSIGN(Dataset again_v1, Dataset::Open(TableLocation(fs, path), 1));
  LND_ASSERT_OK_AND_ASSIGN(auto old_batch, ReadTable(again_v1));
  EXPECT_EQ(old_batch->schema()->num_fields(), 2);
}

}  // namespace
}  // namespace lance_nd::table
