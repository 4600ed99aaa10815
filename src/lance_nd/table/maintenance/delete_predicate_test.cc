// DeleteRows by predicate on seeded tables that already hold deletions: predicates selecting
// none, some or all rows of a fragment, checked against a model of the live ids.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/view.h"
#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/maintenance/table_fixture_test_util.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/write.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

array::RecordBatchPtr Rows(std::int64_t from, std::int64_t to) {
  std::vector<std::optional<std::int64_t>> ids;
  std::vector<std::optional<std::int64_t>> group;
  for (std::int64_t i = from; i < to; ++i) {
    ids.push_back(i);
    group.push_back(i % 5);
  }
  auto schema = array::MakeSchema(
      {array::MakeField("id", array::Int64(), false), array::MakeField("group", array::Int64())});
  return array::RecordBatch::Make(schema, to - from,
                                  {array::MakePrimitiveArray<std::int64_t>(array::Int64(), ids),
                                   array::MakePrimitiveArray<std::int64_t>(array::Int64(), group)})
      .value();
}

std::set<std::int64_t> LiveIds(const Dataset& ds) {
  std::set<std::int64_t> out;
  auto batch = ReadTable(ds, {{"id"}}).value();
  array::PrimitiveView<std::int64_t> v(*batch->column(0));
  for (std::int64_t i = 0; i < v.length(); ++i) out.insert(v.Value(i));
  return out;
}

// Rows whose id is in `ids`, reading only the "id" column.
RowPredicate IdIn(std::set<std::int64_t> ids) {
  RowPredicate p;
  p.columns = {"id"};
  p.select = [ids = std::move(ids)](const array::RecordBatch& batch) -> Result<RowSelection> {
    if (batch.num_columns() != 1 || batch.schema()->field(0)->name() != "id") {
      return Status::InvalidArgument("the predicate saw other columns than 'id'");
    }
    array::PrimitiveView<std::int64_t> v(*batch.column(0));
    RowSelection rows;
    for (std::int64_t i = 0; i < v.length(); ++i) {
      if (ids.count(v.Value(i)) > 0) rows.push_back(i);
    }
    return rows;
  };
  return p;
}

class DeletePredicateTest : public ops_testing::MemoryOrLocalTableTest {
 protected:
  TableLocation Table() const { return TableLocation(fs_, table_); }
  // 4 fragments of 25 rows (ids 0..99), then deletions of a seeded tenth of the rows.
  Dataset MakeWithDeletions(std::mt19937& rng, std::set<std::int64_t>* live) {
    WriteOptions o;
    o.max_rows_per_file = 25;
    const std::vector<array::RecordBatchPtr> b = {Rows(0, 60), Rows(60, 100)};
    Dataset ds = WriteTable(Table(), b, o).value();
    std::vector<std::uint64_t> addresses;
    for (std::int64_t id = 0; id < 100; ++id) {
      if (std::uniform_int_distribution<int>(0, 9)(rng) == 0) {
        addresses.push_back((static_cast<std::uint64_t>(id / 25) << 32) | (id % 25));
      } else {
        live->insert(id);
      }
    }
    return DeleteRows(ds, addresses).value().dataset;
  }
};

TEST_P(DeletePredicateTest, SeededPredicatesMatchTheModel) {
  for (std::uint32_t seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    table_ = (GetParam() ? temp_.path() + "/" : std::string("db/")) + "t" + std::to_string(seed);
    std::mt19937 rng(seed);
    std::set<std::int64_t> live;
    Dataset ds = MakeWithDeletions(rng, &live);
    ASSERT_EQ(LiveIds(ds), live);
    // Per fragment: none, some, or every row (live or already deleted) selected.
    std::set<std::int64_t> doomed;
    std::map<std::uint64_t, int> choice;
    for (std::uint64_t frag = 0; frag < 4; ++frag) {
      choice[frag] = std::uniform_int_distribution<int>(0, 2)(rng);
      for (std::int64_t id = static_cast<std::int64_t>(frag) * 25;
           id < static_cast<std::int64_t>(frag + 1) * 25; ++id) {
        const bool some = std::uniform_int_distribution<int>(0, 2)(rng) == 0;
        if (choice[frag] == 2 || (choice[frag] == 1 && some)) doomed.insert(id);
      }
    }
    std::uint64_t newly = 0;
    for (std::int64_t id : doomed) newly += live.erase(id);
    LND_ASSERT_OK_AND_ASSIGN(DeleteResult r, DeleteRows(ds, IdIn(doomed)));
    EXPECT_EQ(r.num_deleted_rows, newly);
    EXPECT_EQ(LiveIds(r.dataset), live);
    EXPECT_EQ(r.dataset.version(), newly == 0 ? ds.version() : ds.version() + 1);
    // A fragment with every row selected is gone; the others stay.
    std::set<std::uint64_t> fragments;
    for (const Fragment& f : r.dataset.fragments()) fragments.insert(f.id);
    for (const auto& [frag, c] : choice) {
      EXPECT_EQ(fragments.count(frag) == 0, c == 2) << "fragment " << frag;
    }
    LND_ASSERT_OK_AND_ASSIGN(Dataset reopened, Dataset::Open(Table()));
    EXPECT_EQ(reopened.version(), r.dataset.version());
  }
}

