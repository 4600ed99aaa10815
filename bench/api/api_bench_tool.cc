// lance-nd's side of bench/api/api_bench.mjs (see bench/api/README.md). Prints one JSON object.
//
//   lance_nd_api_bench_tool gen DIR ROWS GRID_ROWS
//       untimed set-up: DIR/filter_rows.arrow (the encoded rows, for LanceDB's ingest),
//       DIR/filter.lance (NdWriter, stats on), DIR/filter_nostats.lance, DIR/grid.lance
//       (GRID_ROWS 1x90x180 float32 grids, Table::Write).
//   lance_nd_api_bench_tool ingest DIR ROWS
//       one timed NdWriter::Create (stats on) + Write + Finish of the rows into a new table.
//   lance_nd_api_bench_tool ingest-encoded DIR
//       DIR/filter_rows.arrow read untimed (the batch LanceDB ingests), then one timed
//       NdWriter::Create (stats on) + WriteEncoded + Finish into a new table.
//   lance_nd_api_bench_tool filter DIR REPS FILTER PRUNE [BATCH_ROWS]
//       per rep (after one warm-up): Table::Open + Scanner ReadAll of filter.lance with no
//       filter, with Filter(FILTER) (and its CountRows: selection without decoding), with
//       Prune(PRUNE), and with Prune(PRUNE) on
//       filter_nostats.lance; BATCH_ROWS sets Scanner::BatchRows (default: the Scanner's).
//   lance_nd_api_bench_tool fault-cost
//       what this machine charges for fresh memory: milliseconds per MB to touch 64 MiB of new
//       anonymous memory with 4 KiB pages and with transparent huge pages (the page-fault cost
//       weighs on ingest, so records carry it).
//   lance_nd_api_bench_tool grid DIR REPS
//       per rep (after one warm-up): Table::Open + Scanner ReadAll of grid.lance, and the same
//       scan streamed (NdBatchReader::Next, each row dropped before the next).
#include <sys/mman.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "api_bench_data.h"
#include "lance_nd/api/nd_writer.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/api/table.h"
#include "lance_nd/array/ipc.h"
#include "lance_nd/nd/row_encoding.h"

