// Reading Lance 2.1 / 2.2 data files (as written by Lance 12) into Arrow-layout record batches.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/file/version.h"
#include "lance_nd/io/file.h"

namespace lance_nd::file {

struct ReaderOptions {
  /// Threads used to decode the columns of one read (1 = decode on the calling thread).
  int num_threads = 2;
};

/// \brief Limits of one batch of a streaming read; a batch never splits a row, holds at least
/// one row, at most `max_rows` rows and roughly at most `max_bytes` of encoded data.
struct ScanOptions {
  std::int64_t max_rows = 64 * 1024;
  std::int64_t max_bytes = 64 * 1024 * 1024;
};

// ---- Description of a file (lance-nd inspect) ----------------------------------------------

struct PageDescription {
  std::uint64_t first_row = 0;
  std::uint64_t num_rows = 0;
  std::string layout;  // "mini-block layers=[...] rep=... values=flat(32) ..."
  std::vector<std::pair<std::uint64_t, std::uint64_t>> buffers;  // (position, size)
  std::uint64_t num_bytes = 0;                                   // sum of buffer sizes
};

struct ColumnDescription {
  int index = 0;
  std::string path;  // dotted field path of the leaf ("t.values.item")
  std::int32_t field_id = 0;
  std::string encoding_type_url;
  std::uint64_t metadata_position = 0;
  std::uint64_t metadata_size = 0;
  std::vector<PageDescription> pages;
};

struct FieldDescription {
  std::int32_t id = 0;
  std::int32_t parent_id = -1;
  std::string path;          // dotted path
  std::string logical_type;  // as stored ("fixed_size_list:float:128")
  bool nullable = true;
  array::Metadata metadata;
  int column = -1;          // leaf column index, -1 for structs and lists
  std::string unsupported;  // why lance-nd cannot read this field; empty when it can
};

struct FileDescription {
  FileVersion version;
  std::uint64_t file_size = 0;
  std::uint64_t num_rows = 0;
  std::uint64_t column_meta_start = 0;
  std::uint64_t cmo_table_start = 0;
  std::uint64_t gbo_table_start = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> global_buffers;  // (position, size)
  array::Metadata schema_metadata;
  std::vector<FieldDescription> fields;  // pre-order
  std::vector<ColumnDescription> columns;
};

// ---- Reader ----------------------------------------------------------------------------------

class BatchReader;

/// \brief An open Lance data file. Cheap to copy (shares its state); reads are thread-safe.
///
/// Projections name top-level fields ("temperature") or a path into nested structs
/// ("temperature.attrs.units"); a struct path keeps the enclosing structs with only the chosen
/// children. An empty projection reads every field. Unknown names are InvalidArgument.
class FileReader {
 public:
  /// \brief Read and validate the footer, offset tables, schema and column metadata.
  /// Errors: Corrupt (naming what is wrong), NotImplemented (versions other than 2.1/2.2, empty
  /// structs), IOError. A field of a type lance-nd cannot read does not fail Open: it is a null
  /// field marked kUnsupportedFieldKey (lance_schema.h), and reads that project it are
  /// NotImplemented with the reason.
  static Result<FileReader> Open(std::shared_ptr<io::RandomAccessFile> file,
                                 ReaderOptions options = {});

  const array::SchemaPtr& schema() const;
  std::int64_t num_rows() const;
  FileVersion version() const;
  FileDescription Describe() const;

  /// \brief The schema a read with `projection` returns.
  Result<array::SchemaPtr> ProjectedSchema(const std::vector<std::string>& projection) const;

  Result<array::RecordBatchPtr> ReadAll(const std::vector<std::string>& projection = {}) const;
  /// \brief Rows [offset, offset + length).
  Result<array::RecordBatchPtr> ReadRange(std::int64_t offset, std::int64_t length,
                                          const std::vector<std::string>& projection = {}) const;
  /// \brief Rows at `indices` in the given order (repeats allowed); only pages holding them are
  /// read. An index >= num_rows() is InvalidArgument.
  Result<array::RecordBatchPtr> Take(std::span<const std::uint64_t> indices,
                                     const std::vector<std::string>& projection = {}) const;
  /// \brief Stream the file in batches bounded by `options`.
  Result<BatchReader> Scan(const std::vector<std::string>& projection = {},
                           ScanOptions options = {}) const;

  struct Impl;

 private:
  explicit FileReader(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

/// \brief Batches of a streaming read, in file order.
class BatchReader {
 public:
  /// \brief The next batch, or nullptr after the last one.
  Result<array::RecordBatchPtr> Next();
  const array::SchemaPtr& schema() const { return schema_; }

 private:
  friend class FileReader;
  FileReader reader_;
  std::vector<std::string> projection_;
  array::SchemaPtr schema_;
  std::int64_t next_row_ = 0;
  std::int64_t rows_per_batch_ = 1;
  BatchReader(FileReader reader, std::vector<std::string> projection, array::SchemaPtr schema,
              std::int64_t rows_per_batch)
      : reader_(std::move(reader)),
        projection_(std::move(projection)),
        schema_(std::move(schema)),
        rows_per_batch_(rows_per_batch) {}
};

}  // namespace lance_nd::file
