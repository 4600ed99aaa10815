// Google Benchmark figures of lance-nd's Lance file writer and reader (no comparison; for the
// comparison with Lance 12 see scripts/bench-compare.mjs and bench/README.md).
//
//   lance_nd_file_bench [benchmark flags] [--rows=N] [--dir=DIR]
//
// --rows: nd rows of 1x90x180 float32 grids (default 2000, about 130 MB of values);
// --dir: where the benchmark files go (default: the temp directory); they are removed at exit.
// Bytes/s count the raw float32 values (4 bytes each), not the file size.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "bench_data.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/file/writer.h"
#include "lance_nd/io/file_system.h"

namespace {

namespace la = lance_nd::array;
namespace lf = lance_nd::file;

constexpr int kLat = 90;
constexpr int kLon = 180;
constexpr int kTakeRows = 200;

struct Config {
  std::int64_t rows = 2000;
  std::string dir;
};
Config& config() {
  static Config c;
  return c;
}

std::string PathFor(const std::string& name) {
  return config().dir + "/lance_nd_bench_" + std::to_string(::getpid()) + "_" + name + ".lance";
}

void Abort(const lance_nd::Status& st, const char* what) {
  std::fprintf(stderr, "%s: %s\n", what, st.ToString().c_str());
  std::abort();
}

template <typename T>
T Unwrap(lance_nd::Result<T> r, const char* what) {
  if (!r.ok()) Abort(r.status(), what);
  return std::move(r).value();
}

// Data and files built once per process and variant.
const la::RecordBatchPtr& Grids(bool zstd) {
  static std::map<bool, la::RecordBatchPtr> cache;
  auto& slot = cache[zstd];
  if (!slot) slot = Unwrap(lance_nd::bench::MakeNdGrids(config().rows, kLat, kLon, zstd), "data");
  return slot;
}

std::int64_t RawBytes(std::int64_t rows) { return rows * kLat * kLon * 4; }

void WriteFile(const std::string& path, const la::RecordBatch& batch) {
  auto writer = Unwrap(lf::FileWriter::Open(path, batch.schema()), "open writer");
  if (auto st = writer->Write(batch); !st.ok()) Abort(st, "write");
  Unwrap(writer->Finish(), "finish");
}

const std::string& GridsFile(bool zstd) {
  static std::map<bool, std::string> cache;
  auto& slot = cache[zstd];
  if (slot.empty()) {
    slot = PathFor(zstd ? "grids_zstd" : "grids");
    WriteFile(slot, *Grids(zstd));
  }
  return slot;
}

lf::FileReader OpenReader(const std::string& path, int threads) {
  auto file = Unwrap(lance_nd::io::LocalFileSystem()->OpenForRead(path), "open file");
  lf::ReaderOptions options;
  options.num_threads = threads;
  return Unwrap(lf::FileReader::Open(file, options), "open reader");
}

void BM_FileWriteNd(benchmark::State& state) {
  const bool zstd = state.range(0) != 0;
  const la::RecordBatchPtr& batch = Grids(zstd);
  const std::string path = PathFor(zstd ? "write_zstd" : "write");
  for (auto _ : state) WriteFile(path, *batch);
  std::filesystem::remove(path);
  state.SetBytesProcessed(state.iterations() * RawBytes(batch->num_rows()));
}

void BM_FileReadAllNd(benchmark::State& state) {
  const bool zstd = state.range(0) != 0;
  const std::string& path = GridsFile(zstd);
  const int threads = static_cast<int>(state.range(1));
  for (auto _ : state) {
    lf::FileReader reader = OpenReader(path, threads);
    la::RecordBatchPtr all = Unwrap(reader.ReadAll(), "read all");
    benchmark::DoNotOptimize(all.get());
  }
  state.SetBytesProcessed(state.iterations() * RawBytes(config().rows));
}

void BM_FileTakeNd(benchmark::State& state) {
  const bool zstd = state.range(0) != 0;
  const std::string& path = GridsFile(zstd);
  const std::vector<std::uint64_t> rows =
      lance_nd::bench::RandomRows(config().rows, kTakeRows, 2026);
  for (auto _ : state) {
    lf::FileReader reader = OpenReader(path, 2);
    la::RecordBatchPtr taken = Unwrap(reader.Take(rows), "take");
    benchmark::DoNotOptimize(taken.get());
  }
  state.SetBytesProcessed(state.iterations() * RawBytes(static_cast<std::int64_t>(rows.size())));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(rows.size()));
}

// One flat, non-nullable, uncompressed float32 column (same values as the grids), read from
// the page cache and decoded on one thread.
void BM_FileDecodeFloat32(benchmark::State& state) {
  // Arg 0: the values bit-pack to 31 bits (as the grids do); 1: full-width floats, stored flat
  // (plain uncompressed float32).
  const bool full_width = state.range(0) != 0;
  static std::string paths[2];
  std::string& path = paths[full_width ? 1 : 0];
  const std::int64_t count = config().rows * kLat * kLon;
  if (path.empty()) {
    path = PathFor(full_width ? "float32_flat" : "float32");
    WriteFile(path, *lance_nd::bench::MakeFlatFloat32(count, full_width));
  }
  for (auto _ : state) {
    lf::FileReader reader = OpenReader(path, 1);
    la::RecordBatchPtr all = Unwrap(reader.ReadAll(), "read all");
    benchmark::DoNotOptimize(all.get());
  }
  state.SetBytesProcessed(state.iterations() * count * 4);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  config().dir = std::filesystem::temp_directory_path().string();
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--rows=", 0) == 0) {
      config().rows = std::max<std::int64_t>(1, std::strtoll(arg.c_str() + 7, nullptr, 10));
    } else if (arg.rfind("--dir=", 0) == 0) {
      config().dir = arg.substr(6);
    } else {
      std::fprintf(stderr,
                   "unknown argument '%s'; expected --rows=N, --dir=DIR or benchmark flags\n",
                   arg.c_str());
      return 2;
    }
  }
  benchmark::RegisterBenchmark("BM_FileWriteNd", BM_FileWriteNd)
      ->ArgName("zstd")
      ->Arg(0)
      ->Arg(1)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("BM_FileReadAllNd", BM_FileReadAllNd)
      ->ArgNames({"zstd", "threads"})
      ->Args({0, 1})
      ->Args({0, 2})
      ->Args({1, 2})
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("BM_FileTakeNd", BM_FileTakeNd)
      ->ArgName("zstd")
      ->Arg(0)
      ->Arg(1)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("BM_FileDecodeFloat32", BM_FileDecodeFloat32)
      ->ArgName("flat")
      ->Arg(0)
      ->Arg(1)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::error_code ec;
  for (const char* name : {"grids", "grids_zstd", "float32", "float32_flat"}) {
    std::filesystem::remove(PathFor(name), ec);
  }
  return 0;
}
