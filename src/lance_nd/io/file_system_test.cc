#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <future>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "lance_nd/io/file_system.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::io {
namespace {

std::vector<std::uint8_t> Bytes123() { return {1, 2, 3, 4, 5}; }

class FileSystemTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (GetParam()) {
      fs_ = LocalFileSystem();
      char tmpl[] = "/tmp/lance_nd_io_test_XXXXXX";
      ASSERT_NE(::mkdtemp(tmpl), nullptr);
      root_ = tmpl;
    } else {
      fs_ = MakeMemoryFileSystem();
      root_ = "/mem";
      LND_ASSERT_OK(fs_->CreateDir(root_));
    }
  }
  void TearDown() override {
    if (GetParam()) std::filesystem::remove_all(root_);
  }
  std::string P(const std::string& name) const { return root_ + "/" + name; }

  std::shared_ptr<FileSystem> fs_;
  std::string root_;
};

TEST_P(FileSystemTest, WriteThenReadAt) {
  LND_ASSERT_OK_AND_ASSIGN(auto out, fs_->Create(P("sub/a.bin")));
  const auto bytes = Bytes123();
  LND_ASSERT_OK(out->Write(bytes));
  LND_ASSERT_OK(out->Write(bytes));
  EXPECT_EQ(out->position(), 10u);
  LND_ASSERT_OK(out->Close());
  LND_EXPECT_ERROR(out->Write(bytes), StatusCode::kIOError, "closed");

  LND_ASSERT_OK_AND_ASSIGN(auto in, fs_->OpenForRead(P("sub/a.bin")));
  EXPECT_EQ(in->Size(), 10u);
  LND_ASSERT_OK_AND_ASSIGN(auto part, in->ReadAt(3, 4));
  EXPECT_EQ(*part, (std::vector<std::uint8_t>{4, 5, 1, 2}));
  LND_ASSERT_OK_AND_ASSIGN(auto empty, in->ReadAt(10, 0));
  EXPECT_TRUE(empty->empty());
  LND_EXPECT_ERROR(in->ReadAt(8, 3), StatusCode::kIOError, "beyond the end");
  LND_EXPECT_ERROR(in->ReadAt(~0ull, 2), StatusCode::kIOError, "beyond the end");
}

TEST_P(FileSystemTest, OpenMissingIsNotFound) {
  LND_EXPECT_ERROR(fs_->OpenForRead(P("nope")), StatusCode::kNotFound, "nope");
  LND_EXPECT_ERROR(fs_->Delete(P("nope")), StatusCode::kNotFound, "nope");
}

TEST_P(FileSystemTest, CreateIfAbsentIsExclusive) {
  const auto bytes = Bytes123();
  LND_ASSERT_OK(fs_->CreateIfAbsent(P("m/1.manifest"), bytes));
  LND_EXPECT_ERROR(fs_->CreateIfAbsent(P("m/1.manifest"), bytes), StatusCode::kAlreadyExists,
                   "1.manifest");
  LND_ASSERT_OK_AND_ASSIGN(auto in, fs_->OpenForRead(P("m/1.manifest")));
  LND_ASSERT_OK_AND_ASSIGN(auto all, ReadWholeFile(*in));
  EXPECT_EQ(*all, bytes);
  // No temporary file is left behind.
  LND_ASSERT_OK_AND_ASSIGN(auto entries, fs_->List(P("m")));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].name, "1.manifest");
}

TEST_P(FileSystemTest, CreateIfAbsentRaceHasOneWinner) {
  std::vector<std::thread> threads;
  std::atomic<int> wins{0};
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] {
      const std::vector<std::uint8_t> b(16, static_cast<std::uint8_t>(i));
      if (fs_->CreateIfAbsent(P("race"), b).ok()) ++wins;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wins.load(), 1);
}

