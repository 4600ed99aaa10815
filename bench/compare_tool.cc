// lance-nd's side of scripts/bench-compare.mjs (one timed run per process; see bench/README.md).
//
//   lance_nd_bench_tool gen DIR ROWS        grids.arrow, grids_zstd.arrow, take_rows.txt in DIR
//   lance_nd_bench_tool run IN.arrow OUT.lance ROWS.txt THREADS
//       write OUT.lance from IN.arrow (loaded first, untimed), then full read and Take of the
//       rows in ROWS.txt; prints one JSON object with seconds, sizes and checksums.
//   lance_nd_bench_tool phases IN.arrow OUT.lance ROWS.txt THREADS REPS
//       for profiling: REPS rounds of write, scan and take in one process, each line giving
//       wall and CPU seconds (user+sys of all threads; steadier than wall on a busy machine).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "bench_data.h"
#include "lance_nd/array/ipc.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/file/writer.h"
#include "lance_nd/io/file_system.h"

namespace {

using lance_nd::Result;
using lance_nd::Status;
namespace la = lance_nd::array;
namespace lf = lance_nd::file;
using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto s = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
  };
  return s(u.ru_utime) + s(u.ru_stime);
}

Status Gen(const std::string& dir, std::int64_t rows) {
  for (const bool zstd : {false, true}) {
    LND_ASSIGN_OR_RETURN(la::RecordBatchPtr batch,
                         lance_nd::bench::MakeNdGrids(rows, 90, 180, zstd));
    const std::string path = dir + (zstd ? "/grids_zstd.arrow" : "/grids.arrow");
    const std::vector<la::RecordBatchPtr> batches{batch};
    LND_RETURN_NOT_OK(la::ipc::WriteIpcFile(path, batch->schema(), batches));
  }
  std::ofstream out(dir + "/take_rows.txt");
  for (std::uint64_t r : lance_nd::bench::RandomRows(rows, 200, 2026)) out << r << "\n";
  if (!out) return Status::IOError("cannot write " + dir + "/take_rows.txt");
  return Status::OK();
}