TEST_P(DeletePredicateTest, NoMatchCommitsNothing) {
  std::mt19937 rng(7);
  std::set<std::int64_t> live;
  Dataset ds = MakeWithDeletions(rng, &live);
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult r, DeleteRows(ds, IdIn({1000, 2000})));
  EXPECT_EQ(r.num_deleted_rows, 0u);
  EXPECT_EQ(r.dataset.version(), ds.version());
  LND_ASSERT_OK_AND_ASSIGN(Dataset latest, Dataset::Open(Table()));
  EXPECT_EQ(latest.version(), ds.version());
}

TEST_P(DeletePredicateTest, PredicateOverAnotherColumnAndEveryColumn) {
  WriteOptions o;
  o.max_rows_per_file = 10;
  const std::vector<array::RecordBatchPtr> b = {Rows(0, 30)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, WriteTable(Table(), b, o));
  RowPredicate by_group;
  by_group.columns = {"group"};
  by_group.select = [](const array::RecordBatch& batch) -> Result<RowSelection> {
    array::PrimitiveView<std::int64_t> g(*batch.column(0));
    RowSelection rows;
    for (std::int64_t i = 0; i < g.length(); ++i) {
      if (g.Value(i) == 0) rows.push_back(i);
    }
    return rows;
  };
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult r, DeleteRows(ds, by_group));
  EXPECT_EQ(r.num_deleted_rows, 6u);
  EXPECT_EQ(r.dataset.CountRows(), 24u);
  RowPredicate everything;  // no columns named: the batch holds all of them
  everything.select = [](const array::RecordBatch& batch) -> Result<RowSelection> {
    if (batch.num_columns() != 2) return Status::InvalidArgument("expected both columns");
    RowSelection rows;
    for (std::int64_t i = 0; i < batch.num_rows(); ++i) rows.push_back(i);
    return rows;
  };
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult all, DeleteRows(r.dataset, everything));
  EXPECT_EQ(all.num_deleted_rows, 24u);
  EXPECT_EQ(all.dataset.CountRows(), 0u);
  EXPECT_TRUE(all.dataset.fragments().empty());
}

TEST_P(DeletePredicateTest, ErrorsNameTheProblemAndCommitNothing) {
  const std::vector<array::RecordBatchPtr> b = {Rows(0, 10)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, WriteTable(Table(), b));
  RowPredicate none;
  LND_EXPECT_ERROR(DeleteRows(ds, none), StatusCode::kInvalidArgument, "no select function");
  RowPredicate beyond;
  beyond.select = [](const array::RecordBatch& batch) -> Result<RowSelection> {
    return RowSelection{0, batch.num_rows()};
  };
  LND_EXPECT_ERROR(DeleteRows(ds, beyond), StatusCode::kInvalidArgument,
                   "selected row 10 of a batch of 10 rows");
  RowPredicate failing;
  failing.columns = {"id"};
  failing.select = [](const array::RecordBatch&) -> Result<RowSelection> {
    return Status::InvalidArgument("bad filter");
  };
  LND_EXPECT_ERROR(DeleteRows(ds, failing), StatusCode::kInvalidArgument, "bad filter");
  RowPredicate unknown = IdIn({1});
  unknown.columns = {"nope"};
  EXPECT_FALSE(DeleteRows(ds, unknown).ok());
  LND_ASSERT_OK_AND_ASSIGN(Dataset latest, Dataset::Open(Table()));
  EXPECT_EQ(latest.version(), 1u);
  EXPECT_EQ(latest.CountRows(), 10u);
}

INSTANTIATE_TEST_SUITE_P(MemoryAndLocal, DeletePredicateTest, ::testing::Values(false, true),
                         ops_testing::MemoryOrLocalName);

}  // namespace
}  // namespace lance_nd::table
