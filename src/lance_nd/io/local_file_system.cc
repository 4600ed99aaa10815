// The local (POSIX) file system.
#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "lance_nd/core/internal/huge_pages.h"
#include "lance_nd/io/file_system.h"

namespace lance_nd::io {
namespace {

namespace fs = std::filesystem;

std::string ErrnoText(int err) { return std::strerror(err); }

Status PosixError(const std::string& what, const std::string& path, int err) {
  std::string msg = what + " '" + path + "': " + ErrnoText(err);
  if (err == ENOENT) return Status::NotFound(msg);
  if (err == EEXIST) return Status::AlreadyExists(msg);
  return Status::IOError(msg);
}

class LocalReadFile final : public RandomAccessFile {
 public:
  LocalReadFile(int fd, std::uint64_t size, std::string path)
      : fd_(fd), size_(size), path_(std::move(path)) {
    // Big files are also mapped: scans slice the page cache instead of copying it into fresh
    // memory (the copy and the faults of the new memory were a third of a scan's CPU time).
    // Mapping is best effort; reads fall back to pread.
    if (size_ >= kMapMinBytes) {
      void* m = ::mmap(nullptr, static_cast<std::size_t>(size_), PROT_READ, MAP_PRIVATE, fd_, 0);
      if (m != MAP_FAILED) {
        const std::size_t len = static_cast<std::size_t>(size_);
        map_ = std::shared_ptr<const void>(
            m, [len](const void* q) { ::munmap(const_cast<void*>(q), len); });
      }
    }
  }
  ~LocalReadFile() override { ::close(fd_); }

  MappedView Mapped() const override {
    if (!map_) return {};
    return {{static_cast<const std::uint8_t*>(map_.get()), static_cast<std::size_t>(size_)}, map_};
  }

  std::uint64_t Size() const override { return size_; }

  Result<Bytes> ReadAt(std::uint64_t offset, std::uint64_t length) const override {
    LND_RETURN_NOT_OK(CheckRange(offset, length));
    auto out = std::make_shared<std::vector<std::uint8_t>>(static_cast<std::size_t>(length));
    LND_RETURN_NOT_OK(Pread(offset, out->data(), length));
    return Bytes(std::move(out));
  }

  /// Direct pread into the caller's memory (no allocation, no zero-fill).
  Status ReadInto(std::uint64_t offset, std::span<std::uint8_t> out) const override {
    LND_RETURN_NOT_OK(CheckRange(offset, out.size()));
    return Pread(offset, out.data(), out.size());
  }

  const std::string& path() const override { return path_; }

 private:
  static constexpr std::uint64_t kMapMinBytes = std::uint64_t{1} << 20;

  int fd_;
  std::uint64_t size_;
  std::string path_;
  std::shared_ptr<const void> map_;  // the whole file, when mapped

  Status CheckRange(std::uint64_t offset, std::uint64_t length) const {
    if (offset > size_ || length > size_ - offset) {
      return Status::IOError("read of " + std::to_string(length) + " bytes at offset " +
                             std::to_string(offset) + " is beyond the end of '" + path_ + "' (" +
                             std::to_string(size_) + " bytes)");
    }
    return Status::OK();
  }

  Status Pread(std::uint64_t offset, std::uint8_t* out, std::uint64_t length) const {
    std::uint64_t done = 0;
    while (done < length) {
      const ssize_t n = ::pread(fd_, out + done, static_cast<std::size_t>(length - done),
                                static_cast<off_t>(offset + done));
      if (n < 0) {
        if (errno == EINTR) continue;
        return PosixError("cannot read", path_, errno);
      }
      if (n == 0) {
        return Status::IOError("unexpected end of file reading '" + path_ + "' at offset " +
                               std::to_string(offset + done) + "; was it truncated?");
      }
      done += static_cast<std::uint64_t>(n);
    }
    return Status::OK();
  }
};

Status SyncParentDir(const std::string& path);

class LocalOutputFile final : public OutputFile {
 public:
  LocalOutputFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  ~LocalOutputFile() override {
    if (fd_ >= 0) (void)Close();
  }

