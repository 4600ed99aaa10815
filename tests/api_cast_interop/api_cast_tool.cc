// Staged writes and widening on the command line, for staged_widen.mjs (LanceDB reads the
// results):
//
//   api_cast_tool stage TABLE CASE.json
//       stage the case's rows (nd JSON, tests/nd_table_interop/gen.mjs) and commit them: the
//       first entry of "commits" as two stagers committed at once (a new table: one Overwrite),
//       then every later entry as one stager each, all committed together (one version, new
//       variables and keys included). lance-nd reads the table back and compares every row.
//   api_cast_tool widen TABLE SEED [2.1|2.2]
//       write a table (data files of that version, default 2.2) of random rows (`v` int32 with
//       nulls and absent rows, `w` float32, stats columns for both, several fragments), delete its
//       first row, widen `v` to float64, and print the expected rows and `v` stats as JSON
//       ({"rows": [{"v": [...] | null, "w":
//       [...]}], "stats": [{"min": x, "max": y} | null]}), from the rows as written.
//   api_cast_tool stage-append TABLE ROWS.json
//       append the nd JSON rows of ROWS.json ({"rows": [...], "parts": [n, ...]}) to an
//       existing table: one stager per part, one commit (mode append).
//   api_cast_tool widen-existing TABLE VARIABLE TYPE
//       widen VARIABLE of the table (written by Lance, say) to TYPE (an nd JSON type name).
//   api_cast_tool mixed-order TABLE
//       three stagers stage one row each, v = [x, x+1] (x = 1, 2, 3) with attribute keys
//       (b, a), (a, b), (c, a) (value "val_<key>") and global keys g<key> = x in the reverse
//       order; one commit. Each data file lists its struct children in its own order; lance-nd
//       reads the rows back and compares them.
//
// Exit status: 0 on success, 1 on an error or difference, 2 on bad usage.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../nd_ipc_interop/compare.h"
#include "../nd_ipc_interop/nd_json.h"
#include "lance_nd/api/cast_test_util.h"
#include "lance_nd/api/staged.h"
#include "lance_nd/api/widen.h"
#include "lance_nd/table/maintenance.h"