TEST_P(FileSystemTest, ListRenameDelete) {
  LND_ASSERT_OK(fs_->CreateIfAbsent(P("d/b"), Bytes123()));
  LND_ASSERT_OK(fs_->CreateIfAbsent(P("d/a"), Bytes123()));
  LND_ASSERT_OK(fs_->CreateDir(P("d/sub")));
  LND_ASSERT_OK_AND_ASSIGN(auto entries, fs_->List(P("d")));
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].name, "a");
  EXPECT_EQ(entries[0].size, 5u);
  EXPECT_FALSE(entries[0].is_directory);
  EXPECT_EQ(entries[2].name, "sub");
  EXPECT_TRUE(entries[2].is_directory);

  LND_ASSERT_OK(fs_->Rename(P("d/a"), P("d/c")));
  LND_ASSERT_OK_AND_ASSIGN(bool a_exists, fs_->Exists(P("d/a")));
  LND_ASSERT_OK_AND_ASSIGN(bool c_exists, fs_->Exists(P("d/c")));
  EXPECT_FALSE(a_exists);
  EXPECT_TRUE(c_exists);
  LND_ASSERT_OK(fs_->Delete(P("d/c")));
  LND_ASSERT_OK_AND_ASSIGN(c_exists, fs_->Exists(P("d/c")));
  EXPECT_FALSE(c_exists);
  LND_EXPECT_ERROR(fs_->List(P("missing")), StatusCode::kNotFound, "missing");
}

TEST_P(FileSystemTest, ListFileNamesGivesSortedNamesOfFilesOnly) {
  LND_ASSERT_OK(fs_->CreateIfAbsent(P("n/zeta"), Bytes123()));
  LND_ASSERT_OK(fs_->CreateIfAbsent(P("n/alpha"), Bytes123()));
  LND_ASSERT_OK(fs_->CreateIfAbsent(P("n/deep/inner/file"), Bytes123()));
  LND_ASSERT_OK(fs_->CreateDir(P("n/empty")));
  LND_ASSERT_OK_AND_ASSIGN(std::vector<std::string> names, fs_->ListFileNames(P("n")));
  EXPECT_EQ(names, (std::vector<std::string>{"alpha", "zeta"}));
  LND_ASSERT_OK_AND_ASSIGN(std::vector<std::string> empty, fs_->ListFileNames(P("n/empty")));
  EXPECT_TRUE(empty.empty());
  // The names of List's files, in the same order.
  LND_ASSERT_OK_AND_ASSIGN(auto entries, fs_->List(P("n")));
  std::vector<std::string> files;
  for (const auto& e : entries) {
    if (!e.is_directory) files.push_back(e.name);
  }
  EXPECT_EQ(names, files);
}

TEST_P(FileSystemTest, ListFileNamesOfMissingDirectoryIsNotFound) {
  LND_EXPECT_ERROR(fs_->ListFileNames(P("missing")), StatusCode::kNotFound, "missing");
  LND_ASSERT_OK(fs_->CreateIfAbsent(P("plain"), Bytes123()));
  LND_EXPECT_ERROR(fs_->ListFileNames(P("plain")), StatusCode::kNotFound, "plain");
}

TEST_P(FileSystemTest, ListFileNamesSortsManyGeneratedNames) {
  std::vector<std::string> want;
  std::uint32_t x = 2463534242u;  // xorshift32, seeded
  for (int i = 0; i < 200; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    want.push_back("f" + std::to_string(x % 100000) + "_" + std::to_string(i));
    LND_ASSERT_OK(fs_->CreateIfAbsent(P("g/" + want.back()), Bytes123()));
  }
  std::sort(want.begin(), want.end());
  LND_ASSERT_OK_AND_ASSIGN(std::vector<std::string> names, fs_->ListFileNames(P("g")));
  EXPECT_EQ(names, want);
}

TEST_P(FileSystemTest, ReadIntoMatchesReadAt) {
  std::vector<std::uint8_t> bytes(5000);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(i * 7);
  LND_ASSERT_OK(fs_->CreateIfAbsent(P("r.bin"), bytes));
  LND_ASSERT_OK_AND_ASSIGN(auto in, fs_->OpenForRead(P("r.bin")));
  std::vector<std::uint8_t> got(1234, 0xEE);
  LND_ASSERT_OK(in->ReadInto(100, got));
  LND_ASSERT_OK_AND_ASSIGN(auto want, in->ReadAt(100, 1234));
  EXPECT_EQ(got, *want);
  LND_ASSERT_OK(in->ReadInto(5000, std::span<std::uint8_t>()));
  std::vector<std::uint8_t> past(10);
  LND_EXPECT_ERROR(in->ReadInto(4995, past), StatusCode::kIOError, "beyond the end");
  LND_EXPECT_ERROR(in->ReadInto(~0ull, past), StatusCode::kIOError, "beyond the end");
}

