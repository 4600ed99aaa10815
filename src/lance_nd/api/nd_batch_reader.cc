// NdBatchReader: table rows in, nd record batches out, one per row, in table order.
#include <algorithm>
#include <utility>

#include "lance_nd/api/nd_batch_reader_impl.h"
#include "lance_nd/core/internal/thread_pool.h"

namespace lance_nd {
namespace {

/// The batch without the "_rowaddr" column that keeps an empty projection from meaning "every
/// column".
array::SchemaPtr WithoutRowAddress(const array::SchemaPtr& schema) {
  const int index = schema->FieldIndex(table::kRowAddressColumn);
  if (index < 0) return schema;
  std::vector<array::FieldPtr> fields = schema->fields();
  fields.erase(fields.begin() + index);
  return array::MakeSchema(std::move(fields), schema->metadata());
}

array::RecordBatchPtr WithoutRowAddress(const array::RecordBatchPtr& batch) {
  const int index = batch->schema()->FieldIndex(table::kRowAddressColumn);
  if (index < 0) return batch;
  std::vector<array::ArrayPtr> columns = batch->columns();
  columns.erase(columns.begin() + index);
  return std::make_shared<const array::RecordBatch>(WithoutRowAddress(batch->schema()),
                                                    batch->num_rows(), std::move(columns));
}

}  // namespace

Result<std::unique_ptr<NdBatchReader::Impl>> NdBatchReader::Impl::Make(
    const table::Dataset& ds, Options options, api_internal::RowConditions conditions) {
  std::unique_ptr<Impl> impl(new Impl(ds, std::move(options)));
  const table::TableScanOptions scan_options = impl->OutputScanOptions();
  LND_ASSIGN_OR_RETURN(array::SchemaPtr schema, table::ScanSchema(ds, scan_options));
  LND_ASSIGN_OR_RETURN(auto decoder, nd::RowDecoder::Make(WithoutRowAddress(schema)));
  impl->decoder_.emplace(std::move(decoder));
  if (conditions.empty()) {
    LND_ASSIGN_OR_RETURN(auto reader, table::ScanTable(ds, scan_options));
    impl->scan_.emplace(std::move(reader));
  } else {
    LND_ASSIGN_OR_RETURN(auto selector, api_internal::RowSelector::Open(ds, std::move(conditions),
                                                                        impl->options_.batch_rows));
    impl->selector_.emplace(std::move(selector));
  }
  return impl;
}

table::TableScanOptions NdBatchReader::Impl::OutputScanOptions() const {
  table::TableScanOptions o;
  o.projection = options_.output_columns;
  if (o.projection.empty()) o.projection.emplace_back(table::kRowAddressColumn);
  o.batch_rows = options_.batch_rows;
  if (options_.limit) {
    o.batch_rows = static_cast<std::int64_t>(
        std::clamp<std::uint64_t>(*options_.limit, 1, static_cast<std::uint64_t>(o.batch_rows)));
  }
  return o;
}

Result<array::RecordBatchPtr> NdBatchReader::Impl::NextTableBatch() {
  if (scan_) return NextScannedBatch();
  return NextSelectedBatch();
}

Result<array::RecordBatchPtr> NdBatchReader::Impl::NextScannedBatch() {
  Result<array::RecordBatchPtr> batch = read_ahead_ ? read_ahead_->Get() : scan_->Next();
  read_ahead_.reset();
  // Read ahead only when more rows are wanted than this batch can hold.
  const bool more_wanted =
      !options_.limit ||
      *options_.limit > returned_ + static_cast<std::uint64_t>(options_.batch_rows);
  if (batch.ok() && *batch != nullptr && more_wanted) {
    read_ahead_.emplace([this] { return scan_->Next(); });
  }
  return batch;
}

Result<array::RecordBatchPtr> NdBatchReader::Impl::NextSelectedBatch() {
  // Gather at least batch_rows selected rows (or all that are left) for one TakeRows call.
  std::vector<std::uint64_t> rows;
  const std::uint64_t want =
      std::min<std::uint64_t>(static_cast<std::uint64_t>(options_.batch_rows),
                              options_.limit ? *options_.limit - returned_ : UINT64_MAX);
  while (rows.size() < want) {
    LND_ASSIGN_OR_RETURN(auto more, selector_->Next());
    if (!more) break;
    rows.insert(rows.end(), more->begin(), more->end());
  }
  if (rows.empty()) return array::RecordBatchPtr();
  return table::TakeRows(ds_, rows, OutputScanOptions());
}

Status NdBatchReader::Impl::DecodeInto(const array::RecordBatch& batch) {
  std::uint64_t n = static_cast<std::uint64_t>(batch.num_rows());
  if (options_.limit) n = std::min(n, *options_.limit - returned_);
  std::vector<std::optional<nd::NdRecordBatch>> rows(n);
  std::vector<Status> errors(n);
  const int threads = std::max(1, options_.decode_threads);
  const std::uint64_t grain =
      std::max<std::uint64_t>(1, n / (4 * static_cast<std::uint64_t>(threads)));
  ParallelRanges(n, grain, threads, [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t r = begin; r < end; ++r) {
      auto row = decoder_->DecodeRow(batch, static_cast<std::int64_t>(r));
      if (row.ok()) {
        rows[r].emplace(std::move(*row));
      } else {
        errors[r] = row.status();
      }
    }
  });
  for (std::uint64_t r = 0; r < n; ++r) {
    LND_RETURN_NOT_OK(errors[r]);
    ready_.push_back(std::move(*rows[r]));
  }
  returned_ += n;
  return Status::OK();
}

Result<std::optional<nd::NdRecordBatch>> NdBatchReader::Impl::Next() {
  while (ready_.empty() && !done_) {
    if (options_.limit && returned_ >= *options_.limit) {
      done_ = true;
      break;
    }
    LND_ASSIGN_OR_RETURN(array::RecordBatchPtr batch, NextTableBatch());
    if (!batch) {
      done_ = true;
      break;
    }
    LND_RETURN_NOT_OK(DecodeInto(*WithoutRowAddress(batch)));
  }
  if (ready_.empty()) return std::optional<nd::NdRecordBatch>();
  std::optional<nd::NdRecordBatch> out(std::move(ready_.front()));
  ready_.pop_front();
  return out;
}

NdBatchReader::NdBatchReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
NdBatchReader::NdBatchReader(NdBatchReader&&) noexcept = default;
NdBatchReader& NdBatchReader::operator=(NdBatchReader&&) noexcept = default;
NdBatchReader::~NdBatchReader() = default;

Result<std::optional<nd::NdRecordBatch>> NdBatchReader::Next() {
  if (!impl_) return Status::InvalidArgument("NdBatchReader: the reader was moved from");
  return impl_->Next();
}

}  // namespace lance_nd
