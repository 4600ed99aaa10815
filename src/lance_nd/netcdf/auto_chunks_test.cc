// Automatic chunking (ImportOptions::chunk_target_bytes) on seeded generated files larger than a
// small target: the rows tile the dataset exactly, every row holds the source's values (read
// with libnetcdf), split sizes are whole multiples of the file's netCDF-4 chunk sizes, rows
// stay within the target unless one storage chunk is larger, and the export equals the source.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "lance_nd/api/scanner.h"
#include "lance_nd/api/table.h"
#include "lance_nd/netcdf/export.h"
#include "lance_nd/netcdf/import.h"
#include "lance_nd/testing/status_matchers.h"
#include "netcdf_test_util.h"
#include "row_check_test_util.h"

namespace lance_nd::netcdf {
namespace {

using testing::TempDir;
using Rng = std::mt19937_64;

#define NC_OK(expr) ASSERT_EQ((expr), NC_NOERR) << #expr

std::uint64_t Pick(Rng& rng, std::uint64_t lo, std::uint64_t hi) {  // inclusive
  return lo + rng() % (hi - lo + 1);
}

// The file's largest variable `big` (float64) and what the test needs to know of it.
struct BigVariable {
  std::vector<std::string> dims;     // outermost first
  std::vector<std::size_t> sizes;    // per entry of dims
  std::vector<std::size_t> storage;  // netCDF-4 chunk sizes; empty when contiguous
  std::uint64_t bytes = 0;
};

// A file with 1 to 4 dimensions, `big` over all of them in a random order (chunked with random
// chunk sizes in netCDF-4, or contiguous), and `small`, int16 over the first dimension.
void MakeFile(std::uint64_t seed, const std::string& path, BigVariable* big) {
  Rng rng(seed);
  const bool nc4 = rng() % 4 != 0;
  int ncid = -1;
  NC_OK(nc_create(path.c_str(), NC_CLOBBER | (nc4 ? NC_NETCDF4 : 0), &ncid));
  const std::size_t rank = Pick(rng, 1, 4);
  std::vector<int> dim_ids;
  for (std::size_t d = 0; d < rank; ++d) {
    const std::string name = "d" + std::to_string(d);
    const std::size_t size = rank == 1 ? Pick(rng, 200, 900) : Pick(rng, 2, 24);
    int id = -1;
    NC_OK(nc_def_dim(ncid, name.c_str(), size, &id));
    dim_ids.push_back(id);
    big->dims.push_back(name);
    big->sizes.push_back(size);
  }
  std::vector<std::size_t> order(rank);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<int> big_ids;
  BigVariable shuffled;
  for (std::size_t i : order) {
    big_ids.push_back(dim_ids[i]);
    shuffled.dims.push_back(big->dims[i]);
    shuffled.sizes.push_back(big->sizes[i]);
  }
  int var = -1;
  NC_OK(nc_def_var(ncid, "big", NC_DOUBLE, static_cast<int>(rank), big_ids.data(), &var));
  if (nc4 && rng() % 5 != 0) {
    for (std::size_t s : shuffled.sizes) shuffled.storage.push_back(Pick(rng, 1, s));
    NC_OK(nc_def_var_chunking(ncid, var, NC_CHUNKED, shuffled.storage.data()));
  } else if (nc4) {
    NC_OK(nc_def_var_chunking(ncid, var, NC_CONTIGUOUS, nullptr));
  }
  int small = -1;
  NC_OK(nc_def_var(ncid, "small", NC_SHORT, 1, dim_ids.data(), &small));
  NC_OK(nc_enddef(ncid));
  shuffled.bytes = 8;
  for (std::size_t s : shuffled.sizes) shuffled.bytes *= s;
  std::vector<double> values(shuffled.bytes / 8);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i) + 0.25;
  NC_OK(nc_put_var_double(ncid, var, values.data()));
  std::vector<short> shorts(big->sizes[0]);
  std::iota(shorts.begin(), shorts.end(), short{-3});
  NC_OK(nc_put_var_short(ncid, small, shorts.data()));
  NC_OK(nc_close(ncid));
  *big = shuffled;
}

// The unit of automatic chunking along big's dimension i: its netCDF-4 chunk size, else 1.
std::size_t Unit(const BigVariable& big, std::size_t i) {
  return big.storage.empty() ? 1 : big.storage[i];
}

class AutoChunks : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(AutoChunks, RowsTileTheDatasetInMultiplesOfTheFileChunks) {
  const std::uint64_t seed = GetParam();
  TempDir dir("auto");
  const std::string source = dir.Path("source.nc");
  BigVariable big;
  MakeFile(seed, source, &big);
  if (HasFatalFailure()) return;
  Rng rng(seed * 104729);
  ImportOptions options;
  options.chunk_target_bytes = big.bytes / Pick(rng, 2, 40);
  std::string shape;
  for (std::size_t i = 0; i < big.dims.size(); ++i) {
    shape +=
        big.dims[i] + "=" + std::to_string(big.sizes[i]) + "/" + std::to_string(Unit(big, i)) + " ";
  }
  SCOPED_TRACE("seed " + std::to_string(seed) + " big " + shape + " target " +
               std::to_string(options.chunk_target_bytes));

