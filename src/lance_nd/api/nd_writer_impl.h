// NdWriter's state, shared by its row path (nd_writer.cc) and its encoded-rows path
// (nd_writer_encoded.cc).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <vector>

#include "lance_nd/api/casting.h"
#include "lance_nd/api/fragment_sink.h"
#include "lance_nd/api/nd_writer.h"
#include "lance_nd/api/write_schema.h"
#include "lance_nd/api/writer_start.h"
#include "lance_nd/core/internal/thread_pool.h"

namespace lance_nd {

namespace internal {
/// Bytes held by a batch's buffers (an estimate: shared buffers are counted whole).
std::uint64_t BatchBytes(const array::RecordBatch& batch);

// Rows reserved for an open group up front (groups may be larger; they grow past this).
inline constexpr std::size_t kReservedRows = 4096;

// Groups encoded on the pool at once while the caller goes on adding rows; more wait for the
// oldest. Bounds the rows held twice (as rows and encoded) to a few groups.
inline constexpr std::size_t kGroupsEncodingAtOnce = 3;

// One encoded group waiting to be written: its batch (stats columns included) in the schema
// of `generation`, and its rows encoded without stats columns (`source`), decoded and encoded
// again if the schema grows before the group is written.
struct WriterGroup {
  array::RecordBatchPtr batch;
  std::uint64_t generation = 0;
  array::RecordBatchPtr source;
  // The Arrow bytes `batch` stands for. A slice of a caller's batch counts its share of that
  // batch's buffers, which every slice of it holds whole.
  std::uint64_t bytes = 0;
};

// A group of rows being encoded on the pool, in the schema of `generation`.
struct EncodingGroup {
  PoolTask<Result<WriterGroup>> encoded;
  std::uint64_t generation = 0;
};

}  // namespace internal

struct NdWriter::Impl {
  table::TableLocation location;
  WriteOptions options;
  std::optional<table::Dataset> base;  // the latest version when the writer began
  bool replace = false;                // Overwrite commit (create / overwrite)
  internal::WriteSchema schema;
  internal::FragmentSink sink;

  // The table's types for the no-cast check, parsed once per schema (`checked` is its schema).
  std::optional<api::internal::RowCastCheck> cast_check;
  array::SchemaPtr checked;

  std::vector<nd::NdRecordBatch> open_group;
  std::uint64_t open_values = 0;
  std::deque<internal::EncodingGroup> encoding;  // closed groups, oldest first
  std::vector<internal::WriterGroup> buffered;
  std::uint64_t buffered_bytes = 0;
  std::uint64_t rows = 0;
  Status failed;
  bool done = false;

  Impl(internal::WriterStart start, const WriteOptions& o)
      : location(start.location),
        options(o),
        base(std::move(start.base)),
        replace(start.replace),
        schema(std::move(start.schema)),
        sink(std::move(start.location), std::move(start.table_options), o.write_parallelism) {}

  Status Usable() const;
  Status Fail(Status st);
  const api::internal::RowCastCheck& CastCheck();
  // Rows given to Write: whole groups of rows with the table's types are encoded without a
  // copy (borrowed until the call returns); other rows go one by one through WriteRow.
  Status WriteRows(std::span<const nd::NdRecordBatch> given);
  std::size_t BorrowableGroup(std::span<const nd::NdRecordBatch> given);
  Status CloseBorrowedGroup(std::span<const nd::NdRecordBatch> group);
  bool GroupFull(std::size_t group_rows, std::uint64_t group_values) const;
  Status WriteRow(const nd::NdRecordBatch& row);
  Status AddRow(nd::NdRecordBatch row);
  // Hands the open group to the pool for encoding.
  Status CloseGroup();
  // Buffers the oldest group being encoded, or every one.
  Status CollectEncoded();
  Status DrainEncoded();
  // Buffer an encoded group; write a fragment when the buffer reaches the target size.
  Status BufferGroup(internal::WriterGroup group);
  // Rows given in the nd encoding (nd_writer_encoded.cc).
  Status WriteEncoded(const array::RecordBatchPtr& batch);
  Status WriteEncodedAsGiven(const array::RecordBatchPtr& batch);
  Result<array::RecordBatchPtr> EncodeAgain(internal::WriterGroup& group) const;
  Status FlushFragment();
  Result<table::Dataset> CommitAll();
  Status Promote(const std::vector<api::internal::Widening>& widenings);
};

}  // namespace lance_nd
