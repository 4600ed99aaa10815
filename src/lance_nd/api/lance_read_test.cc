// Lance 12 reads what the writer commits: a table created with stats and column options, then
// appends that extend the schema (new variables, attribute and global keys), opened by LanceDB
// at every version. Needs the oracle (LND_NEED_ORACLE).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "lance_nd/api/api_test_util.h"
#include "lance_nd/api/table.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/testing/status_matchers.h"
#include "lance_nd/testing/test_env.h"

namespace lance_nd {
namespace {

using api_testing::RandomRows;
using api_testing::RandomUniverse;
using nd::testing::Rng;

std::string RunNode(const std::string& db) {
  return lance_nd::testing::RunNode(
      lance_nd::testing::SourcePath("src/lance_nd/api/lance_read_check.mjs"), db + " t");
}

// Per stats row: n (null struct), e (null min and max) or v, as the node script reports it.
std::string StatsPattern(const array::ArrayData& s) {
  std::string out;
  for (int64_t i = 0; i < s.length; ++i) {
    if (s.IsNull(i)) {
      out += 'n';
    } else {
      out += s.children[0]->IsNull(s.offset + i) ? 'e' : 'v';
    }
  }
  return out;
}

// The options of one case: stats, encoding defaults, per-column options.
struct Case {
  const char* name = "";
  bool stats = false;
  bool overwrite_at_end = false;  // a last write replaces the table (field ids start again)
  std::optional<ColumnOptions> defaults;
  std::map<std::string, ColumnOptions, std::less<>> options;
};

Case Named(const char* name, bool stats = false) {
  Case c;
  c.name = name;
  c.stats = stats;
  return c;
}

std::vector<Case> Cases() {
  std::vector<Case> cases = {Named("plain"), Named("stats", true)};
  Case overwrite = Named("stats, then overwritten", true);
  overwrite.overwrite_at_end = true;
  cases.push_back(overwrite);
  Case zstd = Named("zstd defaults", true);
  zstd.defaults = ColumnOptions{};
  zstd.defaults->compression = Compression::kZstd;
  cases.push_back(zstd);
  Case lz4 = Named("lz4 column");
  lz4.options["v1"].compression = Compression::kLz4;
  cases.push_back(lz4);
  Case fullzip = Named("fullzip column");
  fullzip.options["v1"].structural_encoding = StructuralEncoding::kFullZip;
  cases.push_back(fullzip);
  Case miniblock = Named("miniblock column");
  miniblock.options["v1"].structural_encoding = StructuralEncoding::kMiniBlock;
  cases.push_back(miniblock);
  return cases;
}

// Write (small fragments), then three appends that extend the schema; compare what LanceDB
// reads with what lance-nd reads.
void CheckCase(const Case& c, std::uint64_t seed) {
  const auto db =
      std::filesystem::temp_directory_path() /
      ("lance_nd_api_lance_read_" + std::to_string(getpid()) + "_" + std::to_string(seed));
  std::filesystem::remove_all(db);
  const std::string uri = (db / "t.lance").string();
  Rng rng(seed);
  auto u = RandomUniverse(rng, 8);
  auto first = u;
  first.vars.resize(2);
  WriteOptions o;
  o.stats = c.stats;
  o.max_rows_per_group = 3;
  o.target_fragment_bytes = 2000;
  o.column_defaults = c.defaults;
  o.column_options = c.options;
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(uri, RandomRows(rng, first, 8), o));
  for (int i = 0; i < 3; ++i) {
    WriteOptions a;
    a.column_options = c.options;
    a.target_fragment_bytes = 3000;
    LND_ASSERT_OK(t.Append(RandomRows(rng, u, 10), a));
  }
  if (c.overwrite_at_end) {
    auto other = RandomUniverse(rng, 4);
    o.mode = WriteMode::kOverwrite;
    LND_ASSERT_OK_AND_ASSIGN(t, Table::Write(uri, RandomRows(rng, other, 7), o));
  }
  const std::string out = RunNode(db.string());
  auto json = nlohmann::json::parse(out, nullptr, false);
  ASSERT_FALSE(json.is_discarded()) << out;

  for (std::uint64_t v = 1; v <= t.version(); ++v) {
    LND_ASSERT_OK_AND_ASSIGN(Table at, Table::Open(t.location(), v));
    EXPECT_EQ(json["versions"][std::to_string(v)].get<std::uint64_t>(), at.dataset().CountRows())
        << "version " << v;
  }
  std::vector<std::string> names;
  for (const auto& f : t.schema()->fields()) names.push_back(f->name());
  EXPECT_EQ(json["columns"].get<std::vector<std::string>>(), names);
  LND_ASSERT_OK_AND_ASSIGN(auto batch, table::ReadTable(t.dataset()));
  for (int i = 0; i < batch->num_columns(); ++i) {
    const auto& name = batch->schema()->field(i)->name();
    const auto& col = *batch->column(i);
    EXPECT_EQ(json["non_null"][name].get<int64_t>(), col.length - col.null_count()) << name;
    if (nd::StatsVariable(name)) {
      EXPECT_EQ(json["stats"][name].get<std::string>(), StatsPattern(col)) << name;
    }
  }
  std::filesystem::remove_all(db);
}

TEST(LanceReadsWrites, EvolvedTablesOpenInLanceAtEveryVersion) {
  LND_NEED_ORACLE();
  for (const Case& c : Cases()) {
    for (std::uint64_t seed = 0; seed < 3; ++seed) {
      SCOPED_TRACE(std::string(c.name) + " seed " + std::to_string(seed));
      CheckCase(c, seed);
    }
  }
}

}  // namespace
}  // namespace lance_nd
