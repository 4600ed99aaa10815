#include "output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <utility>

namespace lance_nd::cli {
namespace {

std::string ErrnoText(int error) { return std::strerror(error); }

/// `status` with message `message`, its code and detail kept.
Status WithMessage(const Status& status, const std::string& message) {
  Status s;
  switch (status.code()) {
    case StatusCode::kOk:
      return status;
    case StatusCode::kInvalidArgument:
      s = Status::InvalidArgument(message);
      break;
    case StatusCode::kSchemaMismatch:
      s = Status::SchemaMismatch(message);
      break;
    case StatusCode::kCorrupt:
      s = Status::Corrupt(message);
      break;
    case StatusCode::kNotImplemented:
      s = Status::NotImplemented(message);
      break;
    case StatusCode::kNotFound:
      s = Status::NotFound(message);
      break;
    case StatusCode::kAlreadyExists:
      s = Status::AlreadyExists(message);
      break;
    case StatusCode::kCommitConflict:
      s = Status::CommitConflict(message);
      break;
    case StatusCode::kInvalidTable:
      s = Status::InvalidTable(message);
      break;
    case StatusCode::kWriterFailed:
      s = Status::WriterFailed(message);
      break;
    case StatusCode::kInternal:
      s = Status::Internal(message);
      break;
    case StatusCode::kCancelled:
      s = Status::Cancelled(message);
      break;
    default:
      s = Status::IOError(message);
      break;
  }
  return s.WithDetail(status.detail());
}

/// `status` with every mention of `from` (the temporary file) replaced by `to` (the target).
Status Renamed(const Status& status, const std::string& from, const std::string& to) {
  std::string message(status.message());
  bool changed = false;
  for (std::size_t at = message.find(from); at != std::string::npos;
       at = message.find(from, at + to.size())) {
    message.replace(at, from.size(), to);
    changed = true;
  }
  return changed ? WithMessage(status, message) : status;
}

std::string RandomHex() {
  static thread_local std::mt19937_64 generator{std::random_device{}()};
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(generator()));
  return buf;
}

/// Why a file cannot be made in `dir`, for the message.
std::string CreateError(const std::string& dir, int error) {
  if (error == ENOENT) return "the directory " + dir + " does not exist";
  if (error == ENOTDIR) return dir + " is not a directory";
  return "cannot create a file in " + dir + ": " + ErrnoText(error);
}

/// A new empty file beside `target`, with `mode`; its path.
Result<std::string> CreateTemporary(const std::string& target, mode_t mode) {
  const std::filesystem::path path(target);
  const std::string dir = path.has_parent_path() ? path.parent_path().string() : ".";
  for (int attempt = 0; attempt < 16; ++attempt) {
    std::string temp = TemporarySibling(target);
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST) continue;
    if (fd < 0) return Status::IOError("cannot write ", target, ": ", CreateError(dir, errno));
    const bool chmodded = mode == 0 || ::fchmod(fd, mode) == 0;
    const int error = errno;
    ::close(fd);
    if (!chmodded) {
      ::unlink(temp.c_str());
      return Status::IOError("cannot write ", target, ": ", ErrnoText(error));
    }
    return temp;
  }
  return Status::IOError("cannot write ", target, ": no free temporary name in ", dir);
}

/// fsync `path`, so that the rename publishes complete contents.
Status Sync(const std::string& path, const std::string& target) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IOError("cannot write ", target, ": ", ErrnoText(errno));
  const bool synced = ::fsync(fd) == 0;
  const int error = errno;
  ::close(fd);
  if (!synced) return Status::IOError("cannot write ", target, ": ", ErrnoText(error));
  return Status::OK();
}

Status WriteBytes(const std::string& path, std::string_view bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return Status::IOError("cannot write ", path, ": ", ErrnoText(errno));
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      return Status::IOError("cannot write ", path, ": ", ErrnoText(error));
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  if (::close(fd) != 0) return Status::IOError("cannot write ", path, ": ", ErrnoText(errno));
  return Status::OK();
}

/// Removes the temporary file unless it was renamed, also when `write` throws (a command
/// stopping with CommandExit).
struct TemporaryFile {
  explicit TemporaryFile(std::string p) : path(std::move(p)) {}
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    if (!renamed) ::unlink(path.c_str());
  }
  std::string path;
  bool renamed = false;
};

/// Write through the temporary file `temp`, then rename it onto `target`.
Status WriteThrough(const std::string& target, TemporaryFile& temp,
                    const std::function<Status(const std::string& path)>& write) {
  LND_RETURN_NOT_OK(Renamed(write(temp.path), temp.path, target));
  LND_RETURN_NOT_OK(Sync(temp.path, target));
  if (std::rename(temp.path.c_str(), target.c_str()) != 0) {
    return Status::IOError("cannot write ", target,
                           ": renaming the finished file onto it failed: ", ErrnoText(errno));
  }
  temp.renamed = true;
  return Status::OK();
}

}  // namespace

Status WriteReplacing(const std::string& target,
                      const std::function<Status(const std::string& path)>& write) {
  if (target.empty()) return Status::InvalidArgument("the output file name is empty");
  struct stat st {};
  mode_t mode = 0;
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      return Status::IOError("cannot write ", target, ": it is a directory");
    }
    if (!S_ISREG(st.st_mode)) return write(target);  // a device or pipe: in place
    mode = st.st_mode & 07777;
  }
  if (target.back() == '/') {
    return Status::IOError("cannot write ", target, ": it names a directory");
  }
  LND_ASSIGN_OR_RETURN(std::string temp_path, CreateTemporary(target, mode));
  TemporaryFile temp(std::move(temp_path));
  return WriteThrough(target, temp, write);
}

std::string TemporarySibling(const std::string& target) {
  const std::filesystem::path path(target);
  const std::string name =
      "." + path.filename().string() + ".tmp-" + std::to_string(getpid()) + "-" + RandomHex();
  return path.has_parent_path() ? (path.parent_path() / name).string() : name;
}

Status WriteReplacing(const std::string& target, std::string_view bytes) {
  return WriteReplacing(target,
                        [bytes](const std::string& path) { return WriteBytes(path, bytes); });
}

}  // namespace lance_nd::cli
