// NdWriter: many writes -> one commit in row order, fragments rolled by size, groups by rows and
// values, nothing visible before Finish, abort / destruction, WriterFailed.
#include <gtest/gtest.h>

#include "lance_nd/api/api_test_util.h"
#include "lance_nd/api/nd_writer.h"
#include "lance_nd/api/table.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using api_testing::MemoryTable;
using api_testing::RandomRows;
using api_testing::RandomUniverse;
using api_testing::ReadRows;
using nd::testing::Rng;
using nd::testing::Uniform;

// Data files under the table's data/ directory.
std::size_t DataFiles(const table::TableLocation& loc) {
  auto listed = loc.fs().List(loc.DataDir());
  return listed.ok() ? listed->size() : 0;
}

nd::NdRecordBatch F32Row(const std::string& var, int n) {
  std::vector<std::optional<float>> v;
  for (int i = 0; i < n; ++i) v.emplace_back(static_cast<float>(i));
  return nd::testing::Unwrap(nd::NdRecordBatch::FromArrays(
      {{var, nd::testing::Nd(nd::testing::F32(v), {{"x", static_cast<std::uint64_t>(n)}})}}));
}

TEST(NdWriter, ManyWritesOneCommitInRowOrderOverSeveralFragments) {
  for (std::uint64_t seed = 0; seed < 12; ++seed) {
    SCOPED_TRACE(seed);
    Rng rng(seed);
    auto u = RandomUniverse(rng);
    auto loc = MemoryTable();
    WriteOptions o;
    o.stats = nd::testing::Chance(rng, 0.5);
    o.max_rows_per_group = static_cast<std::size_t>(Uniform(rng, 1, 9));
    o.target_fragment_bytes = static_cast<std::size_t>(Uniform(rng, 500, 5000));
    o.write_parallelism = static_cast<std::size_t>(Uniform(rng, 1, 4));
    LND_ASSERT_OK_AND_ASSIGN(NdWriter w, NdWriter::Create(loc, o));
    std::vector<nd::NdRecordBatch> all;
    const int writes = static_cast<int>(Uniform(rng, 20, 60));
    for (int i = 0; i < writes; ++i) {
      auto rows = RandomRows(rng, u, static_cast<int>(Uniform(rng, 0, 4)));
      LND_ASSERT_OK(w.Write(rows));
      all.insert(all.end(), rows.begin(), rows.end());
      // Nothing is visible before Finish.
      LND_EXPECT_ERROR(Table::Open(loc), StatusCode::kNotFound, "no table");
    }
    EXPECT_EQ(w.rows_written(), all.size());
    if (all.empty()) continue;
    LND_ASSERT_OK_AND_ASSIGN(Table t, w.Finish());
    EXPECT_EQ(t.version(), 1u);
    EXPECT_GT(t.dataset().fragments().size(), 1u);
    LND_ASSERT_OK_AND_ASSIGN(auto got, ReadRows(t.dataset()));
    api_testing::ExpectSameRows(all, got);
  }
}

TEST(NdWriter, AppendIsInvisibleUntilFinish) {
  Rng rng(21);
  auto u = RandomUniverse(rng);
  auto loc = MemoryTable();
  auto first = RandomRows(rng, u, 3);
  LND_ASSERT_OK(Table::Write(loc, first).status());
  WriteOptions o;
  o.target_fragment_bytes = 1;
  LND_ASSERT_OK_AND_ASSIGN(NdWriter w, NdWriter::Append(loc, o));
  auto more = RandomRows(rng, u, 20);
  for (const auto& r : more) {
    LND_ASSERT_OK(w.Write(r));
    LND_ASSERT_OK_AND_ASSIGN(Table seen, Table::Open(loc));
    EXPECT_EQ(seen.version(), 1u);
    EXPECT_EQ(seen.dataset().CountRows(), first.size());
  }
  LND_ASSERT_OK_AND_ASSIGN(Table t, w.Finish());
  LND_ASSERT_OK_AND_ASSIGN(auto got, ReadRows(t.dataset()));
  first.insert(first.end(), more.begin(), more.end());
  api_testing::ExpectSameRows(first, got);
}

