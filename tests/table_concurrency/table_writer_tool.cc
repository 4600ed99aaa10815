// Writer/verifier process for the table concurrency tests (see README.md).
//   table_writer_tool create TABLE ROWS
//   table_writer_tool append TABLE WRITER_ID N_COMMITS ROWS_PER_COMMIT [LOG]
//       appends N commits (rows carry writer id + commit number), retrying on retryable
//       CommitConflict; after each success appends "ok <commit> <version> <attempts>" to LOG.
//   table_writer_tool verify TABLE CREATOR_ROWS [--dump FILE] [--no-chain] WRITER:LOG:ROWS...
//       full check (tests/table_concurrency/table_rows.h VerifyRowsTable); with --dump writes
//       the sorted rows "writer,commit,row" one per line.
// Start barrier (append): with TABLE_WRITER_GO=FILE set, the writer creates FILE.ready.<id> and
// waits (up to 120 s) until FILE exists, so that all writers start committing together.
// TABLE_WRITER_BACKOFF_SLOT_MS=N (append): CommitOptions.backoff_slot (default: the library's).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "table_rows.h"

namespace {

using lance_nd::Status;
namespace tt = lance_nd::table_test;

int Fail(const Status& st, const std::string& what) {
  std::cerr << "table_writer_tool " << what << ": " << st.ToString() << "\n";
  return 1;
}

int Usage() {
  std::cerr << "usage: table_writer_tool create TABLE ROWS\n"
               "       table_writer_tool append TABLE WRITER_ID N_COMMITS ROWS_PER_COMMIT [LOG]\n"
               "       table_writer_tool verify TABLE CREATOR_ROWS [--dump FILE] [--no-chain]"
               " WRITER:LOG:ROWS...\n";
  return 2;
}

int Create(const std::string& table, int rows) {
  auto ds = tt::CreateRowsTable(lance_nd::io::LocalFileSystem(), table, rows);
  if (!ds.ok()) return Fail(ds.status(), "create");
  std::cout << "{\"version\":" << ds->version() << ",\"rows\":" << ds->CountRows() << "}\n";
  return 0;
}

void WaitForGo(int writer) {
  const char* go = std::getenv("TABLE_WRITER_GO");
  if (go == nullptr) return;
  std::ofstream(std::string(go) + ".ready." + std::to_string(writer)).put('\n');
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!std::filesystem::exists(go) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

int Append(const std::string& table, int writer, long commits, int rows, const std::string& log) {
  auto fs = lance_nd::io::LocalFileSystem();
  WaitForGo(writer);
  FILE* out = log.empty() ? stdout : std::fopen(log.c_str(), "a");
  if (out == nullptr) {
    std::cerr << "cannot open log " << log << "\n";
    return 1;
  }
  lance_nd::table::CommitOptions commit_options;
  if (const char* slot = std::getenv("TABLE_WRITER_BACKOFF_SLOT_MS")) {
    commit_options.backoff_slot = std::chrono::milliseconds(std::atoi(slot));
  }
  long conflicts = 0;
  for (long c = 0; c < commits; ++c) {
    auto r = tt::AppendCommit(fs, table, writer, c, rows, 50, commit_options);
    if (!r.ok()) {
      return Fail(r.status(),
                  "append writer " + std::to_string(writer) + " commit " + std::to_string(c));
    }
    conflicts += r->attempts - 1;
    std::fprintf(out, "ok %ld %llu %d\n", c, static_cast<unsigned long long>(r->version),
                 r->attempts);
    std::fflush(out);
  }
  if (out != stdout) std::fclose(out);
  std::cout << "{\"writer\":" << writer << ",\"commits\":" << commits
            << ",\"retries\":" << conflicts << "}\n";
  return 0;
}

int Verify(int argc, char** argv) {
  const std::string table = argv[2];
  std::map<std::int32_t, tt::WriterClaim> claims;
  claims[0] = tt::WriterClaim{1, 0, std::atoi(argv[3])};
  std::string dump;
  bool chain = true;
  for (int i = 4; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--dump" && i + 1 < argc) {
      dump = argv[++i];
      continue;
    }
    if (a == "--no-chain") {
      chain = false;
      continue;
    }
    const auto p1 = a.find(':');
    const auto p2 = a.rfind(':');
    if (p1 == std::string::npos || p1 == p2) return Usage();
    const int writer = std::atoi(a.substr(0, p1).c_str());
    auto logged = tt::ReadWriterLog(a.substr(p1 + 1, p2 - p1 - 1));
    if (!logged.ok()) return Fail(logged.status(), "verify");
    claims[writer] = tt::WriterClaim{*logged, 0, std::atoi(a.substr(p2 + 1).c_str())};
  }
  auto report = tt::VerifyRowsTable(lance_nd::io::LocalFileSystem(), table, claims, chain);
  if (!report.ok()) return Fail(report.status(), "verify");
  if (!dump.empty()) {
    std::ofstream d(dump);
    for (const auto& k : report->keys) d << k.writer << "," << k.commit << "," << k.row << "\n";
  }
  std::cout << "{\"version\":" << report->latest_version << ",\"rows\":" << report->rows
            << ",\"commits\":" << report->commits
            << ",\"versions_checked\":" << report->versions_checked << "}\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return Usage();
  const std::string cmd = argv[1];
  if (cmd == "create" && argc == 4) return Create(argv[2], std::atoi(argv[3]));
  if (cmd == "append" && (argc == 6 || argc == 7)) {
    return Append(argv[2], std::atoi(argv[3]), std::atol(argv[4]), std::atoi(argv[5]),
                  argc == 7 ? argv[6] : "");
  }
  if (cmd == "verify" && argc >= 4) return Verify(argc, argv);
  return Usage();
}
