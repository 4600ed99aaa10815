// NdWriter: rows cast to the table's types, encoded in groups, buffered, written as fragments in
// the background and committed once at Finish (write_commit.h).
#include "lance_nd/api/nd_writer.h"

#include "nd_writer_impl.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "lance_nd/api/casting.h"
#include "lance_nd/api/column_options.h"
#include "lance_nd/api/fragment_sink.h"
#include "lance_nd/api/stats.h"
#include "lance_nd/api/table_errors.h"
#include "lance_nd/api/write_commit.h"
#include "lance_nd/api/write_schema.h"
#include "lance_nd/api/writer_start.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/table/write.h"

namespace lance_nd {
namespace internal {

// Bytes held by an array's buffers (an estimate: shared buffers are counted whole).
std::uint64_t BufferBytes(const array::ArrayData& a) {
  std::uint64_t total = 0;
  for (const auto& b : a.buffers) total += b ? static_cast<std::uint64_t>(b->size()) : 0;
  for (const auto& c : a.children) total += c ? BufferBytes(*c) : 0;
  return total;
}

std::uint64_t BatchBytes(const array::RecordBatch& batch) {
  std::uint64_t total = 0;
  for (const auto& c : batch.columns()) total += BufferBytes(*c);
  return total;
}

}  // namespace internal

namespace {

using internal::BatchBytes;

std::uint64_t NumValues(const nd::NdRecordBatch& row) {
  std::uint64_t n = 0;
  for (const auto& c : row.columns()) n += static_cast<std::uint64_t>(c.num_elements());
  return n;
}

}  // namespace

Status NdWriter::Impl::Usable() const {
  if (!failed.ok()) {
    return Status::WriterFailed("an earlier write failed (", failed.ToString(),
                                "); this writer commits nothing: abort it and write again");
  }
  if (done) return Status::InvalidArgument("the writer is finished or aborted");
  return Status::OK();
}

Status NdWriter::Impl::Fail(Status st) {
  if (!st.ok() && failed.ok()) failed = st;
  return st;
}

const api::internal::RowCastCheck& NdWriter::Impl::CastCheck() {
  if (!cast_check || checked != schema.schema()) {
    cast_check.emplace(*schema.schema());
    checked = schema.schema();
  }
  return *cast_check;
}

Status NdWriter::Impl::WriteRow(const nd::NdRecordBatch& row) {
  // Most rows already have the table's types: no cast, no per-row schema work.
  if (CastCheck().Unchanged(row)) return AddRow(row);
  LND_ASSIGN_OR_RETURN(api::internal::CastOutcome cast,
                       api::internal::CastRowForTable(row, *schema.schema(), options.casting)
                           .WithContext("row ", rows));
  if (!cast.widenings.empty()) LND_RETURN_NOT_OK(Promote(cast.widenings));
  return AddRow(std::move(cast.row));
}

// `row` (cast) joins the open group.
Status NdWriter::Impl::AddRow(nd::NdRecordBatch row) {
  if (!schema.Covers(row)) {
    // New names extend the schema before the row joins a group, so that later rows are cast
    // against the types this row gives them.
    LND_RETURN_NOT_OK(CloseGroup());
    LND_RETURN_NOT_OK(schema.Extend(std::span(&row, 1)).WithContext("row ", rows));
  }
  if (open_group.empty()) {
    open_group.reserve(std::min<std::size_t>(options.max_rows_per_group, internal::kReservedRows));
  }
  open_values += NumValues(row);
  open_group.push_back(std::move(row));
  ++rows;
  if (GroupFull(open_group.size(), open_values)) return CloseGroup();
  return Status::OK();
}

namespace {

// Rows [first, first + rows.size()) of the writer encoded in `schema`, with their stats columns.
Result<internal::WriterGroup> EncodeGroup(std::span<const nd::NdRecordBatch> rows,
                                          const array::SchemaPtr& schema, std::uint64_t first) {
  auto encode = [&]() -> Result<internal::WriterGroup> {
    internal::WriterGroup group;
    LND_ASSIGN_OR_RETURN(group.source, nd::EncodeRowsAs(rows, *schema));
    LND_ASSIGN_OR_RETURN(group.batch, internal::WithStatsColumns(*group.source, rows, schema));
    group.bytes = BatchBytes(*group.batch);
    return group;
  };
  auto encoded = encode();
  if (!encoded.ok()) {
    return encoded.status().WithContext("encoding rows ", first, "..", first + rows.size());
  }
  return encoded;
}

}  // namespace

Status NdWriter::Impl::CloseGroup() {
  if (open_group.empty()) return Status::OK();
  while (encoding.size() >= internal::kGroupsEncodingAtOnce) {
    LND_RETURN_NOT_OK(CollectEncoded());
  }
  // The rows move into the task, which frees them once encoded.
  const std::uint64_t first = rows - open_group.size();
  auto encode = [group = std::move(open_group), schema = schema.schema(), first]() {
    return EncodeGroup(group, schema, first);
  };
  encoding.push_back(
      {PoolTask<Result<internal::WriterGroup>>(std::move(encode)), schema.generation()});
  open_group = {};
  open_values = 0;
  return Status::OK();
}

// A group is closed after the row that brings it to max_rows_per_group rows or
// max_values_per_group values (the same rule for copied and borrowed rows).
bool NdWriter::Impl::GroupFull(std::size_t group_rows, std::uint64_t group_values) const {
  return group_rows >= options.max_rows_per_group || group_values >= options.max_values_per_group;
}

// The number of rows at the start of `given` that make a whole group as they are (the table's
// types, no new names), or 0.
std::size_t NdWriter::Impl::BorrowableGroup(std::span<const nd::NdRecordBatch> given) {
  std::uint64_t values = 0;
  for (std::size_t n = 0; n < given.size(); ++n) {
    const nd::NdRecordBatch& row = given[n];
    if (!CastCheck().Unchanged(row) || !schema.Covers(row)) return 0;
    values += NumValues(row);
    if (GroupFull(n + 1, values)) return n + 1;
  }
  return 0;
}

// A whole group of the caller's rows, encoded on the pool without copying them: WriteRows
// collects it before it returns.
Status NdWriter::Impl::CloseBorrowedGroup(std::span<const nd::NdRecordBatch> group) {
  while (encoding.size() >= internal::kGroupsEncodingAtOnce) {
    LND_RETURN_NOT_OK(CollectEncoded());
  }
  const std::uint64_t first = rows;
  rows += group.size();
  auto encode = [group, schema = schema.schema(), first]() {
    return EncodeGroup(group, schema, first);
  };
  encoding.push_back(
      {PoolTask<Result<internal::WriterGroup>>(std::move(encode)), schema.generation()});
  return Status::OK();
}

Status NdWriter::Impl::WriteRows(std::span<const nd::NdRecordBatch> given) {
  Status st;
  bool borrowed = false;
  std::size_t i = 0;
  while (st.ok() && i < given.size()) {
    const std::size_t whole = open_group.empty() ? BorrowableGroup(given.subspan(i)) : 0;
    if (whole > 0) {
      st = CloseBorrowedGroup(given.subspan(i, whole));
      borrowed = true;
      i += whole;
    } else {
      st = WriteRow(given[i++]);
    }
  }
  if (!borrowed) return st;
  // The caller's rows may go away once this returns: their groups are encoded first (on an
  // error, groups not started are dropped and started ones waited for).
  const Status drained = DrainEncoded();
  if (!drained.ok()) encoding.clear();
  return st.ok() ? drained : st;
}

Status NdWriter::Impl::CollectEncoded() {
  internal::EncodingGroup oldest = std::move(encoding.front());
  encoding.pop_front();
  LND_ASSIGN_OR_RETURN(internal::WriterGroup group, oldest.encoded.Get());
  group.generation = oldest.generation;
  return BufferGroup(std::move(group));
}

Status NdWriter::Impl::DrainEncoded() {
  while (!encoding.empty()) LND_RETURN_NOT_OK(CollectEncoded());
  return Status::OK();
}

Status NdWriter::Impl::BufferGroup(internal::WriterGroup group) {
  buffered_bytes += group.bytes;
  buffered.push_back(std::move(group));
  const auto target = static_cast<double>(options.target_fragment_bytes);
  if (static_cast<double>(buffered_bytes) * sink.disk_ratio() < target) return Status::OK();
  LND_RETURN_NOT_OK(sink.LearnRatio());  // the first estimate is checked against a real one
  if (static_cast<double>(buffered_bytes) * sink.disk_ratio() < target) return Status::OK();
  return FlushFragment();
}

Status NdWriter::Impl::FlushFragment() {
  if (buffered.empty()) return Status::OK();
  std::vector<array::RecordBatchPtr> batches;
  std::uint64_t bytes = 0;
  for (internal::WriterGroup& g : buffered) {
    if (g.generation != schema.generation()) {  // the schema grew since: encode again
      LND_ASSIGN_OR_RETURN(g.batch, EncodeAgain(g));
      g.bytes = BatchBytes(*g.batch);
    }
    bytes += g.bytes;
    batches.push_back(std::move(g.batch));
  }
  buffered.clear();
  buffered_bytes = 0;
  return sink.Submit(schema.fields(), std::move(batches), bytes);
}

Result<table::Dataset> NdWriter::Impl::CommitAll() {
  LND_RETURN_NOT_OK(CloseGroup());
  LND_RETURN_NOT_OK(DrainEncoded());
  LND_RETURN_NOT_OK(FlushFragment());
  internal::WriteCommit c{location,
                          base,
                          replace,
                          replace && !base && options.mode == WriteMode::kCreate,
                          schema.fields(),
                          schema.schema()->metadata(),
                          !schema.unchanged(),
                          {}};
  LND_ASSIGN_OR_RETURN(c.fragments, sink.Finish());
  if (replace && rows == 0) {
    if (!base) {
      return Status::InvalidArgument(
          "no rows to write and no table at ", location.root(),
          ": a new table takes its schema from its rows, so write at least one row");
    }
    // Replacing a table's rows with none keeps its schema.
    c.fields = base->manifest().fields;
    c.schema_metadata = base->manifest().schema_metadata;
  }
  LND_ASSIGN_OR_RETURN(table::Dataset committed, internal::CommitWrite(c));
  sink.Forget();
  return committed;
}

// Under Casting::kPromote: commit what is buffered, widen the table, go on from the new version.
Status NdWriter::Impl::Promote(const std::vector<api::internal::Widening>& widenings) {
  if (!base && rows == 0) {
    return Status::Internal("a widening was asked for before the table has any variable");
  }
  LND_RETURN_NOT_OK(CloseGroup());
  std::optional<table::Dataset> committed;
  if (rows > 0 || !schema.unchanged()) {
    LND_ASSIGN_OR_RETURN(committed, CommitAll());
  } else {
    LND_ASSIGN_OR_RETURN(committed, table::Dataset::Open(location));
  }
  LND_ASSIGN_OR_RETURN(Table table, Table::Open(committed->location()));
  for (const auto& w : widenings) LND_RETURN_NOT_OK(table.Widen(w.variable, w.to));
  base = table.dataset();
  replace = false;
  const bool stats = HasStats(*base->schema());
  internal::ColumnRules rules{stats, {}, options.column_options};
  LND_ASSIGN_OR_RETURN(rules.defaults, internal::StoredColumnDefaults(base->schema()->metadata()));
  schema = internal::WriteSchema::ForTable(*base, std::move(rules));
  return Status::OK();
}

Result<NdWriter> NdWriter::Create(std::string_view uri, const WriteOptions& options) {
  return Create(ResolveLocation(uri, options.file_system), options);
}

Result<NdWriter> NdWriter::Create(const table::TableLocation& location,
                                  const WriteOptions& options) {
  LND_ASSIGN_OR_RETURN(internal::WriterStart start, internal::StartWrite(location, options));
  return NdWriter(std::make_unique<Impl>(std::move(start), options));
}

Result<NdWriter> NdWriter::Append(std::string_view uri, const WriteOptions& options) {
  return Append(ResolveLocation(uri, options.file_system), options);
}

Result<NdWriter> NdWriter::Append(const table::TableLocation& location,
                                  const WriteOptions& options) {
  LND_ASSIGN_OR_RETURN(internal::WriterStart start, internal::StartAppend(location, options));
  return NdWriter(std::make_unique<Impl>(std::move(start), options));
}

NdWriter::NdWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
NdWriter::NdWriter(NdWriter&&) noexcept = default;
NdWriter& NdWriter::operator=(NdWriter&&) noexcept = default;
NdWriter::~NdWriter() {
  if (impl_ && !impl_->done) (void)Abort();
}

Status NdWriter::Write(const nd::NdRecordBatch& row) { return Write(std::span(&row, 1)); }

Status NdWriter::WriteEncoded(const array::RecordBatchPtr& batch) {
  LND_RETURN_NOT_OK(impl_->Usable());
  return impl_->Fail(impl_->WriteEncoded(batch));
}

Status NdWriter::Write(std::span<const nd::NdRecordBatch> rows) {
  LND_RETURN_NOT_OK(impl_->Usable());
  return impl_->Fail(impl_->WriteRows(rows));
}

Result<Table> NdWriter::Finish() {
  LND_RETURN_NOT_OK(impl_->Usable());
  auto committed = impl_->CommitAll();
  if (!committed.ok()) {
    (void)impl_->Fail(committed.status());
    (void)Abort();
    return committed.status();
  }
  impl_->done = true;
  return Table(std::move(*committed), true);
}

Status NdWriter::Abort() {
  if (impl_->done) return Status::OK();
  impl_->done = true;
  impl_->encoding.clear();  // groups not started are dropped, started ones waited for
  impl_->sink.RemoveFiles();
  return Status::OK();
}

std::uint64_t NdWriter::rows_written() const { return impl_->rows; }

}  // namespace lance_nd