// With a 1-byte target every group becomes a fragment: the fragments show where groups close.
TEST(NdWriter, GroupsCloseAtRowAndValueLimits) {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    SCOPED_TRACE(seed);
    Rng rng(seed);
    WriteOptions o;
    o.target_fragment_bytes = 1;
    o.max_rows_per_group = static_cast<std::size_t>(Uniform(rng, 1, 6));
    o.max_values_per_group = static_cast<std::size_t>(Uniform(rng, 1, 30));
    std::vector<nd::NdRecordBatch> rows;
    std::vector<std::uint64_t> expected;  // rows per group, computed here
    std::uint64_t in_group = 0;
    std::uint64_t values = 0;
    const int n = static_cast<int>(Uniform(rng, 1, 40));
    for (int i = 0; i < n; ++i) {
      const int len = static_cast<int>(Uniform(rng, 0, 12));
      rows.push_back(F32Row("a", len));
      ++in_group;
      values += static_cast<std::uint64_t>(len);
      if (in_group >= o.max_rows_per_group || values >= o.max_values_per_group) {
        expected.push_back(in_group);
        in_group = 0;
        values = 0;
      }
    }
    if (in_group > 0) expected.push_back(in_group);
    auto loc = MemoryTable();
    LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(loc, rows, o));
    std::vector<std::uint64_t> got;
    for (const auto& f : t.dataset().fragments()) got.push_back(f.physical_rows);
    EXPECT_EQ(got, expected);
    LND_ASSERT_OK_AND_ASSIGN(auto read, ReadRows(t.dataset()));
    api_testing::ExpectSameRows(rows, read);
  }
}

TEST(NdWriter, AbortAndDestructionCommitNothingAndRemoveFiles) {
  for (bool explicit_abort : {true, false}) {
    Rng rng(explicit_abort ? 1 : 2);
    auto u = RandomUniverse(rng);
    auto loc = MemoryTable();
    auto base = RandomRows(rng, u, 2);
    LND_ASSERT_OK(Table::Write(loc, base).status());
    const std::size_t files_before = DataFiles(loc);
    {
      WriteOptions o;
      o.target_fragment_bytes = 1;
      o.max_rows_per_group = 1;
      o.write_parallelism = 2;  // at least 8 of the 10 fragments are finished below
      o.mode = WriteMode::kOverwrite;
      LND_ASSERT_OK_AND_ASSIGN(NdWriter w, NdWriter::Create(loc, o));
      LND_ASSERT_OK(w.Write(RandomRows(rng, u, 10)));
      EXPECT_GT(DataFiles(loc), files_before);  // fragments were written...
      if (explicit_abort) {
        LND_ASSERT_OK(w.Abort());
        LND_EXPECT_ERROR(w.Write(RandomRows(rng, u, 1)), StatusCode::kInvalidArgument, "aborted");
      }
    }
    EXPECT_EQ(DataFiles(loc), files_before);  // ...and removed
    LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(loc));
    EXPECT_EQ(t.version(), 1u);
    LND_ASSERT_OK_AND_ASSIGN(auto got, ReadRows(t.dataset()));
    api_testing::ExpectSameRows(base, got);
  }
}

TEST(NdWriter, AfterAFailedWriteEveryCallIsWriterFailed) {
  auto loc = MemoryTable();
  LND_ASSERT_OK(Table::Write(loc, std::vector{F32Row("a", 2)}).status());
  WriteOptions o;
  o.target_fragment_bytes = 1;
  o.max_rows_per_group = 1;
  {
    LND_ASSERT_OK_AND_ASSIGN(NdWriter w, NdWriter::Append(loc, o));
    LND_ASSERT_OK(w.Write(F32Row("a", 3)));
    auto bad = nd::testing::Unwrap(
        nd::NdRecordBatch::FromArrays({{"a", nd::testing::Nd(nd::testing::I64({1}), {{"x", 1}})}}));
    const Status first = w.Write(bad);
    ASSERT_FALSE(first.ok());
    EXPECT_NE(first.code(), StatusCode::kWriterFailed);
    const Status again = w.Write(F32Row("a", 1));
    EXPECT_EQ(again.code(), StatusCode::kWriterFailed);
    EXPECT_NE(std::string(again.message()).find(std::string(first.message())), std::string::npos)
        << again.ToString();
    auto finished = w.Finish();
    EXPECT_EQ(finished.status().code(), StatusCode::kWriterFailed);
  }
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(loc));
  EXPECT_EQ(t.version(), 1u);
  EXPECT_EQ(DataFiles(loc), 1u);
}