// Spans of >= 1 MiB bypass the write buffer (flush, then write directly); the bytes and their
// order must be the same as with buffered writes.
TEST_P(FileSystemTest, LargeWritesKeepOrder) {
  std::vector<std::uint8_t> big((1u << 20) + 333);
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<std::uint8_t>(i * 31 + 5);
  const auto small = Bytes123();
  LND_ASSERT_OK_AND_ASSIGN(auto out, fs_->Create(P("big.bin")));
  LND_ASSERT_OK(out->Write(small));
  LND_ASSERT_OK(out->Write(big));
  EXPECT_EQ(out->position(), small.size() + big.size());
  LND_ASSERT_OK(out->Write(small));
  LND_ASSERT_OK(out->Write(big));
  LND_ASSERT_OK(out->Close());
  std::vector<std::uint8_t> want;
  for (int k = 0; k < 2; ++k) {
    want.insert(want.end(), small.begin(), small.end());
    want.insert(want.end(), big.begin(), big.end());
  }
  LND_ASSERT_OK_AND_ASSIGN(auto in, fs_->OpenForRead(P("big.bin")));
  LND_ASSERT_OK_AND_ASSIGN(auto all, ReadWholeFile(*in));
  EXPECT_EQ(*all, want);
}

// StartSync() between writes of generated sizes (some buffered, some written directly) keeps
// every byte in order; it is harmless after Sync() and after Close().
TEST_P(FileSystemTest, StartSyncBetweenWritesKeepsTheBytes) {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 8; ++round) {
    const std::string name = "sync" + std::to_string(round) + ".bin";
    LND_ASSERT_OK_AND_ASSIGN(auto out, fs_->Create(P(name)));
    std::vector<std::uint8_t> want;
    const int writes = 1 + static_cast<int>(rng() % 6);
    for (int w = 0; w < writes; ++w) {
      const std::size_t size = (rng() % 2 == 0) ? rng() % 5000 : (1u << 20) + rng() % 70000;
      std::vector<std::uint8_t> chunk(size);
      for (auto& b : chunk) b = static_cast<std::uint8_t>(rng());
      LND_ASSERT_OK(out->Write(chunk));
      want.insert(want.end(), chunk.begin(), chunk.end());
      if (rng() % 2 == 0) LND_ASSERT_OK(out->StartSync());
      EXPECT_EQ(out->position(), want.size());
    }
    LND_ASSERT_OK(out->Sync());
    LND_ASSERT_OK(out->StartSync());
    LND_ASSERT_OK(out->Close());
    LND_ASSERT_OK(out->StartSync());
    LND_ASSERT_OK_AND_ASSIGN(auto in, fs_->OpenForRead(P(name)));
    LND_ASSERT_OK_AND_ASSIGN(auto all, ReadWholeFile(*in));
    EXPECT_EQ(*all, want) << "round " << round;
  }
}

// Local files of >= 1 MiB are also mapped: the view covers the whole file with its bytes and
// outlives the file object through its owner; small files and memory files are not mapped.
TEST_P(FileSystemTest, BigLocalFilesAreMapped) {
  std::vector<std::uint8_t> big((1u << 20) + 77);
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<std::uint8_t>(i * 7 + 3);
  LND_ASSERT_OK_AND_ASSIGN(auto out, fs_->Create(P("mapped.bin")));
  LND_ASSERT_OK(out->Write(big));
  LND_ASSERT_OK(out->Close());
  LND_ASSERT_OK_AND_ASSIGN(auto small_out, fs_->Create(P("small.bin")));
  LND_ASSERT_OK(small_out->Write(Bytes123()));
  LND_ASSERT_OK(small_out->Close());

  LND_ASSERT_OK_AND_ASSIGN(auto small, fs_->OpenForRead(P("small.bin")));
  EXPECT_TRUE(small->Mapped().bytes.empty());
  LND_ASSERT_OK_AND_ASSIGN(auto in, fs_->OpenForRead(P("mapped.bin")));
  MappedView view = in->Mapped();
  if (!GetParam()) {
    EXPECT_TRUE(view.bytes.empty());
    return;
  }
  ASSERT_EQ(view.bytes.size(), big.size());
  ASSERT_NE(view.owner, nullptr);
  in.reset();  // the owner keeps the mapping
  EXPECT_TRUE(std::equal(view.bytes.begin(), view.bytes.end(), big.begin()));
}

