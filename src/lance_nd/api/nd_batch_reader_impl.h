// The state behind NdBatchReader: where table rows come from (a plain scan, or the rows a
// filter selects, taken by random access), and their decoding into nd record batches, many
// rows at once on the worker pool.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "lance_nd/api/row_selector.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/core/internal/thread_pool.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/table/scan.h"

namespace lance_nd {

struct NdBatchReader::Impl {
  struct Options {
    std::vector<std::string> output_columns;  // empty: no columns (rows of globals only)
    std::int64_t batch_rows = 256;
    int decode_threads = 1;
    std::optional<std::uint64_t> limit;
  };

  /// \brief A reader of every row (no conditions) or of the rows `conditions` select.
  static Result<std::unique_ptr<Impl>> Make(const table::Dataset& ds, Options options,
                                            api_internal::RowConditions conditions);

  Result<std::optional<nd::NdRecordBatch>> Next();

 private:
  Impl(table::Dataset ds, Options options) : ds_(std::move(ds)), options_(std::move(options)) {}

  /// \brief The next table batch of output rows (nullptr at the end).
  Result<array::RecordBatchPtr> NextTableBatch();
  /// \brief The next batch of the plain scan; the one after it is read ahead on the worker
  /// pool while this one is decoded and consumed.
  Result<array::RecordBatchPtr> NextScannedBatch();
  /// \brief The next rows taken by the selector's indices (nullptr at the end).
  Result<array::RecordBatchPtr> NextSelectedBatch();
  /// \brief Decode up to the remaining limit of `batch`'s rows into `ready_`.
  Status DecodeInto(const array::RecordBatch& batch);
  table::TableScanOptions OutputScanOptions() const;

  table::Dataset ds_;
  Options options_;
  std::optional<table::TableBatchReader> scan_;
  std::optional<api_internal::RowSelector> selector_;
  std::optional<nd::RowDecoder> decoder_;
  std::deque<nd::NdRecordBatch> ready_;
  std::uint64_t returned_ = 0;  // rows given out or queued
  bool done_ = false;
  // Last member: destroyed first, it waits for a read in flight that uses scan_.
  std::optional<PoolTask<Result<array::RecordBatchPtr>>> read_ahead_;
};

}  // namespace lance_nd
