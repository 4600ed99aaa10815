// Scan throughput: a float grid table of about 130 MB on the local disk scanned into nd record
// batches. Disabled by default (it measures, and a Debug build is slow); run it on a Release
// build with --gtest_also_run_disabled_tests --gtest_filter='*ScanThroughput*'.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "lance_nd/api/api_test_util.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

constexpr std::uint64_t kSide = 512;  // a 512 x 512 float32 grid: 1 MiB per row
constexpr int kRows = 130;

std::vector<nd::NdRecordBatch> GridRows(int first, int count) {
  std::vector<nd::NdRecordBatch> rows;
  for (int r = first; r < first + count; ++r) {
    array::PrimitiveBuilder<float> values(array::Float32());
    for (std::uint64_t i = 0; i < kSide * kSide; ++i) {
      values.Append(static_cast<float>(r) + static_cast<float>(i % 997) / 8);
    }
    auto nd_values = nd::NdArrowArray::Make(*values.Finish(),
                                            *nd::Dimensions::Make({{"y", kSide}, {"x", kSide}}));
    nd::Attributes globals;
    globals.Set("row", static_cast<std::int64_t>(r));
    rows.push_back(*nd::NdRecordBatch::FromArrays({{"sst", std::move(*nd_values)}}, globals));
  }
  return rows;
}

TEST(ScanThroughput, DISABLED_FloatGridTableScansIntoNdRecordBatches) {
  const std::string dir = (std::filesystem::temp_directory_path() / "lnd_scan_throughput").string();
  std::filesystem::remove_all(dir);
  const auto location = table::TableLocation::Local(dir + "/t.lance");
  std::optional<Table> table;
  for (int first = 0; first < kRows; first += 26) {  // five fragments
    LND_ASSERT_OK_AND_ASSIGN(table, api_testing::WriteRows(location, GridRows(first, 26)));
  }
  const double bytes = static_cast<double>(kRows) * kSide * kSide * sizeof(float);
  {  // the table read alone, for comparison
    double best = 0;
    for (int repeat = 0; repeat < 3; ++repeat) {
      const auto start = std::chrono::steady_clock::now();
      table::TableScanOptions options;
      options.batch_rows = 256;
      LND_ASSERT_OK_AND_ASSIGN(auto reader, table::ScanTable(table->dataset(), options));
      while (true) {
        LND_ASSERT_OK_AND_ASSIGN(auto batch, reader.Next());
        if (!batch) break;
      }
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      best = std::max(best, bytes / seconds / 1e9);
    }
    std::printf("table read of the same rows (Arrow record batches): %.2f GB/s\n", best);
  }
  for (int threads : {1, 0}) {
    double best = 0;
    for (int repeat = 0; repeat < 3; ++repeat) {
      const auto start = std::chrono::steady_clock::now();
      LND_ASSERT_OK_AND_ASSIGN(NdBatchReader reader,
                               table->Scan().DecodeParallelism(threads).Open());
      int rows = 0;
      double checksum = 0;
      while (true) {
        LND_ASSERT_OK_AND_ASSIGN(auto row, reader.Next());
        if (!row) break;
        const auto& values = *row->column(0).values();
        checksum += static_cast<double>(values.values<float>()[values.length - 1]);
        ++rows;
      }
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      ASSERT_EQ(rows, kRows);
      EXPECT_GT(checksum, 0);
      best = std::max(best, bytes / seconds / 1e9);
    }
    std::printf("scan of %.0f MB into nd record batches, decode parallelism %d: %.2f GB/s\n",
                bytes / 1e6, threads, best);
  }
  {  // every row through the filter path: first pass on the globals, then the fragments
    const auto start = std::chrono::steady_clock::now();
    LND_ASSERT_OK_AND_ASSIGN(NdBatchReader reader,
                             table->Scan().Filter("__global_attrs__.row >= 0").Open());
    int rows = 0;
    while (true) {
      LND_ASSERT_OK_AND_ASSIGN(auto row, reader.Next());
      if (!row) break;
      ++rows;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(rows, kRows);
    std::printf("filtered scan selecting every row: %.2f GB/s\n", bytes / seconds / 1e9);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace lance_nd
