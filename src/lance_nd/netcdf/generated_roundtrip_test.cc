// Seeded generated netCDF files (classic and netCDF-4; every type; fill and missing values,
// string fill values too;
// char, string and rank-0 variables; unlimited dimensions, also of size 0) imported with
// seeded chunkings (uneven edges, chunks larger than the dimension): every row is checked
// against the source through libnetcdf, variables without a split dimension must be in chunk
// 0 only, and the export must hold the source's data byte for byte.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

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

std::uint64_t Pick(Rng& rng, std::uint64_t lo, std::uint64_t hi) {  // inclusive
  return lo + rng() % (hi - lo + 1);
}

#define NC_OK(expr) ASSERT_EQ((expr), NC_NOERR) << #expr

struct GenDim {
  std::string name;
  std::size_t size;
  bool unlimited;
  int id = -1;
};

struct Generated {
  std::vector<GenDim> dims;  // data dimensions (the char dimension is not chunked)
  std::string char_dim;      // "" when there is none
};

// The value `v` of `type` as bytes (floats as v / 4 and v / 8, exact).
std::vector<unsigned char> NumberOf(nc_type type, int v) {
  std::size_t width = 0;
  nc_inq_type(NC_GLOBAL, type, nullptr, &width);
  std::vector<unsigned char> out(width, 0);
  if (type == NC_FLOAT) {
    const float f = static_cast<float>(v) / 4;
    std::memcpy(out.data(), &f, 4);
  } else if (type == NC_DOUBLE) {
    const double d = v / 8.0;
    std::memcpy(out.data(), &d, 8);
  } else {
    out[0] = static_cast<unsigned char>(v);  // little-endian integers
  }
  return out;
}

// Random numbers 0..9, so that fill and missing values (also 0..9) occur in the data.
std::vector<unsigned char> SmallNumbers(Rng& rng, nc_type type, std::size_t n) {
  std::vector<unsigned char> out;
  for (std::size_t i = 0; i < n; ++i) {
    const auto one = NumberOf(type, static_cast<int>(rng() % 10));
    out.insert(out.end(), one.begin(), one.end());
  }
  return out;
}

std::string RandomText(Rng& rng, std::size_t max_len) {
  std::string s;
  const std::size_t n = Pick(rng, 0, max_len);
  for (std::size_t i = 0; i < n; ++i) s += static_cast<char>('a' + rng() % 26);
  return s;
}

