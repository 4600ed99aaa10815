// Verify (api/verify.h): untouched tables pass; seeded random byte flips in data files are either
// reported, or the table still reads back (every row decodes) with the rows verify counted.
#include "lance_nd/api/verify.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "lance_nd/api/api_test_util.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using api_testing::MemoryTable;
using api_testing::RandomRows;
using api_testing::RandomUniverse;
using api_testing::ReadRows;

std::vector<std::uint8_t> ReadAllBytes(io::FileSystem& fs, const std::string& path) {
  auto in = fs.OpenForRead(path);
  EXPECT_TRUE(in.ok()) << in.status().ToString();
  auto bytes = io::ReadWholeFile(**in);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  return std::vector<std::uint8_t>((*bytes)->begin(), (*bytes)->end());
}

Status WriteAllBytes(io::FileSystem& fs, const std::string& path,
                     const std::vector<std::uint8_t>& bytes) {
  LND_ASSIGN_OR_RETURN(auto out, fs.Create(path));
  LND_RETURN_NOT_OK(out->Write(bytes));
  return out->Close();
}

struct Written {
  table::TableLocation location;
  std::vector<nd::NdRecordBatch> rows;
  std::vector<std::string> data_files;
};

Written MakeTable(std::uint64_t seed, int num_rows) {
  nd::testing::Rng rng(seed);
  const auto universe = RandomUniverse(rng, 4);
  Written w{MemoryTable(), RandomRows(rng, universe, num_rows), {}};
  // One fragment per commit of at most 8 rows.
  const std::span<const nd::NdRecordBatch> all(w.rows);
  auto table = Table::Write(w.location, all.first(std::min<std::size_t>(8, all.size())));
  EXPECT_TRUE(table.ok()) << table.status().ToString();
  for (std::size_t at = 8; at < all.size(); at += 8) {
    const Status st = table->Append(all.subspan(at, std::min<std::size_t>(8, all.size() - at)));
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  for (const table::Fragment& f : table->dataset().fragments()) {
    for (const table::DataFile& file : f.files) {
      w.data_files.push_back(table->dataset().path() + "/data/" + file.path);
    }
  }
  return w;
}

TEST(VerifyTest, UntouchedTablesPass) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    SCOPED_TRACE(seed);
    const Written w = MakeTable(seed, 20);
    VerifyOptions options;
    options.batch_rows = 3;  // batches that split fragments and pages
    LND_ASSERT_OK_AND_ASSIGN(VerifyReport report, Verify(w.location, options));
    EXPECT_TRUE(report.ok()) << report.Summary();
    EXPECT_EQ(report.rows, 20u);
    EXPECT_EQ(report.fragments, 3u);
    EXPECT_EQ(report.Summary(), "verified 20 rows in 3 fragments, " +
                                    std::to_string(report.columns) + " columns: ok");
  }
}

TEST(VerifyTest, MissingTableAndBadBatchSizeAreErrors) {
  LND_EXPECT_ERROR(Verify(MemoryTable("none")), StatusCode::kNotFound, "no table at none");
  const Written w = MakeTable(3, 4);
  VerifyOptions options;
  options.batch_rows = 0;
  LND_EXPECT_ERROR(Verify(w.location, options), StatusCode::kInvalidArgument,
                   "batches of 0 rows; give at least 1");
}

TEST(VerifyTest, TruncatedDataFileNamesTheFile) {
  const Written w = MakeTable(4, 12);
  auto& fs = *w.location.file_system();
  std::vector<std::uint8_t> bytes = ReadAllBytes(fs, w.data_files[1]);
  bytes.resize(bytes.size() / 2);
  LND_ASSERT_OK(WriteAllBytes(fs, w.data_files[1], bytes));
  LND_ASSERT_OK_AND_ASSIGN(VerifyReport report, Verify(w.location));
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.problem->fragment_id, 1u);
  EXPECT_EQ(report.problem->data_file, w.data_files[1]);
  EXPECT_NE(report.Summary().find("is damaged: fragment 1, data file " + w.data_files[1] +
                                  ": footer or metadata: "),
            std::string::npos)
      << report.Summary();
}

// Seeded trials: flip 1-8 random bytes of one data file. Verify must never say ok about a table
// that then fails to read or decode; when it says ok, the table reads back with the rows it
// counted. Values that still differ are flips inside fixed-width values, which no check without
// checksums can see; they are counted, not failed.
TEST(VerifyTest, RandomByteFlipsAreReportedOrTheTableStillReads) {
  const Written w = MakeTable(33, 24);
  auto& fs = *w.location.file_system();
  std::mt19937_64 rng(2024);
  int reported = 0, unchanged = 0, silent = 0;
  constexpr int kTrials = 300;
  for (int trial = 0; trial < kTrials; ++trial) {
    const std::string& path = w.data_files[rng() % w.data_files.size()];
    const std::vector<std::uint8_t> original = ReadAllBytes(fs, path);
    std::vector<std::uint8_t> damaged = original;
    const int flips = 1 + static_cast<int>(rng() % 8);
    for (int i = 0; i < flips; ++i) {
      damaged[rng() % damaged.size()] ^= static_cast<std::uint8_t>(1 + rng() % 255);
    }
    LND_ASSERT_OK(WriteAllBytes(fs, path, damaged));
    SCOPED_TRACE("trial " + std::to_string(trial) + ", " + path);
    LND_ASSERT_OK_AND_ASSIGN(VerifyReport report, Verify(w.location));
    if (!report.ok()) {
      ++reported;
    } else {
      EXPECT_EQ(report.rows, w.rows.size());
      auto table = Table::Open(w.location);
      ASSERT_TRUE(table.ok()) << "verify said ok, open failed: " << table.status().ToString();
      auto rows = ReadRows(table->dataset());
      ASSERT_TRUE(rows.ok()) << "verify said ok, read failed: " << rows.status().ToString();
      ASSERT_EQ(rows->size(), w.rows.size());
      bool same = true;
      for (std::size_t r = 0; r < rows->size(); ++r) same = same && (*rows)[r].Equals(w.rows[r]);
      ++(same ? unchanged : silent);
    }
    LND_ASSERT_OK(WriteAllBytes(fs, path, original));
  }
  std::cout << "byte flips: " << reported << " reported, " << unchanged << " harmless, " << silent
            << " changed values verify cannot see (fixed-width value bytes)\n";
  EXPECT_GT(reported, kTrials / 4);  // structure damage is found
}

}  // namespace
}  // namespace lance_nd
