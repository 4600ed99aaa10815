// Lance file format 2.1 / 2.2 writer: Arrow-layout record batches in, a Lance data file out.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/file/writer_options.h"
#include "lance_nd/io/file.h"

namespace lance_nd::file {

/// \brief What Finish() wrote.
struct LANCE_ND_EXPORT WrittenFile {
  std::uint64_t num_rows = 0;
  std::uint64_t file_size = 0;               // bytes (the manifest's DataFile.file_size_bytes)
  std::uint32_t num_columns = 0;             // leaf columns
  FileVersion version = FileVersion::kV2_2;  // the footer's version
  /// Field id of each column's leaf field, in column order (a manifest DataFile's `fields`;
  /// its `column_indices` are then 0, 1, 2, ...).
  std::vector<std::int32_t> column_field_ids;
};

/// \brief Writes one Lance data file. Usage: Open, Write (any number of batches with the
/// writer's schema), Finish. Not thread-safe. A writer destroyed without Finish() leaves an
/// incomplete file behind.
///
/// Every leaf field becomes one column (structs and lists fold into rep/def levels). Pages are
/// mini-block (values < 256 bytes), full-zip (larger values) or constant (all null), as Lance
/// chooses. Leaf field metadata `lance-encoding:*` keys are honoured
/// (structural-encoding, compression, compression-level, ...).
class LANCE_ND_EXPORT FileWriter {
 public:
  static Result<std::unique_ptr<FileWriter>> Open(std::unique_ptr<io::OutputFile> out,
                                                  array::SchemaPtr schema,
                                                  WriterOptions options = {});
  /// \brief Create (or truncate) a local file.
  static Result<std::unique_ptr<FileWriter>> Open(const std::string& path, array::SchemaPtr schema,
                                                  WriterOptions options = {});

  ~FileWriter();
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;

  /// \brief Append rows. The batch's column types must equal the writer's schema (names and
  /// metadata are not compared). SchemaMismatch otherwise.
  Status Write(const array::RecordBatch& batch);
  /// \brief Flush pages, write schema, column metadata and footer; close the file.
  Result<WrittenFile> Finish();

  const array::SchemaPtr& schema() const;
  std::uint64_t num_rows() const;

 private:
  struct Impl;
  explicit FileWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace lance_nd::file
