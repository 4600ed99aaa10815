// Staged writes: several stagers (threads) stage disjoint rows with different variables and
// keys, one coordinator commits them as one version, every row reads back in order; existing
// tables, stale stages, conflicts, the JSON form, casting at stage time, and the cleanup of
// stages never committed.
#include "lance_nd/api/staged.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "lance_nd/api/cast_test_util.h"
#include "lance_nd/api/widen.h"
#include "lance_nd/table/maintenance.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using api::testing::ReadRows;
using array::DataTypePtr;
using Rng = std::mt19937_64;

int64_t Uniform(Rng& rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

// Values of a few types; every variable, attribute key and global key keeps one type.
array::ArrayPtr RandomValues(Rng& rng, const DataTypePtr& type, int64_t n, bool nulls = true) {
  std::vector<std::optional<int64_t>> v;
  for (int64_t i = 0; i < n; ++i) {
    if (nulls && Uniform(rng, 0, 9) == 0) {
      v.emplace_back(std::nullopt);
    } else {
      v.emplace_back(Uniform(rng, -1000, 1000));
    }
  }
  if (type->id() == array::TypeId::kUtf8) {
    std::vector<std::optional<std::string>> s;
    for (const auto& x : v) s.push_back(x ? std::optional("s" + std::to_string(*x)) : std::nullopt);
    return array::MakeStringArray(s, type);
  }
  auto i64 = array::MakePrimitiveArray<int64_t>(array::Int64(), v);
  return *array::Cast(i64, type, array::CastMode::kSameKind);
}

struct Universe {
  std::vector<std::pair<std::string, DataTypePtr>> variables;
  std::vector<std::pair<std::string, DataTypePtr>> attr_keys;  // per variable the same types
  std::vector<std::pair<std::string, DataTypePtr>> global_keys;
};

Universe MakeUniverse() {
  return {{{"temp", array::Float32()},
           {"pres", array::Float64()},
           {"count", array::Int32()},
           {"flag", array::Int16()},
           {"name", array::Utf8()},
           {"big", array::Int64()}},
          {{"units", array::Utf8()}, {"scale", array::Float64()}, {"level", array::Int64()}},
          {{"id", array::Int64()}, {"title", array::Utf8()}, {"chunk", array::Int32()}}};
}

// One row with the variables `vars` (indices into the universe), over dims x/y of random
// sizes, attribute keys and global keys drawn at random.
nd::NdRecordBatch RandomRow(Rng& rng, const Universe& u, const std::vector<int>& vars,
                            const std::vector<int>& keys, const std::vector<int>& globals) {
  const auto nx = static_cast<uint64_t>(Uniform(rng, 0, 4));
  const auto ny = static_cast<uint64_t>(Uniform(rng, 1, 3));
  std::vector<std::pair<std::string, nd::NdArrowArray>> arrays;
  for (int v : vars) {
    if (Uniform(rng, 0, 4) == 0) continue;  // this row lacks it
    nd::Attributes attrs;
    for (int k : keys) {
      if (Uniform(rng, 0, 2) == 0) continue;
      const auto& [key, type] = u.attr_keys[static_cast<std::size_t>(k)];
      EXPECT_TRUE(attrs.SetValue(key, RandomValues(rng, type, 1, false)).ok());
    }
    const bool two_d = Uniform(rng, 0, 1) == 1;
    auto dims =
        two_d ? *nd::Dimensions::Make({"x", "y"}, {nx, ny}) : *nd::Dimensions::Make({"x"}, {nx});
    const auto& [name, type] = u.variables[static_cast<std::size_t>(v)];
    arrays.emplace_back(
        name, *nd::NdArrowArray::Make(RandomValues(rng, type, dims.num_elements()), dims, attrs));
  }
  nd::Attributes g;
  for (int k : globals) {
    if (Uniform(rng, 0, 2) == 0) continue;
    const auto& [key, type] = u.global_keys[static_cast<std::size_t>(k)];
    EXPECT_TRUE(g.SetValue(key, RandomValues(rng, type, 1, false)).ok());
  }
  if (arrays.empty() && g.empty()) g.Set("id", int64_t{7});
  return *nd::NdRecordBatch::FromArrays(std::move(arrays), g);
}

// Indices 0..n-1, each kept with probability 1/2 (at least one).
std::vector<int> Subset(Rng& rng, int n) {
  std::vector<int> out;
  for (int i = 0; i < n; ++i) {
    if (Uniform(rng, 0, 1) == 1) out.push_back(i);
  }
  if (out.empty()) out.push_back(static_cast<int>(Uniform(rng, 0, n - 1)));
  return out;
}

std::vector<nd::NdRecordBatch> RandomRows(Rng& rng, const Universe& u, int n) {
  const auto vars = Subset(rng, static_cast<int>(u.variables.size()));
  const auto keys = Subset(rng, static_cast<int>(u.attr_keys.size()));
  const auto globals = Subset(rng, static_cast<int>(u.global_keys.size()));
  std::vector<nd::NdRecordBatch> rows;
  for (int i = 0; i < n; ++i) rows.push_back(RandomRow(rng, u, vars, keys, globals));
  return rows;
}

std::string TempTable(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("lance_nd_staged_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(dir);
  return dir.string();
}

void ExpectRows(const table::Dataset& ds, const std::vector<nd::NdRecordBatch>& expected) {
  LND_ASSERT_OK_AND_ASSIGN(auto back, ReadRows(ds));
  ASSERT_EQ(back.size(), expected.size());
  for (std::size_t r = 0; r < back.size(); ++r) {
    EXPECT_TRUE(back[r].Equals(expected[r]))
        << "row " << r << "\nread " << back[r].ToString() << "\nwrote " << expected[r].ToString();
  }
}

// Stage `parts` from one thread each, ship them through JSON, commit them at once.
Result<Table> StageInThreadsAndCommit(const std::string& uri,
                                      const std::vector<std::vector<nd::NdRecordBatch>>& parts,
                                      const WriteOptions& options = {}) {
  std::vector<std::string> json(parts.size());
  std::vector<Status> status(parts.size());
  std::vector<std::thread> stagers;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    stagers.emplace_back([&, i] {
      auto staged = StageRows(uri, parts[i], options);
      status[i] = staged.status();
      if (staged.ok()) json[i] = staged->ToJson();
    });
  }
  for (auto& t : stagers) t.join();
  std::vector<StagedFragments> staged;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    LND_RETURN_NOT_OK(status[i]);
    LND_ASSIGN_OR_RETURN(auto s, StagedFragments::FromJson(json[i]));
    staged.push_back(std::move(s));
  }
  return CommitStaged(uri, staged, options);
}

