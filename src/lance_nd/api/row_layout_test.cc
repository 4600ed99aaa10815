// ReadRowLayout against the rows Scanner::Take decodes, on generated tables.
#include <gtest/gtest.h>

#include "lance_nd/api/api_test_util.h"
#include "lance_nd/api/region.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/testing/nd_test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using nd::testing::ExpectLayoutOf;
using nd::testing::Rng;
using nd::testing::Uniform;
using nd::testing::Unwrap;

TEST(ReadRowLayoutTest, GeneratedRowsMatchTheirDecodedRows) {
  for (int seed = 0; seed < 6; ++seed) {
    Rng rng(static_cast<std::uint64_t>(700 + seed));
    const api_testing::Universe u = api_testing::RandomUniverse(rng, 5);
    Table table =
        Unwrap(Table::Write(api_testing::MemoryTable(), api_testing::RandomRows(rng, u, 40, 0.6)));
    // A second commit may extend the schema with keys and variables the first lacked.
    ASSERT_TRUE(table.Append(api_testing::RandomRows(rng, u, 25, 0.6)).ok());
    const std::vector<nd::NdRecordBatch> all = Unwrap(table.Scan().ReadAll());
    // Many rows in one read, in any order, with repeats.
    std::vector<std::uint64_t> rows;
    for (int k = 0; k < 30; ++k) {
      rows.push_back(
          static_cast<std::uint64_t>(Uniform(rng, 0, static_cast<int64_t>(all.size()) - 1)));
    }
    const std::vector<nd::NdRowLayout> layouts = Unwrap(ReadRowLayouts(table, rows));
    ASSERT_EQ(layouts.size(), rows.size());
    for (std::size_t k = 0; k < rows.size(); ++k) {
      ExpectLayoutOf(all[rows[k]], layouts[k],
                     "seed " + std::to_string(seed) + " rows[" + std::to_string(k) + "]");
    }
    EXPECT_TRUE(Unwrap(ReadRowLayouts(table, {})).empty());
    for (int k = 0; k < 20; ++k) {
      const auto r =
          static_cast<std::uint64_t>(Uniform(rng, 0, static_cast<int64_t>(all.size()) - 1));
      const nd::NdRowLayout layout = Unwrap(ReadRowLayout(table, r));
      ExpectLayoutOf(all[r], layout, "seed " + std::to_string(seed) + " row " + std::to_string(r));
    }
  }
}

TEST(ReadRowLayoutTest, ARowOutOfRangeIsInvalidArgument) {
  Rng rng(3);
  const api_testing::Universe u = api_testing::RandomUniverse(rng, 2);
  Table table =
      Unwrap(Table::Write(api_testing::MemoryTable(), api_testing::RandomRows(rng, u, 5)));
  LND_EXPECT_ERROR(ReadRowLayout(table, 5), StatusCode::kInvalidArgument,
                   "reading the layout of row 5");
}

}  // namespace
}  // namespace lance_nd
