// Byte-level file access: positional reads of immutable files, sequential writes of new files.
// The io layer depends only on core; bytes are handed out as shared immutable vectors so that
// upper layers can wrap them zero-copy (the shared_ptr is the owner).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/export.h"

namespace lance_nd::io {

/// \brief Immutable bytes read from a file. Never null when returned from a successful read.
using Bytes = std::shared_ptr<const std::vector<std::uint8_t>>;

/// \brief Bytes of a file mapped into memory: valid while `owner` lives.
struct LANCE_ND_EXPORT MappedView {
  std::span<const std::uint8_t> bytes;
  std::shared_ptr<const void> owner;
};

/// \brief A file opened for positional reads. Implementations are thread-safe: ReadAt may be
/// called concurrently.
class LANCE_ND_EXPORT RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;

  /// \brief Size of the file in bytes (fixed at open time).
  virtual std::uint64_t Size() const = 0;

  /// \brief Read exactly `length` bytes at `offset`. A range beyond the end of the file is
  /// IOError naming the path, the range and the file size.
  virtual Result<Bytes> ReadAt(std::uint64_t offset, std::uint64_t length) const = 0;

  /// \brief Read exactly `out.size()` bytes at `offset` into caller-owned memory (no allocation,
  /// no zero-fill; the fast path for large reads). Same errors as ReadAt. The default
  /// implementation copies from ReadAt; the local file overrides it with a direct pread.
  virtual Status ReadInto(std::uint64_t offset, std::span<std::uint8_t> out) const;

  /// \brief The path or name the file was opened with (for messages).
  virtual const std::string& path() const = 0;

  /// \brief The whole file mapped read-only (Size() bytes), or an empty view when this file is
  /// not mapped. Readers slice it instead of copying; the bytes stay valid while the returned
  /// owner lives. Files are immutable once written: truncating a mapped file under a reader is
  /// undefined (SIGBUS), as with any memory-mapped reader.
  virtual MappedView Mapped() const { return {}; }
};

/// \brief A file opened for sequential writing. Close() must be called to finish it; a file
/// destroyed without Close() is closed silently (errors lost).
class LANCE_ND_EXPORT OutputFile {
 public:
  virtual ~OutputFile() = default;

  virtual Status Write(std::span<const std::uint8_t> bytes) = 0;
  /// \brief Bytes written so far.
  virtual std::uint64_t position() const = 0;
  /// \brief Push buffered bytes to the operating system.
  virtual Status Flush() = 0;
  /// \brief Flush and make the bytes durable (fsync), with the file's directory entry (the
  /// parent directory is synced on the first call).
  virtual Status Sync() = 0;
  /// \brief Start writing the bytes written so far to storage without waiting for it (a hint:
  /// the default does nothing). A later Sync() then has less left to wait for, so a writer that
  /// calls this as it goes overlaps the disk with its own work.
  virtual Status StartSync() { return Status::OK(); }
  /// \brief Flush and close; later calls to Write fail. Closing twice is OK.
  virtual Status Close() = 0;
  virtual const std::string& path() const = 0;
};

/// \brief A random-access file over bytes already in memory (tests, fuzzers, small files).
LANCE_ND_EXPORT std::shared_ptr<RandomAccessFile> MakeBufferFile(Bytes bytes,
                                                                 std::string name = "<memory>");
LANCE_ND_EXPORT std::shared_ptr<RandomAccessFile> MakeBufferFile(std::vector<std::uint8_t> bytes,
                                                                 std::string name = "<memory>");

}  // namespace lance_nd::io