TEST(StagedWrites, SeveralStagersOneCommitOnANewTable) {
  const Universe u = MakeUniverse();
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    Rng rng(seed);
    const std::string uri = TempTable("new" + std::to_string(seed));
    std::vector<std::vector<nd::NdRecordBatch>> parts;
    std::vector<nd::NdRecordBatch> all;
    const int stagers = static_cast<int>(Uniform(rng, 1, 5));
    for (int s = 0; s < stagers; ++s) {
      parts.push_back(RandomRows(rng, u, static_cast<int>(Uniform(rng, 1, 12))));
      all.insert(all.end(), parts.back().begin(), parts.back().end());
    }
    LND_ASSERT_OK_AND_ASSIGN(auto committed, StageInThreadsAndCommit(uri, parts));
    EXPECT_EQ(committed.version(), 1u) << "one commit";
    LND_ASSERT_OK_AND_ASSIGN(auto ds, table::Dataset::Open(table::TableLocation::Local(uri)));
    EXPECT_EQ(ds.version(), 1u);
    EXPECT_EQ(ds.fragments().size(), static_cast<std::size_t>(stagers));
    ExpectRows(ds, all);
    std::filesystem::remove_all(uri);
  }
}

TEST(StagedWrites, NewVariablesAndKeysOnAnExistingTableInOneVersion) {
  const Universe u = MakeUniverse();
  for (std::uint64_t seed = 10; seed <= 15; ++seed) {
    Rng rng(seed);
    const std::string uri = TempTable("existing" + std::to_string(seed));
    auto first = RandomRows(rng, u, static_cast<int>(Uniform(rng, 1, 10)));
    LND_ASSERT_OK_AND_ASSIGN(
        auto ds, api::testing::WriteNdTable(table::TableLocation::Local(uri), first, {}, 4));
    std::vector<std::vector<nd::NdRecordBatch>> parts;
    std::vector<nd::NdRecordBatch> all = first;
    for (int s = 0; s < 3; ++s) {
      parts.push_back(RandomRows(rng, u, static_cast<int>(Uniform(rng, 1, 8))));
      all.insert(all.end(), parts.back().begin(), parts.back().end());
    }
    WriteOptions append;
    append.mode = WriteMode::kAppend;
    LND_ASSERT_OK_AND_ASSIGN(auto committed, StageInThreadsAndCommit(uri, parts, append));
    EXPECT_EQ(committed.version(), ds.version() + 1);
    LND_ASSERT_OK_AND_ASSIGN(auto reopened, table::Dataset::Open(table::TableLocation::Local(uri)));
    ExpectRows(reopened, all);
    // Old fragments keep their ids and files.
    for (std::size_t i = 0; i < ds.fragments().size(); ++i) {
      EXPECT_EQ(reopened.fragments()[i], ds.fragments()[i]);
    }
    std::filesystem::remove_all(uri);
  }
}