void AddVariable(Rng& rng, int ncid, int index, bool nc4, const Generated& g,
                 const std::vector<int>& dim_ids, int char_dim_id) {
  static const std::vector<nc_type> kClassic = {NC_BYTE,  NC_SHORT,  NC_INT,
                                                NC_FLOAT, NC_DOUBLE, NC_CHAR};
  static const std::vector<nc_type> kNc4 = {NC_BYTE,  NC_UBYTE,  NC_SHORT, NC_USHORT,
                                            NC_INT,   NC_UINT,   NC_INT64, NC_UINT64,
                                            NC_FLOAT, NC_DOUBLE, NC_CHAR,  NC_STRING};
  const auto& types = nc4 ? kNc4 : kClassic;
  nc_type type = types[rng() % types.size()];
  if (type == NC_CHAR && char_dim_id < 0) type = NC_INT;
  // Dimensions: the unlimited one first (classic files require it), then a random subset.
  std::vector<int> dims;
  std::vector<std::size_t> shape;
  for (std::size_t d = 0; d < g.dims.size(); ++d) {
    if (rng() % 2 == 0) {
      dims.push_back(dim_ids[d]);
      shape.push_back(g.dims[d].size);
    }
  }
  const bool char_scalar = type == NC_CHAR && rng() % 4 == 0;
  if (type == NC_CHAR && !char_scalar) {
    dims.push_back(char_dim_id);
    std::size_t len = 0;
    nc_inq_dimlen(ncid, char_dim_id, &len);
    shape.push_back(len);
  }
  if (char_scalar) {
    dims.clear();
    shape.clear();
  }
  const std::string name = "v" + std::to_string(index);
  int varid = -1;
  NC_OK(nc_def_var(ncid, name.c_str(), type, static_cast<int>(dims.size()), dims.data(), &varid));
  const std::string units = RandomText(rng, 6);
  NC_OK(nc_put_att_text(ncid, varid, "units", units.size(), units.data()));
  if (type != NC_CHAR && type != NC_STRING) {
    // A null comes back as the _FillValue, else as the first missing_value (docs/netcdf.md):
    // a second missing value that occurs in the data, or a first one that differs from the
    // fill value, would not round-trip, so the second entry (11) never occurs in the data and
    // the first equals the fill value when there is one. (Nulls from a second entry that does
    // occur are checked by netcdf4_features_test.)
    const int fill_value = static_cast<int>(rng() % 10);
    const bool has_fill = rng() % 2 == 0;
    if (has_fill) {
      NC_OK(nc_put_att(ncid, varid, "_FillValue", type, 1, NumberOf(type, fill_value).data()));
    }
    if (rng() % 3 == 0) {
      auto missing = NumberOf(type, has_fill ? fill_value : static_cast<int>(rng() % 10));
      const auto outside = NumberOf(type, 11);
      missing.insert(missing.end(), outside.begin(), outside.end());
      NC_OK(nc_put_att(ncid, varid, "missing_value", type, 2, missing.data()));
    }
    const auto range = SmallNumbers(rng, type, 2);
    NC_OK(nc_put_att(ncid, varid, "valid_range", type, 2, range.data()));
  }
  std::string string_fill;  // a string variable's _FillValue: its values become nulls
  if (type == NC_STRING && rng() % 2 == 0) {
    string_fill = RandomText(rng, 3);
    const char* pointer = string_fill.c_str();
    NC_OK(nc_put_att_string(ncid, varid, "_FillValue", 1, &pointer));
  }
  NC_OK(nc_enddef(ncid));
  std::size_t n = 1;
  for (std::size_t s : shape) n *= s;
  std::vector<std::size_t> start(shape.size(), 0);
  if (n > 0) {
    if (type == NC_STRING) {
      std::vector<std::string> s;
      for (std::size_t i = 0; i < n; ++i) {
        s.push_back(rng() % 4 == 0 ? string_fill : RandomText(rng, 5));
      }
      std::vector<const char*> p;
      for (const auto& v : s) p.push_back(v.c_str());
      NC_OK(nc_put_vara_string(ncid, varid, start.data(), shape.data(), p.data()));
    } else if (type == NC_CHAR) {
      const std::size_t len = char_scalar ? 1 : shape.back();
      std::string chars(n, '\0');
      for (std::size_t i = 0; i < n / len; ++i) {
        const std::string s = RandomText(rng, len);
        std::memcpy(chars.data() + i * len, s.data(), s.size());
      }
      NC_OK(nc_put_vara_text(ncid, varid, start.data(), shape.data(), chars.data()));
    } else {
      const auto values = SmallNumbers(rng, type, n);
      NC_OK(nc_put_vara(ncid, varid, start.data(), shape.data(), values.data()));
    }
  }
  NC_OK(nc_redef(ncid));
}

