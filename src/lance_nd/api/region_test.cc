// Region reads against hyperslabs cut in memory: seeded random datasets split into chunk rows,
// random index and value selections, whole datasets reassembled, the rows each read touches,
// and the errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "lance_nd/api/api_test_util.h"
#include "lance_nd/api/region.h"
#include "lance_nd/api/region_test_util.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/array/view.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using region_testing::Chance;
using region_testing::Cut;
using region_testing::Rng;
using region_testing::TestDataset;
using region_testing::Uniform;
using region_testing::Unwrap;

/// A table holding the chunk rows of `datasets`, shuffled, written in up to three commits.
Table WriteChunked(Rng& rng, const std::vector<TestDataset>& datasets) {
  std::vector<nd::NdRecordBatch> rows;
  for (const TestDataset& d : datasets) {
    for (auto& row : region_testing::SplitIntoChunks(d)) rows.push_back(std::move(row));
  }
  std::shuffle(rows.begin(), rows.end(), rng);
  const std::size_t cut = rows.size() / 2;
  Table table = Unwrap(Table::Write(api_testing::MemoryTable(),
                                    std::span(rows).subspan(0, std::max<std::size_t>(cut, 1))));
  if (cut > 0) {
    EXPECT_TRUE(table.Append(std::span(rows).subspan(cut)).ok());
  }
  return table;
}

/// A random index selection of `whole` and the hyperslab it stands for.
struct Pick {
  RegionSelection selection;
  std::vector<std::uint64_t> lo, n;
  std::vector<bool> drop;
};

Pick RandomIndexPick(Rng& rng, const nd::NdArrowArray& whole) {
  Pick p;
  for (const auto& dim : whole.dimensions().dims()) {
    const auto s = static_cast<std::int64_t>(dim.size);
    const int64_t choice = Uniform(rng, 0, 2);
    if (choice == 0) {  // not selected
      p.lo.push_back(0);
      p.n.push_back(dim.size);
      p.drop.push_back(false);
    } else if (choice == 1 && s > 0) {  // one index, maybe counted from the end
      const int64_t i = Uniform(rng, 0, s - 1);
      p.selection.emplace_back(dim.name, DimSelector::Index(Chance(rng, 0.5) ? i : i - s));
      p.lo.push_back(static_cast<std::uint64_t>(i));
      p.n.push_back(1);
      p.drop.push_back(true);
    } else {  // a range [b, e), ends maybe left out or counted from the end
      int64_t b = Uniform(rng, 0, s), e = Uniform(rng, 0, s);
      if (b > e) std::swap(b, e);
      std::optional<std::int64_t> start = b, stop = e;
      if (b == 0 && Chance(rng, 0.5))
        start.reset();
      else if (b < s && Chance(rng, 0.3))
        start = b - s;
      if (e == s && Chance(rng, 0.5))
        stop.reset();
      else if (e < s && Chance(rng, 0.3))
        stop = e - s;
      p.selection.emplace_back(dim.name, DimSelector::Range(start, stop));
      p.lo.push_back(static_cast<std::uint64_t>(b));
      p.n.push_back(static_cast<std::uint64_t>(e - b));
      p.drop.push_back(false);
    }
  }
  return p;
}

/// The rows a read of `var` over `p` must touch: the chunks whose box overlaps the selection
/// along the variable's dimensions (whole ones overlap every chunk) and sit at offset 0 along
/// the others (one copy of a variable stored in several rows); chunk 0 when there is none.
std::uint64_t ExpectedRowsRead(const TestDataset& d, const nd::NdArrowArray& var, const Pick& p) {
  const ChunkGrid grid = region_testing::GridOf(d);
  std::uint64_t count = 0;
  for (std::uint64_t i = 0; i < grid.num_chunks(); ++i) {
    const ChunkPosition pos = grid.Position(i);
    const std::vector<std::uint64_t> extent = grid.Extent(i);
    bool holds = true;
    for (std::size_t k = 0; k < d.layout.dim_names.size(); ++k) {
      const auto at = var.dimensions().IndexOf(d.layout.dim_names[k]);
      if (!at) {
        holds = holds && pos.offset[k] == 0;
        continue;
      }
      if (p.lo[*at] == 0 && p.n[*at] == d.layout.dim_sizes[k]) continue;
      const std::uint64_t lo = p.lo[*at], hi = lo + p.n[*at];
      holds = holds && pos.offset[k] < hi && lo < pos.offset[k] + extent[k];
    }
    if (holds) ++count;
  }
  return std::max<std::uint64_t>(count, 1);
}