TEST(StagedWrites, AStaleStageStillCommits) {
  const Universe u = MakeUniverse();
  Rng rng(21);
  const auto location = api::testing::MemoryTable();
  const std::string uri = location.root();
  WriteOptions options;
  options.mode = WriteMode::kAppend;
  options.file_system = location.file_system();
  auto first = RandomRows(rng, u, 3);
  LND_ASSERT_OK_AND_ASSIGN(auto stale, StageRows(uri, first, options));  // no table yet
  auto second = RandomRows(rng, u, 4);
  LND_ASSERT_OK_AND_ASSIGN(auto fresh, StageRows(uri, second, options));
  LND_ASSERT_OK_AND_ASSIGN(auto v1, CommitStaged(uri, std::span(&fresh, 1), options));
  auto third = RandomRows(rng, u, 2);
  LND_ASSERT_OK_AND_ASSIGN(auto later, StageRows(uri, third, options));
  LND_ASSERT_OK_AND_ASSIGN(auto v2, CommitStaged(uri, std::span(&later, 1), options));
  LND_ASSERT_OK_AND_ASSIGN(auto v3, CommitStaged(uri, std::span(&stale, 1), options));
  EXPECT_EQ(v3.version(), v2.version() + 1);
  std::vector<nd::NdRecordBatch> all = second;
  all.insert(all.end(), third.begin(), third.end());
  all.insert(all.end(), first.begin(), first.end());
  ExpectRows(v3.dataset(), all);
}

TEST(StagedWrites, AStaleStageWhoseTypeChangedFailsClearly) {
  Rng rng(22);
  const auto location = api::testing::MemoryTable();
  WriteOptions options;
  options.mode = WriteMode::kAppend;
  options.file_system = location.file_system();
  auto row = [&](DataTypePtr t) {
    return *nd::NdRecordBatch::FromArrays(
        {{"v",
          *nd::NdArrowArray::Make(RandomValues(rng, t, 3), *nd::Dimensions::Make({"x"}, {3}))}});
  };
  const std::vector<nd::NdRecordBatch> base = {row(array::Float32())};
  LND_ASSERT_OK_AND_ASSIGN(auto ds, api::testing::WriteNdTable(location, base));
  LND_ASSERT_OK_AND_ASSIGN(auto stale, StageRows(location.root(), base, options));
  LND_ASSERT_OK_AND_ASSIGN(auto widened, api::internal::WidenVariable(ds, "v", array::Float64()));
  auto r = CommitStaged(location.root(), std::span(&stale, 1), options);
  EXPECT_EQ(r.status().code(), StatusCode::kSchemaMismatch) << r.status().ToString();
  EXPECT_NE(r.status().message().find("staged against version 1"), std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("version 2"), std::string::npos);
  LND_ASSERT_OK_AND_ASSIGN(auto latest, table::Dataset::Open(location));
  EXPECT_EQ(latest.version(), widened.version()) << "nothing committed";

  // Two stages of one new table that disagree on a type.
  const auto other = api::testing::MemoryTable();
  options.file_system = other.file_system();
  const std::vector<nd::NdRecordBatch> a = {row(array::Float32())}, b = {row(array::Int32())};
  LND_ASSERT_OK_AND_ASSIGN(auto sa, StageRows(other.root(), a, options));
  LND_ASSERT_OK_AND_ASSIGN(auto sb, StageRows(other.root(), b, options));
  const StagedFragments both[] = {sa, sb};
  auto conflict = CommitStaged(other.root(), both, options);
  EXPECT_EQ(conflict.status().code(), StatusCode::kSchemaMismatch);
  EXPECT_NE(conflict.status().message().find("staged set 1"), std::string::npos);
  EXPECT_TRUE(table::Dataset::Open(other).status().IsNotFound());
}

