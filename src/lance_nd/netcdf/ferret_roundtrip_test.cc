// Round trips of real files (Debian ferret-datasets): import with several chunkings, export,
// and compare the export with the source (libnetcdf: every value's bytes; ncdump text), and
// every imported row with the source. Skipped when the package is missing.
#include <gtest/gtest.h>

#include <random>

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
using ChunkSizes = std::vector<std::pair<std::string, std::uint64_t>>;

struct Dim {
  std::string name;
  std::size_t size;
};

std::vector<Dim> FileDims(const std::string& path) {
  std::vector<Dim> dims;
  int ncid = -1;
  if (nc_open(path.c_str(), NC_NOWRITE, &ncid) != NC_NOERR) return dims;
  int n = 0;
  nc_inq_ndims(ncid, &n);
  for (int d = 0; d < n; ++d) {
    char name[NC_MAX_NAME + 1] = {};
    std::size_t len = 0;
    nc_inq_dim(ncid, d, name, &len);
    dims.push_back({name, len});
  }
  nc_close(ncid);
  return dims;
}

// Import `file` with `chunks` into a new table, check every row against the source, export it
// and compare the export with the source.
void RoundTrip(const std::string& file, const ChunkSizes& chunks) {
  TempDir dir("ferret");
  const std::string table = dir.Path("t.lance");
  ImportOptions options;
  options.chunks = chunks;
  options.id = "ds";
  const std::vector<std::string> files{file};
  LND_ASSERT_OK_AND_ASSIGN(ImportResult imported, ImportNetcdf(table, files, options));
  EXPECT_EQ(imported.files, 1u);
  EXPECT_EQ(imported.version, 1u);

  // Rows: one per chunk, each holding the source's values at its offsets.
  std::uint64_t expected_rows = 1;
  for (const Dim& d : FileDims(file)) {
    for (const auto& [name, size] : chunks) {
      if (name == d.name) expected_rows *= (d.size + size - 1) / size;
    }
  }
  EXPECT_EQ(imported.rows, expected_rows);
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(table));
  LND_ASSERT_OK_AND_ASSIGN(std::vector<nd::NdRecordBatch> rows, t.Scan().ReadAll());
  ASSERT_EQ(rows.size(), expected_rows);
  int ncid = -1;
  ASSERT_EQ(nc_open(file.c_str(), NC_NOWRITE, &ncid), NC_NOERR);
  for (const nd::NdRecordBatch& row : rows) {
    EXPECT_EQ(testing::CheckRowAgainstSource(ncid, row), "") << row.attributes().ToString();
  }
  nc_close(ncid);

  const std::string out = dir.Path("out.nc");
  ExportOptions eo;
  eo.id = "ds";
  LND_ASSERT_OK_AND_ASSIGN(ExportResult exported, ExportNetcdf(table, out, eo));
  EXPECT_EQ(exported.rows, expected_rows);
  EXPECT_EQ(exported.datasets, 1u);
  EXPECT_EQ(testing::CompareFiles(file, out), "");
  if (testing::HaveTool("ncdump")) {
    EXPECT_EQ(testing::NcdumpBody(file), testing::NcdumpBody(out));
  }
}

class FerretRoundTrip : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (testing::FerretDataDir().empty()) GTEST_SKIP() << "ferret-datasets is not installed";
    path_ = testing::FerretDataDir() + "/" + GetParam();
  }
  std::string path_;
};

TEST_P(FerretRoundTrip, Whole) { RoundTrip(path_, {}); }

// Seeded chunkings over the file's own dimensions: some split unevenly, some left whole, some
// with a chunk larger than the dimension.
TEST_P(FerretRoundTrip, SeededChunkings) {
  std::mt19937_64 rng(std::hash<std::string>{}(GetParam()) % 1000);
  const std::vector<Dim> dims = FileDims(path_);
  for (int round = 0; round < 2; ++round) {
    ChunkSizes chunks;
    for (const Dim& d : dims) {
      if (rng() % 2 == 0) continue;
      const std::uint64_t size = 1 + rng() % (d.size + 2);
      chunks.emplace_back(d.name, size);
    }
    std::string text;
    for (const auto& [n, s] : chunks) text += n + "=" + std::to_string(s) + " ";
    SCOPED_TRACE("chunks: " + text);
    // Keep the test's time bounded: at most 400 chunk rows.
    std::uint64_t rows = 1;
    for (const Dim& d : dims) {
      for (const auto& [n, s] : chunks) {
        if (n == d.name) rows *= (d.size + s - 1) / s;
      }
    }
    if (rows > 400) continue;
    RoundTrip(path_, chunks);
  }
}

INSTANTIATE_TEST_SUITE_P(Files, FerretRoundTrip,
                         ::testing::Values("coads_climatology.cdf", "esku_heat_budget.cdf",
                                           "etopo60.cdf", "levitus_climatology.cdf",
                                           "monthly_navy_winds.cdf", "ocean_atlas_subset.nc"),
                         [](const ::testing::TestParamInfo<std::string>& file) {
                           return file.param.substr(0, file.param.find('.'));
                         });

TEST(CoadsRoundTrip, OneTimeStepPerChunk) {
  if (testing::FerretDataDir().empty()) GTEST_SKIP() << "ferret-datasets is not installed";
  RoundTrip(testing::FerretDataDir() + "/coads_climatology.cdf", {{"TIME", 1}});
}

TEST(CoadsRoundTrip, UnevenLongitudeChunks) {
  if (testing::FerretDataDir().empty()) GTEST_SKIP() << "ferret-datasets is not installed";
  RoundTrip(testing::FerretDataDir() + "/coads_climatology.cdf", {{"COADSX", 7}});
}

TEST(CoadsRoundTrip, NullsWhereTheSourceHasItsFillValue) {
  if (testing::FerretDataDir().empty()) GTEST_SKIP() << "ferret-datasets is not installed";
  TempDir dir("coads_nulls");
  const std::string table = dir.Path("t.lance");
  const std::vector<std::string> files{testing::FerretDataDir() + "/coads_climatology.cdf"};
  LND_ASSERT_OK(ImportNetcdf(table, files, {}).status());
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(table));
  LND_ASSERT_OK_AND_ASSIGN(std::vector<nd::NdRecordBatch> rows,
                           t.Scan().Filter("__global_attrs__.id = 'coads_climatology'").ReadAll());
  ASSERT_EQ(rows.size(), 1u);
  const nd::NdArrowArray* sst = rows[0].GetColumn("SST");
  ASSERT_NE(sst, nullptr);
  EXPECT_EQ(sst->value_type()->id(), array::TypeId::kFloat32);
  EXPECT_EQ(sst->dimensions().ToString(), "[TIME=12, COADSY=90, COADSX=180]");
  // Land points are missing in the source: count them there and compare.
  int ncid = -1;
  ASSERT_EQ(nc_open(files[0].c_str(), NC_NOWRITE, &ncid), NC_NOERR);
  int varid = -1;
  nc_inq_varid(ncid, "SST", &varid);
  std::vector<float> values(12 * 90 * 180);
  nc_get_var_float(ncid, varid, values.data());
  nc_close(ncid);
  std::int64_t missing = 0;
  for (float v : values) missing += v == -1e34f ? 1 : 0;
  EXPECT_GT(missing, 0);
  EXPECT_EQ(sst->values()->null_count(), missing);
  EXPECT_EQ(sst->attributes().GetString("units"), "Deg C");
  EXPECT_EQ(rows[0].attributes().GetString("history"), "FERRET V4.45 (GUI) 22-May-97");
}

}  // namespace
}  // namespace lance_nd::netcdf
