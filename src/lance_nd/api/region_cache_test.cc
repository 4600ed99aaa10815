// The per-version index of region reads, the kept data files and the kept decoded rows: reads
// after an append, a checkout, an overwrite and a delete see their own version; reads from
// several threads on one table agree with hyperslabs cut in memory; kept rows are reused and
// stay within their byte budget.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "lance_nd/api/api_test_util.h"
#include "lance_nd/api/decoded_rows.h"
#include "lance_nd/api/region.h"
#include "lance_nd/api/region_test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using region_testing::Cut;
using region_testing::Rng;
using region_testing::TestDataset;
using region_testing::Uniform;
using region_testing::Unwrap;

/// A dataset with a 2-D variable `v` over (t, y), split in chunks of 2 x 3.
TestDataset GridDataset(Rng& rng, const std::string& id, std::uint64_t nt, std::uint64_t ny) {
  TestDataset d;
  d.layout.id = id;
  d.layout.dim_names = {"t", "y"};
  d.layout.dim_sizes = {nt, ny};
  auto values =
      nd::testing::RandomValues(rng, nd::testing::ValueKind::kF64, static_cast<int64_t>(nt * ny));
  nd::Attributes globals;
  globals.Set(std::string(chunk_keys::kId), id);
  d.batch = Unwrap(nd::NdRecordBatch::FromArrays(
      {{"v", nd::testing::Nd(values, {{"t", nt}, {"y", ny}}, {})}}, std::move(globals)));
  d.chunk_sizes = {{"t", 2}, {"y", 3}};
  return d;
}

nd::NdArrowArray Whole(const TestDataset& d) { return d.batch.column(0); }

void ExpectRegion(const Table& table, const TestDataset& d, const std::string& what) {
  auto got = ReadRegion(table, d.layout.id, "v", {});
  ASSERT_TRUE(got.ok()) << what << ": " << got.status().ToString();
  EXPECT_TRUE(Whole(d).Equals(*got)) << what;
}

TEST(RegionCacheTest, ReadsSeeTheirOwnVersion) {
  Rng rng(11);
  const TestDataset a = GridDataset(rng, "a", 5, 7);
  const TestDataset b = GridDataset(rng, "b", 4, 4);
  const TestDataset a2 = GridDataset(rng, "a", 3, 8);
  const table::TableLocation location = api_testing::MemoryTable();
  Table table = Unwrap(Table::Write(location, region_testing::SplitIntoChunks(a)));
  ExpectRegion(table, a, "version 1");
  LND_EXPECT_ERROR(ReadRegion(table, "b", "v", {}), StatusCode::kNotFound, "no dataset with id");

  ASSERT_TRUE(table.Append(region_testing::SplitIntoChunks(b)).ok());
  ExpectRegion(table, b, "after the append");
  ExpectRegion(table, a, "after the append");
  EXPECT_EQ(Unwrap(ListDatasets(table)).size(), 2u);

  const Table first = Unwrap(table.Checkout(1));
  ExpectRegion(first, a, "checkout of version 1");
  LND_EXPECT_ERROR(ReadRegion(first, "b", "v", {}), StatusCode::kNotFound, "no dataset with id");
  EXPECT_EQ(Unwrap(ListDatasets(first)).size(), 1u);

  WriteOptions overwrite;
  overwrite.mode = WriteMode::kOverwrite;
  Table replaced = Unwrap(Table::Write(location, region_testing::SplitIntoChunks(a2), overwrite));
  ExpectRegion(replaced, a2, "after the overwrite");
  ExpectRegion(table, a, "the appended version, after the overwrite");
  ExpectRegion(Unwrap(Table::Open(location)), a2, "reopened after the overwrite");

  ASSERT_TRUE(table.Refresh().ok());
  ASSERT_EQ(Unwrap(table.Delete("__global_attrs__.id = 'a'")), 6u);  // 3 x 8 in 2 x 3 chunks
  LND_EXPECT_ERROR(ReadRegion(table, "a", "v", {}), StatusCode::kNotFound, "no dataset with id");
  ExpectRegion(replaced, a2, "the overwritten version, after the delete");
}

