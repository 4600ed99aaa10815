// A minimal file system interface (local disk, in-memory for tests). Paths use '/'.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/io/file.h"

namespace lance_nd::io {

/// \brief One directory entry returned by FileSystem::List.
struct LANCE_ND_EXPORT FileInfo {
  std::string name;  // entry name (no directory part)
  bool is_directory = false;
  std::uint64_t size = 0;  // bytes, for files
};

class LANCE_ND_EXPORT FileSystem {
 public:
  virtual ~FileSystem() = default;

  /// \brief Open an existing file for reading. Missing -> NotFound.
  virtual Result<std::shared_ptr<RandomAccessFile>> OpenForRead(const std::string& path) = 0;
  /// \brief Create (or truncate) a file for writing; parent directories are created.
  virtual Result<std::unique_ptr<OutputFile>> Create(const std::string& path) = 0;
  /// \brief Atomically create `path` holding `bytes` only if it does not exist: the content is
  /// written completely (and made durable) before the name appears. Exists -> AlreadyExists.
  virtual Status CreateIfAbsent(const std::string& path, std::span<const std::uint8_t> bytes) = 0;
  /// \brief Entries of a directory, sorted by name. Missing directory -> NotFound.
  virtual Result<std::vector<FileInfo>> List(const std::string& dir) = 0;
  /// \brief Names of the files of a directory (subdirectories left out), sorted, without their
  /// sizes: cheaper than List where a listing only needs names (the local disk reads the
  /// directory's entries and their types, and stats nothing). Missing directory -> NotFound.
  /// The default takes the names from List.
  virtual Result<std::vector<std::string>> ListFileNames(const std::string& dir);
  /// \brief Whether a file or directory exists.
  virtual Result<bool> Exists(const std::string& path) = 0;
  /// \brief Delete a file. Missing -> NotFound.
  virtual Status Delete(const std::string& path) = 0;
  /// \brief Rename a file, replacing the target if present.
  virtual Status Rename(const std::string& from, const std::string& to) = 0;
  /// \brief Create a directory and its parents (no error if it exists).
  virtual Status CreateDir(const std::string& path) = 0;
};

/// \brief The local disk (POSIX).
LANCE_ND_EXPORT std::shared_ptr<FileSystem> LocalFileSystem();

/// \brief A fresh, empty, thread-safe in-memory file system (tests).
LANCE_ND_EXPORT std::shared_ptr<FileSystem> MakeMemoryFileSystem();

/// \brief Read a whole file into memory.
LANCE_ND_EXPORT Result<Bytes> ReadWholeFile(const RandomAccessFile& file);

}  // namespace lance_nd::io
