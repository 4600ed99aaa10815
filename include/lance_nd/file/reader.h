// Reading Lance 2.1 / 2.2 data files (as written by Lance 12) into Arrow-layout record batches.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/file/version.h"
#include "lance_nd/io/file.h"

namespace lance_nd::file {

struct LANCE_ND_EXPORT ReaderOptions {
  /// Threads used to decode the columns of one read (1 = decode on the calling thread).
  int num_threads = 2;
};

/// \brief Limits of one batch of a streaming read; a batch never splits a row, holds at least
/// one row, at most `max_rows` rows and roughly at most `max_bytes` of encoded data.
struct LANCE_ND_EXPORT ScanOptions {
  std::int64_t max_rows = 64 * 1024;
  std::int64_t max_bytes = 64 * 1024 * 1024;
};

// ---- Description of a file (lance-nd inspect) ----------------------------------------------

struct LANCE_ND_EXPORT PageDescription {
  std::uint64_t first_row = 0;
  std::uint64_t num_rows = 0;
  std::string layout;  // "mini-block layers=[...] rep=... values=flat(32) ..."
  std::vector<std::pair<std::uint64_t, std::uint64_t>> buffers;  // (position, size)
  std::uint64_t num_bytes = 0;                                   // sum of buffer sizes
};

struct LANCE_ND_EXPORT ColumnDescription {
  int index = 0;
  std::string path;  // dotted field path of the leaf ("t.values.item")
  std::int32_t field_id = 0;
  std::string encoding_type_url;
  std::uint64_t metadata_position = 0;
  std::uint64_t metadata_size = 0;
  std::vector<PageDescription> pages;
};

struct LANCE_ND_EXPORT FieldDescription {
  std::int32_t id = 0;
  std::int32_t parent_id = -1;
  std::string path;          // dotted path
  std::string logical_type;  // as stored ("fixed_size_list:float:128")
  bool nullable = true;
  array::Metadata metadata;
  int column = -1;          // leaf column index, -1 for structs and lists
  std::string unsupported;  // why lance-nd cannot read this field; empty when it can
};

struct LANCE_ND_EXPORT FileDescription {
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

// ---- Layout of a file (what the table layer needs, without text) ----------------------------

/// \brief One field of the file schema.
struct LANCE_ND_EXPORT FieldLayout {
  std::int32_t id = 0;
  std::int32_t parent_id = -1;  // -1 for top-level fields
  std::string name;             // the field's own name
  std::string path;             // dotted path from the top-level field ("t.values.item")
  array::DataTypePtr type;      // null type for a field lance-nd cannot read
  int column = -1;              // leaf column index, -1 for structs and lists
};

/// \brief One leaf column of the file.
struct LANCE_ND_EXPORT ColumnLayout {
  std::int32_t field_id = 0;
  std::uint64_t num_pages = 0;
  std::uint64_t num_rows = 0;  // the sum of its pages' rows
};

/// \brief The structure of a file, computed once when it is opened.
struct LANCE_ND_EXPORT FileLayout {
  FileVersion version;
  std::uint64_t num_rows = 0;
  std::vector<FieldLayout> fields;    // pre-order
  std::vector<ColumnLayout> columns;  // by column index
};

// ---- Projection ------------------------------------------------------------------------------

/// \brief The fields a read returns: every field (the default), fields by name, or fields by
/// Lance field id.
///
/// Names are top-level fields ("temperature") or a path into nested structs
/// ("temperature.attrs.units"). Field ids select any field outside lists; the id of a struct
/// child works like its path. Either way a struct child keeps the enclosing structs with only
/// the chosen children, fields come back in schema order, and an empty list selects every
/// field. Unknown names or ids are InvalidArgument.
class LANCE_ND_EXPORT Projection {
 public:
  /// Every field.
  Projection() = default;
  /// By name, so a list of names converts (`reader.ReadAll({"a", "b.c"})`).
  Projection(std::vector<std::string> names)  // NOLINT(google-explicit-constructor)
      : names_(std::move(names)) {}
  Projection(std::initializer_list<std::string> names)  // NOLINT(google-explicit-constructor)
      : names_(names) {}