// A random file at `path`; its dimensions in `*g`.
void MakeFile(std::uint64_t seed, const std::string& path, Generated* g) {
  Rng rng(seed);
  const bool nc4 = seed % 2 == 0;
  int ncid = -1;
  NC_OK(nc_create(path.c_str(), nc4 ? NC_NETCDF4 : NC_CLOBBER, &ncid));
  if (rng() % 2 == 0) g->dims.push_back({"rec", seed % 5 == 0 ? 0 : Pick(rng, 1, 5), true});
  const std::size_t fixed = Pick(rng, 0, 3);
  for (std::size_t d = 0; d < fixed; ++d) {
    g->dims.push_back({"d" + std::to_string(d), Pick(rng, 1, 7), false});
  }
  std::vector<int> ids;
  for (GenDim& d : g->dims) {
    NC_OK(nc_def_dim(ncid, d.name.c_str(), d.unlimited ? NC_UNLIMITED : d.size, &d.id));
    ids.push_back(d.id);
  }
  int char_dim_id = -1;
  if (rng() % 2 == 0) {
    g->char_dim = "strlen";
    NC_OK(nc_def_dim(ncid, "strlen", Pick(rng, 1, 5), &char_dim_id));
  }
  const std::string title = "seed " + std::to_string(seed);
  NC_OK(nc_put_att_text(ncid, NC_GLOBAL, "title", title.size(), title.data()));
  // Source attributes named like the chunk keys are stored renamed and come back.
  if (rng() % 2 == 0) {
    NC_OK(nc_put_att_text(ncid, NC_GLOBAL, "id", 3, "src"));
  }
  if (rng() % 2 == 0) {
    const int index = 7;
    NC_OK(nc_put_att_int(ncid, NC_GLOBAL, "chunk_index", NC_INT, 1, &index));
  }
  const int nvars = static_cast<int>(Pick(rng, 1, 5));
  for (int v = 0; v < nvars; ++v) {
    AddVariable(rng, ncid, v, nc4, *g, ids, char_dim_id);
    if (::testing::Test::HasFatalFailure()) return;
  }
  NC_OK(nc_close(ncid));
}

std::vector<std::pair<std::string, std::uint64_t>> RandomChunks(Rng& rng, const Generated& g) {
  std::vector<std::pair<std::string, std::uint64_t>> chunks;
  for (const GenDim& d : g.dims) {
    if (rng() % 3 == 0) continue;
    chunks.emplace_back(d.name, Pick(rng, 1, d.size + 2));
  }
  return chunks;
}

class GeneratedRoundTrip : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(GeneratedRoundTrip, ImportCheckExport) {
  const std::uint64_t seed = GetParam();
  TempDir dir("gen");
  const std::string source = dir.Path("source.nc");
  Generated g;
  MakeFile(seed, source, &g);
  if (HasFatalFailure()) return;
  {  // an unlimited dimension no variable writes to stays at 0
    int id = -1, dim = -1;
    ASSERT_EQ(nc_open(source.c_str(), NC_NOWRITE, &id), NC_NOERR);
    for (GenDim& d : g.dims) {
      nc_inq_dimid(id, d.name.c_str(), &dim);
      nc_inq_dimlen(id, dim, &d.size);
    }
    nc_close(id);
  }
  Rng rng(seed * 7919);
  const auto chunks = RandomChunks(rng, g);
  std::string text;
  for (const auto& [n, s] : chunks) text += n + "=" + std::to_string(s) + " ";
  SCOPED_TRACE("seed " + std::to_string(seed) + " chunks " + text);

  const std::string table = dir.Path("t.lance");
  ImportOptions options;
  options.chunks = chunks;
  const std::vector<std::string> files{source};
  LND_ASSERT_OK_AND_ASSIGN(ImportResult imported, ImportNetcdf(table, files, options));
  std::uint64_t expected_rows = 1;
  std::set<std::string> split;
  for (const GenDim& d : g.dims) {
    for (const auto& [n, s] : chunks) {
      if (n != d.name) continue;
      const std::uint64_t k = d.size == 0 ? 1 : (d.size + s - 1) / s;
      expected_rows *= k;
      if (k > 1) split.insert(n);
    }
  }
  EXPECT_EQ(imported.rows, expected_rows);

  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(table));
  LND_ASSERT_OK_AND_ASSIGN(std::vector<nd::NdRecordBatch> rows, t.Scan().ReadAll());
  ASSERT_EQ(rows.size(), expected_rows);
  int ncid = -1;
  ASSERT_EQ(nc_open(source.c_str(), NC_NOWRITE, &ncid), NC_NOERR);
  std::map<std::string, int> appearances;
  for (const nd::NdRecordBatch& row : rows) {
    EXPECT_EQ(row.attributes().GetString("id"), "source");
    EXPECT_EQ(testing::CheckRowAgainstSource(ncid, row), "") << row.ToString();
    for (int c = 0; c < row.num_columns(); ++c) ++appearances[row.column_name(c)];
  }
  // A variable with a split dimension is in every row; the others only in chunk 0.
  int nvars = 0;
  nc_inq_nvars(ncid, &nvars);
  for (int v = 0; v < nvars; ++v) {
    char name[NC_MAX_NAME + 1] = {};
    nc_inq_varname(ncid, v, name);
    int ndims = 0;
    nc_inq_varndims(ncid, v, &ndims);
    std::vector<int> ids(static_cast<std::size_t>(ndims));
    nc_inq_vardimid(ncid, v, ids.data());
    bool has_split = false;
    for (int id : ids) {
      char dname[NC_MAX_NAME + 1] = {};
      nc_inq_dimname(ncid, id, dname);
      has_split = has_split || split.contains(dname);
    }
    EXPECT_EQ(appearances[name], has_split ? static_cast<int>(expected_rows) : 1) << name;
  }
  nc_close(ncid);

  const std::string out = dir.Path("out.nc");
  ExportOptions eo;
  eo.id = "source";
  LND_ASSERT_OK(ExportNetcdf(table, out, eo).status());
  EXPECT_EQ(testing::CompareFiles(source, out), "");
}