TEST(StagedWrites, CastsAtStageTimeAgainstTheTable) {
  Rng rng(23);
  const auto location = api::testing::MemoryTable();
  auto row = [&](DataTypePtr t) {
    return *nd::NdRecordBatch::FromArrays(
        {{"v",
          *nd::NdArrowArray::Make(RandomValues(rng, t, 4), *nd::Dimensions::Make({"x"}, {4}))}});
  };
  const std::vector<nd::NdRecordBatch> base = {row(array::Float64())};
  LND_ASSERT_OK_AND_ASSIGN(auto ds, api::testing::WriteNdTable(location, base));
  WriteOptions options;
  options.mode = WriteMode::kAppend;
  options.file_system = location.file_system();
  const std::vector<nd::NdRecordBatch> f32 = {row(array::Float32())};
  auto rejected = StageRows(location.root(), f32, options);
  EXPECT_EQ(rejected.status().kind(), ErrorKind::kCastRejected);
  options.casting = Casting::kSafe;
  LND_ASSERT_OK_AND_ASSIGN(auto staged, StageRows(location.root(), f32, options));
  LND_ASSERT_OK_AND_ASSIGN(auto committed,
                           CommitStaged(location.root(), std::span(&staged, 1), options));
  LND_ASSERT_OK_AND_ASSIGN(auto back, ReadRows(committed.dataset()));
  ASSERT_EQ(back.size(), 2u);
  EXPECT_TRUE(back[1].column(0).value_type()->Equals(*array::Float64()));
  EXPECT_EQ(api::testing::Doubles(back[1].column(0).values()),
            api::testing::Doubles(f32[0].column(0).values()));
  // A stage cannot widen the table.
  const std::vector<nd::NdRecordBatch> i64 = {row(array::Int64())};
  options.casting = Casting::kPromote;
  auto promote = StageRows(location.root(), i64, options);
  EXPECT_EQ(promote.status().kind(), ErrorKind::kCastRejected);
  const std::vector<nd::NdRecordBatch> i32 = {row(array::Int32())};
  LND_EXPECT_OK(StageRows(location.root(), i32, options));  // int32 -> float64 is safe
}