TEST(RegionCacheTest, ReadsFromSeveralThreadsAgree) {
  Rng rng(5);
  std::vector<TestDataset> datasets;
  std::vector<nd::NdRecordBatch> rows;
  for (int i = 0; i < 3; ++i) {
    datasets.push_back(GridDataset(rng, "d" + std::to_string(i), 6, 9));
    for (auto& row : region_testing::SplitIntoChunks(datasets.back())) rows.push_back(row);
  }
  const Table table = Unwrap(Table::Write(api_testing::MemoryTable(), rows));
  struct Read {
    std::string id;
    RegionSelection selection;
    nd::NdArrowArray want;
  };
  std::vector<Read> reads;
  for (const TestDataset& d : datasets) {
    for (std::uint64_t t = 0; t < 6; ++t) {
      const auto y0 = static_cast<std::uint64_t>(Uniform(rng, 0, 8));
      const auto y1 = static_cast<std::uint64_t>(Uniform(rng, static_cast<int64_t>(y0), 9));
      RegionSelection s = {
          {"t", DimSelector::Index(static_cast<std::int64_t>(t))},
          {"y", DimSelector::Range(static_cast<std::int64_t>(y0), static_cast<std::int64_t>(y1))}};
      reads.push_back({d.layout.id, s, Cut(Whole(d), {t, y0}, {1, y1 - y0}, {true, false})});
    }
  }
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int k = 0; k < 4; ++k) {
    threads.emplace_back([&table, &reads, &failures, k]() {
      for (int rep = 0; rep < 5; ++rep) {
        for (std::size_t i = 0; i < reads.size(); ++i) {
          const Read& r = reads[(i + static_cast<std::size_t>(k) * 7) % reads.size()];
          auto got = ReadRegion(table, r.id, "v", r.selection);
          if (!got.ok() || !r.want.Equals(*got)) ++failures;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
}

/// A random hyperslab of `d`'s variable with what it should hold.
std::pair<RegionSelection, nd::NdArrowArray> RandomBox(Rng& rng, const TestDataset& d) {
  std::vector<std::uint64_t> lo, n;
  RegionSelection s;
  for (std::size_t k = 0; k < 2; ++k) {
    const auto size = static_cast<int64_t>(d.layout.dim_sizes[k]);
    const int64_t a = Uniform(rng, 0, size - 1);
    const int64_t b = Uniform(rng, a + 1, size);
    s.emplace_back(d.layout.dim_names[k], DimSelector::Range(a, b));
    lo.push_back(static_cast<std::uint64_t>(a));
    n.push_back(static_cast<std::uint64_t>(b - a));
  }
  return {s, Cut(Whole(d), lo, n)};
}

TEST(RegionCacheTest, DecodedRowsAreReusedWithinTheBudget) {
  Rng rng(23);
  const TestDataset d = GridDataset(rng, "g", 10, 12);  // 5 x 4 chunk rows
  const Table written =
      Unwrap(Table::Write(api_testing::MemoryTable(), region_testing::SplitIntoChunks(d)));
  ClearReadCaches();
  const Table table = Unwrap(Table::Open(written.location()));
  RegionReadStats stats;
  ASSERT_TRUE(Whole(d).Equals(Unwrap(ReadRegion(table, "g", "v", {}, &stats))));
  EXPECT_EQ(stats.rows_read, 20u);
  EXPECT_EQ(stats.rows_decoded, 20u);
  EXPECT_GT(api_internal::DecodedBytes(), 0u);
  for (int i = 0; i < 40; ++i) {  // every row is kept now: nothing is decoded again
    const auto [selection, want] = RandomBox(rng, d);
    const nd::NdArrowArray got = Unwrap(ReadRegion(table, "g", "v", selection, &stats));
    EXPECT_TRUE(want.Equals(got)) << i;
    EXPECT_GT(stats.rows_read, 0u);
    EXPECT_EQ(stats.rows_decoded, 0u) << i;
  }
  // A reopened table of the same version shares the kept rows; a cleared cache does not.
  const Table reopened = Unwrap(Table::Open(table.location()));
  ASSERT_TRUE(Whole(d).Equals(Unwrap(ReadRegion(reopened, "g", "v", {}, &stats))));
  EXPECT_EQ(stats.rows_decoded, 0u);
  ClearReadCaches();
  EXPECT_EQ(api_internal::DecodedBytes(), 0u);
  ASSERT_TRUE(Whole(d).Equals(Unwrap(ReadRegion(reopened, "g", "v", {}, &stats))));
  EXPECT_EQ(stats.rows_decoded, 20u);
}

TEST(RegionCacheTest, ListingsNameTheRowOfChunkZero) {
  Rng rng(31);
  std::vector<nd::NdRecordBatch> rows;
  for (const auto& row : region_testing::SplitIntoChunks(GridDataset(rng, "g", 4, 6))) {
    const auto chunk = Unwrap(ReadChunkAttributes(row.attributes()));
    if (chunk->position.index != 0) rows.push_back(row);  // chunk 0 left out
  }
  const auto more = region_testing::SplitIntoChunks(GridDataset(rng, "h", 4, 6));
  rows.insert(rows.end(), more.rbegin(), more.rend());  // chunk 0 last
  const Table table = Unwrap(Table::Write(api_testing::MemoryTable(), rows));
  const std::vector<DatasetInfo> listed = Unwrap(ListDatasets(table));
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].id, "g");
  EXPECT_FALSE(listed[0].first_row.has_value());
  EXPECT_EQ(listed[1].id, "h");
  EXPECT_EQ(listed[1].first_row, std::optional<std::uint64_t>(rows.size() - 1));
  // A second listing of the version is the kept one, and the same.
  const std::vector<DatasetInfo> again = Unwrap(ListDatasets(table));
  ASSERT_EQ(again.size(), 2u);
  EXPECT_EQ(again[1].first_row, listed[1].first_row);
}

TEST(RegionCacheTest, TheBudgetBoundsWhatIsKept) {
  Rng rng(29);
  const TestDataset d = GridDataset(rng, "g", 10, 12);
  const Table table =
      Unwrap(Table::Write(api_testing::MemoryTable(), region_testing::SplitIntoChunks(d)));
  ClearReadCaches();
  SetRegionCacheCapacity(0);
  RegionReadStats stats;
  for (int i = 0; i < 20; ++i) {
    const auto [selection, want] = RandomBox(rng, d);
    EXPECT_TRUE(want.Equals(Unwrap(ReadRegion(table, "g", "v", selection, &stats)))) << i;
    EXPECT_EQ(stats.rows_decoded, stats.rows_read) << i;
    EXPECT_EQ(api_internal::DecodedBytes(), 0u);
  }
  // Room for a few rows: the kept bytes never pass the budget, and the row just read is kept.
  ASSERT_TRUE(Whole(d).Equals(Unwrap(ReadRegion(table, "g", "v", {}, &stats))));
  SetRegionCacheCapacity(4096);
  const RegionSelection one = {{"t", DimSelector::Index(3)}, {"y", DimSelector::Index(4)}};
  for (int i = 0; i < 20; ++i) {
    const auto [selection, want] = RandomBox(rng, d);
    EXPECT_TRUE(want.Equals(Unwrap(ReadRegion(table, "g", "v", selection, &stats)))) << i;
    EXPECT_LE(api_internal::DecodedBytes(), 4096u);
    ASSERT_TRUE(ReadRegion(table, "g", "v", one).ok());
    ASSERT_TRUE(ReadRegion(table, "g", "v", one, &stats).ok());
    EXPECT_EQ(stats.rows_read, 1u);
    EXPECT_EQ(stats.rows_decoded, 0u) << i;
  }
  SetRegionCacheCapacity(std::uint64_t{64} << 20);
}

}  // namespace
}  // namespace lance_nd
