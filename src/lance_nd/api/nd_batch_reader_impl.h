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
    bool decode_ahead = false;  // Scanner::DecodeAhead
  };

  /// \brief A reader of every row (no conditions) or of the rows `conditions` select.
  static Result<std::unique_ptr<Impl>> Make(const table::Dataset& ds, Options options,
                                            api_internal::RowConditions conditions);

  Result<std::optional<nd::NdRecordBatch>> Next();

 private:
  Impl(table::Dataset ds, Options options) : ds_(std::move(ds)), options_(std::move(options)) {}

  /// \brief One table batch of a plain scan, decoded; `more` is false at the end.
  struct Decoded {
    std::vector<nd::NdRecordBatch> rows;
    bool more = false;
  };
  /// \brief The next table batch of a plain scan (read ahead, or read now), every row decoded;
  /// the batch after it is read ahead meanwhile. Uses only scan_, raw_ahead_, decoder_ and
  /// options_, so it may run on the worker pool while the caller consumes the rows before it.
  Result<Decoded> ReadAndDecode();
  /// \brief Queue the next decoded batch of a plain scan in `ready_`; false at the end. With
  /// `decode_ahead`, the batch after it is decoded on the worker pool meanwhile.
  Result<bool> DecodeNextScanned();
  /// \brief Decode the next selected rows into `ready_`; false at the end. A fragment where
  /// many rows pass is read whole (sequential reads are far cheaper than taking most rows one
  /// by one); from one where few pass, the rows are taken by index in one take. Either way
  /// the fragment's selected rows (up to the limit) are decoded at once.
  Result<bool> DecodeNextSelected();
  /// \brief Take `rows` (logical, table-wide) of `fragment` (first logical row `start`), up to
  /// the remaining limit, in one take, and decode them into `ready_`.
  Status TakeAndDecode(const table::Fragment& fragment, std::uint64_t start,
                       std::vector<std::uint64_t> rows);
  /// \brief The selected logical rows of fragment `frag_` (advancing the selector).
  Result<std::vector<std::uint64_t>> SelectedRowsOfFragment(std::uint64_t end);
  /// \brief Decode `rows` of `batch` (all rows when empty and `all`), up to the remaining
  /// limit, into `ready_`.
  Status DecodeInto(const array::RecordBatch& batch, const std::vector<std::int64_t>& rows,
                    bool all);
  /// \brief The first `n` of `rows` of `batch` (of all rows when `all`), decoded.
  Result<std::vector<nd::NdRecordBatch>> DecodeRows(const array::RecordBatch& batch,
                                                    const std::vector<std::int64_t>& rows, bool all,
                                                    std::uint64_t n) const;
  /// \brief Append `rows` to `ready_`, up to the remaining limit.
  void Queue(std::vector<nd::NdRecordBatch> rows);
  table::TableScanOptions OutputScanOptions() const;

  table::Dataset ds_;
  Options options_;
  std::optional<table::TableBatchReader> scan_;
  std::optional<api_internal::RowSelector> selector_;
  std::optional<nd::RowDecoder> decoder_;
  std::size_t frag_ = 0;                 // next fragment of a filtered scan
  std::uint64_t frag_start_ = 0;         // its first logical row
  std::vector<std::uint64_t> selected_;  // selected rows read ahead of frag_
  std::deque<nd::NdRecordBatch> ready_;
  std::uint64_t returned_ = 0;  // rows given out or queued
  bool done_ = false;
  // Last members, destroyed first: each waits for work in flight that uses the members before
  // it (the decode ahead uses raw_ahead_, both use scan_).
  std::optional<PoolTask<Result<array::RecordBatchPtr>>> raw_ahead_;
  std::optional<PoolTask<Result<Decoded>>> decode_ahead_;
};

}  // namespace lance_nd
