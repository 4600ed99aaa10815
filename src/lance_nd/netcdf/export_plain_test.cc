// Export of plain lance-nd rows (no chunk convention): each row is a dataset of its own with
// the dimensions of its arrays; several datasets without a common root become groups named by
// their ids.
#include <gtest/gtest.h>

#include <random>

#include "lance_nd/api/table.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/netcdf/export.h"
#include "lance_nd/testing/status_matchers.h"
#include "netcdf_test_util.h"

namespace lance_nd::netcdf {
namespace {

// Row `id` with v(x = n) holding n seeded int32 values, some null.
nd::NdRecordBatch PlainRow(const std::string& id, std::uint64_t n, std::mt19937& rng,
                           std::vector<std::optional<std::int32_t>>* values) {
  array::PrimitiveBuilder<std::int32_t> b(array::Int32());
  for (std::uint64_t i = 0; i < n; ++i) {
    if (rng() % 4 == 0) {
      b.AppendNull();
      values->push_back(std::nullopt);
    } else {
      const auto v = static_cast<std::int32_t>(rng() % 1000);
      b.Append(v);
      values->push_back(v);
    }
  }
  auto dims = nd::Dimensions::Make({{"x", n}});
  nd::Attributes attrs;
  attrs.Set("_FillValue", std::int32_t{-1});
  auto v = nd::NdArrowArray::Make(*b.Finish(), *dims, attrs);
  nd::Attributes globals;
  globals.Set("id", id);
  return *nd::NdRecordBatch::FromArrays({{"v", *v}}, globals);
}

TEST(ExportPlainRows, EachRowIsAGroupNamedByItsId) {
  testing::TempDir dir("plain_export");
  const std::string table = dir.Path("t.lance");
  std::mt19937 rng(5);
  std::vector<std::optional<std::int32_t>> a_values, b_values;
  std::vector<nd::NdRecordBatch> rows{PlainRow("a", 5, rng, &a_values),
                                      PlainRow("b/c", 3, rng, &b_values)};
  WriteOptions options;
  LND_ASSERT_OK(Table::Write(table, rows, options).status());
  const std::string out = dir.Path("out.nc");
  ExportOptions eo;
  eo.filter = "__global_attrs__.id IS NOT NULL";
  std::vector<std::pair<std::uint64_t, std::uint64_t>> progress;
  eo.progress = [&](std::uint64_t written, std::uint64_t total) {
    progress.emplace_back(written, total);
  };
  LND_ASSERT_OK_AND_ASSIGN(ExportResult result, ExportNetcdf(table, out, eo));
  EXPECT_EQ(result.datasets, 2u);
  using Step = std::pair<std::uint64_t, std::uint64_t>;
  EXPECT_EQ(progress, (std::vector<Step>{{1, 2}, {2, 2}}));
  int ncid = -1;
  ASSERT_EQ(nc_open(out.c_str(), NC_NOWRITE, &ncid), NC_NOERR);
  for (const auto& [path, want] : std::vector<std::pair<std::string, decltype(a_values)*>>{
           {"/a", &a_values}, {"/b/c", &b_values}}) {
    int group = -1, varid = -1;
    ASSERT_EQ(nc_inq_grp_full_ncid(ncid, path.c_str(), &group), NC_NOERR) << path;
    ASSERT_EQ(nc_inq_varid(group, "v", &varid), NC_NOERR) << path;
    std::vector<std::int32_t> got(want->size());
    nc_get_var_int(group, varid, got.data());
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i], (*want)[i].value_or(-1)) << path << " at " << i;
    }
  }
  nc_close(ncid);
  // Two rows of one dataset that are not chunk rows cannot be placed.
  std::vector<nd::NdRecordBatch> twice{PlainRow("a", 2, rng, &a_values)};
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(table));
  LND_ASSERT_OK(t.Append(twice));
  eo.filter.reset();
  eo.id = "a";
  LND_EXPECT_ERROR(ExportNetcdf(table, out, eo), StatusCode::kInvalidArgument,
                   "has several rows and they are not all chunk rows");
}

}  // namespace
}  // namespace lance_nd::netcdf
