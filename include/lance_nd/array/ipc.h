// Arrow IPC: the streaming format (schema message, record batches, end-of-stream marker) and the
// random-access file format ("ARROW1" magic, stream, footer), read and written.
//
// Writers emit metadata version V5, little-endian, 8-byte aligned and padded buffers, the
// continuation marker before every message, and optionally LZ4_FRAME or ZSTD body compression.
// Readers treat their input as untrusted: every message is checked by the flatbuffers verifier,
// every buffer range against its message body, every node against its array, and each decoded
// column with array::Validate. Malformed input gives StatusCode::kCorrupt with a message naming
// what was wrong; features lance-nd does not support (dictionary batches, decimal, union, map,
// view types, big-endian data, ...) give kNotImplemented naming the feature. Buffers are sliced
// from the input without copying when they are 8-byte aligned.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/buffer.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"

namespace lance_nd::array::ipc {

/// \brief Body compression of record batches (Arrow's BodyCompression, method BUFFER).
enum class Compression : std::uint8_t { kNone, kLz4Frame, kZstd };

struct LANCE_ND_EXPORT IpcWriteOptions {
  Compression compression = Compression::kNone;
  /// zstd level when compression is kZstd.
  int zstd_level = 3;
};

/// \brief A schema and its record batches, as read from a stream or file.
struct LANCE_ND_EXPORT IpcContents {
  SchemaPtr schema;
  std::vector<RecordBatchPtr> batches;
};

/// \brief Writes the Arrow IPC streaming format to memory or to a file. The schema message is
/// written on open; Close() writes the end-of-stream marker.
class LANCE_ND_EXPORT IpcStreamWriter {
 public:
  /// \brief A writer whose bytes are taken with TakeBytes().
  static Result<IpcStreamWriter> OpenInMemory(SchemaPtr schema, IpcWriteOptions options = {});
  /// \brief A writer that creates (truncates) `path`.
  static Result<IpcStreamWriter> Open(const std::string& path, SchemaPtr schema,
                                      IpcWriteOptions options = {});

  IpcStreamWriter(IpcStreamWriter&&) noexcept;
  IpcStreamWriter& operator=(IpcStreamWriter&&) noexcept;
  ~IpcStreamWriter();

  const SchemaPtr& schema() const;
  /// \brief Append one batch; its columns must match the schema's types (InvalidArgument).
  /// Sliced columns are re-based.
  Status WriteRecordBatch(const RecordBatch& batch);
  /// \brief Write the end-of-stream marker and close the file, if any. Idempotent.
  Status Close();
  /// \brief The bytes written so far (in-memory writers only; empty for file writers). Moves
  /// them out of the writer.
  std::vector<std::uint8_t> TakeBytes();

 private:
  struct Impl;
  explicit IpcStreamWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// \brief Writes the Arrow IPC file format: magic, stream, footer with the schema and the
/// location of every record batch, footer length, magic.
class LANCE_ND_EXPORT IpcFileWriter {
 public:
  static Result<IpcFileWriter> OpenInMemory(SchemaPtr schema, IpcWriteOptions options = {});
  static Result<IpcFileWriter> Open(const std::string& path, SchemaPtr schema,
                                    IpcWriteOptions options = {});

  IpcFileWriter(IpcFileWriter&&) noexcept;
  IpcFileWriter& operator=(IpcFileWriter&&) noexcept;
  ~IpcFileWriter();

  const SchemaPtr& schema() const;
  Status WriteRecordBatch(const RecordBatch& batch);
  /// \brief Write the footer and trailing magic and close the file, if any. A file is not
  /// readable before Close(). Idempotent.
  Status Close();
  std::vector<std::uint8_t> TakeBytes();

 private:
  struct Impl;
  explicit IpcFileWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// \brief Reads the Arrow IPC streaming format from bytes held in memory. The schema message is
/// read on open.
class LANCE_ND_EXPORT IpcStreamReader {
 public:
  /// \brief Read from `bytes` (kept alive by the batches read, which slice it).
  static Result<IpcStreamReader> Open(BufferPtr bytes);
  /// \brief Read a whole file into memory, then as Open(bytes).
  static Result<IpcStreamReader> OpenFile(const std::string& path);

  IpcStreamReader(IpcStreamReader&&) noexcept;
  IpcStreamReader& operator=(IpcStreamReader&&) noexcept;
  ~IpcStreamReader();

  const SchemaPtr& schema() const;
  /// \brief The next record batch, or nullptr once the end of the stream was reached (the
  /// end-of-stream marker, or the end of the bytes at a message boundary).
  Result<RecordBatchPtr> ReadNext();

 private:
  struct Impl;
  explicit IpcStreamReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// \brief Random access to the record batches of an Arrow IPC file.
class LANCE_ND_EXPORT IpcFileReader {
 public:
  static Result<IpcFileReader> Open(BufferPtr bytes);
  static Result<IpcFileReader> OpenFile(const std::string& path);

  IpcFileReader(IpcFileReader&&) noexcept;
  IpcFileReader& operator=(IpcFileReader&&) noexcept;
  ~IpcFileReader();

  const SchemaPtr& schema() const;
  int num_record_batches() const;
  /// \brief Batch `i` in [0, num_record_batches()); out of range is InvalidArgument.
  Result<RecordBatchPtr> ReadRecordBatch(int i) const;
  /// \brief Schema-level custom metadata of the footer itself (rarely used), as key/values.
  const Metadata& footer_metadata() const;

 private:
  struct Impl;
  explicit IpcFileReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Convenience functions.

LANCE_ND_EXPORT Result<std::vector<std::uint8_t>> WriteIpcStream(
    const SchemaPtr& schema, std::span<const RecordBatchPtr> batches,
    const IpcWriteOptions& options = {});
LANCE_ND_EXPORT Status WriteIpcStreamFile(const std::string& path, const SchemaPtr& schema,
                                          std::span<const RecordBatchPtr> batches,
                                          const IpcWriteOptions& options = {});
LANCE_ND_EXPORT Result<std::vector<std::uint8_t>> WriteIpcFileBytes(
    const SchemaPtr& schema, std::span<const RecordBatchPtr> batches,
    const IpcWriteOptions& options = {});
LANCE_ND_EXPORT Status WriteIpcFile(const std::string& path, const SchemaPtr& schema,
                                    std::span<const RecordBatchPtr> batches,
                                    const IpcWriteOptions& options = {});

/// \brief Read a whole stream. The span overload copies the bytes into an aligned buffer first.
LANCE_ND_EXPORT Result<IpcContents> ReadIpcStream(BufferPtr bytes);
LANCE_ND_EXPORT Result<IpcContents> ReadIpcStream(std::span<const std::uint8_t> bytes);
/// \brief Read every batch of an IPC file held in memory.
LANCE_ND_EXPORT Result<IpcContents> ReadIpcFileBytes(BufferPtr bytes);
LANCE_ND_EXPORT Result<IpcContents> ReadIpcFileBytes(std::span<const std::uint8_t> bytes);
/// \brief Read every batch of the IPC file at `path`.
LANCE_ND_EXPORT Result<IpcContents> ReadIpcFile(const std::string& path);

}  // namespace lance_nd::array::ipc