void ExpectSameArray(const nd::NdArrowArray& want, const nd::NdArrowArray& got,
                     const std::string& what) {
  EXPECT_TRUE(want.Equals(got)) << what << "\nwant: " << want.ToString()
                                << "\ngot:  " << got.ToString();
}

std::string Describe(const RegionSelection& selection) {
  std::string out;
  for (const auto& [dim, s] : selection) out += dim + "=" + s.ToString() + " ";
  return out;
}

TEST(RegionTest, RandomIndexSelectionsMatchHyperslabsInMemory) {
  int reads = 0;
  for (int seed = 0; seed < 120; ++seed) {
    Rng rng(static_cast<std::uint64_t>(seed));
    std::vector<TestDataset> datasets;
    for (int i = 0, n = static_cast<int>(Uniform(rng, 1, 3)); i < n; ++i) {
      datasets.push_back(region_testing::RandomDataset(rng, "ds" + std::to_string(i)));
    }
    const Table table = WriteChunked(rng, datasets);
    for (const TestDataset& d : datasets) {
      for (int c = 0; c < d.batch.num_columns(); ++c) {
        const nd::NdArrowArray& whole = d.batch.column(c);
        for (int trial = 0; trial < 4; ++trial) {
          const Pick p = RandomIndexPick(rng, whole);
          const std::string what = "seed " + std::to_string(seed) + " " + d.layout.id + "." +
                                   d.batch.column_name(c) + " " + Describe(p.selection);
          RegionReadStats stats;
          auto got = ReadRegion(table, d.layout.id, d.batch.column_name(c), p.selection, &stats);
          ASSERT_TRUE(got.ok()) << what << ": " << got.status().ToString();
          ExpectSameArray(Cut(whole, p.lo, p.n, p.drop), *got, what);
          EXPECT_EQ(stats.rows_read, ExpectedRowsRead(d, whole, p)) << what;
          EXPECT_EQ(stats.dataset_rows, region_testing::GridOf(d).num_chunks()) << what;
          EXPECT_EQ(stats.table_rows, table.dataset().CountRows()) << what;
          ++reads;
        }
      }
    }
  }
  EXPECT_GT(reads, 1000);
}

TEST(RegionTest, ValueSelectionsFindNearestAndClosedRanges) {
  int reads = 0;
  for (int seed = 0; seed < 150; ++seed) {
    Rng rng(static_cast<std::uint64_t>(1000 + seed));
    const TestDataset d = region_testing::RandomDataset(rng, "v");
    const Table table = WriteChunked(rng, {d});
    for (int c = 0; c < d.batch.num_columns(); ++c) {
      const nd::NdArrowArray& whole = d.batch.column(c);
      Pick p;
      for (const auto& dim : whole.dimensions().dims()) {
        const nd::NdArrowArray* coord = d.batch.GetColumn(dim.name);
        if (coord == nullptr || dim.size == 0 || Chance(rng, 0.2)) {
          p.lo.push_back(0);
          p.n.push_back(dim.size);
          p.drop.push_back(false);
          continue;
        }
        const array::ArrayData& cv = *coord->values();
        auto value = [&](std::uint64_t i) {
          return array::PrimitiveView<double>(cv).Value(static_cast<int64_t>(i));
        };
        const auto i =
            static_cast<std::uint64_t>(Uniform(rng, 0, static_cast<int64_t>(dim.size) - 1));
        if (Chance(rng, 0.5)) {  // nearest: within a quarter of the smallest gap (1)
          const double jitter = static_cast<double>(Uniform(rng, -24, 24)) / 100;
          p.selection.emplace_back(dim.name, DimSelector::Nearest(value(i) + jitter));
          p.lo.push_back(i);
          p.n.push_back(1);
          p.drop.push_back(true);
          continue;
        }
        const auto j =
            static_cast<std::uint64_t>(Uniform(rng, 0, static_cast<int64_t>(dim.size) - 1));
        std::optional<double> a = std::min(value(i), value(j)) - 0.25;
        std::optional<double> b = std::max(value(i), value(j)) + 0.25;
        if (Chance(rng, 0.2)) a.reset();
        if (Chance(rng, 0.2)) b.reset();
        std::vector<std::uint64_t> inside;  // which indices lie in [a, b]: scanned here
        for (std::uint64_t k = 0; k < dim.size; ++k) {
          if ((!a || value(k) >= *a) && (!b || value(k) <= *b)) inside.push_back(k);
        }
        if (a && b && Chance(rng, 0.5)) std::swap(a, b);  // either order is accepted
        p.selection.emplace_back(dim.name, DimSelector::ValueRange(a, b));
        p.lo.push_back(inside.empty() ? 0 : inside.front());
        p.n.push_back(inside.size());
        p.drop.push_back(false);
      }
      const std::string what = "seed " + std::to_string(seed) + " " + d.batch.column_name(c) + " " +
                               Describe(p.selection);
      auto got = ReadRegion(table, "v", d.batch.column_name(c), p.selection);
      ASSERT_TRUE(got.ok()) << what << ": " << got.status().ToString();
      ExpectSameArray(Cut(whole, p.lo, p.n, p.drop), *got, what);
      ++reads;
    }
  }
  EXPECT_GT(reads, 300);
}

