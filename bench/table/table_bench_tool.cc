// lance-nd's side of scripts/bench-table.mjs (see bench/table/README.md). Prints one JSON line.
//   lance_nd_table_bench_tool gen DIR SMALL_ROWS BIG_ROWS      small.arrow, big.arrow in DIR
//   lance_nd_table_bench_tool commit SMALL.arrow TABLE N      create, then N timed appends
//   lance_nd_table_bench_tool versions SMALL.arrow TABLE N    create + N-1 appends (N versions)
//   lance_nd_table_bench_tool open TABLE REPS                 timed Dataset::Open + CountRows
//                                                             (manifest cache cleared: cold)
//   lance_nd_table_bench_tool append SMALL.arrow BIG.arrow TABLE K   create, K timed big appends
// Input batches are loaded before timing; only the table calls are timed.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "lance_nd/table/dataset.h"
#include "lance_nd/table/write.h"
#include "table_bench_data.h"

namespace {

using lance_nd::Result;
using lance_nd::Status;
namespace la = lance_nd::array;
namespace lt = lance_nd::table;
using Clock = std::chrono::steady_clock;

double Ms(Clock::time_point since) {
  return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

std::string Json(const std::vector<double>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%.4f", i == 0 ? "" : ",", v[i]);
    s += buf;
  }
  return s + "]";
}

Status Write(const std::string& table, const la::RecordBatchPtr& batch, lt::WriteMode mode) {
  const std::vector<la::RecordBatchPtr> batches{batch};
  lt::WriteOptions options;
  options.mode = mode;
  return lt::WriteTable(lt::TableLocation::Local(table), batches, options).status();
}

Status Appends(const std::string& table, const la::RecordBatchPtr& first,
               const la::RecordBatchPtr& each, long n, std::vector<double>* ms) {
  std::filesystem::remove_all(table);
  LND_RETURN_NOT_OK(Write(table, first, lt::WriteMode::kCreate));
  for (long i = 0; i < n; ++i) {
    const auto t0 = Clock::now();
    LND_RETURN_NOT_OK(Write(table, each, lt::WriteMode::kAppend));
    if (ms != nullptr) ms->push_back(Ms(t0));
  }
  return Status::OK();
}

Status Run(int argc, char** argv) {
  const std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "gen" && argc == 5) {
    const std::string dir = argv[2];
    std::filesystem::create_directories(dir);
    LND_ASSIGN_OR_RETURN(auto small, lance_nd::bench::MakeTableRows(0, std::atol(argv[3])));
    LND_ASSIGN_OR_RETURN(auto big, lance_nd::bench::MakeTableRows(1'000'000, std::atol(argv[4])));
    LND_RETURN_NOT_OK(lance_nd::bench::WriteIpc(dir + "/small.arrow", small));
    LND_RETURN_NOT_OK(lance_nd::bench::WriteIpc(dir + "/big.arrow", big));
    std::printf("{\"small_rows\":%lld,\"big_rows\":%lld}\n",
                static_cast<long long>(small->num_rows()), static_cast<long long>(big->num_rows()));
    return Status::OK();
  }
  if ((cmd == "commit" || cmd == "versions") && argc == 5) {
    LND_ASSIGN_OR_RETURN(auto small, lance_nd::bench::ReadIpc(argv[2]));
    const long n = std::atol(argv[4]);
    std::vector<double> ms;
    const auto t0 = Clock::now();
    LND_RETURN_NOT_OK(Appends(argv[3], small, small, cmd == "commit" ? n : n - 1, &ms));
    std::printf("{\"op\":\"%s\",\"total_ms\":%.3f,\"ms\":%s}\n", cmd.c_str(), Ms(t0),
                cmd == "commit" ? Json(ms).c_str() : "[]");
    return Status::OK();
  }
  if (cmd == "open" && argc == 4) {
    const long reps = std::atol(argv[3]);
    std::vector<double> ms;
    std::uint64_t version = 0, rows = 0;
    for (long i = 0; i < reps; ++i) {
      lt::ClearManifestCache();  // a cold open each time, like Lance's fresh connection
      const auto t0 = Clock::now();
      LND_ASSIGN_OR_RETURN(auto ds, lt::Dataset::Open(lt::TableLocation::Local(argv[2])));
      rows = ds.CountRows();
      ms.push_back(Ms(t0));
      version = ds.version();
    }
    std::printf("{\"op\":\"open\",\"version\":%llu,\"rows\":%llu,\"ms\":%s}\n",
                static_cast<unsigned long long>(version), static_cast<unsigned long long>(rows),
                Json(ms).c_str());
    return Status::OK();
  }
  if (cmd == "append" && argc == 6) {
    LND_ASSIGN_OR_RETURN(auto small, lance_nd::bench::ReadIpc(argv[2]));
    LND_ASSIGN_OR_RETURN(auto big, lance_nd::bench::ReadIpc(argv[3]));
    std::vector<double> ms;
    LND_RETURN_NOT_OK(Appends(argv[4], small, big, std::atol(argv[5]), &ms));
    LND_ASSIGN_OR_RETURN(auto ds, lt::Dataset::Open(lt::TableLocation::Local(argv[4])));
    std::printf("{\"op\":\"append\",\"rows\":%llu,\"ms\":%s}\n",
                static_cast<unsigned long long>(ds.CountRows()), Json(ms).c_str());
    return Status::OK();
  }
  return Status::InvalidArgument("usage: see the header of bench/table/table_bench_tool.cc");
}

}  // namespace

int main(int argc, char** argv) {
  const Status st = Run(argc, argv);
  if (!st.ok()) {
    std::fprintf(stderr, "lance_nd_table_bench_tool: %s\n", st.ToString().c_str());
    return 1;
  }
  return 0;
}