namespace lance_nd::bench {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

// Minor page faults of the process so far: touching fresh memory is a large part of ingest,
// and its cost per fault varies between machines, so the count is reported with the time.
long MinorFaults() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

Status WriteWithNdWriter(const std::string& path, const std::vector<nd::NdRecordBatch>& rows,
                         bool stats) {
  std::filesystem::remove_all(path);
  WriteOptions options;
  options.stats = stats;
  LND_ASSIGN_OR_RETURN(NdWriter writer, NdWriter::Create(path, options));
  LND_RETURN_NOT_OK(writer.Write(rows));
  return writer.Finish().status();
}

Status Gen(const std::string& dir, std::int64_t rows, std::int64_t grid_rows) {
  LND_ASSIGN_OR_RETURN(std::vector<nd::NdRecordBatch> filter_rows, MakeFilterRows(rows));
  LND_ASSIGN_OR_RETURN(array::RecordBatchPtr encoded, nd::EncodeRows(filter_rows));
  LND_RETURN_NOT_OK(array::ipc::WriteIpcFile(dir + "/filter_rows.arrow", encoded->schema(),
                                             std::vector<array::RecordBatchPtr>{encoded}));
  LND_RETURN_NOT_OK(WriteWithNdWriter(dir + "/filter.lance", filter_rows, true));
  LND_RETURN_NOT_OK(WriteWithNdWriter(dir + "/filter_nostats.lance", filter_rows, false));
  LND_ASSIGN_OR_RETURN(std::vector<nd::NdRecordBatch> grids, MakeGridRows(grid_rows, 90, 180));
  std::filesystem::remove_all(dir + "/grid.lance");
  LND_RETURN_NOT_OK(Table::Write(dir + "/grid.lance", grids).status());
  std::printf("{\"rows\": %lld, \"grid_rows\": %lld}\n", static_cast<long long>(rows),
              static_cast<long long>(grid_rows));
  return Status::OK();
}

Status Ingest(const std::string& dir, std::int64_t rows) {
  LND_ASSIGN_OR_RETURN(std::vector<nd::NdRecordBatch> filter_rows, MakeFilterRows(rows));
  const std::string path = dir + "/ingest.lance";
  std::filesystem::remove_all(path);
  const long faults = MinorFaults();
  const auto start = Clock::now();
  LND_RETURN_NOT_OK(WriteWithNdWriter(path, filter_rows, true));
  const double s = Seconds(start);
  const long ingest_faults = MinorFaults() - faults;
  LND_ASSIGN_OR_RETURN(Table table, Table::Open(path));
  std::printf("{\"ingest_s\": %.6f, \"minor_faults\": %ld, \"rows\": %llu}\n", s, ingest_faults,
              static_cast<unsigned long long>(table.dataset().CountRows()));
  return Status::OK();
}

Status IngestEncoded(const std::string& dir) {
  LND_ASSIGN_OR_RETURN(array::ipc::IpcContents ipc,
                       array::ipc::ReadIpcFile(dir + "/filter_rows.arrow"));
  const std::string path = dir + "/ingest_encoded.lance";
  std::filesystem::remove_all(path);
  const long faults = MinorFaults();
  const auto start = Clock::now();
  WriteOptions options;
  options.stats = true;
  LND_ASSIGN_OR_RETURN(NdWriter writer, NdWriter::Create(path, options));
  for (const array::RecordBatchPtr& batch : ipc.batches) {
    LND_RETURN_NOT_OK(writer.WriteEncoded(batch));
  }
  const double written = Seconds(start);
  LND_RETURN_NOT_OK(writer.Finish().status());
  const double s = Seconds(start);
  const long ingest_faults = MinorFaults() - faults;
  LND_ASSIGN_OR_RETURN(Table table, Table::Open(path));
  std::printf("{\"ingest_s\": %.6f, \"write_s\": %.6f, \"minor_faults\": %ld, \"rows\": %llu}\n", s,
              written, ingest_faults, static_cast<unsigned long long>(table.dataset().CountRows()));
  return Status::OK();
}

/// \brief Seconds of one Open + scan + ReadAll, and the rows it returned.
struct Timed {
  double seconds = 0;
  std::size_t rows = 0;
};

/// \brief One Open + scan: ReadAll (every row kept), or (`stream`) NdBatchReader::Next with
/// each row dropped before the next, as a consumer that processes rows one by one, or
/// (`count_only`) CountRows: the rows selected, none decoded.
Result<Timed> TimeScan(const std::string& path, const std::function<void(Scanner&)>& configure,
                       bool stream, bool count_only = false) {
  const auto start = Clock::now();
  LND_ASSIGN_OR_RETURN(Table table, Table::Open(path));
  Scanner scanner = table.Scan();
  configure(scanner);
  if (count_only) {
    LND_ASSIGN_OR_RETURN(std::uint64_t rows, scanner.CountRows());
    return Timed{Seconds(start), static_cast<std::size_t>(rows)};
  }
  if (!stream) {
    LND_ASSIGN_OR_RETURN(std::vector<nd::NdRecordBatch> rows, scanner.ReadAll());
    return Timed{Seconds(start), rows.size()};
  }
  LND_ASSIGN_OR_RETURN(NdBatchReader reader, scanner.Open());
  std::size_t n = 0;
  while (true) {
    LND_ASSIGN_OR_RETURN(std::optional<nd::NdRecordBatch> row, reader.Next());
    if (!row) break;
    ++n;
  }
  return Timed{Seconds(start), n};
}

/// \brief `"name": [s, ...], "name_rows": n` for `reps` timed scans after one warm-up.
Result<std::string> Series(const std::string& name, int reps, const std::string& path,
                           const std::function<void(Scanner&)>& configure, bool stream = false,
                           bool count_only = false) {
  LND_ASSIGN_OR_RETURN(Timed warm, TimeScan(path, configure, stream, count_only));
  std::string out = "\"" + name + "_s\": [";
  for (int r = 0; r < reps; ++r) {
    LND_ASSIGN_OR_RETURN(Timed t, TimeScan(path, configure, stream, count_only));
    out += (r ? ", " : "") + std::to_string(t.seconds);
  }
  return out + "], \"" + name + "_rows\": " + std::to_string(warm.rows);
}

Status Filter(const std::string& dir, int reps, const std::string& filter, const std::string& prune,
              std::int64_t batch_rows) {
  const std::string stats = dir + "/filter.lance";
  const std::string nostats = dir + "/filter_nostats.lance";
  std::vector<std::string> parts;
  const auto add = [&](const std::string& name, const std::string& path,
                       const std::function<void(Scanner&)>& configure,
                       bool count_only = false) -> Status {
    LND_ASSIGN_OR_RETURN(std::string s, Series(name, reps, path, configure, false, count_only));
    parts.push_back(std::move(s));
    return Status::OK();
  };
  const auto rows = [&](Scanner& s) -> Scanner& {
    return batch_rows > 0 ? s.BatchRows(batch_rows) : s;
  };
  LND_RETURN_NOT_OK(add("full", stats, [&](Scanner& s) { rows(s); }));
  LND_RETURN_NOT_OK(add("filter", stats, [&](Scanner& s) { rows(s).Filter(filter); }));
  LND_RETURN_NOT_OK(add(
      "filter_count", stats, [&](Scanner& s) { rows(s).Filter(filter); }, true));
  LND_RETURN_NOT_OK(add("prune_stats", stats, [&](Scanner& s) { rows(s).Prune(prune); }));
  LND_RETURN_NOT_OK(add("prune_nostats", nostats, [&](Scanner& s) { rows(s).Prune(prune); }));
  std::string json = "{";
  for (std::size_t i = 0; i < parts.size(); ++i) json += (i ? ", " : "") + parts[i];
  std::printf("%s}\n", json.c_str());
  return Status::OK();
}

Status Grid(const std::string& dir, int reps) {
  const std::string path = dir + "/grid.lance";
  LND_ASSIGN_OR_RETURN(std::string all, Series("scan", reps, path, [](Scanner&) {}));
  LND_ASSIGN_OR_RETURN(std::string stream, Series(
                                               "stream", reps, path, [](Scanner&) {}, true));
  std::printf("{%s, %s}\n", all.c_str(), stream.c_str());
  return Status::OK();
}

// Milliseconds per MB to touch `bytes` of fresh anonymous memory once per 4 KiB, the mapping
// advised for huge pages or not (best of three).
double TouchCost(std::size_t bytes, bool huge) {
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  double best = 1e9;
  for (int rep = 0; rep < 3; ++rep) {
    void* map =
        ::mmap(nullptr, bytes + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) return -1;
    auto* p =
        reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(map) + kHuge - 1) & ~(kHuge - 1));
    ::madvise(p, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    const auto start = Clock::now();
    for (std::size_t i = 0; i < bytes; i += 4096) p[i] = 1;
    best = std::min(best, Seconds(start) * 1e3 / (static_cast<double>(bytes) / 1e6));
    ::munmap(map, bytes + kHuge);
  }
  return best;
}

