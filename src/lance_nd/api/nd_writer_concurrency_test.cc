// Writers appending to one table at the same time: appends of the same schema all land (the
// commit rebases over the others), each append's rows together and in order; appends that extend
// the schema either land or fail with a retryable commit conflict, and a retry lands.
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <thread>

#include "lance_nd/api/api_test_util.h"
#include "lance_nd/api/nd_writer.h"
#include "lance_nd/api/table.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using api_testing::MemoryTable;
using api_testing::ReadRows;

constexpr int kThreads = 4;
constexpr int kAppends = 4;
constexpr int kRows = 3;

nd::NdRecordBatch Tagged(const std::string& var, const std::string& id) {
  return nd::testing::Unwrap(
      nd::NdRecordBatch::FromArrays({{var, nd::testing::Nd(nd::testing::F32({1, 2}), {{"x", 2}})}},
                                    nd::Attributes().Set("id", id)));
}

std::string Id(int thread, int append, int row) {
  return std::to_string(thread) + "-" + std::to_string(append) + "-" + std::to_string(row);
}

// Append (thread, append)'s rows, retrying a retryable conflict.
Status AppendWithRetry(const table::TableLocation& loc, int thread, int append,
                       const std::string& var) {
  Status last;
  for (int attempt = 0; attempt < 30; ++attempt) {
    WriteOptions o;
    o.target_fragment_bytes = 1;
    o.max_rows_per_group = 1;
    auto w = NdWriter::Append(loc, o);
    if (!w.ok()) return w.status();
    for (int r = 0; r < kRows; ++r) LND_RETURN_NOT_OK(w->Write(Tagged(var, Id(thread, append, r))));
    auto done = w->Finish();
    if (done.ok()) return Status::OK();
    last = done.status();
    if (!last.IsCommitConflict() || !last.retryable()) return last;
  }
  return last;
}

void RunWriters(bool new_variables) {
  auto loc = MemoryTable();
  LND_ASSERT_OK(Table::Write(loc, std::vector{Tagged("v", "base")}).status());
  std::vector<std::thread> threads;
  std::mutex mu;
  std::vector<Status> errors;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int a = 0; a < kAppends; ++a) {
        const std::string var =
            new_variables ? "v" + std::to_string(t) + "_" + std::to_string(a) : std::string("v");
        Status st = AppendWithRetry(loc, t, a, var);
        if (!st.ok()) {
          std::lock_guard<std::mutex> lock(mu);
          errors.push_back(st);
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (const auto& e : errors) ADD_FAILURE() << e.ToString();

  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Open(loc));
  LND_ASSERT_OK_AND_ASSIGN(auto rows, ReadRows(t.dataset()));
  ASSERT_EQ(rows.size(), 1u + kThreads * kAppends * kRows);
  std::map<std::string, std::size_t> at;  // id -> row position
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto id = rows[i].attributes().GetString("id");
    ASSERT_TRUE(id.has_value());
    EXPECT_TRUE(at.emplace(*id, i).second) << "row " << *id << " twice";
  }
  for (int th = 0; th < kThreads; ++th) {
    for (int a = 0; a < kAppends; ++a) {
      const std::size_t first = at.at(Id(th, a, 0));
      for (int r = 1; r < kRows; ++r)
        EXPECT_EQ(at.at(Id(th, a, r)), first + static_cast<std::size_t>(r));
    }
  }
}

TEST(NdWriterConcurrency, AppendsOfOneSchemaAllLand) { RunWriters(false); }

TEST(NdWriterConcurrency, SchemaExtensionsConflictRetryablyAndLandOnRetry) { RunWriters(true); }

}  // namespace
}  // namespace lance_nd
