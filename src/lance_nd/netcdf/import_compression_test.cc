// The zstd level of an import: a new table's column defaults and every leaf of its columns, the
// new variables of an existing table (its own columns keep theirs), the range check, and that
// the level reaches the compressor.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>

#include "lance_nd/api/scanner.h"
#include "lance_nd/api/table.h"
#include "lance_nd/netcdf/import.h"
#include "lance_nd/testing/status_matchers.h"
#include "netcdf_test_util.h"
#include "row_check_test_util.h"

namespace lance_nd::netcdf {
namespace {

using testing::TempDir;

// A classic file with float variables of dimension x: a smooth field with some noise (so that
// zstd levels differ), the same for every name, seeded.
void FloatFile(const std::string& path, const std::vector<std::string>& names, std::size_t n,
               std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> noise(0.0F, 0.01F);
  std::vector<float> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    values[i] = 15.0F + 10.0F * std::sin(static_cast<float>(i) * 0.001F) + noise(rng);
  }
  int ncid = -1, dim = -1;
  ASSERT_EQ(nc_create(path.c_str(), NC_CLOBBER | NC_64BIT_OFFSET, &ncid), NC_NOERR);
  nc_def_dim(ncid, "x", n, &dim);
  std::vector<int> vars;
  for (const std::string& name : names) {
    int var = -1;
    ASSERT_EQ(nc_def_var(ncid, name.c_str(), NC_FLOAT, 1, &dim, &var), NC_NOERR);
    vars.push_back(var);
  }
  nc_enddef(ncid);
  for (int var : vars) ASSERT_EQ(nc_put_var_float(ncid, var, values.data()), NC_NOERR);
  ASSERT_EQ(nc_close(ncid), NC_NOERR);
}

// The compression level every leaf of `column` records ("" when the leaves disagree).
std::string LeafLevel(const Table& t, const std::string& column) {
  const array::FieldPtr field = t.schema()->GetField(column);
  if (field == nullptr) return "<no column>";
  std::vector<array::FieldPtr> pending{field}, leaves;
  while (!pending.empty()) {
    const array::FieldPtr f = pending.back();
    pending.pop_back();
    if (f->type()->children().empty()) leaves.push_back(f);
    for (const auto& c : f->type()->children()) pending.push_back(c);
  }
  std::string level;
  for (const auto& leaf : leaves) {
    const std::string here(leaf->metadata().Get("lance-encoding:compression-level").value_or("-"));
    if (!level.empty() && level != here) return "";
    level = here;
  }
  return level;
}

std::uint64_t DirectoryBytes(const std::string& path) {
  std::uint64_t total = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(path)) {
    if (e.is_regular_file()) total += e.file_size();
  }
  return total;
}

TEST(ImportCompression, LevelIsTheNewTablesDefaultOnEveryLeaf) {
  TempDir dir("level");
  const std::string source = dir.Path("s.nc");
  FloatFile(source, {"v"}, 2000, 1);
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 6; ++trial) {
    ImportOptions options;
    if (trial > 0) options.compression_level = static_cast<int>(1 + rng() % 22);
    const std::string want = std::to_string(options.compression_level.value_or(9));
    SCOPED_TRACE("level " + want);
    const std::string table = dir.Path("t" + std::to_string(trial) + ".lance");
    LND_ASSERT_OK(ImportNetcdf(table, std::vector<std::string>{source}, options).status());
    LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(table));
    EXPECT_EQ(t.schema()->metadata().Get("lance_nd.column_defaults.lance-encoding:compression"),
              std::optional<std::string_view>("zstd"));
    EXPECT_EQ(
        t.schema()->metadata().Get("lance_nd.column_defaults.lance-encoding:compression-level"),
        std::optional<std::string_view>(want));
    EXPECT_EQ(LeafLevel(t, "v"), want);
    EXPECT_EQ(LeafLevel(t, "__global_attrs__"), want);
    int ncid = -1;
    ASSERT_EQ(nc_open(source.c_str(), NC_NOWRITE, &ncid), NC_NOERR);
    LND_ASSERT_OK_AND_ASSIGN(std::vector<nd::NdRecordBatch> rows, t.Scan().ReadAll());
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(testing::CheckRowAgainstSource(ncid, rows[0]), "");
    nc_close(ncid);
  }
}

TEST(ImportCompression, AnExistingTableKeepsItsColumnsAndNewVariablesTakeTheLevel) {
  TempDir dir("existing");
  const std::string a = dir.Path("a.nc"), b = dir.Path("b.nc"), table = dir.Path("t.lance");
  FloatFile(a, {"v"}, 100, 2);
  FloatFile(b, {"v", "w"}, 100, 3);
  LND_ASSERT_OK(ImportNetcdf(table, std::vector<std::string>{a}, {}).status());
  ImportOptions options;
  options.compression_level = 15;
  LND_ASSERT_OK(ImportNetcdf(table, std::vector<std::string>{b}, options).status());
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(table));
  EXPECT_EQ(LeafLevel(t, "v"), "9");
  EXPECT_EQ(LeafLevel(t, "w"), "15");
  EXPECT_EQ(t.schema()->metadata().Get("lance_nd.column_defaults.lance-encoding:compression-level"),
            std::optional<std::string_view>("9"));
  EXPECT_EQ(*t.CountRows(), 2u);
}

TEST(ImportCompression, OutOfRangeLevelsAreRefusedAndNothingIsWritten) {
  TempDir dir("range");
  const std::string source = dir.Path("s.nc"), table = dir.Path("t.lance");
  FloatFile(source, {"v"}, 10, 4);
  for (int level : {0, -3, 23, 100}) {
    ImportOptions options;
    options.compression_level = level;
    LND_EXPECT_ERROR(
        ImportNetcdf(table, std::vector<std::string>{source}, options),
        StatusCode::kInvalidArgument,
        "compression level " + std::to_string(level) + " is out of range; zstd levels are 1 to 22");
    EXPECT_FALSE(std::filesystem::exists(table));
  }
}

TEST(ImportCompression, HigherLevelsMakeSmallerTables) {
  TempDir dir("sizes");
  const std::string source = dir.Path("s.nc");
  FloatFile(source, {"a", "b"}, 200000, 5);
  std::uint64_t previous = 0;
  for (int level : {19, 9, 1}) {  // each table must be smaller than the next
    const std::string table = dir.Path("t" + std::to_string(level) + ".lance");
    ImportOptions options;
    options.compression_level = level;
    LND_ASSERT_OK(ImportNetcdf(table, std::vector<std::string>{source}, options).status());
    const std::uint64_t bytes = DirectoryBytes(table);
    EXPECT_GT(bytes, previous) << "level " << level;
    previous = bytes;
  }
}

}  // namespace
}  // namespace lance_nd::netcdf
