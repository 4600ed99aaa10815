// A thread-safe in-memory file system for tests. Directories exist implicitly when a file lies
// below them, or explicitly after CreateDir.
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "lance_nd/io/file_system.h"

namespace lance_nd::io {
namespace {

std::string Normalize(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

struct MemoryState {
  std::mutex mu;
  std::map<std::string, Bytes> files;
  std::set<std::string> dirs;
};

class MemoryOutputFile final : public OutputFile {
 public:
  MemoryOutputFile(std::shared_ptr<MemoryState> state, std::string path)
      : state_(std::move(state)), path_(std::move(path)) {}
  ~MemoryOutputFile() override { (void)Close(); }

  Status Write(std::span<const std::uint8_t> bytes) override {
    if (closed_) return Status::IOError("write to closed file '" + path_ + "'");
    data_.insert(data_.end(), bytes.begin(), bytes.end());
    return Status::OK();
  }
  std::uint64_t position() const override { return data_.size(); }
  Status Flush() override { return Publish(); }
  Status Sync() override { return Publish(); }
  Status Close() override {
    if (closed_) return Status::OK();
    LND_RETURN_NOT_OK(Publish());
    closed_ = true;
    return Status::OK();
  }
  const std::string& path() const override { return path_; }

 private:
  Status Publish() {
    if (closed_) return Status::OK();
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->files[path_] = std::make_shared<const std::vector<std::uint8_t>>(data_);
    return Status::OK();
  }

  std::shared_ptr<MemoryState> state_;
  std::string path_;
  std::vector<std::uint8_t> data_;
  bool closed_ = false;
};

class MemoryFs final : public FileSystem {
 public:
  Result<std::shared_ptr<RandomAccessFile>> OpenForRead(const std::string& raw) override {
    const std::string path = Normalize(raw);
    std::lock_guard<std::mutex> lock(state_->mu);
    auto it = state_->files.find(path);
    if (it == state_->files.end()) return Status::NotFound("no such file '" + path + "'");
    return MakeBufferFile(it->second, path);
  }

  Result<std::unique_ptr<OutputFile>> Create(const std::string& raw) override {
    const std::string path = Normalize(raw);
    {
      std::lock_guard<std::mutex> lock(state_->mu);
      if (IsDirLocked(path)) return Status::IOError("'" + path + "' is a directory");
      state_->files[path] = std::make_shared<const std::vector<std::uint8_t>>();
    }
    return std::unique_ptr<OutputFile>(std::make_unique<MemoryOutputFile>(state_, path));
  }

  Status CreateIfAbsent(const std::string& raw, std::span<const std::uint8_t> bytes) override {
    const std::string path = Normalize(raw);
    std::lock_guard<std::mutex> lock(state_->mu);
    if (state_->files.count(path) != 0 || IsDirLocked(path)) {
      return Status::AlreadyExists("'" + path + "' already exists");
    }
    state_->files[path] =
        std::make_shared<const std::vector<std::uint8_t>>(bytes.begin(), bytes.end());
    return Status::OK();
  }

  Result<std::vector<FileInfo>> List(const std::string& raw) override {
    const std::string dir = Normalize(raw);
    std::lock_guard<std::mutex> lock(state_->mu);
    if (!IsDirLocked(dir)) return Status::NotFound("no such directory '" + dir + "'");
    const std::string prefix = dir == "/" ? dir : dir + "/";
    std::map<std::string, FileInfo> entries;
    auto add = [&](const std::string& path, const Bytes* bytes) {
      if (path.compare(0, prefix.size(), prefix) != 0 || path.size() == prefix.size()) return;
      const std::string rest = path.substr(prefix.size());
      const auto slash = rest.find('/');
      FileInfo info;
      info.name = rest.substr(0, slash);
      info.is_directory = slash != std::string::npos || bytes == nullptr;
      if (!info.is_directory) info.size = (*bytes)->size();
      entries.emplace(info.name, info);
    };
    for (const auto& [path, bytes] : state_->files) add(path, &bytes);
    for (const auto& d : state_->dirs) add(d, nullptr);
    std::vector<FileInfo> out;
    for (auto& [name, info] : entries) out.push_back(info);
    return out;
  }

  Result<std::vector<std::string>> ListFileNames(const std::string& raw) override {
    const std::string dir = Normalize(raw);
    std::lock_guard<std::mutex> lock(state_->mu);
    if (!IsDirLocked(dir)) return Status::NotFound("no such directory '" + dir + "'");
    const std::string prefix = dir == "/" ? dir : dir + "/";
    std::vector<std::string> names;  // the map is sorted, so are they
    for (const auto& entry : state_->files) {
      const std::string& path = entry.first;
      if (path.compare(0, prefix.size(), prefix) != 0 || path.size() == prefix.size()) continue;
      if (path.find('/', prefix.size()) == std::string::npos) {
        names.push_back(path.substr(prefix.size()));
      }
    }
    return names;
  }

  Result<bool> Exists(const std::string& raw) override {
    const std::string path = Normalize(raw);
    std::lock_guard<std::mutex> lock(state_->mu);
    return state_->files.count(path) != 0 || IsDirLocked(path);
  }

  Status Delete(const std::string& raw) override {
    const std::string path = Normalize(raw);
    std::lock_guard<std::mutex> lock(state_->mu);
    if (state_->files.erase(path) == 0) return Status::NotFound("no such file '" + path + "'");
    return Status::OK();
  }

  Status Rename(const std::string& raw_from, const std::string& raw_to) override {
    const std::string from = Normalize(raw_from);
    const std::string to = Normalize(raw_to);
    std::lock_guard<std::mutex> lock(state_->mu);
    auto it = state_->files.find(from);
    if (it == state_->files.end()) return Status::NotFound("no such file '" + from + "'");
    Bytes bytes = it->second;
    state_->files.erase(it);
    state_->files[to] = std::move(bytes);
    return Status::OK();
  }

  Status CreateDir(const std::string& raw) override {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->dirs.insert(Normalize(raw));
    return Status::OK();
  }

 private:
  bool IsDirLocked(const std::string& path) const {
    if (state_->dirs.count(path) != 0) return true;
    const std::string prefix = path == "/" ? path : path + "/";
    auto check = [&](const std::string& p) { return p.compare(0, prefix.size(), prefix) == 0; };
    auto f = state_->files.lower_bound(prefix);
    if (f != state_->files.end() && check(f->first)) return true;
    auto d = state_->dirs.lower_bound(prefix);
    return d != state_->dirs.end() && check(*d);
  }

  std::shared_ptr<MemoryState> state_ = std::make_shared<MemoryState>();
};

}  // namespace

std::shared_ptr<FileSystem> MakeMemoryFileSystem() { return std::make_shared<MemoryFs>(); }

}  // namespace lance_nd::io