Status FaultCost() {
  constexpr std::size_t kBytes = std::size_t{64} << 20;
  std::printf("{\"small_pages_ms_per_mb\": %.4f, \"huge_pages_ms_per_mb\": %.4f}\n",
              TouchCost(kBytes, false), TouchCost(kBytes, true));
  return Status::OK();
}

int Main(const std::vector<std::string>& a) {
  Status st = Status::InvalidArgument("bad usage");
  if (a.size() == 4 && a[0] == "gen") st = Gen(a[1], std::stoll(a[2]), std::stoll(a[3]));
  if (a.size() == 3 && a[0] == "ingest") st = Ingest(a[1], std::stoll(a[2]));
  if (a.size() == 2 && a[0] == "ingest-encoded") st = IngestEncoded(a[1]);
  if ((a.size() == 5 || a.size() == 6) && a[0] == "filter") {
    st = Filter(a[1], std::stoi(a[2]), a[3], a[4], a.size() == 6 ? std::stoll(a[5]) : 0);
  }
  if (a.size() == 3 && a[0] == "grid") st = Grid(a[1], std::stoi(a[2]));
  if (a.size() == 1 && a[0] == "fault-cost") st = FaultCost();
  if (!st.ok()) {
    std::fprintf(stderr,
                 "%s\nusage: lance_nd_api_bench_tool gen DIR ROWS GRID_ROWS | ingest DIR ROWS | "
                 "ingest-encoded DIR | "
                 "filter DIR REPS FILTER PRUNE [BATCH_ROWS] | grid DIR REPS | fault-cost\n",
                 st.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace lance_nd::bench

int main(int argc, char** argv) {
  return lance_nd::bench::Main(std::vector<std::string>(argv + 1, argv + argc));
}
