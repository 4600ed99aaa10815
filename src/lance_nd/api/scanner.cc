// Scanner: the builder of a lance-nd scan and its terminal operations.
#include "lance_nd/api/scanner.h"

#include <algorithm>

#include "lance_nd/api/nd_batch_reader_impl.h"
#include "lance_nd/api/row_selector.h"
#include "lance_nd/api/scan_columns.h"
#include "lance_nd/api/table.h"
#include "lance_nd/core/internal/thread_pool.h"

namespace lance_nd {

Scanner::Scanner(table::Dataset dataset) : dataset_(std::move(dataset)) {}

Scanner& Scanner::Project(std::vector<std::string> variables) {
  projection_ = std::move(variables);
  return *this;
}
Scanner& Scanner::Filter(std::string sql) {
  filter_ = std::move(sql);
  return *this;
}
Scanner& Scanner::Prune(std::string sql) {
  prune_ = std::move(sql);
  return *this;
}
Scanner& Scanner::Limit(std::uint64_t rows) {
  limit_ = rows;
  return *this;
}
Scanner& Scanner::BatchRows(std::int64_t rows) {
  batch_rows_ = rows;
  return *this;
}
Scanner& Scanner::DecodeParallelism(int threads) {
  decode_parallelism_ = threads;
  return *this;
}
Scanner& Scanner::DecodeAhead(bool ahead) {
  decode_ahead_ = ahead;
  return *this;
}

Result<NdBatchReader> Scanner::Open() const {
  if (batch_rows_ < 1) {
    return Status::InvalidArgument("scan: BatchRows must be at least 1 (got ", batch_rows_, ")");
  }
  if (decode_parallelism_ < 0) {
    return Status::InvalidArgument(
        "scan: DecodeParallelism must be 0 (the worker pool's size) "
        "or more (got ",
        decode_parallelism_, ")");
  }
  const array::Schema& schema = *dataset_.schema();
  NdBatchReader::Impl::Options options;
  LND_ASSIGN_OR_RETURN(options.output_columns, api_internal::OutputColumns(schema, projection_));
  options.batch_rows = batch_rows_;
  options.decode_threads =
      decode_parallelism_ > 0 ? decode_parallelism_ : static_cast<int>(ThreadPool::Shared().size());
  options.limit = limit_;
  options.decode_ahead = decode_ahead_;
  LND_ASSIGN_OR_RETURN(api_internal::RowConditions conditions,
                       api_internal::MakeRowConditions(schema, filter_, prune_));
  LND_ASSIGN_OR_RETURN(
      auto impl, NdBatchReader::Impl::Make(dataset_, std::move(options), std::move(conditions)));
  return NdBatchReader(std::move(impl));
}

Result<std::vector<nd::NdRecordBatch>> Scanner::ReadAll() const {
  // Every row is kept, so larger batches cost no memory that the result does not hold anyway,
  // and they split fewer pages: a page shared by two batches is decoded whole for the first
  // and its rows copied for the second, and the first batch's buffer keeps the whole page.
  // Measured on a grid table (pages of 125 rows): median time -33%, peak memory -35%.
  constexpr std::int64_t kReadAllBatchRows = 1024;
  Scanner whole = *this;
  if (batch_rows_ >= 1) whole.batch_rows_ = std::max(batch_rows_, kReadAllBatchRows);
  LND_ASSIGN_OR_RETURN(NdBatchReader reader, whole.Open());
  std::vector<nd::NdRecordBatch> rows;
  while (true) {
    LND_ASSIGN_OR_RETURN(std::optional<nd::NdRecordBatch> row, reader.Next());
    if (!row) return rows;
    rows.push_back(std::move(*row));
  }
}

Result<std::uint64_t> Scanner::CountRows() const {
  const std::uint64_t limit = limit_.value_or(UINT64_MAX);
  if (projection_) {
    // The projection does not change the count, but a bad one is still an error.
    LND_RETURN_NOT_OK(api_internal::OutputColumns(*dataset_.schema(), projection_).status());
  }
  LND_ASSIGN_OR_RETURN(api_internal::RowConditions conditions,
                       api_internal::MakeRowConditions(*dataset_.schema(), filter_, prune_));
  if (conditions.empty()) return std::min(dataset_.CountRows(), limit);
  LND_ASSIGN_OR_RETURN(auto selector,
                       api_internal::RowSelector::Open(dataset_, std::move(conditions),
                                                       std::max<std::int64_t>(batch_rows_, 4096)));
  std::uint64_t count = 0;
  while (count < limit) {
    LND_ASSIGN_OR_RETURN(auto rows, selector.Next());
    if (!rows) break;
    count += rows->size();
  }
  return std::min(count, limit);
}

Scanner Table::Scan() const { return Scanner(dataset_); }

}  // namespace lance_nd
