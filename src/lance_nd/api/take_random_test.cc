// Takes of random row selections (sparse to dense, sorted or not, with repeats, with and
// without a projection) on generated tables of several fragments, against a full scan.
#include <gtest/gtest.h>

#include <algorithm>

#include "lance_nd/api/api_test_util.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using nd::testing::Chance;
using nd::testing::Rng;
using nd::testing::Uniform;
using nd::testing::Unwrap;

/// Rows of `0..n-1`, each kept with probability `p`, sorted or shuffled, some repeated.
std::vector<std::uint64_t> RandomSelection(Rng& rng, std::uint64_t n, double p) {
  std::vector<std::uint64_t> rows;
  for (std::uint64_t r = 0; r < n; ++r) {
    if (Chance(rng, p)) rows.push_back(r);
  }
  if (rows.empty())
    rows.push_back(static_cast<std::uint64_t>(Uniform(rng, 0, static_cast<int64_t>(n) - 1)));
  if (Chance(rng, 0.3))
    rows.push_back(
        rows[static_cast<std::size_t>(Uniform(rng, 0, static_cast<int64_t>(rows.size()) - 1))]);
  if (Chance(rng, 0.3)) std::shuffle(rows.begin(), rows.end(), rng);
  return rows;
}

TEST(TakeRandomTest, RandomSelectionsMatchAFullScan) {
  for (int seed = 0; seed < 4; ++seed) {
    Rng rng(static_cast<std::uint64_t>(100 + seed));
    const api_testing::Universe u = api_testing::RandomUniverse(rng, 4);
    const int first = static_cast<int>(Uniform(rng, 600, 1500));
    Table table =
        Unwrap(Table::Write(api_testing::MemoryTable(), api_testing::RandomRows(rng, u, first)));
    ASSERT_TRUE(table.Append(api_testing::RandomRows(rng, u, 400)).ok());
    for (int projected = 0; projected < 2; ++projected) {
      Scanner scan = table.Scan();
      if (projected == 1) scan.Project({"v" + std::to_string(Uniform(rng, 0, 3))});
      const std::vector<nd::NdRecordBatch> all = Unwrap(scan.ReadAll());
      for (double p : {0.002, 0.01, 0.1, 0.5, 1.0}) {
        const std::vector<std::uint64_t> rows = RandomSelection(rng, all.size(), p);
        const std::vector<nd::NdRecordBatch> got = Unwrap(scan.Take(rows));
        ASSERT_EQ(got.size(), rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
          ASSERT_TRUE(all[rows[i]].Equals(got[i]))
              << "seed " << seed << " p " << p << " row " << rows[i]
              << "\nwant: " << all[rows[i]].ToString() << "\ngot:  " << got[i].ToString();
        }
      }
    }
  }
}

}  // namespace
}  // namespace lance_nd