TEST(StagedWrites, CreateRefusesAnExistingTable) {
  Rng rng(24);
  const Universe u = MakeUniverse();
  const auto location = api::testing::MemoryTable();
  auto rows = RandomRows(rng, u, 2);
  LND_ASSERT_OK_AND_ASSIGN(auto ds, api::testing::WriteNdTable(location, rows));
  WriteOptions create;
  create.file_system = location.file_system();
  auto staged = StageRows(location.root(), rows, create);
  EXPECT_EQ(staged.status().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(staged.status().kind(), ErrorKind::kTableExists);
  WriteOptions append = create;
  append.mode = WriteMode::kAppend;
  LND_ASSERT_OK_AND_ASSIGN(auto ok, StageRows(location.root(), rows, append));
  auto commit = CommitStaged(location.root(), std::span(&ok, 1), create);
  EXPECT_EQ(commit.status().kind(), ErrorKind::kTableExists);
  // Overwrite replaces the rows (and the schema) in one version.
  WriteOptions overwrite = create;
  overwrite.mode = WriteMode::kOverwrite;
  auto other_rows = RandomRows(rng, u, 3);
  LND_ASSERT_OK_AND_ASSIGN(auto ow, StageRows(location.root(), other_rows, overwrite));
  LND_ASSERT_OK_AND_ASSIGN(auto replaced,
                           CommitStaged(location.root(), std::span(&ow, 1), overwrite));
  EXPECT_EQ(replaced.version(), ds.version() + 1);
  ExpectRows(replaced.dataset(), other_rows);
}

// Data format 2.1: staged files follow the table's format; new variables are fine, new struct
// children are refused (Lance 12 cannot read them in 2.1).
TEST(StagedWrites, TablesOfDataFormat21) {
  Rng rng(31);
  const auto location = api::testing::MemoryTable();
  auto make = [&](const std::string& name, std::vector<std::string> keys) {
    nd::Attributes attrs;
    for (const auto& k : keys) attrs.Set(k, "x");
    return *nd::NdRecordBatch::FromArrays(
        {{name, *nd::NdArrowArray::Make(RandomValues(rng, array::Float64(), 2),
                                        *nd::Dimensions::Make({"x"}, {2}), attrs)}});
  };
  const std::vector<nd::NdRecordBatch> base = {make("v", {"units"})};
  LND_ASSERT_OK_AND_ASSIGN(
      auto ds, api::testing::WriteNdTable(location, base, {}, 1 << 20, file::FileVersion::kV2_1));
  WriteOptions append;
  append.mode = WriteMode::kAppend;
  append.file_system = location.file_system();
  const std::vector<nd::NdRecordBatch> new_var = {make("w", {"units"}), make("v", {"units"})};
  LND_ASSERT_OK_AND_ASSIGN(auto a, StageRows(location.root(), new_var, append));
  LND_ASSERT_OK_AND_ASSIGN(auto t, CommitStaged(location.root(), std::span(&a, 1), append));
  EXPECT_EQ(t.dataset().manifest().data_format_version, "2.1");
  for (const auto& f : t.dataset().fragments()) {
    for (const auto& file : f.files) EXPECT_EQ(file.file_minor_version, 1u);
  }
  std::vector<nd::NdRecordBatch> all = base;
  all.insert(all.end(), new_var.begin(), new_var.end());
  ExpectRows(t.dataset(), all);
  const std::vector<nd::NdRecordBatch> new_key = {make("v", {"units", "scale"})};
  LND_ASSERT_OK_AND_ASSIGN(auto b, StageRows(location.root(), new_key, append));
  LND_EXPECT_ERROR(CommitStaged(location.root(), std::span(&b, 1), append),
                   StatusCode::kNotImplemented, "v.attrs.scale");
}

// Stable row ids: new rows get their ids from an Append, so new fields are committed first.
TEST(StagedWrites, TablesWithStableRowIds) {
  Rng rng(32);
  const Universe u = MakeUniverse();
  const auto location = api::testing::MemoryTable();
  const auto first = RandomRows(rng, u, 4);
  LND_ASSERT_OK_AND_ASSIGN(auto batch, api::testing::EncodeTableRows(first));
  table::WriteOptions w;
  w.enable_stable_row_ids = true;
  const array::RecordBatchPtr batches[] = {batch};
  LND_ASSERT_OK_AND_ASSIGN(auto ds, table::WriteTable(location, batches, w));
  WriteOptions append;
  append.mode = WriteMode::kAppend;
  append.file_system = location.file_system();
  std::vector<nd::NdRecordBatch> all = first;
  for (int round = 0; round < 2; ++round) {
    const auto more = RandomRows(rng, u, 3);
    LND_ASSERT_OK_AND_ASSIGN(auto s, StageRows(location.root(), more, append));
    LND_ASSERT_OK_AND_ASSIGN(auto t, CommitStaged(location.root(), std::span(&s, 1), append));
    all.insert(all.end(), more.begin(), more.end());
    ExpectRows(t.dataset(), all);
    for (const auto& f : t.dataset().fragments()) EXPECT_TRUE(f.has_row_ids) << f.id;
    table::TableScanOptions o;
    o.projection = {"_rowid"};
    LND_ASSERT_OK_AND_ASSIGN(auto ids, table::ReadTable(t.dataset(), o));
    for (int64_t r = 0; r < ids->num_rows(); ++r) {
      EXPECT_EQ(ids->column(0)->values<uint64_t>()[r], static_cast<uint64_t>(r));
    }
  }
}

TEST(StagedWrites, NothingToStageOrCommitIsAnError) {
  const auto location = api::testing::MemoryTable();
  WriteOptions options;
  options.file_system = location.file_system();
  LND_EXPECT_ERROR(StageRows(location.root(), {}, options), StatusCode::kInvalidArgument,
                   "no rows");
  LND_EXPECT_ERROR(CommitStaged(location.root(), {}, options), StatusCode::kInvalidArgument,
                   "no staged");
}

TEST(StagedWrites, JsonRoundTripsAndBadJsonIsNamed) {
  Rng rng(25);
  const Universe u = MakeUniverse();
  const auto location = api::testing::MemoryTable();
  WriteOptions options;
  options.file_system = location.file_system();
  auto rows = RandomRows(rng, u, 5);
  LND_ASSERT_OK_AND_ASSIGN(auto staged, StageRows(location.root(), rows, options));
  EXPECT_EQ(staged.num_rows(), 5u);
  EXPECT_EQ(staged.num_fragments(), 1u);
  LND_ASSERT_OK_AND_ASSIGN(auto back, StagedFragments::FromJson(staged.ToJson()));
  EXPECT_EQ(back.ToJson(), staged.ToJson());
  EXPECT_EQ(back.num_rows(), 5u);

  LND_EXPECT_ERROR(StagedFragments::FromJson("{not json"), StatusCode::kInvalidArgument,
                   "not valid JSON");
  // Issue 33: nesting is bounded before parsing; a huge format string is quoted short.
  for (const std::size_t depth : {std::size_t{511}, std::size_t{80000}}) {
    const std::string deep = R"({"format":)" + std::string(depth, '[') + std::string(depth, ']');
    LND_EXPECT_ERROR(StagedFragments::FromJson(deep), StatusCode::kInvalidArgument,
                     depth > 511 ? "staged fragments JSON nests arrays and objects more than 512 "
                                   "levels deep (level 513 opens at byte 521)"
                                 : "staged fragments JSON: (document): not valid JSON");
  }
  LND_EXPECT_ERROR(
      StagedFragments::FromJson(R"({"format":")" + std::string(1'000'000, 'f') + "\"}"),
      StatusCode::kInvalidArgument,
      "format: found '" + std::string(200, 'f') + "... (1000000 bytes in all)', expected");
  const auto doc = nlohmann::json::parse(staged.ToJson());
  // Every member is required: removing one names it.
  for (const auto& [key, value] : doc.items()) {
    auto broken = doc;
    broken.erase(key);
    LND_EXPECT_ERROR(StagedFragments::FromJson(broken.dump()), StatusCode::kInvalidArgument,
                     "'" + key + "'");
  }
  auto bad = doc;
  bad["version"] = 2;
  LND_EXPECT_ERROR(StagedFragments::FromJson(bad.dump()), StatusCode::kInvalidArgument, "version");
  bad = doc;
  bad["format"] = "other";
  LND_EXPECT_ERROR(StagedFragments::FromJson(bad.dump()), StatusCode::kInvalidArgument, "other");
  bad = doc;
  bad["num_rows"] = "five";
  LND_EXPECT_ERROR(StagedFragments::FromJson(bad.dump()), StatusCode::kInvalidArgument,
                   "num_rows: expected an unsigned integer");
  bad = doc;
  bad["num_rows"] = 6;
  LND_EXPECT_ERROR(StagedFragments::FromJson(bad.dump()), StatusCode::kInvalidArgument,
                   "the fragments hold 5 rows");
  bad = doc;
  bad["fragments"][0]["files"][0]["fields"][0] = 999;
  LND_EXPECT_ERROR(StagedFragments::FromJson(bad.dump()), StatusCode::kInvalidArgument,
                   "field id 999");
  bad = doc;
  bad["fields"][0]["parent_id"] = 77;
  LND_EXPECT_ERROR(StagedFragments::FromJson(bad.dump()), StatusCode::kInvalidArgument, "fields");
  bad = doc;
  bad["fragments"][0]["files"][0]["path"] = "../escape.lance";
  LND_EXPECT_ERROR(StagedFragments::FromJson(bad.dump()), StatusCode::kInvalidArgument, "path");
}

