// Giving up after lost races: the attempt count and the time budget (CommitOptions
// max_attempts / max_retry_time) end the loop with a retryable CommitConflict that says how
// many attempts were made; nothing is committed.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>

#include "lance_nd/io/file_system.h"
#include "lance_nd/table/commit.h"
#include "lance_nd/table/test_util.h"
#include "lance_nd/table/write.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

// A memory file system on which every new manifest of version >= 2 "loses the race": its
// CreateIfAbsent reports AlreadyExists, as if another writer had taken the version first.
class AlwaysLosesFs final : public io::FileSystem {
 public:
  std::shared_ptr<io::FileSystem> inner = io::MakeMemoryFileSystem();
  std::atomic<int> lost{0};
  bool losing = false;

  Result<std::shared_ptr<io::RandomAccessFile>> OpenForRead(const std::string& p) override {
    return inner->OpenForRead(p);
  }
  Result<std::unique_ptr<io::OutputFile>> Create(const std::string& p) override {
    return inner->Create(p);
  }
  Status CreateIfAbsent(const std::string& p, std::span<const std::uint8_t> bytes) override {
    if (losing && p.find("/_versions/") != std::string::npos) {
      ++lost;
      return Status::AlreadyExists("'" + p + "' already exists");
    }
    return inner->CreateIfAbsent(p, bytes);
  }
  Result<std::vector<io::FileInfo>> List(const std::string& d) override { return inner->List(d); }
  Result<bool> Exists(const std::string& p) override { return inner->Exists(p); }
  Status Delete(const std::string& p) override { return inner->Delete(p); }
  Status Rename(const std::string& a, const std::string& b) override { return inner->Rename(a, b); }
  Status CreateDir(const std::string& p) override { return inner->CreateDir(p); }
};

Transaction AppendOf(const std::shared_ptr<io::FileSystem>& fs, const Dataset& ds) {
  std::vector<array::RecordBatchPtr> batches = {testing::TestBatch(100, 2)};
  auto fragments =
      WriteFragments(TableLocation(fs, ds.path()), ds.manifest().fields, batches, WriteOptions{});
  EXPECT_TRUE(fragments.ok()) << fragments.status().ToString();
  Transaction t;
  t.read_version = ds.version();
  t.operation = op::Append{fragments.ok() ? *fragments : std::vector<Fragment>{}};
  return t;
}

// A 3-row table "t" whose next commits all lose their race.
struct LosingTable {
  std::shared_ptr<AlwaysLosesFs> fs = std::make_shared<AlwaysLosesFs>();
  std::vector<array::RecordBatchPtr> batches = {testing::TestBatch(0, 3)};
  Result<Dataset> v1 = WriteTable(TableLocation(fs, "t"), batches);
  LosingTable() { fs->losing = true; }
};

TEST(TableCommitBackoff, GivesUpAfterMaxAttemptsSayingHowMany) {
  LosingTable t;
  LND_ASSERT_OK(t.v1.status());
  auto& fs = t.fs;
  const Dataset& v1 = *t.v1;
  CommitOptions options;
  options.max_attempts = 3;
  options.backoff_slot = std::chrono::milliseconds(1);
  auto r = CommitTransaction({fs, "t"}, AppendOf(fs, v1), options);
  LND_EXPECT_ERROR(r, StatusCode::kCommitConflict, "after 3 attempts");
  EXPECT_TRUE(r.status().retryable());
  EXPECT_EQ(fs->lost.load(), 3);
  fs->losing = false;
  LND_ASSERT_OK_AND_ASSIGN(Dataset latest, Dataset::Open(TableLocation(fs, "t")));
  EXPECT_EQ(latest.version(), 1u);  // nothing committed
}

TEST(TableCommitBackoff, GivesUpWhenTheRetryTimeIsSpent) {
  LosingTable t;
  LND_ASSERT_OK(t.v1.status());
  auto& fs = t.fs;
  const Dataset& v1 = *t.v1;
  CommitOptions options;
  options.max_attempts = 1000;
  options.max_retry_time = std::chrono::milliseconds(0);  // no time to retry at all
  auto r = CommitTransaction({fs, "t"}, AppendOf(fs, v1), options);
  LND_EXPECT_ERROR(r, StatusCode::kCommitConflict, "after 1 attempts");
  EXPECT_TRUE(r.status().retryable());
  EXPECT_EQ(fs->lost.load(), 1);
}

}  // namespace
}  // namespace lance_nd::table