TEST(RegionTest, ReadDatasetReassemblesTheOriginal) {
  for (int seed = 0; seed < 150; ++seed) {
    Rng rng(static_cast<std::uint64_t>(5000 + seed));
    std::vector<TestDataset> datasets = {region_testing::RandomDataset(rng, "a"),
                                         region_testing::RandomDataset(rng, "b")};
    const Table table = WriteChunked(rng, datasets);
    for (const TestDataset& d : datasets) {
      auto got = ReadDataset(table, d.layout.id);
      ASSERT_TRUE(got.ok()) << "seed " << seed << ": " << got.status().ToString();
      EXPECT_TRUE(d.batch.Equals(*got))
          << "seed " << seed << "\nwant: " << d.batch.ToString() << "\ngot:  " << got->ToString();
    }
  }
}

TEST(RegionTest, ListDatasetsReadsLayoutsAndCounts) {
  for (int seed = 0; seed < 40; ++seed) {
    Rng rng(static_cast<std::uint64_t>(7000 + seed));
    std::vector<TestDataset> datasets;
    for (int i = 0, n = static_cast<int>(Uniform(rng, 1, 4)); i < n; ++i) {
      datasets.push_back(region_testing::RandomDataset(rng, "d" + std::to_string(i)));
    }
    const Table table = WriteChunked(rng, datasets);
    auto listed = ListDatasets(table);
    ASSERT_TRUE(listed.ok()) << listed.status().ToString();
    ASSERT_EQ(listed->size(), datasets.size());
    for (const TestDataset& d : datasets) {
      auto it = std::find_if(listed->begin(), listed->end(),
                             [&](const DatasetInfo& i) { return i.id == d.layout.id; });
      ASSERT_NE(it, listed->end()) << d.layout.id;
      ASSERT_TRUE(it->layout.has_value());
      EXPECT_EQ(*it->layout, d.layout);
      EXPECT_EQ(it->chunk_count, region_testing::GridOf(d).num_chunks());
      EXPECT_EQ(it->rows, it->chunk_count);
      // first_row is the row of chunk 0 of this dataset.
      ASSERT_TRUE(it->first_row.has_value());
      const std::uint64_t first[] = {*it->first_row};
      LND_ASSERT_OK_AND_ASSIGN(auto taken, table.Scan().Project({}).Take(first));
      const nd::Attributes& globals = taken.at(0).attributes();
      EXPECT_EQ(globals.GetString(chunk_keys::kId), d.layout.id);
      LND_ASSERT_OK_AND_ASSIGN(auto chunk, ReadChunkAttributes(globals));
      ASSERT_TRUE(chunk.has_value());
      EXPECT_EQ(chunk->position.index, 0u) << d.layout.id;
    }
  }
}