Status Run(const std::string& in, const std::string& out, const std::string& rows_path, int threads,
           int phase_reps = 0) {
  LND_ASSIGN_OR_RETURN(auto ipc, la::ipc::IpcFileReader::OpenFile(in));
  std::vector<la::RecordBatchPtr> batches;
  for (int i = 0; i < ipc.num_record_batches(); ++i) {
    LND_ASSIGN_OR_RETURN(auto b, ipc.ReadRecordBatch(i));
    batches.push_back(std::move(b));
  }
  std::vector<std::uint64_t> take_rows;
  {
    std::ifstream f(rows_path);
    std::uint64_t r = 0;
    while (f >> r) take_rows.push_back(r);
  }
  double input_sum = 0.0;
  for (const auto& b : batches) {
    LND_ASSIGN_OR_RETURN(double s, lance_nd::bench::SumNdValues(*b));
    input_sum += s;
  }

  lf::ReaderOptions options;
  options.num_threads = threads;
  auto fs = lance_nd::io::LocalFileSystem();
  // LND_PHASES=write|scan|take limits the rounds to one phase (the file must exist for the
  // read phases), so a profiler sees only that phase.
  const char* only_env = std::getenv("LND_PHASES");
  const std::string only = only_env != nullptr ? only_env : "";
  auto phase = [&](const char* name, const std::function<Status()>& body) -> Status {
    if (!only.empty() && only != name) return Status::OK();
    const auto w0 = Clock::now();
    const double c0 = CpuSeconds();
    LND_RETURN_NOT_OK(body());
    std::printf("%-5s wall %.3f cpu %.3f\n", name, Seconds(w0), CpuSeconds() - c0);
    return Status::OK();
  };
  auto read = [&](bool take) -> Status {
    LND_ASSIGN_OR_RETURN(auto file, fs->OpenForRead(out));
    LND_ASSIGN_OR_RETURN(lf::FileReader reader, lf::FileReader::Open(file, options));
    return (take ? reader.Take(take_rows) : reader.ReadAll()).status();
  };
  // Each write makes a new file, as a table write does (Lance's side starts from an empty
  // directory): overwriting the old one would time ext4's flush of a truncated file on close.
  auto remove_out = [&] { std::filesystem::remove(out); };
  for (int rep = 0; rep < phase_reps; ++rep) {
    if (only.empty() || only == "write") remove_out();
    LND_RETURN_NOT_OK(phase("write", [&]() -> Status {
      LND_ASSIGN_OR_RETURN(auto writer, lf::FileWriter::Open(out, ipc.schema()));
      for (const auto& b : batches) LND_RETURN_NOT_OK(writer->Write(*b));
      return writer->Finish().status();
    }));
    LND_RETURN_NOT_OK(phase("scan", [&] { return read(false); }));
    LND_RETURN_NOT_OK(phase("take", [&] { return read(true); }));
  }
  if (phase_reps > 0) return Status::OK();

  remove_out();
  auto t0 = Clock::now();
  LND_ASSIGN_OR_RETURN(auto writer, lf::FileWriter::Open(out, ipc.schema()));
  for (const auto& b : batches) LND_RETURN_NOT_OK(writer->Write(*b));
  LND_ASSIGN_OR_RETURN(lf::WrittenFile written, writer->Finish());
  const double write_s = Seconds(t0);

  t0 = Clock::now();
  LND_ASSIGN_OR_RETURN(auto file, fs->OpenForRead(out));
  LND_ASSIGN_OR_RETURN(lf::FileReader reader, lf::FileReader::Open(file, options));
  LND_ASSIGN_OR_RETURN(la::RecordBatchPtr all, reader.ReadAll());
  const double scan_s = Seconds(t0);
  LND_ASSIGN_OR_RETURN(double scan_sum, lance_nd::bench::SumNdValues(*all));

  t0 = Clock::now();
  LND_ASSIGN_OR_RETURN(auto file2, fs->OpenForRead(out));
  LND_ASSIGN_OR_RETURN(lf::FileReader reader2, lf::FileReader::Open(file2, options));
  LND_ASSIGN_OR_RETURN(la::RecordBatchPtr taken, reader2.Take(take_rows));
  const double take_s = Seconds(t0);
  LND_ASSIGN_OR_RETURN(double take_sum, lance_nd::bench::SumNdValues(*taken));

  std::printf(
      "{\"engine\":\"lance-nd\",\"write_s\":%.6f,\"scan_s\":%.6f,\"take_s\":%.6f,"
      "\"rows\":%lld,\"scan_rows\":%lld,\"take_rows\":%lld,\"file_bytes\":%llu,"
      "\"input_sum\":%.6f,\"scan_sum\":%.6f,\"take_sum\":%.6f}\n",
      write_s, scan_s, take_s, static_cast<long long>(written.num_rows),
      static_cast<long long>(all->num_rows()), static_cast<long long>(taken->num_rows()),
      static_cast<unsigned long long>(written.file_size), input_sum, scan_sum, take_sum);
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> a(argv + 1, argv + argc);
  Status st = Status::OK();
  if (a.size() == 3 && a[0] == "gen") {
    st = Gen(a[1], std::strtoll(a[2].c_str(), nullptr, 10));
  } else if (a.size() == 5 && a[0] == "run") {
    st = Run(a[1], a[2], a[3], std::atoi(a[4].c_str()));
  } else if (a.size() == 6 && a[0] == "phases") {
    st = Run(a[1], a[2], a[3], std::atoi(a[4].c_str()), std::max(1, std::atoi(a[5].c_str())));
  } else {
    std::fprintf(stderr,
                 "usage: %s gen DIR ROWS | run IN.arrow OUT.lance ROWS.txt THREADS |"
                 " phases IN.arrow OUT.lance ROWS.txt THREADS REPS\n",
                 argv[0]);
    return 2;
  }
  if (!st.ok()) {
    std::fprintf(stderr, "error: %s\n", st.ToString().c_str());
    return 1;
  }
  return 0;
}
