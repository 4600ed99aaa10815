// Byte sinks for the IPC writers.
#include "lance_nd/array/ipc/sink.h"

#include <cerrno>
#include <cstring>
#include <utility>

namespace lance_nd::array::ipc::internal {
namespace {

class MemorySink final : public Sink {
 public:
  Status Write(std::span<const std::uint8_t> bytes) override {
    bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
    position_ += static_cast<int64_t>(bytes.size());
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }
  std::vector<std::uint8_t> TakeBytes() override { return std::exchange(bytes_, {}); }

 private:
  std::vector<std::uint8_t> bytes_;
};

class FileSink final : public Sink {
 public:
  FileSink(std::string path, std::FILE* f) : path_(std::move(path)), f_(f) {}
  ~FileSink() override {
    if (f_ != nullptr) std::fclose(f_);
  }
  Status Write(std::span<const std::uint8_t> bytes) override {
    if (f_ == nullptr) return Status::IOError("write to closed file '" + path_ + "'");
    if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f_) != bytes.size()) {
      return Status::IOError("cannot write to '" + path_ + "': " + std::strerror(errno));
    }
    position_ += static_cast<int64_t>(bytes.size());
    return Status::OK();
  }
  Status Close() override {
    if (f_ == nullptr) return Status::OK();
    std::FILE* f = std::exchange(f_, nullptr);
    if (std::fclose(f) != 0) {
      return Status::IOError("cannot close '" + path_ + "': " + std::strerror(errno));
    }
    return Status::OK();
  }

 private:
  std::string path_;
  std::FILE* f_;
};

}  // namespace

std::unique_ptr<Sink> MakeMemorySink() { return std::make_unique<MemorySink>(); }

Result<std::unique_ptr<Sink>> MakeFileSink(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    return Status::IOError("cannot create '" + path + "': " + std::strerror(errno));
  }
  return std::unique_ptr<Sink>(std::make_unique<FileSink>(path, f));
}

}  // namespace lance_nd::array::ipc::internal