/// A 3-d dataset split in every dimension, for the fixed cases below.
TestDataset Cube() {
  Rng rng(42);
  TestDataset d;
  d.layout = {"cube", {"t", "y", "x"}, {5, 6, 7}, {"t"}};
  const std::uint64_t n = 5 * 6 * 7;
  nd::Attributes attrs;
  attrs.Set("units", "K");
  nd::Attributes globals;
  globals.Set("id", "cube");
  d.batch = nd::testing::Batch(
      {{"temp", nd::testing::Nd(nd::testing::RandomValues(rng, nd::testing::ValueKind::kF32, n),
                                {{"t", 5}, {"y", 6}, {"x", 7}}, attrs)},
       {"t", nd::testing::Nd(region_testing::Coordinates(rng, 5, false), {{"t", 5}})},
       {"y", nd::testing::Nd(region_testing::Coordinates(rng, 6, true), {{"y", 6}})},
       {"label", nd::testing::Nd(nd::testing::Str({"cube"}), {})}},
      globals);
  d.chunk_sizes = {{"t", 2}, {"y", 4}, {"x", 3}};
  return d;
}

TEST(RegionTest, APointReadTouchesOneChunkRow) {
  const TestDataset d = Cube();
  Rng rng(1);
  const Table table = WriteChunked(rng, {d});
  for (std::int64_t t = 0; t < 5; ++t) {
    for (std::int64_t x = -7; x < 7; ++x) {
      RegionSelection sel = {{"t", DimSelector::Index(t)},
                             {"y", DimSelector::Index(-1)},
                             {"x", DimSelector::Index(x)}};
      RegionReadStats stats;
      auto got = ReadRegion(table, "cube", "temp", sel, &stats);
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      EXPECT_EQ(stats.rows_read, 1u);
      EXPECT_EQ(stats.dataset_rows, 3u * 2u * 3u);
      const auto xi = static_cast<std::uint64_t>(x < 0 ? x + 7 : x);
      ExpectSameArray(Cut(d.batch.column(0), {static_cast<std::uint64_t>(t), 5, xi}, {1, 1, 1},
                          {true, true, true}),
                      *got, "point");
    }
  }
  // A variable without a split dimension is read from chunk 0 alone; a coordinate from the
  // chunks along its own dimension only.
  RegionReadStats stats;
  LND_ASSERT_OK_AND_ASSIGN(auto label, ReadRegion(table, "cube", "label", {}, &stats));
  EXPECT_EQ(stats.rows_read, 1u);
  ExpectSameArray(d.batch.column(3), label, "label");
  LND_ASSERT_OK_AND_ASSIGN(auto y, ReadRegion(table, "cube", "y", {}, &stats));
  EXPECT_EQ(stats.rows_read, 2u);
  ExpectSameArray(d.batch.column(2), y, "y");
}

TEST(RegionTest, MissingChunksReadAsNullsAndMakeReadDatasetFail) {
  const TestDataset d = Cube();
  std::vector<nd::NdRecordBatch> rows = region_testing::SplitIntoChunks(d);
  const ChunkGrid grid = region_testing::GridOf(d);
  const std::uint64_t gone = 11;
  rows.erase(rows.begin() + static_cast<std::ptrdiff_t>(gone));
  const Table table = Unwrap(Table::Write(api_testing::MemoryTable(), rows));
  LND_ASSERT_OK_AND_ASSIGN(auto got, ReadRegion(table, "cube", "temp", {}));
  const array::ArrayData& values = *got.values();
  const array::ArrayData& want = *d.batch.column(0).values();
  const ChunkPosition pos = grid.Position(gone);
  const std::vector<std::uint64_t> ext = grid.Extent(gone);
  auto inside = [&](std::size_t k, std::uint64_t i) {
    return i >= pos.offset[k] && i < pos.offset[k] + ext[k];
  };
  int nulls = 0;
  for (std::uint64_t t = 0; t < 5; ++t) {
    for (std::uint64_t y = 0; y < 6; ++y) {
      for (std::uint64_t x = 0; x < 7; ++x) {
        const auto i = static_cast<int64_t>((t * 6 + y) * 7 + x);
        if (inside(0, t) && inside(1, y) && inside(2, x)) {
          EXPECT_TRUE(values.IsNull(i)) << t << " " << y << " " << x;
          ++nulls;
        } else {
          ASSERT_EQ(values.IsNull(i), want.IsNull(i));
          if (!want.IsNull(i)) {
            EXPECT_EQ(array::PrimitiveView<float>(values).Value(i),
                      array::PrimitiveView<float>(want).Value(i));
          }
        }
      }
    }
  }
  EXPECT_EQ(nulls, 4);  // t 2..3, y 4..5, x 6
  LND_EXPECT_ERROR(ReadDataset(table, "cube"), StatusCode::kInvalidArgument,
                   "dataset 'cube' is incomplete: 17 of 18 chunk rows found, chunk_index 11 "
                   "missing; expected chunk_index 0..17 once each");
}