namespace lance_nd {
namespace {

Result<std::string> ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError("cannot read ", path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

Result<StagedFragments> StageAndShip(const std::string& table,
                                     std::span<const nd::NdRecordBatch> rows, WriteMode mode) {
  WriteOptions options;
  options.mode = mode;
  LND_ASSIGN_OR_RETURN(auto staged, StageRows(table, rows, options));
  return StagedFragments::FromJson(staged.ToJson());  // as a coordinator would receive it
}

Status Stage(const std::string& table, const std::string& case_path) {
  LND_ASSIGN_OR_RETURN(auto text, ReadText(case_path));
  LND_ASSIGN_OR_RETURN(auto rows, interop::ParseNdJson(text));
  const auto doc = nlohmann::json::parse(text, nullptr, false);
  std::vector<std::size_t> commits;
  for (const auto& c : doc["commits"]) commits.push_back(c.get<std::size_t>());
  const std::span<const nd::NdRecordBatch> all(rows);
  if (commits.empty() || commits[0] == 0) return Status::InvalidArgument("no commits in case");
  // The first commit's rows: two stagers create the table in one commit.
  const std::size_t half = (commits[0] + 1) / 2;
  std::vector<StagedFragments> first;
  LND_ASSIGN_OR_RETURN(auto a, StageAndShip(table, all.subspan(0, half), WriteMode::kCreate));
  first.push_back(std::move(a));
  if (commits[0] > half) {
    LND_ASSIGN_OR_RETURN(
        auto b, StageAndShip(table, all.subspan(half, commits[0] - half), WriteMode::kCreate));
    first.push_back(std::move(b));
  }
  LND_RETURN_NOT_OK(CommitStaged(table, first).status());
  std::size_t start = commits[0];
  // Every later commit's rows: one stager each, one commit for all of them.
  std::vector<StagedFragments> later;
  for (std::size_t k = 1; k < commits.size(); ++k) {
    LND_ASSIGN_OR_RETURN(auto s,
                         StageAndShip(table, all.subspan(start, commits[k]), WriteMode::kAppend));
    later.push_back(std::move(s));
    start += commits[k];
  }
  if (!later.empty()) {
    WriteOptions append;
    append.mode = WriteMode::kAppend;
    LND_ASSIGN_OR_RETURN(auto t, CommitStaged(table, later, append));
    if (t.version() != 2) return Status::Internal("expected version 2, got ", t.version());
  }
  LND_ASSIGN_OR_RETURN(auto ds, table::Dataset::Open(table::TableLocation::Local(table)));
  LND_ASSIGN_OR_RETURN(auto back, api::testing::ReadRows(ds));
  return interop::CompareRows(rows, back, "staged table read by lance-nd");
}

// Append the rows of ROWS.json ({"rows": [...], "parts": [n, ...]}) to an existing table: one
// stager per part, one commit.
Status StageAppend(const std::string& table, const std::string& rows_path) {
  LND_ASSIGN_OR_RETURN(auto text, ReadText(rows_path));
  LND_ASSIGN_OR_RETURN(auto rows, interop::ParseNdJson(text));
  const auto doc = nlohmann::json::parse(text, nullptr, false);
  const std::span<const nd::NdRecordBatch> all(rows);
  std::vector<StagedFragments> staged;
  std::size_t start = 0;
  for (const auto& part : doc["parts"]) {
    const auto n = part.get<std::size_t>();
    LND_ASSIGN_OR_RETURN(auto s, StageAndShip(table, all.subspan(start, n), WriteMode::kAppend));
    staged.push_back(std::move(s));
    start += n;
  }
  WriteOptions append;
  append.mode = WriteMode::kAppend;
  return CommitStaged(table, staged, append).status();
}

nlohmann::json Numbers(const array::ArrayPtr& values) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& v : api::testing::Doubles(values)) {
    out.push_back(v ? nlohmann::json(*v) : nlohmann::json(nullptr));
  }
  return out;
}

Status Widen(const std::string& path, std::uint64_t seed, file::FileVersion version) {
  std::mt19937_64 rng(seed);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::vector<nd::NdRecordBatch> rows;
  const int n = uniform(3, 30);
  for (int r = 0; r < n; ++r) {
    std::vector<std::pair<std::string, nd::NdArrowArray>> arrays;
    if (uniform(0, 4) > 0) {
      std::vector<std::optional<int32_t>> v;
      const int size = uniform(0, 6);
      for (int i = 0; i < size; ++i) {
        v.push_back(uniform(0, 7) == 0 ? std::nullopt
                                       : std::optional(static_cast<int32_t>(
                                             std::uniform_int_distribution<int32_t>()(rng))));
      }
      LND_ASSIGN_OR_RETURN(auto dims, nd::Dimensions::Make({"x"}, {v.size()}));
      LND_ASSIGN_OR_RETURN(
          auto a, nd::NdArrowArray::Make(array::MakePrimitiveArray<int32_t>(array::Int32(), v),
                                         dims, nd::Attributes().Set("units", "K")));
      arrays.emplace_back("v", std::move(a));
    }
    std::vector<std::optional<float>> w = {static_cast<float>(r), -0.5f};
    LND_ASSIGN_OR_RETURN(auto wdims, nd::Dimensions::Make({"y"}, {2}));
    LND_ASSIGN_OR_RETURN(
        auto wa,
        nd::NdArrowArray::Make(array::MakePrimitiveArray<float>(array::Float32(), w), wdims));
    arrays.emplace_back("w", std::move(wa));
    LND_ASSIGN_OR_RETURN(auto row, nd::NdRecordBatch::FromArrays(std::move(arrays)));
    rows.push_back(std::move(row));
  }
  const auto location = table::TableLocation::Local(path);
  LND_ASSIGN_OR_RETURN(
      auto ds,
      api::testing::WriteNdTable(location, rows, {{"v", array::Int32()}, {"w", array::Float32()}},
                                 uniform(1, 8), version));
  const std::uint64_t first = ds.fragments().front().id << 32;
  LND_ASSIGN_OR_RETURN(auto deleted, table::DeleteRows(ds, std::span(&first, 1)));
  LND_ASSIGN_OR_RETURN(auto widened,
                       api::internal::WidenVariable(deleted.dataset, "v", array::Float64()));
  rows.erase(rows.begin());
  LND_ASSIGN_OR_RETURN(auto back, api::testing::ReadRows(widened));
  if (back.size() != rows.size()) return Status::Internal("lance-nd reads ", back.size(), " rows");

  nlohmann::json expected = {{"rows", nlohmann::json::array()}, {"stats", nlohmann::json::array()}};
  const auto stats = api::testing::StatsColumnFor(rows, "v", array::Int32());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto* v = rows[r].GetColumn("v");
    expected["rows"].push_back({{"v", v ? Numbers(v->values()) : nlohmann::json(nullptr)},
                                {"w", Numbers(rows[r].GetColumn("w")->values())}});
    const auto i = static_cast<int64_t>(r);
    if (stats->IsNull(i)) {
      expected["stats"].push_back(nullptr);
      continue;
    }
    LND_ASSIGN_OR_RETURN(auto min, array::Slice(stats->children[0], i, 1));
    LND_ASSIGN_OR_RETURN(auto max, array::Slice(stats->children[1], i, 1));
    expected["stats"].push_back({{"min", Numbers(min)[0]}, {"max", Numbers(max)[0]}});
  }
  std::printf("%s\n", expected.dump().c_str());
  return Status::OK();
}