TEST(StagedWrites, StagesNeverCommittedAreInvisibleAndCleanedUp) {
  Rng rng(26);
  const Universe u = MakeUniverse();
  const std::string uri = TempTable("cleanup");
  const auto location = table::TableLocation::Local(uri);
  auto rows = RandomRows(rng, u, 4);
  LND_ASSERT_OK_AND_ASSIGN(auto ds, api::testing::WriteNdTable(location, rows));
  WriteOptions append;
  append.mode = WriteMode::kAppend;
  auto lost_rows = RandomRows(rng, u, 3);
  LND_ASSERT_OK_AND_ASSIGN(auto lost, StageRows(uri, lost_rows, append));
  const auto doc = nlohmann::json::parse(lost.ToJson());
  const std::string lost_file = doc["fragments"][0]["files"][0]["path"].get<std::string>();
  EXPECT_TRUE(std::filesystem::exists(location.Path("data", lost_file)));
  LND_ASSERT_OK_AND_ASSIGN(auto latest, table::Dataset::Open(location));
  EXPECT_EQ(latest.version(), ds.version());
  ExpectRows(latest, rows);

  table::CleanupOptions cleanup;
  cleanup.older_than = std::chrono::seconds(0);
  cleanup.modified_time = table::LocalModifiedTime();
  LND_ASSERT_OK_AND_ASSIGN(auto kept, table::CleanupOldVersions(location, cleanup));
  EXPECT_TRUE(std::filesystem::exists(location.Path("data", lost_file)))
      << "a young unreferenced file may be another writer's: kept";
  cleanup.delete_unverified = true;
  LND_ASSERT_OK_AND_ASSIGN(auto cleaned, table::CleanupOldVersions(location, cleanup));
  EXPECT_EQ(cleaned.stats.data_files_removed, 1u);
  EXPECT_FALSE(std::filesystem::exists(location.Path("data", lost_file)));
  ExpectRows(cleaned.dataset, rows);
  std::filesystem::remove_all(uri);
}

