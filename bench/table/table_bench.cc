// Google Benchmark of table commits (see bench/table/README.md):
//   BM_TableCommitSmallAppend  one append of 10 rows (WriteTable kAppend: data file, .txn,
//                              manifest, hint) to a local table; the table grows as it runs;
//   BM_TableOpen/versions:N    Dataset::Open + CountRows of the latest version of a table with N
//                              versions (built once, untimed; manifest cache cleared each time);
//   BM_TableAppendThroughput   one append of --big-rows rows; bytes/s = Arrow IPC bytes of them.
// Extra flags: --dir=DIR (default: temp dir), --big-rows=N (default 400000),
// --versions=N (default 1000).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "lance_nd/table/dataset.h"
#include "lance_nd/table/write.h"
#include "table_bench_data.h"

namespace {

namespace la = lance_nd::array;
namespace lt = lance_nd::table;

std::string g_dir;
std::int64_t g_big_rows = 400'000;
std::int64_t g_versions = 1000;

void Check(const lance_nd::Status& st, benchmark::State& state) {
  if (!st.ok()) state.SkipWithError(st.ToString().c_str());
}

lance_nd::Status Write(const std::string& table, const la::RecordBatchPtr& batch,
                       lt::WriteMode mode) {
  const std::vector<la::RecordBatchPtr> batches{batch};
  lt::WriteOptions options;
  options.mode = mode;
  return lt::WriteTable(lt::TableLocation::Local(table), batches, options).status();
}

void BM_TableCommitSmallAppend(benchmark::State& state) {
  const std::string table = g_dir + "/commit.lance";
  std::filesystem::remove_all(table);
  auto small = lance_nd::bench::MakeTableRows(0, 10);
  if (!small.ok()) return Check(small.status(), state);
  Check(Write(table, *small, lt::WriteMode::kCreate), state);
  for (auto _ : state) {
    const auto st = Write(table, *small, lt::WriteMode::kAppend);
    if (!st.ok()) return Check(st, state);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_TableOpen(benchmark::State& state) {
  const std::int64_t versions = state.range(0);
  const std::string table = g_dir + "/open" + std::to_string(versions) + ".lance";
  auto small = lance_nd::bench::MakeTableRows(0, 10);
  if (!small.ok()) return Check(small.status(), state);
  auto existing = lt::Dataset::Open(lt::TableLocation::Local(table));
  if (!existing.ok() || existing->version() != static_cast<std::uint64_t>(versions)) {
    std::filesystem::remove_all(table);
    Check(Write(table, *small, lt::WriteMode::kCreate), state);
    for (std::int64_t v = 1; v < versions; ++v) {
      const auto st = Write(table, *small, lt::WriteMode::kAppend);
      if (!st.ok()) return Check(st, state);
    }
  }
  for (auto _ : state) {
    lt::ClearManifestCache();  // cold: parse the manifest every time
    auto ds = lt::Dataset::Open(lt::TableLocation::Local(table));
    if (!ds.ok()) return Check(ds.status(), state);
    benchmark::DoNotOptimize(ds->CountRows());
  }
}

void BM_TableAppendThroughput(benchmark::State& state) {
  const std::string table = g_dir + "/append.lance";
  std::filesystem::remove_all(table);
  auto small = lance_nd::bench::MakeTableRows(0, 10);
  auto big = lance_nd::bench::MakeTableRows(1'000'000, g_big_rows);
  if (!small.ok() || !big.ok()) return Check(lance_nd::Status::IOError("data"), state);
  const std::string ipc = g_dir + "/append_bytes.arrow";
  Check(lance_nd::bench::WriteIpc(ipc, *big), state);
  const auto bytes = static_cast<std::int64_t>(std::filesystem::file_size(ipc));
  Check(Write(table, *small, lt::WriteMode::kCreate), state);
  for (auto _ : state) {
    const auto st = Write(table, *big, lt::WriteMode::kAppend);
    if (!st.ok()) return Check(st, state);
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> rest;
  g_dir = std::filesystem::temp_directory_path().string() + "/lance_nd_table_bench";
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--dir=", 6) == 0)
      g_dir = argv[i] + 6;
    else if (std::strncmp(argv[i], "--big-rows=", 11) == 0)
      g_big_rows = std::atoll(argv[i] + 11);
    else if (std::strncmp(argv[i], "--versions=", 11) == 0)
      g_versions = std::atoll(argv[i] + 11);
    else
      rest.push_back(argv[i]);
  }
  std::filesystem::create_directories(g_dir);
  int n = static_cast<int>(rest.size());
  benchmark::RegisterBenchmark("BM_TableCommitSmallAppend", BM_TableCommitSmallAppend)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_TableOpen", BM_TableOpen)
      ->ArgName("versions")
      ->Arg(g_versions)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_TableAppendThroughput", BM_TableAppendThroughput)
      ->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&n, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
