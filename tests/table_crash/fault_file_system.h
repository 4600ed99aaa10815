// A FileSystem wrapper that simulates a process crash at the k-th mutating operation: operations
// before it happen, the k-th happens partly (a file is left half written, an atomic create
// leaves only its temp file), every later mutation fails. Reads pass through.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "lance_nd/io/file_system.h"

namespace lance_nd::table_test {

class FaultFileSystem final : public io::FileSystem,
                              public std::enable_shared_from_this<FaultFileSystem> {
 public:
  enum class Step { kDo, kCrashNow, kDead };

  /// \brief crash_at = 0: never crash (count the operations).
  FaultFileSystem(std::shared_ptr<io::FileSystem> inner, int crash_at)
      : inner_(std::move(inner)), crash_at_(crash_at) {}

  int operations() const { return ops_; }
  bool crashed() const { return crash_at_ != 0 && ops_ >= crash_at_; }
  /// \brief What the crashing operation was ("Write data/x.lance", ...).
  const std::string& crash_point() const { return crash_point_; }

  Step Next(const std::string& what) {
    ++ops_;
    if (crash_at_ == 0 || ops_ < crash_at_) return Step::kDo;
    if (ops_ == crash_at_) {
      crash_point_ = what;
      return Step::kCrashNow;
    }
    return Step::kDead;
  }
  static Status Crashed(const std::string& what) {
    return Status::IOError("injected crash at " + what);
  }

  Result<std::shared_ptr<io::RandomAccessFile>> OpenForRead(const std::string& path) override {
    return inner_->OpenForRead(path);
  }
  Result<std::unique_ptr<io::OutputFile>> Create(const std::string& path) override;
  Status CreateIfAbsent(const std::string& path, std::span<const std::uint8_t> bytes) override {
    switch (Next("CreateIfAbsent " + path)) {
      case Step::kDo:
        return inner_->CreateIfAbsent(path, bytes);
      case Step::kCrashNow: {
        // Died after writing half of the temp file, before linking it.
        auto out = inner_->Create(path + ".tmp-crash");
        if (out.ok()) {
          (void)(*out)->Write(bytes.first(bytes.size() / 2));
          (void)(*out)->Close();
        }
        return Crashed("CreateIfAbsent " + path);
      }
      case Step::kDead:
        break;
    }
    return Crashed("CreateIfAbsent " + path);
  }
  Result<std::vector<io::FileInfo>> List(const std::string& dir) override {
    return inner_->List(dir);
  }
  Result<std::vector<std::string>> ListFileNames(const std::string& dir) override {
    return inner_->ListFileNames(dir);
  }
  Result<bool> Exists(const std::string& path) override { return inner_->Exists(path); }
  Status Delete(const std::string& path) override {
    if (Next("Delete " + path) != Step::kDo) return Crashed("Delete " + path);
    return inner_->Delete(path);
  }
  Status Rename(const std::string& from, const std::string& to) override {
    if (Next("Rename " + from) != Step::kDo) return Crashed("Rename " + from + " -> " + to);
    return inner_->Rename(from, to);
  }
  Status CreateDir(const std::string& path) override {
    if (Next("CreateDir " + path) != Step::kDo) return Crashed("CreateDir " + path);
    return inner_->CreateDir(path);
  }

 private:
  std::shared_ptr<io::FileSystem> inner_;
  int crash_at_;
  int ops_ = 0;
  std::string crash_point_;
};

class FaultOutputFile final : public io::OutputFile {
 public:
  FaultOutputFile(std::shared_ptr<FaultFileSystem> fs, std::unique_ptr<io::OutputFile> inner)
      : fs_(std::move(fs)), inner_(std::move(inner)) {}
  Status Write(std::span<const std::uint8_t> bytes) override {
    switch (fs_->Next("Write " + path())) {
      case FaultFileSystem::Step::kDo:
        return inner_->Write(bytes);
      case FaultFileSystem::Step::kCrashNow:
        (void)inner_->Write(bytes.first(bytes.size() / 2));
        (void)inner_->Flush();
        break;
      case FaultFileSystem::Step::kDead:
        break;
    }
    return FaultFileSystem::Crashed("Write " + path());
  }
  std::uint64_t position() const override { return inner_->position(); }
  Status Flush() override { return inner_->Flush(); }
  Status Sync() override {
    if (fs_->Next("Sync " + path()) != FaultFileSystem::Step::kDo) {
      return FaultFileSystem::Crashed("Sync " + path());
    }
    return inner_->Sync();
  }
  Status Close() override {
    if (fs_->Next("Close " + path()) != FaultFileSystem::Step::kDo) {
      (void)inner_->Flush();  // what reached the OS stays on disk
      return FaultFileSystem::Crashed("Close " + path());
    }
    return inner_->Close();
  }
  const std::string& path() const override { return inner_->path(); }

 private:
  std::shared_ptr<FaultFileSystem> fs_;
  std::unique_ptr<io::OutputFile> inner_;
};

inline Result<std::unique_ptr<io::OutputFile>> FaultFileSystem::Create(const std::string& path) {
  const Step step = Next("Create " + path);
  if (step == Step::kDead) return Crashed("Create " + path);
  LND_ASSIGN_OR_RETURN(auto out, inner_->Create(path));
  if (step == Step::kCrashNow) {
    (void)out->Close();  // an empty file is left behind
    return Crashed("Create " + path);
  }
  return std::unique_ptr<io::OutputFile>(
      std::make_unique<FaultOutputFile>(shared_from_this(), std::move(out)));
}

}  // namespace lance_nd::table_test
