// Errors of import and export: unreadable files (named, with nothing committed, or skipped and
// listed with skip_bad), bad options, datasets already in the table, missing chunks.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "lance_nd/api/table.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/netcdf/export.h"
#include "lance_nd/netcdf/import.h"
#include "lance_nd/testing/status_matchers.h"
#include "netcdf_test_util.h"

namespace lance_nd::netcdf {
namespace {

using testing::TempDir;

// A small classic file: x(4) with v(x) = 0..3.
using testing::SmallFile;

// The first `bytes` bytes of `from` as `to`.
void Truncated(const std::string& from, const std::string& to, std::size_t bytes) {
  std::ifstream in(from, std::ios::binary);
  std::string data(bytes, '\0');
  in.read(data.data(), static_cast<std::streamsize>(bytes));
  std::ofstream(to, std::ios::binary).write(data.data(), in.gcount());
}

std::uint64_t VersionOf(const std::string& table) {
  auto t = Table::Open(table);
  return t.ok() ? t->version() : 0;
}

class ImportErrors : public ::testing::Test {
 protected:
  TempDir dir_{"errors"};
  std::string table_ = dir_.Path("t.lance");
};

TEST_F(ImportErrors, NotNetcdfNamesTheFileAndCommitsNothing) {
  const std::string good = dir_.Path("good.nc");
  SmallFile(good);
  const std::string text = dir_.Path("notes.nc");
  std::ofstream(text) << "this is not a netCDF file\n";
  const std::vector<std::string> files{good, text};
  LND_EXPECT_ERROR(ImportNetcdf(table_, files, {}), StatusCode::kIOError, text);
  LND_EXPECT_ERROR(ImportNetcdf(table_, files, {}), StatusCode::kIOError, "cannot open");
  EXPECT_EQ(VersionOf(table_), 0u);
}

TEST_F(ImportErrors, TruncatedFileIsReported) {
  if (testing::FerretDataDir().empty()) GTEST_SKIP() << "ferret-datasets is not installed";
  const std::string cut = dir_.Path("coads_cut.cdf");
  Truncated(testing::FerretDataDir() + "/coads_climatology.cdf", cut, 1 << 20);
  const std::string good = dir_.Path("good.nc");
  SmallFile(good);
  LND_ASSERT_OK(ImportNetcdf(table_, std::vector<std::string>{good}, {}).status());
  const std::vector<std::string> files{dir_.Path("other.nc"), cut};
  SmallFile(files[0]);
  const auto result = ImportNetcdf(table_, files, {});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find(cut), std::string::npos) << result.status().ToString();
  EXPECT_NE(result.status().message().find("truncated"), std::string::npos)
      << result.status().ToString();
  EXPECT_EQ(VersionOf(table_), 1u);  // the good file of this import was not committed
}

TEST_F(ImportErrors, SkipBadListsSkippedFilesAndCommitsTheRest) {
  const std::string a = dir_.Path("a.nc");
  const std::string b = dir_.Path("b.nc");
  SmallFile(a, 0);
  SmallFile(b, 10);
  const std::string bad = dir_.Path("bad.nc");
  std::ofstream(bad) << "no netCDF here";
  ImportOptions options;
  options.skip_bad = true;
  const std::vector<std::string> files{a, bad, b};
  LND_ASSERT_OK_AND_ASSIGN(ImportResult result, ImportNetcdf(table_, files, options));
  ASSERT_EQ(result.skipped.size(), 1u);
  EXPECT_EQ(result.skipped[0].path, bad);
  EXPECT_FALSE(result.skipped[0].error.ok());
  EXPECT_EQ(result.files, 2u);
  EXPECT_EQ(result.version, 1u);
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(table_));
  EXPECT_EQ(*t.CountRows(), 2u);
  EXPECT_EQ(*t.CountRows("__global_attrs__.id = 'b'"), 1u);
}

// A netCDF-4 file x(4) with s(x) strings whose value at `bad_at` is not UTF-8: its structure
// and last value read, its rows do not (a failure during conversion, after the probe).
void BadTextFile(const std::string& path, std::size_t bad_at) {
  int ncid = -1, dim = -1, var = -1;
  ASSERT_EQ(nc_create(path.c_str(), NC_CLOBBER | NC_NETCDF4, &ncid), NC_NOERR);
  nc_def_dim(ncid, "x", 4, &dim);
  nc_def_var(ncid, "s", NC_STRING, 1, &dim, &var);
  nc_enddef(ncid);
  std::vector<std::string> text{"a", "b", "c", "d"};
  text[bad_at] = "\xff\xfe";
  std::vector<const char*> pointers;
  for (const std::string& t : text) pointers.push_back(t.c_str());
  ASSERT_EQ(nc_put_var_string(ncid, var, pointers.data()), NC_NOERR);
  ASSERT_EQ(nc_close(ncid), NC_NOERR);
}

