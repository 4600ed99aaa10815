// Zero-copy exchange of types, arrays, record batches and batch streams through the Arrow C Data
// Interface and C Stream Interface (with Arrow C++, pyarrow, DuckDB, Polars, nanoarrow...).
//
// Ownership: every Export* fills a caller-provided struct that the consumer must release
// (call its `release` callback) exactly once; the exported struct keeps our buffers alive until
// then. Every Import* takes ownership of the struct it is given, also when it fails: on return
// the struct is marked released (release == NULL) and must not be released again by the caller.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/c_abi.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"

namespace lance_nd::array {

// ---- Schemas --------------------------------------------------------------------------------

/// \brief Export a bare type: empty name, no metadata, flags 0.
LANCE_ND_EXPORT Status ExportType(const DataType& type, ArrowSchema* out);
/// \brief Export a field: name, type, ARROW_FLAG_NULLABLE when nullable, metadata.
LANCE_ND_EXPORT Status ExportField(const Field& field, ArrowSchema* out);
/// \brief Export a schema as a struct ("+s") whose children are the fields; the schema metadata
/// is the metadata of the top-level struct.
LANCE_ND_EXPORT Status ExportSchema(const Schema& schema, ArrowSchema* out);

/// \brief Import a type. Unsupported Arrow types (dictionary, decimal, time, map, union, ...)
/// return NotImplemented naming the format string; malformed input returns InvalidArgument.
/// The struct is released, also on failure.
LANCE_ND_EXPORT Result<DataTypePtr> ImportType(ArrowSchema* schema);
/// \brief Import a field (name, type, nullability, metadata; extension metadata is kept as field
/// metadata). The struct is released, also on failure.
LANCE_ND_EXPORT Result<FieldPtr> ImportField(ArrowSchema* schema);
/// \brief Import a schema from a struct ("+s") ArrowSchema. The struct is released, also on
/// failure.
LANCE_ND_EXPORT Result<SchemaPtr> ImportSchema(ArrowSchema* schema);

// ---- Arrays ---------------------------------------------------------------------------------

/// \brief Export an array without copying: the ArrowArray pins `array` (buffers and children)
/// until the consumer releases it. With `out_schema`, also export its type (ExportType).
LANCE_ND_EXPORT Status ExportArray(const ArrayPtr& array, ArrowArray* out,
                                   ArrowSchema* out_schema = nullptr);

/// \brief Import an array of the given type without copying. The buffers point into the
/// producer's memory and keep it alive; the producer's release callback runs exactly once, when
/// the last array or buffer referencing it is destroyed. The result is validated (the producer
/// is untrusted): validation errors are returned as InvalidArgument. The struct is moved
/// (marked released), also on failure, after which the producer's memory is released.
LANCE_ND_EXPORT Result<ArrayPtr> ImportArray(ArrowArray* array, const DataTypePtr& type);
/// \brief Import the type from `schema` (released, also on failure), then the array.
LANCE_ND_EXPORT Result<ArrayPtr> ImportArray(ArrowArray* array, ArrowSchema* schema);

/// \brief Export a batch as a struct array without top-level nulls; with `out_schema`, also the
/// schema (ExportSchema).
LANCE_ND_EXPORT Status ExportRecordBatch(const RecordBatch& batch, ArrowArray* out,
                                         ArrowSchema* out_schema = nullptr);
/// \brief Import a batch from a struct array whose fields are `schema`'s. A top-level struct
/// with nulls is rejected (InvalidArgument). Moves/releases `array` as ImportArray does.
LANCE_ND_EXPORT Result<RecordBatchPtr> ImportRecordBatch(ArrowArray* array,
                                                         const SchemaPtr& schema);
/// \brief Import the schema (released, also on failure), then the batch.
LANCE_ND_EXPORT Result<RecordBatchPtr> ImportRecordBatch(ArrowArray* array, ArrowSchema* schema);

// ---- Streams --------------------------------------------------------------------------------

/// \brief Produces the batches of a stream, one per call; nullptr at the end. An error is handed
/// to the consumer through get_next's errno and get_last_error.
using RecordBatchSource = std::function<Result<RecordBatchPtr>()>;

/// \brief Export a stream of batches of `schema`. Each batch the source yields must have this
/// schema (checked; a mismatch is reported to the consumer as EINVAL). The source is destroyed
/// when the consumer releases the stream. Status codes map to errno values: InvalidArgument and
/// SchemaMismatch -> EINVAL, NotImplemented -> ENOSYS, everything else -> EIO.
LANCE_ND_EXPORT Status ExportRecordBatchStream(SchemaPtr schema, RecordBatchSource source,
                                               ArrowArrayStream* out);
/// \brief Export a fixed list of batches as a stream.
LANCE_ND_EXPORT Status ExportRecordBatchStream(SchemaPtr schema,
                                               std::vector<RecordBatchPtr> batches,
                                               ArrowArrayStream* out);

/// \brief Reads an imported ArrowArrayStream. Owns the stream and releases it when closed or
/// destroyed. Not thread-safe.
class LANCE_ND_EXPORT CStreamReader {
 public:
  /// \brief Take ownership of `stream` (marked released, also on failure) and read its schema.
  static Result<std::unique_ptr<CStreamReader>> Make(ArrowArrayStream* stream);

  ~CStreamReader();
  CStreamReader(const CStreamReader&) = delete;
  CStreamReader& operator=(const CStreamReader&) = delete;

  const SchemaPtr& schema() const { return schema_; }
  /// \brief The next batch (validated against schema()), or nullptr at the end of the stream.
  /// A producer error becomes a Status whose kind follows the errno (EINVAL -> InvalidArgument,
  /// ENOSYS -> NotImplemented, else IOError) and whose message includes get_last_error's text.
  /// After an error (the spec leaves the stream's state undefined) every later call returns the
  /// same error without calling the producer again.
  Result<RecordBatchPtr> ReadNext();
  /// \brief Read every remaining batch.
  Result<std::vector<RecordBatchPtr>> ReadAll();
  /// \brief Release the producer's stream now (idempotent). ReadNext() then fails.
  void Close();

 private:
  CStreamReader(ArrowArrayStream stream, SchemaPtr schema);
  Status ProducerError(const char* what, int code);

  ArrowArrayStream stream_;
  SchemaPtr schema_;
  bool finished_ = false;
  Status error_;
};

/// \brief Same as CStreamReader::Make.
LANCE_ND_EXPORT Result<std::unique_ptr<CStreamReader>> ImportRecordBatchStream(
    ArrowArrayStream* stream);

}  // namespace lance_nd::array