// Three stagers whose attribute and global keys come in different orders (b,a / a,b / c,a):
// each staged data file keeps its own order of struct children, unlike the committed schema.
Status MixedOrder(const std::string& table) {
  auto row = [](std::vector<std::string> keys, double x) {
    nd::Attributes attrs;
    for (auto& k : keys) attrs.Set(k, "val_" + k);
    nd::Attributes g;
    for (auto it = keys.rbegin(); it != keys.rend(); ++it) g.Set("g" + *it, x);
    auto a =
        *nd::NdArrowArray::Make(array::MakePrimitiveArray<double>(array::Float64(), {x, x + 1}),
                                *nd::Dimensions::Make({"x"}, {2}), attrs);
    return *nd::NdRecordBatch::FromArrays({{"v", a}}, g);
  };
  const std::vector<nd::NdRecordBatch> ra = {row({"b", "a"}, 1)}, rb = {row({"a", "b"}, 2)},
                                       rc = {row({"c", "a"}, 3)};
  std::vector<StagedFragments> staged;
  for (auto* r : {&ra, &rb, &rc}) {
    LND_ASSIGN_OR_RETURN(auto s, StageAndShip(table, *r, WriteMode::kCreate));
    staged.push_back(s);
  }
  LND_ASSIGN_OR_RETURN(auto t, CommitStaged(table, staged));
  LND_ASSIGN_OR_RETURN(auto back, api::testing::ReadRows(t.dataset()));
  std::vector<nd::NdRecordBatch> all = {ra[0], rb[0], rc[0]};
  return interop::CompareRows(all, back, "order");
  return Status::OK();
}

// Widen `variable` of an existing table (one Lance wrote) to the type named `type`.
Status WidenExisting(const std::string& path, const std::string& variable,
                     const std::string& type) {
  LND_ASSIGN_OR_RETURN(auto to, interop::TypeFromName(type));
  LND_ASSIGN_OR_RETURN(auto ds, table::Dataset::Open(table::TableLocation::Local(path)));
  LND_ASSIGN_OR_RETURN(auto widened, api::internal::WidenVariable(ds, variable, to));
  if (widened.version() != ds.version() + 1) return Status::Internal("expected one commit");
  return Status::OK();
}

int Main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  Status st;
  if (args.size() == 3 && args[0] == "stage") {
    st = Stage(args[1], args[2]);
  } else if (args.size() == 3 && args[0] == "stage-append") {
    st = StageAppend(args[1], args[2]);
  } else if (args.size() == 4 && args[0] == "widen-existing") {
    st = WidenExisting(args[1], args[2], args[3]);
  } else if (args.size() == 2 && args[0] == "mixed-order") {
    st = MixedOrder(args[1]);
  } else if ((args.size() == 3 || args.size() == 4) && args[0] == "widen") {
    const bool v21 = args.size() == 4 && args[3] == "2.1";
    st = Widen(args[1], std::stoull(args[2]),
               v21 ? file::FileVersion::kV2_1 : file::FileVersion::kV2_2);
  } else {
    std::fprintf(stderr,
                 "usage: api_cast_tool stage TABLE CASE.json | widen TABLE SEED [2.1|2.2] | "
                 "mixed-order TABLE\n");
    return 2;
  }
  if (!st.ok()) {
    std::fprintf(stderr, "%s\n", st.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace lance_nd

int main(int argc, char** argv) { return lance_nd::Main(argc, argv); }