// Seeded: the bad value sits in a later chunk than the first, so rows of the bad file were
// handed to the writer before it failed; none of them may be committed.
TEST_F(ImportErrors, SkipBadSkipsAFileThatFailsDuringConversion) {
  for (std::size_t bad_at = 1; bad_at < 3; ++bad_at) {
    SCOPED_TRACE(bad_at);
    TempDir dir("skipconv");
    const std::string table = dir.Path("t.lance");
    const std::string a = dir.Path("a.nc"), bad = dir.Path("bad.nc"), b = dir.Path("b.nc");
    SmallFile(a, 0);
    BadTextFile(bad, bad_at);
    SmallFile(b, 10);
    ImportOptions options;
    options.chunks = {{"x", 1}};
    const std::vector<std::string> files{a, bad, b};
    // Without --skip-bad the import fails naming the file and the variable; nothing committed.
    LND_EXPECT_ERROR(ImportNetcdf(table, files, options), StatusCode::kInvalidArgument, bad);
    LND_EXPECT_ERROR(ImportNetcdf(table, files, options), StatusCode::kInvalidArgument,
                     "variable s: text that is not UTF-8");
    EXPECT_EQ(VersionOf(table), 0u);
    options.skip_bad = true;
    LND_ASSERT_OK_AND_ASSIGN(ImportResult result, ImportNetcdf(table, files, options));
    ASSERT_EQ(result.skipped.size(), 1u);
    EXPECT_EQ(result.skipped[0].path, bad);
    EXPECT_EQ(result.skipped[0].error.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(result.skipped[0].error.message().find("not UTF-8"), std::string::npos)
        << result.skipped[0].error.ToString();
    EXPECT_EQ(result.files, 2u);
    EXPECT_EQ(result.datasets, 2u);
    EXPECT_EQ(result.rows, 8u);
    EXPECT_EQ(result.version, 1u);
    LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(table));
    EXPECT_EQ(*t.CountRows(), 8u);
    EXPECT_EQ(*t.CountRows("__global_attrs__.id = 'bad'"), 0u);
    EXPECT_EQ(*t.CountRows("__global_attrs__.id = 'b'"), 4u);
  }
}

// A file x(4) with v(x) and a file t(3) with w(t): --chunks x=1 splits the first and leaves the
// second whole; a dimension neither has is an error naming it and the files' dimensions.
TEST_F(ImportErrors, ChunksApplyToTheFilesThatHaveTheDimension) {
  const std::string a = dir_.Path("a.nc");
  SmallFile(a);
  const std::string c = dir_.Path("c.nc");
  {
    int ncid = -1, dim = -1, var = -1;
    ASSERT_EQ(nc_create(c.c_str(), NC_CLOBBER, &ncid), NC_NOERR);
    nc_def_dim(ncid, "t", 3, &dim);
    nc_def_var(ncid, "w", NC_DOUBLE, 1, &dim, &var);
    nc_enddef(ncid);
    const double w[3] = {1, 2, 3};
    nc_put_var_double(ncid, var, w);
    ASSERT_EQ(nc_close(ncid), NC_NOERR);
  }
  const std::vector<std::string> files{a, c};
  ImportOptions options;
  options.chunks = {{"nope", 2}};
  LND_EXPECT_ERROR(ImportNetcdf(table_, files, options), StatusCode::kInvalidArgument,
                   "--chunks names dimension nope, which none of the 2 files has (their "
                   "dimensions: t, x)");
  EXPECT_EQ(VersionOf(table_), 0u);
  options.chunks = {{"x", 1}};
  LND_ASSERT_OK_AND_ASSIGN(ImportResult result, ImportNetcdf(table_, files, options));
  EXPECT_EQ(result.rows, 5u);
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(table_));
  EXPECT_EQ(*t.CountRows("__global_attrs__.id = 'a'"), 4u);
  EXPECT_EQ(*t.CountRows("__global_attrs__.id = 'c'"), 1u);
}

TEST_F(ImportErrors, OptionErrors) {
  const std::string a = dir_.Path("a.nc");
  const std::string b = dir_.Path("b.nc");
  SmallFile(a);
  SmallFile(b);
  ImportOptions options;
  options.chunks = {{"y", 2}};
  LND_EXPECT_ERROR(ImportNetcdf(table_, std::vector<std::string>{a}, options),
                   StatusCode::kInvalidArgument, "--chunks names dimension y");
  options = {};
  options.id = "one";
  LND_EXPECT_ERROR(ImportNetcdf(table_, std::vector<std::string>{a, b}, options),
                   StatusCode::kInvalidArgument, "2 files were given");
  // Two files with one base name give one dataset id twice.
  std::filesystem::create_directories(dir_.Path("sub"));
  SmallFile(dir_.Path("sub/a.nc"));
  LND_EXPECT_ERROR(ImportNetcdf(table_, std::vector<std::string>{a, dir_.Path("sub/a.nc")}, {}),
                   StatusCode::kInvalidArgument, "two files give dataset id a");
  EXPECT_EQ(VersionOf(table_), 0u);
  // A dataset already in the table.
  LND_ASSERT_OK(ImportNetcdf(table_, std::vector<std::string>{a}, {}).status());
  LND_EXPECT_ERROR(ImportNetcdf(table_, std::vector<std::string>{a}, {}),
                   StatusCode::kInvalidArgument, "dataset a is already in the table");
  EXPECT_EQ(VersionOf(table_), 1u);
}