// A string variable's _FillValue and missing_value strings are nulls, as numbers' are; the
// export writes nulls back as the _FillValue.
TEST(StringFill, ValuesEqualToTheFillAreNullsAndExportAsTheFill) {
  TempDir dir("strfill");
  const std::string source = dir.Path("s.nc");
  int ncid = -1, dim = -1, var = -1;
  NC_OK(nc_create(source.c_str(), NC_CLOBBER | NC_NETCDF4, &ncid));
  NC_OK(nc_def_dim(ncid, "x", 5, &dim));
  NC_OK(nc_def_var(ncid, "s", NC_STRING, 1, &dim, &var));
  const char* fill = "-";
  NC_OK(nc_put_att_string(ncid, var, "_FillValue", 1, &fill));
  const char* missing = "NA";
  NC_OK(nc_put_att_string(ncid, var, "missing_value", 1, &missing));
  NC_OK(nc_enddef(ncid));
  const char* values[5] = {"a", "-", "b", "NA", ""};
  NC_OK(nc_put_var_string(ncid, var, values));
  NC_OK(nc_close(ncid));

  const std::string table = dir.Path("t.lance");
  LND_ASSERT_OK(ImportNetcdf(table, std::vector<std::string>{source}, {}).status());
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(table));
  LND_ASSERT_OK_AND_ASSIGN(std::vector<nd::NdRecordBatch> rows, t.Scan().ReadAll());
  ASSERT_EQ(rows.size(), 1u);
  const array::ArrayData& got = *rows[0].column(rows[0].ColumnIndex("s")).values();
  const std::vector<bool> nulls{false, true, false, true, false};
  for (std::size_t i = 0; i < nulls.size(); ++i) {
    EXPECT_EQ(got.IsNull(static_cast<std::int64_t>(i)), nulls[i]) << i;
  }
  EXPECT_EQ(got.null_count(), 2);

  const std::string out = dir.Path("out.nc");
  ExportOptions eo;
  eo.id = "s";
  LND_ASSERT_OK(ExportNetcdf(table, out, eo).status());
  NC_OK(nc_open(out.c_str(), NC_NOWRITE, &ncid));
  NC_OK(nc_inq_varid(ncid, "s", &var));
  char* back[5] = {};
  NC_OK(nc_get_var_string(ncid, var, back));
  const std::vector<std::string> want{"a", "-", "b", "-", ""};  // nulls as the _FillValue
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(back[i], want[i]) << i;
  nc_free_string(5, back);
  char* att = nullptr;
  NC_OK(nc_get_att_string(ncid, var, "_FillValue", &att));
  EXPECT_STREQ(att, "-");
  nc_free_string(1, &att);
  nc_close(ncid);
}

INSTANTIATE_TEST_SUITE_P(Seeds, GeneratedRoundTrip, ::testing::Range<std::uint64_t>(1, 61));

}  // namespace
}  // namespace lance_nd::netcdf