TEST(StagedWrites, TheCommittedTableWidens) {
  Rng rng(27);
  const auto location = api::testing::MemoryTable();
  WriteOptions options;
  options.file_system = location.file_system();
  const std::vector<nd::NdRecordBatch> rows = {*nd::NdRecordBatch::FromArrays(
      {{"v", *nd::NdArrowArray::Make(RandomValues(rng, array::Int16(), 5),
                                     *nd::Dimensions::Make({"x"}, {5}))}})};
  LND_ASSERT_OK_AND_ASSIGN(auto staged, StageRows(location.root(), rows, options));
  LND_ASSERT_OK_AND_ASSIGN(auto t, CommitStaged(location.root(), std::span(&staged, 1), options));
  EXPECT_TRUE(t.writable());
  LND_ASSERT_OK(t.Widen("v", array::Int16()));
  EXPECT_EQ(t.version(), 1u);
  LND_ASSERT_OK(t.Widen("v", array::Int64()));
  EXPECT_EQ(t.version(), 2u);
  LND_EXPECT_ERROR(t.Widen("v", array::Int8()), StatusCode::kSchemaMismatch, "int8");
  LND_EXPECT_ERROR(t.Widen("w", array::Int64()), StatusCode::kInvalidArgument, "'v'");
  LND_ASSERT_OK_AND_ASSIGN(auto back, ReadRows(t.dataset()));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_TRUE(back[0].column(0).value_type()->Equals(*array::Int64()));
  EXPECT_EQ(api::testing::Doubles(back[0].column(0).values()),
            api::testing::Doubles(rows[0].column(0).values()));
}

TEST(StagedWrites, WidenCoversFragmentsWrittenBeforeTheVariableExisted) {
  Rng rng(28);
  const auto location = api::testing::MemoryTable();
  WriteOptions options;
  options.file_system = location.file_system();
  auto make = [&](const std::string& name, DataTypePtr type) {
    return *nd::NdRecordBatch::FromArrays(
        {{name,
          *nd::NdArrowArray::Make(RandomValues(rng, type, 3), *nd::Dimensions::Make({"x"}, {3}))}});
  };
  const std::vector<nd::NdRecordBatch> first = {make("w", array::Float32()),
                                                make("w", array::Float32())};
  LND_ASSERT_OK_AND_ASSIGN(auto a, StageRows(location.root(), first, options));
  LND_ASSERT_OK_AND_ASSIGN(auto t, CommitStaged(location.root(), std::span(&a, 1), options));
  const std::vector<nd::NdRecordBatch> second = {make("v", array::Int16()),
                                                 make("w", array::Float32())};
  options.mode = WriteMode::kAppend;
  LND_ASSERT_OK_AND_ASSIGN(auto b, StageRows(location.root(), second, options));
  LND_ASSERT_OK_AND_ASSIGN(t, CommitStaged(location.root(), std::span(&b, 1), options));
  LND_ASSERT_OK(t.Widen("v", array::Int32()));
  std::vector<nd::NdRecordBatch> all = first;
  all.insert(all.end(), second.begin(), second.end());
  LND_ASSERT_OK_AND_ASSIGN(auto back, ReadRows(t.dataset()));
  ASSERT_EQ(back.size(), all.size());
  for (std::size_t r = 0; r < all.size(); ++r) {
    ASSERT_EQ(back[r].GetColumn("v") == nullptr, all[r].GetColumn("v") == nullptr) << r;
    if (const auto* v = back[r].GetColumn("v")) {
      EXPECT_TRUE(v->value_type()->Equals(*array::Int32()));
      EXPECT_EQ(api::testing::Doubles(v->values()),
                api::testing::Doubles(all[r].GetColumn("v")->values()));
    }
    const auto* w = back[r].GetColumn("w");
    ASSERT_EQ(w == nullptr, all[r].GetColumn("w") == nullptr) << r;
    if (w != nullptr) {
      EXPECT_TRUE(w->Equals(*all[r].GetColumn("w")));
    }
  }
}