INSTANTIATE_TEST_SUITE_P(LocalAndMemory, FileSystemTest, ::testing::Values(true, false),
                         [](const auto& p) { return p.param ? "Local" : "Memory"; });

// Opens `path` on another thread and waits at most a few seconds: an open that blocks (as the
// open of a FIFO without a writer does) fails the test instead of hanging it. The blocked thread
// is detached; the FIFO's test unblocks it by opening the FIFO for writing.
Result<std::shared_ptr<RandomAccessFile>> OpenWithDeadline(const std::string& path) {
  auto promise = std::make_shared<std::promise<Result<std::shared_ptr<RandomAccessFile>>>>();
  auto future = promise->get_future();
  std::thread([promise, path] {
    promise->set_value(LocalFileSystem()->OpenForRead(path));
  }).detach();
  if (future.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
    return Status::Internal("the open of '", path, "' did not return within 5 s");
  }
  return future.get();
}

class LocalSpecialFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/lance_nd_io_special_XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    root_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  std::string root_;
};

TEST_F(LocalSpecialFileTest, FifoIsRefusedWithoutWaitingForAWriter) {
  const std::string fifo = root_ + "/00000000000000000001.manifest";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0) << std::strerror(errno);
  const auto started = std::chrono::steady_clock::now();
  auto opened = OpenWithDeadline(fifo);
  if (!opened.ok() && opened.status().code() == StatusCode::kInternal) {
    // Unblock the stuck open so the detached thread ends.
    const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
  }
  LND_EXPECT_ERROR(opened, StatusCode::kIOError,
                   "'" + fifo + "' is a FIFO (named pipe), expected a regular file");
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2));
}

TEST_F(LocalSpecialFileTest, DirectorySocketAndDeviceAreRefusedByName) {
  LND_EXPECT_ERROR(OpenWithDeadline(root_), StatusCode::kIOError,
                   "'" + root_ + "' is a directory, expected a regular file");
  LND_EXPECT_ERROR(OpenWithDeadline("/dev/null"), StatusCode::kIOError,
                   "'/dev/null' is a character device, expected a regular file");

  const std::string sock_path = root_ + "/data.lance";
  const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(sock, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(sock_path.size(), sizeof(addr.sun_path));
  std::memcpy(addr.sun_path, sock_path.c_str(), sock_path.size() + 1);
  ASSERT_EQ(::bind(sock, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)), 0)
      << std::strerror(errno);
  // A bound socket cannot be opened at all (ENXIO): the error still says what it is.
  auto opened = OpenWithDeadline(sock_path);
  ::close(sock);
  LND_EXPECT_ERROR(opened, StatusCode::kIOError,
                   "'" + sock_path + "' is a socket, expected a regular file");
}

TEST_F(LocalSpecialFileTest, RegularFileThroughASymlinkStillOpens) {
  const std::string file = root_ + "/a.bin";
  LND_ASSERT_OK_AND_ASSIGN(auto out, LocalFileSystem()->Create(file));
  LND_ASSERT_OK(out->Write(Bytes123()));
  LND_ASSERT_OK(out->Close());
  const std::string link = root_ + "/link.bin";
  ASSERT_EQ(::symlink(file.c_str(), link.c_str()), 0);
  LND_ASSERT_OK_AND_ASSIGN(auto in, OpenWithDeadline(link));
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, in->ReadAt(0, 5));
  EXPECT_EQ(*bytes, Bytes123());
}

TEST(BufferFileTest, ReadsSlices) {
  auto f = MakeBufferFile(std::vector<std::uint8_t>{9, 8, 7}, "buf");
  EXPECT_EQ(f->Size(), 3u);
  EXPECT_EQ(f->path(), "buf");
  LND_ASSERT_OK_AND_ASSIGN(auto b, f->ReadAt(1, 2));
  EXPECT_EQ(*b, (std::vector<std::uint8_t>{8, 7}));
  LND_EXPECT_ERROR(f->ReadAt(2, 2), StatusCode::kIOError, "'buf' (3 bytes)");
  // The default ReadInto (copy from ReadAt).
  std::vector<std::uint8_t> into(2);
  LND_ASSERT_OK(f->ReadInto(0, into));
  EXPECT_EQ(into, (std::vector<std::uint8_t>{9, 8}));
  LND_EXPECT_ERROR(f->ReadInto(2, into), StatusCode::kIOError, "'buf' (3 bytes)");
}

}  // namespace
}  // namespace lance_nd::io