  Status Write(std::span<const std::uint8_t> bytes) override {
    if (fd_ < 0) return Status::IOError("write to closed file '" + path_ + "'");
    if (bytes.size() >= kDirectWrite) {
      // Large spans skip the copy into the buffer: flush what is buffered, then write directly.
      LND_RETURN_NOT_OK(Flush());
      LND_RETURN_NOT_OK(WriteAll(bytes.data(), bytes.size()));
      position_ += bytes.size();
      return Status::OK();
    }
    // Past a small file, one block for the buffer's whole life (it never holds more than
    // kBufferCapacity) instead of a doubling series of fresh ones.
    const std::size_t needed = buffer_.size() + bytes.size();
    if (needed > buffer_.capacity() && needed > kSmallFile) buffer_.reserve(kBufferCapacity);
    buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
    position_ += bytes.size();
    if (buffer_.size() >= kBufferLimit) return Flush();
    return Status::OK();
  }

  std::uint64_t position() const override { return position_; }

  Status Flush() override {
    if (fd_ < 0) return Status::OK();
    LND_RETURN_NOT_OK(WriteAll(buffer_.data(), buffer_.size()));
    buffer_.clear();
    return Status::OK();
  }

  Status Sync() override {
    LND_RETURN_NOT_OK(Flush());
    if (fd_ >= 0 && ::fsync(fd_) != 0) return PosixError("cannot fsync", path_, errno);
    // A new file is durable only once its directory entry is: sync the directory once.
    if (!dir_synced_) {
      LND_RETURN_NOT_OK(SyncParentDir(path_));
      dir_synced_ = true;
    }
    return Status::OK();
  }

  Status StartSync() override {
    LND_RETURN_NOT_OK(Flush());
    if (fd_ < 0 || position_ <= writeback_from_) return Status::OK();
    // Asynchronous writeback of the new range; failures surface at the next Sync().
    (void)::sync_file_range(fd_, static_cast<off_t>(writeback_from_),
                            static_cast<off_t>(position_ - writeback_from_), SYNC_FILE_RANGE_WRITE);
    writeback_from_ = position_;
    return Status::OK();
  }

  Status Close() override {
    if (fd_ < 0) return Status::OK();
    Status st = Flush();
    if (::close(fd_) != 0 && st.ok()) st = PosixError("cannot close", path_, errno);
    fd_ = -1;
    return st;
  }

  const std::string& path() const override { return path_; }

 private:
  static constexpr std::size_t kBufferLimit = 1 << 20;
  static constexpr std::size_t kDirectWrite = 1 << 20;  // spans this large bypass the buffer
  // A flush at kBufferLimit and spans below kDirectWrite keep the buffer below this.
  static constexpr std::size_t kBufferCapacity = kBufferLimit + kDirectWrite;
  static constexpr std::size_t kSmallFile = 64 << 10;

  Status WriteAll(const std::uint8_t* data, std::size_t size) {
    std::size_t done = 0;
    while (done < size) {
      const ssize_t n = ::write(fd_, data + done, size - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        return PosixError("cannot write", path_, errno);
      }
      done += static_cast<std::size_t>(n);
    }
    return Status::OK();
  }

  int fd_;
  bool dir_synced_ = false;
  std::string path_;
  // A recycled huge-page block (huge_pages.h): a new file's buffer faults one huge page.
  std::vector<std::uint8_t, HugePageAllocator<std::uint8_t>> buffer_;
  std::uint64_t position_ = 0;
  std::uint64_t writeback_from_ = 0;  // bytes before this were handed to StartSync()
};

Status EnsureParent(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) return Status::OK();
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec)
    return Status::IOError("cannot create directory '" + parent.string() + "': " + ec.message());
  return Status::OK();
}

const char* FileTypeName(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

Status NotARegularFile(const std::string& path, mode_t mode) {
  return Status::IOError("'", path, "' is ", FileTypeName(mode),
                         ", expected a regular file; replace it with the file it stands for");
}

// A failed open of something that is not a regular file (a socket gives ENXIO) says what it is.
Status OpenError(const std::string& path, int err) {
  struct stat st {};
  if (err != ENOENT && ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    return NotARegularFile(path, st.st_mode);
  }
  return PosixError("cannot open", path, err);
}

Status SyncParentDir(const std::string& path) {
  std::string dir = fs::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return PosixError("cannot open directory", dir, errno);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) return PosixError("cannot fsync directory", dir, err);
  return Status::OK();
}