// Stats columns: a new table staged with options.stats, then rows with a new variable appended
// by a stage (the table has stats, so the stage writes them); min/max against an independent
// computation over the rows.
TEST(StagedWrites, StatsColumnsAreStagedWhenTheTableHasStats) {
  Rng rng(30);
  const auto location = api::testing::MemoryTable();
  WriteOptions options;
  options.file_system = location.file_system();
  options.stats = true;
  auto make = [&](const std::string& name, DataTypePtr type) {
    const auto n = static_cast<uint64_t>(Uniform(rng, 0, 5));
    return *nd::NdRecordBatch::FromArrays(
        {{name, *nd::NdArrowArray::Make(RandomValues(rng, type, static_cast<int64_t>(n)),
                                        *nd::Dimensions::Make({"x"}, {n}))}});
  };
  std::vector<nd::NdRecordBatch> first, second;
  for (int i = 0; i < 6; ++i) first.push_back(make("t", array::Float32()));
  for (int i = 0; i < 6; ++i)
    second.push_back(make(i % 2 ? "t" : "c", i % 2 ? array::Float32() : array::Int32()));
  auto a = StageRows(location.root(), first, options);
  LND_ASSERT_OK(a.status());
  LND_ASSERT_OK_AND_ASSIGN(auto t, CommitStaged(location.root(), std::span(&*a, 1), options));
  EXPECT_TRUE(HasStats(*t.schema()));
  options.stats = false;  // an append writes stats exactly when the table has them
  options.mode = WriteMode::kAppend;
  LND_ASSERT_OK_AND_ASSIGN(auto b, StageRows(location.root(), second, options));
  LND_ASSERT_OK_AND_ASSIGN(t, CommitStaged(location.root(), std::span(&b, 1), options));
  std::vector<nd::NdRecordBatch> all = first;
  all.insert(all.end(), second.begin(), second.end());
  ExpectRows(t.dataset(), all);
  for (const auto& [name, type] : std::vector<std::pair<std::string, DataTypePtr>>{
           {"t", array::Float32()}, {"c", array::Int32()}}) {
    table::TableScanOptions o;
    o.projection = {"__stats__:" + name};
    LND_ASSERT_OK_AND_ASSIGN(auto got, table::ReadTable(t.dataset(), o));
    const auto want = api::testing::StatsColumnFor(all, name, type);
    ASSERT_EQ(got->column(0)->length, want->length);
    for (int64_t r = 0; r < want->length; ++r)
      EXPECT_EQ(got->column(0)->IsNull(r), want->IsNull(r)) << name << r;
    for (std::size_t k = 0; k < 2; ++k) {
      EXPECT_EQ(api::testing::Doubles(got->column(0)->children[k]),
                api::testing::Doubles(want->children[k]))
          << name;
    }
  }
}

// Stagers in separate processes (fork): each writes its files and hands back the JSON through
// a pipe; the parent commits them all.
TEST(StagedWrites, StagersInSeparateProcesses) {
  const Universe u = MakeUniverse();
  Rng rng(29);
  const std::string uri = TempTable("fork");
  std::vector<std::vector<nd::NdRecordBatch>> parts;
  std::vector<nd::NdRecordBatch> all;
  for (int s = 0; s < 3; ++s) {
    parts.push_back(RandomRows(rng, u, static_cast<int>(Uniform(rng, 1, 6))));
    all.insert(all.end(), parts.back().begin(), parts.back().end());
  }
  std::vector<StagedFragments> staged;
  for (const auto& part : parts) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {  // the stager: stage, write the JSON, leave without running atexit code
      ::close(fds[0]);
      auto s = StageRows(uri, part);
      const std::string out = s.ok() ? s->ToJson() : "error: " + s.status().ToString();
      std::size_t done = 0;
      while (done < out.size()) {
        const auto n = ::write(fds[1], out.data() + done, out.size() - done);
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
      }
      ::_exit(s.ok() ? 0 : 1);
    }
    ::close(fds[1]);
    std::string json;
    char buf[4096];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;)
      json.append(buf, static_cast<std::size_t>(n));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << json;
    LND_ASSERT_OK_AND_ASSIGN(auto s, StagedFragments::FromJson(json));
    staged.push_back(std::move(s));
  }
  EXPECT_TRUE(table::Dataset::Open(table::TableLocation::Local(uri)).status().IsNotFound());
  LND_ASSERT_OK_AND_ASSIGN(auto t, CommitStaged(uri, staged));
  EXPECT_EQ(t.version(), 1u);
  ExpectRows(t.dataset(), all);
  std::filesystem::remove_all(uri);
}

}  // namespace
}  // namespace lance_nd
