// A commit whose manifest was created but whose re-open fails must not look like a failed,
// retryable commit (the caller would write the rows twice).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "lance_nd/table/commit.h"
#include "lance_nd/table/test_util.h"
#include "lance_nd/table/write.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

// Forwards to a memory file system; while `fail_reads` is non-zero, reads of a manifest created
// through it meanwhile fail (the file exists: the commit is durable). Negative: fail forever.
class ReopenFailsFileSystem final : public io::FileSystem {
 public:
  int fail_reads = 0;
  int failed_reads = 0;

  Result<std::shared_ptr<io::RandomAccessFile>> OpenForRead(const std::string& path) override {
    if (fail_reads != 0 && path == created_manifest_) {
      ++failed_reads;
      if (fail_reads > 0) --fail_reads;
      return Status::IOError("injected read failure of '" + path + "'");
    }
    return inner_->OpenForRead(path);
  }
  Result<std::unique_ptr<io::OutputFile>> Create(const std::string& path) override {
    return inner_->Create(path);
  }
  Status CreateIfAbsent(const std::string& path, std::span<const std::uint8_t> bytes) override {
    Status st = inner_->CreateIfAbsent(path, bytes);
    if (st.ok() && fail_reads != 0 && path.ends_with(".manifest")) created_manifest_ = path;
    return st;
  }
  Result<std::vector<io::FileInfo>> List(const std::string& dir) override {
    return inner_->List(dir);
  }
  Result<bool> Exists(const std::string& path) override { return inner_->Exists(path); }
  Status Delete(const std::string& path) override { return inner_->Delete(path); }
  Status Rename(const std::string& from, const std::string& to) override {
    return inner_->Rename(from, to);
  }
  Status CreateDir(const std::string& path) override { return inner_->CreateDir(path); }

 private:
  std::shared_ptr<io::FileSystem> inner_ = io::MakeMemoryFileSystem();
  std::string created_manifest_;
};

TEST(TableCommitReopen, FailedReopenAfterCommitSaysCommittedAndIsNotRetryable) {
  auto fs = std::make_shared<ReopenFailsFileSystem>();
  std::vector<array::RecordBatchPtr> rows = {testing::TestBatch(0, 3)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, WriteTable(fs, "t", rows));
  std::vector<array::RecordBatchPtr> more = {testing::TestBatch(3, 2)};
  LND_ASSERT_OK_AND_ASSIGN(auto fragments,
                           WriteFragments(*fs, "t", v1.manifest().fields, more, WriteOptions{}));
  Transaction txn;
  txn.read_version = 1;
  txn.operation = OperationType::kAppend;
  txn.fragments = fragments;
  fs->fail_reads = -1;
  auto st = CommitTransaction(fs, "t", txn).status();
  LND_EXPECT_ERROR(st, StatusCode::kIOError, "COMMITTED version 2 of table 't'");
  LND_EXPECT_ERROR(st, StatusCode::kIOError, "injected read failure");
  LND_EXPECT_ERROR(st, StatusCode::kIOError, "do NOT repeat the write");
  EXPECT_FALSE(st.retryable());
  EXPECT_FALSE(st.IsCommitConflict());
  EXPECT_EQ(fs->failed_reads, 3);  // re-open tried a few times
  fs->fail_reads = 0;
  LND_ASSERT_OK_AND_ASSIGN(Dataset latest, Dataset::Open(fs, "t"));
  EXPECT_EQ(latest.version(), 2u);
  EXPECT_EQ(latest.CountRows(), 5u);
}

TEST(TableCommitReopen, TransientReopenFailureIsRetriedAndSucceeds) {
  auto fs = std::make_shared<ReopenFailsFileSystem>();
  std::vector<array::RecordBatchPtr> rows = {testing::TestBatch(0, 3)};
  LND_ASSERT_OK(WriteTable(fs, "t", rows).status());
  fs->fail_reads = 2;  // the first two re-opens fail, the third works
  WriteOptions append;
  append.mode = WriteMode::kAppend;
  std::vector<array::RecordBatchPtr> more = {testing::TestBatch(3, 2)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v2, WriteTable(fs, "t", more, append));
  EXPECT_EQ(v2.version(), 2u);
  EXPECT_EQ(v2.CountRows(), 5u);
  EXPECT_EQ(fs->failed_reads, 2);
}

}  // namespace
}  // namespace lance_nd::table