  const std::string table = dir.Path("t.lance");
  LND_ASSERT_OK_AND_ASSIGN(ImportResult imported,
                           ImportNetcdf(table, std::vector<std::string>{source}, options));
  // The choice: split when some dimension's unit is below its size; sizes in whole units.
  bool splittable = false;
  for (std::size_t i = 0; i < big.dims.size(); ++i) splittable |= Unit(big, i) < big.sizes[i];
  ASSERT_EQ(imported.auto_chunked.size(), splittable ? 1u : 0u);
  std::map<std::string, std::uint64_t> chunk;
  for (std::size_t i = 0; i < big.dims.size(); ++i) chunk[big.dims[i]] = big.sizes[i];
  std::uint64_t expected_rows = 1;
  if (splittable) {
    const AutoChunking& choice = imported.auto_chunked[0];
    EXPECT_EQ(choice.dataset_id, "source");
    ASSERT_FALSE(choice.chunks.empty());
    bool at_units = true;
    for (const auto& [name, size] : choice.chunks) {
      const std::size_t i = static_cast<std::size_t>(
          std::find(big.dims.begin(), big.dims.end(), name) - big.dims.begin());
      ASSERT_LT(i, big.dims.size()) << name;
      EXPECT_EQ(size % Unit(big, i), 0u) << name << "=" << size;
      EXPECT_LT(size, big.sizes[i]) << name;
      at_units = at_units && size == Unit(big, i);
      chunk[name] = size;
      expected_rows *= (big.sizes[i] + size - 1) / size;
    }
    std::uint64_t row_bytes = 8;
    for (const auto& [name, size] : chunk) row_bytes *= size;
    EXPECT_EQ(choice.row_bytes, row_bytes);
    // Within the target, unless the outer dimensions are at their units (one storage chunk
    // of them is already larger).
    EXPECT_TRUE(row_bytes <= options.chunk_target_bytes || at_units) << row_bytes;
  }
  EXPECT_EQ(imported.rows, expected_rows);

  // Every row holds the source's values there, and together they cover each value of big once.
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(table));
  LND_ASSERT_OK_AND_ASSIGN(std::vector<nd::NdRecordBatch> rows, t.Scan().ReadAll());
  ASSERT_EQ(rows.size(), expected_rows);
  int ncid = -1;
  ASSERT_EQ(nc_open(source.c_str(), NC_NOWRITE, &ncid), NC_NOERR);
  std::uint64_t covered = 0;
  std::set<std::vector<std::uint64_t>> offsets;
  for (const nd::NdRecordBatch& row : rows) {
    LND_ASSERT_OK_AND_ASSIGN(std::optional<ChunkAttributes> at,
                             ReadChunkAttributes(row.attributes()));
    ASSERT_TRUE(at.has_value());
    EXPECT_TRUE(offsets.insert(at->position.offset).second) << "two rows at one offset";
    EXPECT_EQ(testing::CheckRowAgainstSource(ncid, row), "") << row.ToString();
    const int c = row.ColumnIndex("big");
    ASSERT_GE(c, 0);
    covered += static_cast<std::uint64_t>(row.column(c).num_elements());
    for (const nd::Dimension& d : row.column(c).dimensions().dims()) {
      EXPECT_LE(d.size, chunk[d.name]) << d.name;
    }
  }
  nc_close(ncid);
  EXPECT_EQ(covered, big.bytes / 8);

  const std::string out = dir.Path("out.nc");
  ExportOptions eo;
  eo.id = "source";
  LND_ASSERT_OK(ExportNetcdf(table, out, eo).status());
  EXPECT_EQ(testing::CompareFiles(source, out), "");
}

INSTANTIATE_TEST_SUITE_P(Seeds, AutoChunks, ::testing::Range<std::uint64_t>(1, 41));

// A file under the target is one row; --chunks naming one of its dimensions replaces the
// automatic choice; a target of 0 turns it off.
TEST(AutoChunksChoice, SmallFilesNamedChunksAndZeroTarget) {
  TempDir dir("autochoice");
  const std::string source = dir.Path("source.nc");
  BigVariable big;
  MakeFile(3, source, &big);
  if (HasFatalFailure()) return;
  const std::vector<std::string> files{source};
  struct Case {
    std::uint64_t target;
    std::vector<std::pair<std::string, std::uint64_t>> chunks;
    std::uint64_t rows;
  };
  const std::size_t outer = big.sizes[0];
  for (const Case& c : std::vector<Case>{{big.bytes, {}, 1},
                                         {0, {}, 1},
                                         {8, {{big.dims[0], outer}}, 1},
                                         {8, {{big.dims[0], 1}}, outer}}) {
    TempDir each("autochoice");
    ImportOptions options;
    options.chunk_target_bytes = c.target;
    options.chunks = c.chunks;
    LND_ASSERT_OK_AND_ASSIGN(ImportResult imported,
                             ImportNetcdf(each.Path("t.lance"), files, options));
    EXPECT_EQ(imported.rows, c.rows) << c.target;
    EXPECT_TRUE(imported.auto_chunked.empty()) << c.target;
  }
}

}  // namespace
}  // namespace lance_nd::netcdf