TEST(RegionTest, PlainRowDatasets) {
  Rng rng(3);
  nd::Attributes globals;
  globals.Set("id", "plain");
  const nd::NdArrowArray temp = nd::testing::Nd(
      nd::testing::RandomValues(rng, nd::testing::ValueKind::kI32, 12), {{"y", 3}, {"x", 4}});
  const nd::NdRecordBatch row = nd::testing::Batch(
      {{"temp", temp},
       {"x", nd::testing::Nd(region_testing::Coordinates(rng, 4, true), {{"x", 4}})}},
      globals);
  const nd::NdRecordBatch no_id = nd::testing::Batch({{"temp", temp}});
  std::vector<nd::NdRecordBatch> rows = {no_id, row, no_id};
  const Table table = Unwrap(Table::Write(api_testing::MemoryTable(), rows));
  RegionReadStats stats;
  LND_ASSERT_OK_AND_ASSIGN(
      auto got,
      ReadRegion(table, "plain", "temp",
                 {{"x", DimSelector::Range(1, -1)}, {"y", DimSelector::Index(-3)}}, &stats));
  ExpectSameArray(Cut(temp, {0, 1}, {1, 2}, {true, false}), got, "plain");
  EXPECT_EQ(stats.rows_read, 1u);
  EXPECT_EQ(stats.dataset_rows, 1u);
  EXPECT_EQ(stats.table_rows, 3u);
  LND_ASSERT_OK_AND_ASSIGN(auto whole, ReadDataset(table, "plain"));
  EXPECT_TRUE(whole.Equals(row)) << whole.ToString();
  LND_ASSERT_OK_AND_ASSIGN(auto listed, ListDatasets(table));
  ASSERT_EQ(listed.size(), 1u);  // rows without an id are in no dataset
  EXPECT_EQ(listed[0].id, "plain");
  EXPECT_FALSE(listed[0].layout.has_value());
  EXPECT_EQ(listed[0].first_row, std::optional<std::uint64_t>(1));
}

TEST(RegionTest, Errors) {
  const TestDataset d = Cube();
  Rng rng(2);
  const Table table = WriteChunked(rng, {d});
  const auto read = [&](std::string_view var, RegionSelection sel) {
    return ReadRegion(table, "cube", var, sel);
  };
  LND_EXPECT_ERROR(ReadRegion(table, "nope", "temp", {}), StatusCode::kNotFound,
                   "no dataset with id 'nope' in the table (the ids are 'cube')");
  LND_EXPECT_ERROR(read("pressure", {}), StatusCode::kNotFound,
                   "the table has no variable 'pressure' (its variables: [");
  LND_EXPECT_ERROR(read("temp", {{"t", DimSelector::Index(5)}}), StatusCode::kInvalidArgument,
                   "index 5 is out of range for dimension 't' of size 5 (expected -5..4)");
  LND_EXPECT_ERROR(read("temp", {{"t", DimSelector::Index(-6)}}), StatusCode::kInvalidArgument,
                   "index -6 is out of range for dimension 't' of size 5");
  LND_EXPECT_ERROR(read("temp", {{"x", DimSelector::Range(2, 8)}}), StatusCode::kInvalidArgument,
                   "range 2:8 is out of range for dimension 'x' of size 7 (range ends lie in "
                   "-7..7)");
  LND_EXPECT_ERROR(read("temp", {{"x", DimSelector::Range(4, -5)}}), StatusCode::kInvalidArgument,
                   "range 4:-5 of dimension 'x' (size 7) starts at index 4, after its stop 2");
  LND_EXPECT_ERROR(read("temp", {{"w", DimSelector::Index(0)}}), StatusCode::kInvalidArgument,
                   "dataset 'cube' has no dimension 'w' (its dimensions: [t, y, x])");
  LND_EXPECT_ERROR(read("t", {{"x", DimSelector::Index(0)}}), StatusCode::kInvalidArgument,
                   "variable 't' has no dimension 'x' (its dimensions: [t])");
  LND_EXPECT_ERROR(read("temp", {{"x", DimSelector::Nearest(1)}}), StatusCode::kInvalidArgument,
                   "selecting 'x' by value: dataset 'cube' has no coordinate variable 'x'");
  LND_EXPECT_ERROR(read("temp", {{"t", DimSelector::Index(0)}, {"t", DimSelector::Index(1)}}),
                   StatusCode::kInvalidArgument, "dimension 't' is selected twice");
  // Every message says what was being read.
  LND_EXPECT_ERROR(read("temp", {{"t", DimSelector::Index(9)}}), StatusCode::kInvalidArgument,
                   "reading 'temp' of dataset 'cube': ");
}