  static Projection All() { return {}; }
  static Projection ByNames(std::vector<std::string> names) { return {std::move(names)}; }
  static Projection ByFieldIds(std::vector<std::int32_t> ids) {
    Projection p;
    p.by_ids_ = true;
    p.ids_ = std::move(ids);
    return p;
  }

  bool by_field_ids() const { return by_ids_; }
  bool selects_all() const { return by_ids_ ? ids_.empty() : names_.empty(); }
  const std::vector<std::string>& names() const { return names_; }
  const std::vector<std::int32_t>& field_ids() const { return ids_; }

 private:
  bool by_ids_ = false;
  std::vector<std::string> names_;
  std::vector<std::int32_t> ids_;
};

// ---- Reader ----------------------------------------------------------------------------------

class BatchReader;

/// \brief An open Lance data file. Cheap to copy (shares its state); reads are thread-safe.
class LANCE_ND_EXPORT FileReader {
 public:
  /// \brief Read and validate the footer, offset tables, schema and column metadata.
  /// Errors: Corrupt (naming what is wrong), NotImplemented (versions other than 2.1/2.2, empty
  /// structs), IOError. A field of a type lance-nd cannot read does not fail Open: it is a null
  /// field marked kUnsupportedFieldKey (lance_schema.h), and reads that project it are
  /// NotImplemented with the reason.
  static Result<FileReader> Open(std::shared_ptr<io::RandomAccessFile> file,
                                 ReaderOptions options = {});
  /// \brief A reader of the same open file sharing the parsed footer, schema and column
  /// metadata, with its own empty cache of decoded pages: no I/O, so keeping one reader per file
  /// and sharing it costs no memory for pages.
  FileReader Share() const;

  const array::SchemaPtr& schema() const;
  std::int64_t num_rows() const;
  FileVersion version() const;
  /// \brief Fields with their ids and columns, and each column's pages and rows (no text).
  const FileLayout& layout() const;
  /// \brief Everything about the file as text and numbers, page by page (for inspect).
  FileDescription Describe() const;

  /// \brief The schema a read with `projection` returns.
  Result<array::SchemaPtr> ProjectedSchema(const Projection& projection) const;

  Result<array::RecordBatchPtr> ReadAll(const Projection& projection = {}) const;
  /// \brief Rows [offset, offset + length).
  Result<array::RecordBatchPtr> ReadRange(std::int64_t offset, std::int64_t length,
                                          const Projection& projection = {}) const;
  /// \brief Rows at `indices` in the given order (repeats allowed); only pages holding them are
  /// read. An index >= num_rows() is InvalidArgument.
  Result<array::RecordBatchPtr> Take(std::span<const std::uint64_t> indices,
                                     const Projection& projection = {}) const;
  /// \brief Stream the file in batches bounded by `options`.
  Result<BatchReader> Scan(const Projection& projection = {}, ScanOptions options = {}) const;

  struct Impl;

 private:
  explicit FileReader(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

/// \brief Batches of a streaming read, in file order.
class LANCE_ND_EXPORT BatchReader {
 public:
  /// \brief The next batch, or nullptr after the last one.
  Result<array::RecordBatchPtr> Next();
  const array::SchemaPtr& schema() const { return schema_; }

 private:
  friend class FileReader;
  FileReader reader_;
  Projection projection_;
  array::SchemaPtr schema_;
  std::int64_t next_row_ = 0;
  std::int64_t rows_per_batch_ = 1;
  BatchReader(FileReader reader, Projection projection, array::SchemaPtr schema,
              std::int64_t rows_per_batch)
      : reader_(std::move(reader)),
        projection_(std::move(projection)),
        schema_(std::move(schema)),
        rows_per_batch_(rows_per_batch) {}
};

}  // namespace lance_nd::file
