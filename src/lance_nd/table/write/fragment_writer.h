// The data files of new fragments, written from a stream of batches: files are cut at
// max_rows_per_file / max_bytes_per_file and finished (last pages, footer, fsync) on the worker
// pool, a bounded number at a time, while the caller goes on writing the next file.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/internal/thread_pool.h"
#include "lance_nd/core/result.h"
#include "lance_nd/file/writer.h"
#include "lance_nd/file/writer_options.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/manifest.h"
#include "lance_nd/table/write.h"

namespace lance_nd::table::internal {

/// \brief Lance's data file name: a random UUID, its first 3 bytes as 24 binary digits and the
/// other 13 bytes as 26 hex digits, then ".lance".
std::string NewDataFileName();

class FragmentWriter {
 public:
  /// \brief A writer of data files for the table fields `fields` under the table's `data/`.
  /// InvalidArgument for non-positive file limits; NotImplemented when a field has a type
  /// lance-nd cannot write. Nothing is created until the first row is written.
  static Result<std::unique_ptr<FragmentWriter>> Open(TableLocation location,
                                                      const std::vector<LanceField>& fields,
                                                      const WriteOptions& options);
  /// \brief Waits for the files in flight; removes nothing (RemoveFiles does).
  ~FragmentWriter();
  FragmentWriter(const FragmentWriter&) = delete;
  FragmentWriter& operator=(const FragmentWriter&) = delete;

  /// \brief SchemaMismatch naming the first field of `schema` that the table does not store
  /// with the same name, position and type. Changes nothing.
  Status CheckSchema(const array::Schema& schema) const;
  /// \brief Append the rows of `batch` (checked with CheckSchema first): files are cut exactly
  /// where WriteFragments always cut them. After an I/O error the writer is failed: every later
  /// call returns that error.
  Status Write(const array::RecordBatch& batch);
  /// \brief Finish the open file and wait for every file: the new fragments in write order
  /// (ids 0, assigned at commit). Once only.
  Result<std::vector<Fragment>> Finish();
  /// \brief Give up: wait for the files in flight, then delete every file this writer created
  /// (best effort: errors are ignored, the files are unreferenced either way).
  void RemoveFiles();

  const array::SchemaPtr& schema() const { return schema_; }
  std::uint64_t rows_written() const { return rows_written_; }

 private:
  FragmentWriter(TableLocation location, array::SchemaPtr schema, const WriteOptions& options,
                 file::WriterOptions file_options);
  Status StartFile();
  // Hands the open file to the pool (or finishes it here when no file may be in flight).
  Status CutFile();
  // Waits for the oldest file in flight and keeps its fragment.
  Status CollectOldest();
  Status Fail(Status st);

  TableLocation location_;
  array::SchemaPtr schema_;
  std::int64_t max_rows_per_file_;
  std::int64_t max_bytes_per_file_;
  std::size_t files_in_flight_;
  file::WriterOptions file_options_;

  std::shared_ptr<file::FileWriter> writer_;  // the open file, null between files
  const io::OutputFile* out_ = nullptr;       // its output (bytes flushed so far)
  std::string name_;                          // its name under data/
  std::int64_t file_bytes_ = 0;               // its estimated size
  std::deque<PoolTask<Result<Fragment>>> in_flight_;
  std::vector<Fragment> fragments_;   // finished, in order
  std::vector<std::string> created_;  // every data file path created
  std::uint64_t rows_written_ = 0;
  Status failed_;
  bool finished_ = false;
};

}  // namespace lance_nd::table::internal
