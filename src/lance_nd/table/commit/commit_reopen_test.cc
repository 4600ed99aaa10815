// A commit returns the new version without reading its manifest back (the Dataset is built,
// and checked, before the manifest is created): a manifest that cannot be read afterwards does
// not turn a durable commit into an error (the caller would write the rows twice), and a
// manifest the reader would refuse is never committed.
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

std::vector<std::uint8_t> ManifestBytes(const Dataset& ds) {
  auto bytes = SerializeManifestFile(ds.manifest(), nullptr);
  return bytes.ok() ? *bytes : std::vector<std::uint8_t>{};
}

TEST(TableCommitReopen, CommitNeverReadsTheNewManifestBack) {
  auto fs = std::make_shared<ReopenFailsFileSystem>();
  std::vector<array::RecordBatchPtr> rows = {testing::TestBatch(0, 3)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, WriteTable(TableLocation(fs, "t"), rows));
  std::vector<array::RecordBatchPtr> more = {testing::TestBatch(3, 2)};
  LND_ASSERT_OK_AND_ASSIGN(
      auto fragments,
      WriteFragments(TableLocation(fs, "t"), v1.manifest().fields, more, WriteOptions{}));
  Transaction txn;
  txn.read_version = 1;
  txn.operation = op::Append{fragments};
  fs->fail_reads = -1;  // every read of the manifest this commit creates fails
  LND_ASSERT_OK_AND_ASSIGN(Dataset v2, CommitTransaction({fs, "t"}, txn));
  EXPECT_EQ(fs->failed_reads, 0);  // the commit did not try to read it
  EXPECT_EQ(v2.version(), 2u);
  EXPECT_EQ(v2.CountRows(), 5u);
  EXPECT_EQ(v2.versions().versions, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(v2.manifest_path(), "t/_versions/" + ManifestFileName(2, ManifestNaming::kV2));
  // The injected fault is real: opening the table now fails...
  LND_EXPECT_ERROR(Dataset::Open(TableLocation(fs, "t")), StatusCode::kIOError,
                   "injected read failure");
  EXPECT_EQ(fs->failed_reads, 1);
  // ...and once it heals, the table holds the commit exactly once, as the commit returned it.
  fs->fail_reads = 0;
  LND_ASSERT_OK_AND_ASSIGN(Dataset latest, Dataset::Open(TableLocation(fs, "t")));
  EXPECT_EQ(latest.version(), 2u);
  EXPECT_EQ(latest.CountRows(), 5u);
  EXPECT_EQ(ManifestBytes(latest), ManifestBytes(v2));
  EXPECT_EQ(latest.manifest().transaction_section, v2.manifest().transaction_section);
  EXPECT_EQ(latest.manifest().index_section, v2.manifest().index_section);
}

TEST(TableCommitReopen, ManifestTheReaderWouldRefuseIsNotCommitted) {
  auto fs = io::MakeMemoryFileSystem();
  // Version 1 (written by hand) has a field lance-nd cannot turn into a schema (a list without
  // an item field); the writer checks (feature flags, base paths, branch) all pass.
  Manifest v1 = testing::SampleManifest(1);
  v1.fields[0].logical_type = "list";
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, SerializeManifestFile(v1, nullptr));
  LND_ASSERT_OK(
      fs->CreateIfAbsent("t/_versions/" + ManifestFileName(1, ManifestNaming::kV2), bytes));
  auto st = CommitTransaction({fs, "t"}, testing::SampleAppend(1)).status();
  ASSERT_FALSE(st.ok());
  LND_EXPECT_ERROR(st, st.code(), "is a list with 0 child fields");
  LND_EXPECT_ERROR(st, st.code(), "(nothing was committed)");
  EXPECT_EQ(st.ToString().find("COMMITTED"), std::string::npos) << st.ToString();
  LND_ASSERT_OK_AND_ASSIGN(VersionList versions, ListVersions(TableLocation(fs, "t")));
  EXPECT_EQ(versions.versions, (std::vector<std::uint64_t>{1}));
}

}  // namespace
}  // namespace lance_nd::table