TEST(NdWriter, CreateRefusesAnExistingTableOverwriteReplacesAtFinish) {
  auto loc = MemoryTable();
  LND_ASSERT_OK(Table::Write(loc, std::vector{F32Row("a", 2)}).status());
  auto exists = NdWriter::Create(loc);
  LND_EXPECT_ERROR(exists, StatusCode::kAlreadyExists, "a table exists at");
  EXPECT_EQ(exists.status().kind(), ErrorKind::kTableExists);

  WriteOptions o;
  o.mode = WriteMode::kOverwrite;
  LND_ASSERT_OK_AND_ASSIGN(NdWriter w, NdWriter::Create(loc, o));
  LND_ASSERT_OK(w.Write(F32Row("b", 4)));
  LND_ASSERT_OK_AND_ASSIGN(Table before, Table::Open(loc));
  EXPECT_GE(before.schema()->FieldIndex("a"), 0);  // the old table until Finish
  LND_ASSERT_OK_AND_ASSIGN(Table t, w.Finish());
  EXPECT_EQ(t.version(), 2u);
  EXPECT_LT(t.schema()->FieldIndex("a"), 0);
  LND_ASSERT_OK_AND_ASSIGN(auto got, ReadRows(t.dataset()));
  api_testing::ExpectSameRows({F32Row("b", 4)}, got);
}

// Rows that bring new variables and keys between fragments of one writer: the fragments written
// before the schema grew and those after read back together.
TEST(NdWriter, SchemaGrowsWhileFragmentsAreWritten) {
  for (std::uint64_t seed = 40; seed < 50; ++seed) {
    SCOPED_TRACE(seed);
    Rng rng(seed);
    auto u = RandomUniverse(rng, 10);
    auto loc = MemoryTable();
    LND_ASSERT_OK(Table::Write(loc, std::vector{F32Row("base", 1)}).status());
    WriteOptions o;
    o.stats = true;  // read by create only: the table has none, so none are written
    o.target_fragment_bytes = static_cast<std::size_t>(Uniform(rng, 1, 3000));
    o.max_rows_per_group = static_cast<std::size_t>(Uniform(rng, 1, 5));
    LND_ASSERT_OK_AND_ASSIGN(NdWriter w, NdWriter::Append(loc, o));
    std::vector<nd::NdRecordBatch> all = {F32Row("base", 1)};
    for (int step = 1; step <= 10; ++step) {
      auto part = u;
      part.vars.resize(static_cast<std::size_t>(step));  // one more variable each step
      auto rows = RandomRows(rng, part, 3, 0.7);
      LND_ASSERT_OK(w.Write(rows));
      all.insert(all.end(), rows.begin(), rows.end());
    }
    LND_ASSERT_OK_AND_ASSIGN(Table t, w.Finish());
    EXPECT_FALSE(t.has_stats());
    LND_ASSERT_OK_AND_ASSIGN(auto got, ReadRows(t.dataset()));
    api_testing::ExpectSameRows(all, got);
  }
}

// Fragments land near target_fragment_bytes on disk: the estimate is the encoded Arrow bytes
// times the disk / Arrow ratio of the fragments finished so far. Rows given as one encoded
// batch are estimated by each group's share of that batch, not by the whole batch's buffers
// that every group's slice shares.
TEST(NdWriter, FragmentsAreAboutTheTargetSizeOnDisk) {
  for (const bool encoded : {false, true}) {
    for (std::size_t target : {std::size_t{16} << 10, std::size_t{64} << 10}) {
      SCOPED_TRACE(::testing::Message() << "target " << target << (encoded ? ", encoded" : ""));
      Rng rng(target);
      std::vector<nd::NdRecordBatch> rows;
      for (int r = 0; r < 1500; ++r) {
        std::vector<std::optional<double>> v(64);
        for (auto& x : v) x = static_cast<double>(Uniform(rng, 0, 1000));
        rows.push_back(nd::testing::Unwrap(nd::NdRecordBatch::FromArrays(
            {{"grid", nd::testing::Nd(nd::testing::F64(v), {{"x", 8}, {"y", 8}})}})));
      }
      WriteOptions o;
      o.target_fragment_bytes = target;
      o.max_rows_per_group = 16;
      o.write_parallelism = 2;
      LND_ASSERT_OK_AND_ASSIGN(NdWriter w, NdWriter::Create(MemoryTable(), o));
      if (encoded) {
        LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, nd::EncodeRows(rows));
        LND_ASSERT_OK(w.WriteEncoded(batch));
      } else {
        LND_ASSERT_OK(w.Write(rows));
      }
      LND_ASSERT_OK_AND_ASSIGN(Table t, w.Finish());
      const auto& frags = t.dataset().fragments();
      ASSERT_GT(frags.size(), 3u);
      // The first fragment is sized before any ratio is known; the last one holds the rest.
      for (std::size_t i = 1; i + 1 < frags.size(); ++i) {
        const auto bytes = frags[i].files.at(0).file_size_bytes;
        EXPECT_GE(bytes, target / 3) << "fragment " << i;
        EXPECT_LE(bytes, target * 3) << "fragment " << i;
      }
    }
  }
}