TEST(RegionTest, ChunkRowsThatDisagreeAreRefused) {
  const TestDataset d = Cube();
  std::vector<nd::NdRecordBatch> rows = region_testing::SplitIntoChunks(d);
  rows.push_back(rows[3]);  // chunk 3 twice
  const Table twice = Unwrap(Table::Write(api_testing::MemoryTable(), rows));
  LND_EXPECT_ERROR(ReadRegion(twice, "cube", "temp", {}), StatusCode::kInvalidArgument,
                   "dataset 'cube' has chunk_index 3 twice (rows 3 and 18); expected each chunk "
                   "once (delete the repeated rows)");
  rows.pop_back();
  TestDataset other = d;
  other.layout.dim_sizes[2] = 8;
  nd::Attributes globals = rows[4].attributes();
  ASSERT_TRUE(
      SetChunkAttributes(other.layout, region_testing::GridOf(d).Position(4), &globals).ok());
  rows[4] = rows[4].WithAttributes(globals);
  const Table mixed = Unwrap(Table::Write(api_testing::MemoryTable(), rows));
  LND_EXPECT_ERROR(ReadDataset(mixed, "cube"), StatusCode::kInvalidArgument,
                   "the chunk rows of dataset 'cube' disagree on the layout: row 0 has [t=5, y=6, "
                   "x=7], row 4 has [t=5, y=6, x=8]");
}

TEST(ScannerTakeTest, TakesRowsByIndexWithTheProjection) {
  for (int seed = 0; seed < 30; ++seed) {
    Rng rng(static_cast<std::uint64_t>(seed));
    const api_testing::Universe u = api_testing::RandomUniverse(rng);
    std::vector<nd::NdRecordBatch> rows = api_testing::RandomRows(rng, u, 12);
    Table table = Unwrap(Table::Write(api_testing::MemoryTable(), rows));
    ASSERT_TRUE(table.Append(api_testing::RandomRows(rng, u, 5)).ok());
    std::vector<std::string> projection = {"v" + std::to_string(Uniform(rng, 0, 7))};
    const auto all = Unwrap(table.Scan().Project(projection).ReadAll());
    std::vector<std::uint64_t> take;
    for (int i = 0; i < 6; ++i) take.push_back(static_cast<std::uint64_t>(Uniform(rng, 0, 16)));
    const auto got = Unwrap(table.Scan().Project(projection).Take(take));
    ASSERT_EQ(got.size(), take.size());
    for (std::size_t i = 0; i < take.size(); ++i) {
      EXPECT_TRUE(all[take[i]].Equals(got[i])) << "seed " << seed << " row " << take[i];
    }
  }
  Rng rng(9);
  const api_testing::Universe u = api_testing::RandomUniverse(rng);
  const Table table =
      Unwrap(Table::Write(api_testing::MemoryTable(), api_testing::RandomRows(rng, u, 3)));
  const std::vector<std::uint64_t> one = {0};
  LND_EXPECT_ERROR(
      table.Scan().Limit(1).Take(one), StatusCode::kInvalidArgument,
      "Take reads the rows it is given; it does not combine with Filter, Prune or Limit");
  const std::vector<std::uint64_t> beyond = {3};
  LND_EXPECT_ERROR(table.Scan().Take(beyond), StatusCode::kInvalidArgument,
                   "row 3 is out of range");
}

}  // namespace
}  // namespace lance_nd
