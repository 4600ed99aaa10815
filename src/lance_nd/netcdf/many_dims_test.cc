// Generated netCDF-4 files shaped like Debian's gmt-dcw file: hundreds of dimensions, each used
// by its own 1-D variables, so that a dataset's logical grid has far more than 2^63 elements
// while each array is small; attribute names hold dots and spaces. Each file must import,
// read back value for value against libnetcdf, export to an equal file and slice.
#include <gtest/gtest.h>
#include <netcdf.h>

#include <cstring>
#include <filesystem>
#include <random>

#include "lance_nd/api/region.h"
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

#define NC_OK(expr) ASSERT_EQ((expr), NC_NOERR) << #expr

// Writes `path` with `num_dims` dimensions of 2-40 values, one or two variables on each.
void WriteManyDimensions(const std::string& path, std::mt19937_64& rng, int num_dims) {
  int ncid = -1;
  NC_OK(nc_create(path.c_str(), NC_NETCDF4 | NC_CLOBBER, &ncid));
  const char* gtitle = "many dimensions";
  NC_OK(nc_put_att_text(ncid, NC_GLOBAL, "title", std::strlen(gtitle), gtitle));
  const int gvalue = 7;
  NC_OK(nc_put_att_int(ncid, NC_GLOBAL, "source.version", NC_INT, 1, &gvalue));
  const nc_type types[] = {NC_FLOAT, NC_DOUBLE, NC_INT, NC_SHORT, NC_UBYTE};
  for (int d = 0; d < num_dims; ++d) {
    const std::size_t size = 2 + rng() % 39;
    int dim = -1;
    NC_OK(nc_def_dim(ncid, ("GD_" + std::to_string(d) + "_length").c_str(), size, &dim));
    const int vars = 1 + static_cast<int>(rng() % 2);
    for (int k = 0; k < vars; ++k) {
      const nc_type type = types[rng() % 5];
      int var = -1;
      NC_OK(nc_def_var(ncid, ("v" + std::to_string(d) + "_" + std::to_string(k)).c_str(), type, 1,
                       &dim, &var));
      const double lo = static_cast<double>(rng() % 50);
      NC_OK(nc_put_att_double(ncid, var, "valid.min", NC_DOUBLE, 1, &lo));
      const char* units = "m s-1";
      NC_OK(nc_put_att_text(ncid, var, "units and.more", std::strlen(units), units));
    }
  }
  NC_OK(nc_enddef(ncid));
  int nvars = 0;
  NC_OK(nc_inq_nvars(ncid, &nvars));
  for (int var = 0; var < nvars; ++var) {
    int dim = -1;
    NC_OK(nc_inq_vardimid(ncid, var, &dim));
    std::size_t size = 0;
    NC_OK(nc_inq_dimlen(ncid, dim, &size));
    std::vector<double> values(size);
    for (double& v : values) v = static_cast<double>(rng() % 200);
    NC_OK(nc_put_var_double(ncid, var, values.data()));
  }
  NC_OK(nc_close(ncid));
}

// Imports `source` as the dataset "dcw" into dir/t.lance: one row, every value as libnetcdf
// reads it, and an export equal to the source. The row in `*row`.
void ImportCheckExport(const std::string& source, const TempDir& dir, nd::NdRecordBatch* row) {
  const std::string table = dir.Path("t.lance");
  ImportOptions options;
  options.id = "dcw";
  LND_ASSERT_OK(ImportNetcdf(table, std::vector<std::string>{source}, options).status());
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(table));
  LND_ASSERT_OK_AND_ASSIGN(std::vector<nd::NdRecordBatch> rows, t.Scan().ReadAll());
  ASSERT_EQ(rows.size(), 1u);
  int ncid = -1;
  ASSERT_EQ(nc_open(source.c_str(), NC_NOWRITE, &ncid), NC_NOERR);
  EXPECT_EQ(testing::CheckRowAgainstSource(ncid, rows[0]), "");
  nc_close(ncid);
  const std::string out = dir.Path("out.nc");
  ExportOptions export_options;
  export_options.id = "dcw";
  LND_ASSERT_OK(ExportNetcdf(table, out, export_options).status());
  EXPECT_EQ(testing::CompareFiles(source, out), "");
  *row = std::move(rows[0]);
}

TEST(ManyDimensions, FilesWhoseGridPassesInt64ImportReadExportAndSlice) {
  std::mt19937_64 rng(202612);
  for (int trial = 0; trial < 3; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    TempDir dir("many_dims");
    const std::string source = dir.Path("dcw.nc");
    const int num_dims = 70 + static_cast<int>(rng() % 350);
    WriteManyDimensions(source, rng, num_dims);
    if (HasFatalFailure()) return;
    nd::NdRecordBatch row;
    ImportCheckExport(source, dir, &row);
    if (HasFatalFailure()) return;
    EXPECT_EQ(row.target().rank(), static_cast<std::size_t>(num_dims));
    EXPECT_EQ(row.target().num_elements(), nd::Dimensions::kUncountable);
    EXPECT_EQ(row.attributes().GetInt64("source.version"), std::optional<int64_t>(7));

    // A region of one variable: the 1-D array, not the grid.
    const std::string var = "v" + std::to_string(num_dims - 1) + "_0";
    LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(dir.Path("t.lance")));
    LND_ASSERT_OK_AND_ASSIGN(nd::NdArrowArray region, ReadRegion(t, "dcw", var, RegionSelection{}));
    EXPECT_EQ(region.rank(), 1u);
    EXPECT_EQ(region.dimensions()[0].name, "GD_" + std::to_string(num_dims - 1) + "_length");
  }
}

// The real file: Debian's gmt-dcw (netCDF-4, 523 dimensions, 1,047 variables; make setup
// installs it). One row, every value checked against libnetcdf, an export equal to the file.
TEST(ManyDimensions, DebianGmtDcwImportsAndExportsEqual) {
  const std::string source = "/usr/share/gmt-dcw/dcw-gmt.nc";
  if (!std::filesystem::exists(source)) GTEST_SKIP() << source << " missing (Debian gmt-dcw)";
  TempDir dir("gmt_dcw");
  nd::NdRecordBatch row;
  ImportCheckExport(source, dir, &row);
  if (HasFatalFailure()) return;
  EXPECT_GT(row.target().rank(), 500u);
}

}  // namespace
}  // namespace lance_nd::netcdf