TEST(ParseChunkSizes, AcceptsNameEqualsPositiveInteger) {
  LND_ASSERT_OK_AND_ASSIGN(auto sizes, ParseChunkSizes("TIME=1,COADSX=60"));
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_EQ(sizes[0], (std::pair<std::string, std::uint64_t>{"TIME", 1}));
  EXPECT_EQ(sizes[1], (std::pair<std::string, std::uint64_t>{"COADSX", 60}));
  LND_ASSERT_OK_AND_ASSIGN(auto none, ParseChunkSizes(""));
  EXPECT_TRUE(none.empty());
  for (const char* bad : {"TIME", "TIME=", "=3", "TIME=0", "TIME=-1", "TIME=2x", "a=1,,b=2"}) {
    LND_EXPECT_ERROR(ParseChunkSizes(bad), StatusCode::kInvalidArgument, "is not name=N");
  }
}

TEST_F(ImportErrors, ExportRefusesMissingChunksAndLeavesNoFile) {
  const std::string a = dir_.Path("a.nc");
  SmallFile(a);
  ImportOptions options;
  options.chunks = {{"x", 1}};
  LND_ASSERT_OK(ImportNetcdf(table_, std::vector<std::string>{a}, options).status());
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(table_));
  ASSERT_EQ(*t.Delete("__global_attrs__.chunk_index = 2"), 1u);
  const std::string out = dir_.Path("out.nc");
  ExportOptions eo;
  eo.id = "a";
  LND_EXPECT_ERROR(ExportNetcdf(table_, out, eo), StatusCode::kInvalidArgument,
                   "dataset a has 3 of its 4 chunk rows (chunk 2 is missing)");
  EXPECT_FALSE(std::filesystem::exists(out));
  eo.id = "nothing";
  LND_EXPECT_ERROR(ExportNetcdf(table_, out, eo), StatusCode::kNotFound, "no rows");
  eo.filter = "true";
  LND_EXPECT_ERROR(ExportNetcdf(table_, out, eo), StatusCode::kInvalidArgument, "exactly one");
}

TEST(WriteNetcdf, WholeArraysOfAPlainRow) {
  TempDir dir("plain");
  // A plain lance-nd row (no chunk convention): x(3) floats with a null, a string label.
  array::PrimitiveBuilder<double> b(array::Float64());
  b.Append(1.5);
  b.AppendNull();
  b.Append(-2);
  LND_ASSERT_OK_AND_ASSIGN(auto x, b.Finish());
  LND_ASSERT_OK_AND_ASSIGN(auto dims, nd::Dimensions::Make({{"x", 3}}));
  nd::Attributes attrs;
  attrs.Set("_FillValue", -9.0);
  LND_ASSERT_OK_AND_ASSIGN(auto v, nd::NdArrowArray::Make(x, dims, attrs));
  array::BinaryBuilder s(array::Utf8());
  s.Append("hello");
  LND_ASSERT_OK_AND_ASSIGN(auto sv, s.Finish());
  nd::Attributes char_attrs;
  char_attrs.Set("netcdf:char_dim", "len");
  LND_ASSERT_OK_AND_ASSIGN(auto label, nd::NdArrowArray::Make(sv, nd::Dimensions(), char_attrs));
  nd::Attributes globals;
  globals.Set("title", "plain");
  globals.Set("source:id", "was id");
  LND_ASSERT_OK_AND_ASSIGN(auto row,
                           nd::NdRecordBatch::FromArrays({{"v", v}, {"label", label}}, globals));
  const std::string out = dir.Path("plain.nc");
  LND_ASSERT_OK(WriteNetcdf(out, row));
  int ncid = -1, varid = -1;
  ASSERT_EQ(nc_open(out.c_str(), NC_NOWRITE, &ncid), NC_NOERR);
  ASSERT_EQ(nc_inq_varid(ncid, "v", &varid), NC_NOERR);
  double got[3] = {};
  nc_get_var_double(ncid, varid, got);
  EXPECT_EQ(got[0], 1.5);
  EXPECT_EQ(got[1], -9.0);  // the null, as the _FillValue
  EXPECT_EQ(got[2], -2.0);
  ASSERT_EQ(nc_inq_varid(ncid, "label", &varid), NC_NOERR);
  nc_type type = NC_NAT;
  nc_inq_vartype(ncid, varid, &type);
  EXPECT_EQ(type, NC_CHAR);
  char text[6] = {};
  nc_get_var_text(ncid, varid, text);
  EXPECT_EQ(std::string(text, 5), "hello");
  int dimid = -1;
  std::size_t len = 0;
  ASSERT_EQ(nc_inq_dimid(ncid, "len", &dimid), NC_NOERR);
  nc_inq_dimlen(ncid, dimid, &len);
  EXPECT_EQ(len, 5u);  // as long as the longest string
  char id[16] = {};
  ASSERT_EQ(nc_get_att_text(ncid, NC_GLOBAL, "id", id), NC_NOERR);
  EXPECT_EQ(std::string(id), "was id");
  nc_close(ncid);
}

}  // namespace
}  // namespace lance_nd::netcdf
