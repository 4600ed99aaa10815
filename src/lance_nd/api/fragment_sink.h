// The background side of NdWriter: encoded row groups written as uncommitted fragments on the
// worker pool, a bounded number at a time, collected in submission order (so the commit keeps
// the row order). Tracks the ratio of bytes on disk to encoded Arrow bytes, which the writer
// uses to decide when buffered rows make a fragment of the target size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/core/internal/thread_pool.h"
#include "lance_nd/core/result.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/manifest.h"
#include "lance_nd/table/write.h"

namespace lance_nd::internal {

class FragmentSink {
 public:
  FragmentSink(table::TableLocation location, table::WriteOptions options, std::size_t parallelism);
  /// \brief Waits for the writes in flight (their files stay: RemoveFiles deletes them).
  ~FragmentSink();
  FragmentSink(const FragmentSink&) = delete;
  FragmentSink& operator=(const FragmentSink&) = delete;

  /// \brief Start writing `batches` (all with the schema of `fields`) as one fragment; first
  /// waits for the oldest write when `parallelism` are in flight. Returns the error of a
  /// finished write, if any.
  Status Submit(std::vector<table::LanceField> fields, std::vector<array::RecordBatchPtr> batches,
                std::uint64_t arrow_bytes);
  /// \brief Wait for every write; the fragments in submission order (still owned by the sink:
  /// RemoveFiles deletes them until Forget is called).
  Result<std::vector<table::Fragment>> Finish();
  /// \brief The fragments were committed: RemoveFiles no longer touches them.
  void Forget() { fragments_.clear(); }
  /// \brief Wait for every write, then delete every data file written (best effort).
  void RemoveFiles();

  /// \brief While no fragment is finished but one is in flight, wait for it: its size on disk
  /// gives the first real disk ratio.
  Status LearnRatio();
  /// \brief Bytes on disk per encoded Arrow byte in the fragments finished so far (1 before
  /// the first).
  double disk_ratio() const;

 private:
  struct Pending {
    PoolTask<Result<std::vector<table::Fragment>>> task;
    std::uint64_t arrow_bytes = 0;
  };
  Status CollectOldest();

  table::TableLocation location_;
  table::WriteOptions options_;
  std::size_t parallelism_;
  std::deque<Pending> in_flight_;
  std::vector<table::Fragment> fragments_;
  std::uint64_t disk_bytes_ = 0;
  std::uint64_t arrow_bytes_ = 0;
};

}  // namespace lance_nd::internal
