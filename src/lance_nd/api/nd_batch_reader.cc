// NdBatchReader: table rows in, nd record batches out, one per row, in table order.
#include <algorithm>
#include <utility>

#include "lance_nd/api/nd_batch_reader_impl.h"
#include "lance_nd/api/scan_columns.h"
#include "lance_nd/core/internal/thread_pool.h"

namespace lance_nd {

Result<std::unique_ptr<NdBatchReader::Impl>> NdBatchReader::Impl::Make(
    const table::Dataset& ds, Options options, api_internal::RowConditions conditions) {
  std::unique_ptr<Impl> impl(new Impl(ds, std::move(options)));
  const table::TableScanOptions scan_options = impl->OutputScanOptions();
  LND_ASSIGN_OR_RETURN(array::SchemaPtr schema, table::ScanSchema(ds, scan_options));
  LND_ASSIGN_OR_RETURN(auto decoder, nd::RowDecoder::Make(api_internal::WithoutRowAddress(schema)));
  impl->decoder_.emplace(std::move(decoder));
  if (conditions.empty()) {
    LND_ASSIGN_OR_RETURN(auto reader, table::ScanTable(ds, scan_options));
    impl->scan_.emplace(std::move(reader));
  } else {
    // The first pass reads only the filter's (small) columns: larger batches cost little.
    LND_ASSIGN_OR_RETURN(
        auto selector,
        api_internal::RowSelector::Open(ds, std::move(conditions),
                                        std::max<std::int64_t>(impl->options_.batch_rows, 4096)));
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

Result<NdBatchReader::Impl::Decoded> NdBatchReader::Impl::ReadAndDecode() {
  Result<array::RecordBatchPtr> batch = raw_ahead_ ? raw_ahead_->Get() : scan_->Next();
  raw_ahead_.reset();
  LND_RETURN_NOT_OK(batch.status());
  Decoded out;
  if (*batch == nullptr) return out;
  out.more = true;
  // The batch after it is read while this one is decoded, when more rows are wanted.
  const auto batch_rows = static_cast<std::uint64_t>((*batch)->num_rows());
  if (!options_.limit || *options_.limit > returned_ + batch_rows) {
    raw_ahead_.emplace([this] { return scan_->Next(); });
  }
  LND_ASSIGN_OR_RETURN(out.rows,
                       DecodeRows(*api_internal::WithoutRowAddress(*batch), {}, true, batch_rows));
  return out;
}

Result<bool> NdBatchReader::Impl::DecodeNextScanned() {
  if (!options_.decode_ahead) {
    // Decoded here, on the pool with this thread; the next batch is read meanwhile.
    LND_ASSIGN_OR_RETURN(Decoded next, ReadAndDecode());
    if (!next.more) return false;
    Queue(std::move(next.rows));
    return true;
  }
  Result<Decoded> next = decode_ahead_ ? decode_ahead_->Get() : ReadAndDecode();
  decode_ahead_.reset();
  LND_RETURN_NOT_OK(next.status());
  if (!next->more) return false;
  // The next batch is decoded on the worker pool while these rows are consumed (and the one
  // after it read meanwhile), but only when more rows are wanted than these.
  const bool more_wanted = !options_.limit || *options_.limit > returned_ + next->rows.size();
  Queue(std::move(next->rows));
  if (more_wanted) decode_ahead_.emplace([this] { return ReadAndDecode(); });
  return true;
}

Result<std::vector<std::uint64_t>> NdBatchReader::Impl::SelectedRowsOfFragment(std::uint64_t end) {
  // Selector batches never span fragments, so reading up to `end` stops at its boundary.
  while (selector_->rows_seen() < end) {
    LND_ASSIGN_OR_RETURN(auto more, selector_->Next());
    if (!more) break;
    selected_.insert(selected_.end(), more->begin(), more->end());
  }
  const auto split = std::lower_bound(selected_.begin(), selected_.end(), end);
  std::vector<std::uint64_t> out(selected_.begin(), split);
  selected_.erase(selected_.begin(), split);
  return out;
}

Result<bool> NdBatchReader::Impl::DecodeNextSelected() {
  const auto& fragments = ds_.fragments();
  while (frag_ < fragments.size()) {
    const table::Fragment& fragment = fragments[frag_++];
    const std::uint64_t start = frag_start_;
    frag_start_ += fragment.num_rows();
    LND_ASSIGN_OR_RETURN(std::vector<std::uint64_t> rows, SelectedRowsOfFragment(frag_start_));
    if (rows.empty()) continue;
    if (rows.size() * 4 >= fragment.num_rows()) {
      LND_ASSIGN_OR_RETURN(auto batch, table::ReadFragment(ds_, fragment, OutputScanOptions()));
      std::vector<std::int64_t> local;
      local.reserve(rows.size());
      for (std::uint64_t r : rows) local.push_back(static_cast<std::int64_t>(r - start));
      LND_RETURN_NOT_OK(DecodeInto(*api_internal::WithoutRowAddress(batch), local, /*all=*/false));
      return true;
    }
    LND_RETURN_NOT_OK(TakeAndDecode(fragment, start, std::move(rows)));
    return true;
  }
  return false;
}

Status NdBatchReader::Impl::TakeAndDecode(const table::Fragment& fragment, std::uint64_t start,
                                          std::vector<std::uint64_t> rows) {
  if (options_.limit) rows.resize(std::min<std::size_t>(rows.size(), *options_.limit - returned_));
  for (std::uint64_t& r : rows) r -= start;
  // One take of all the rows: each page is read once, and where the rows are spread over most
  // of a page it is decoded whole once instead of in parts per batch.
  LND_ASSIGN_OR_RETURN(auto taker, table::FragmentTaker::Open(ds_, fragment, OutputScanOptions()));
  LND_ASSIGN_OR_RETURN(auto batch, taker.Take(rows));
  return DecodeInto(*api_internal::WithoutRowAddress(batch), {}, /*all=*/true);
}

Result<std::vector<nd::NdRecordBatch>> NdBatchReader::Impl::DecodeRows(
    const array::RecordBatch& batch, const std::vector<std::int64_t>& rows, bool all,
    std::uint64_t n) const {
  if (n > 0) LND_RETURN_NOT_OK(decoder_->CheckBatch(batch));  // once, not per row
  std::vector<std::optional<nd::NdRecordBatch>> decoded(n);
  std::vector<Status> errors(n);
  const int threads = std::max(1, options_.decode_threads);
  const std::uint64_t grain =
      std::max<std::uint64_t>(1, n / (4 * static_cast<std::uint64_t>(threads)));
  ParallelRanges(n, grain, threads, [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t i = begin; i < end; ++i) {
      const std::int64_t row = all ? static_cast<std::int64_t>(i) : rows[i];
      auto one = decoder_->DecodeCheckedRow(batch, row);
      if (one.ok()) {
        decoded[i].emplace(std::move(*one));
      } else {
        errors[i] = one.status();
      }
    }
  });
  std::vector<nd::NdRecordBatch> out;
  out.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    LND_RETURN_NOT_OK(errors[i]);
    out.push_back(std::move(*decoded[i]));
  }
  return out;
}

void NdBatchReader::Impl::Queue(std::vector<nd::NdRecordBatch> rows) {
  std::uint64_t n = rows.size();
  if (options_.limit) n = std::min(n, *options_.limit - returned_);
  for (std::uint64_t i = 0; i < n; ++i) ready_.push_back(std::move(rows[i]));
  returned_ += n;
}

Status NdBatchReader::Impl::DecodeInto(const array::RecordBatch& batch,
                                       const std::vector<std::int64_t>& rows, bool all) {
  std::uint64_t n = all ? static_cast<std::uint64_t>(batch.num_rows()) : rows.size();
  if (options_.limit) n = std::min(n, *options_.limit - returned_);
  LND_ASSIGN_OR_RETURN(std::vector<nd::NdRecordBatch> decoded, DecodeRows(batch, rows, all, n));
  Queue(std::move(decoded));
  return Status::OK();
}

Result<std::optional<nd::NdRecordBatch>> NdBatchReader::Impl::Next() {
  while (ready_.empty() && !done_) {
    if (options_.limit && returned_ >= *options_.limit) {
      done_ = true;
      break;
    }
    LND_ASSIGN_OR_RETURN(bool more, scan_ ? DecodeNextScanned() : DecodeNextSelected());
    if (!more) done_ = true;
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