class Local final : public FileSystem {
 public:
  // Only regular files are opened: O_NONBLOCK keeps the open of a FIFO from waiting for a
  // writer, and fstat refuses whatever is not a regular file before anything reads from it.
  Result<std::shared_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return OpenError(path, errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      const int err = errno;
      ::close(fd);
      return PosixError("cannot stat", path, err);
    }
    if (!S_ISREG(st.st_mode)) {
      ::close(fd);
      return NotARegularFile(path, st.st_mode);
    }
    return std::shared_ptr<RandomAccessFile>(
        std::make_shared<LocalReadFile>(fd, static_cast<std::uint64_t>(st.st_size), path));
  }

  Result<std::unique_ptr<OutputFile>> Create(const std::string& path) override {
    LND_RETURN_NOT_OK(EnsureParent(path));
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return PosixError("cannot create", path, errno);
    return std::unique_ptr<OutputFile>(std::make_unique<LocalOutputFile>(fd, path));
  }

  Status CreateIfAbsent(const std::string& path, std::span<const std::uint8_t> bytes) override {
    LND_RETURN_NOT_OK(EnsureParent(path));
    std::random_device rd;
    const std::string tmp = path + ".tmp-" + std::to_string(rd()) + std::to_string(::getpid());
    {
      const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd < 0) return PosixError("cannot create", tmp, errno);
      LocalOutputFile out(fd, tmp);
      Status st = out.Write(bytes);
      if (st.ok()) st = out.Sync();
      if (st.ok()) st = out.Close();
      if (!st.ok()) {
        ::unlink(tmp.c_str());
        return st;
      }
    }
    const int rc = ::link(tmp.c_str(), path.c_str());
    const int err = errno;
    ::unlink(tmp.c_str());
    if (rc != 0) return PosixError("cannot create", path, err);
    return SyncParentDir(path);
  }

  Result<std::vector<FileInfo>> List(const std::string& dir) override {
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) {
      if (ec == std::errc::no_such_file_or_directory) {
        return Status::NotFound("cannot list '" + dir + "': " + ec.message());
      }
      return Status::IOError("cannot list '" + dir + "': " + ec.message());
    }
    std::vector<FileInfo> out;
    for (const auto& entry : it) {
      FileInfo info;
      info.name = entry.path().filename().string();
      info.is_directory = entry.is_directory(ec);
      if (!info.is_directory) {
        const auto size = entry.file_size(ec);
        info.size = ec ? 0 : static_cast<std::uint64_t>(size);
      }
      out.push_back(std::move(info));
    }
    std::sort(out.begin(), out.end(),
              [](const FileInfo& a, const FileInfo& b) { return a.name < b.name; });
    return out;
  }

  // readdir alone: the entry type comes with the name, no entry is stat'ed (for a `_versions/`
  // of 1000 manifests the stats of List were most of the time of opening a table).
  Result<std::vector<std::string>> ListFileNames(const std::string& dir) override {
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) {
      const int err = errno;
      if (err == ENOTDIR) return Status::NotFound("cannot list '", dir, "': ", ErrnoText(err));
      return PosixError("cannot list", dir, err);
    }
    std::vector<std::string> names;
    int err = 0;
    for (;;) {
      errno = 0;
      const dirent* e = ::readdir(d);
      if (e == nullptr) {
        err = errno;
        break;
      }
      const std::string_view name(e->d_name);
      if (name == "." || name == "..") continue;
      bool is_dir = e->d_type == DT_DIR;
      if (e->d_type == DT_UNKNOWN) {  // a file system that does not fill d_type: ask
        struct stat info {};
        is_dir = ::fstatat(::dirfd(d), e->d_name, &info, 0) == 0 && S_ISDIR(info.st_mode);
      }
      if (!is_dir) names.emplace_back(name);
    }
    ::closedir(d);
    if (err != 0) return PosixError("cannot list", dir, err);
    std::sort(names.begin(), names.end());
    return names;
  }

  Result<bool> Exists(const std::string& path) override {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) return true;
    if (errno == ENOENT || errno == ENOTDIR) return false;
    return PosixError("cannot stat", path, errno);
  }

  Status Delete(const std::string& path) override {
    if (::unlink(path.c_str()) != 0) return PosixError("cannot delete", path, errno);
    return Status::OK();
  }

  Status Rename(const std::string& from, const std::string& to) override {
    LND_RETURN_NOT_OK(EnsureParent(to));
    if (::rename(from.c_str(), to.c_str()) != 0) return PosixError("cannot rename", from, errno);
    return Status::OK();
  }

  Status CreateDir(const std::string& path) override {
    std::error_code ec;
    fs::create_directories(path, ec);
    if (ec) return Status::IOError("cannot create directory '" + path + "': " + ec.message());
    return Status::OK();
  }
};

}  // namespace

std::shared_ptr<FileSystem> LocalFileSystem() {
  static const std::shared_ptr<FileSystem> kLocal = std::make_shared<Local>();
  return kLocal;
}

}  // namespace lance_nd::io