// Rows given in spans of any size make the same table, group for group and fragment for
// fragment, as the same rows given one at a time: whole groups of rows with the table's types
// are encoded without a copy, and rows that need a cast or a new variable take the row path
// in the middle of a span.
TEST(NdWriter, SpansOfAnySizeMakeTheSameTableAsSingleRows) {
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    SCOPED_TRACE(seed);
    Rng rng(seed);
    const auto u = RandomUniverse(rng, static_cast<int>(Uniform(rng, 1, 5)));
    WriteOptions o;
    o.stats = nd::testing::Chance(rng, 0.5);
    o.casting = Casting::kSafe;
    o.max_rows_per_group = static_cast<std::size_t>(Uniform(rng, 1, 12));
    o.max_values_per_group = static_cast<std::size_t>(Uniform(rng, 1, 300));
    o.target_fragment_bytes = static_cast<std::size_t>(Uniform(rng, 2000, 40000));
    std::vector<nd::NdRecordBatch> all;
    bool cast_seen = false;
    const int n = static_cast<int>(Uniform(rng, 1, 150));
    for (int i = 0; i < n; ++i) {
      if (nd::testing::Chance(rng, 0.1)) {
        // 'cast' is float64 from its first row on; float32 rows are cast to it.
        const bool f64 = !cast_seen || nd::testing::Chance(rng, 0.5);
        cast_seen = true;
        std::vector<std::optional<double>> v64{1.5, 2.5};
        std::vector<std::optional<float>> v32{1.5F, 2.5F};
        auto values = f64 ? nd::testing::F64(v64) : nd::testing::F32(v32);
        all.push_back(nd::testing::Unwrap(
            nd::NdRecordBatch::FromArrays({{"cast", nd::testing::Nd(values, {{"x", 2}})}})));
      } else {
        auto row = RandomRows(rng, u, 1, 0.8);
        all.insert(all.end(), row.begin(), row.end());
      }
    }
    LND_ASSERT_OK_AND_ASSIGN(NdWriter single, NdWriter::Create(MemoryTable(), o));
    for (const auto& row : all) LND_ASSERT_OK(single.Write(row));
    LND_ASSERT_OK_AND_ASSIGN(NdWriter spans, NdWriter::Create(MemoryTable(), o));
    for (std::size_t at = 0; at < all.size();) {
      const auto len =
          std::min<std::size_t>(all.size() - at, static_cast<std::size_t>(Uniform(rng, 0, 40)));
      LND_ASSERT_OK(spans.Write(std::span(all).subspan(at, len)));
      at += len;
    }
    EXPECT_EQ(spans.rows_written(), all.size());
    LND_ASSERT_OK_AND_ASSIGN(Table a, single.Finish());
    LND_ASSERT_OK_AND_ASSIGN(Table b, spans.Finish());
    ASSERT_EQ(a.dataset().fragments().size(), b.dataset().fragments().size());
    for (std::size_t f = 0; f < a.dataset().fragments().size(); ++f) {
      EXPECT_EQ(a.dataset().fragments()[f].physical_rows, b.dataset().fragments()[f].physical_rows)
          << "fragment " << f;
    }
    ASSERT_TRUE(a.schema()->Equals(*b.schema()));
    LND_ASSERT_OK_AND_ASSIGN(auto want, table::ReadTable(a.dataset()));
    LND_ASSERT_OK_AND_ASSIGN(auto got, table::ReadTable(b.dataset()));
    ASSERT_EQ(want->num_columns(), got->num_columns());
    for (int c = 0; c < want->num_columns(); ++c) {
      EXPECT_TRUE(array::ArrayEquals(*want->column(c), *got->column(c)))
          << want->schema()->field(c)->name();
    }
    LND_ASSERT_OK_AND_ASSIGN(auto rows, ReadRows(b.dataset()));
    EXPECT_EQ(rows.size(), all.size());
  }
}

TEST(NdWriter, TwoCreatesTheSecondFindsTheTableAtFinish) {
  auto loc = MemoryTable();
  LND_ASSERT_OK_AND_ASSIGN(NdWriter first, NdWriter::Create(loc));
  LND_ASSERT_OK_AND_ASSIGN(NdWriter second, NdWriter::Create(loc));
  LND_ASSERT_OK(first.Write(F32Row("a", 1)));
  LND_ASSERT_OK(second.Write(F32Row("b", 2)));
  LND_ASSERT_OK(first.Finish().status());
  auto lost = second.Finish();
  LND_EXPECT_ERROR(lost, StatusCode::kAlreadyExists, "a table exists at");
  EXPECT_EQ(lost.status().kind(), ErrorKind::kTableExists);
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(loc));
  EXPECT_EQ(t.version(), 1u);
  EXPECT_EQ(DataFiles(loc), 1u);  // the loser's data file is gone
}

}  // namespace
}  // namespace lance_nd
