// FragmentSink: fragments written in the background, collected in order.
#include "lance_nd/api/fragment_sink.h"

#include <algorithm>
#include <utility>

namespace lance_nd::internal {

FragmentSink::FragmentSink(table::TableLocation location, table::WriteOptions options,
                           std::size_t parallelism)
    : location_(std::move(location)),
      options_(std::move(options)),
      parallelism_(std::max<std::size_t>(parallelism, 1)) {
  options_.files_in_flight = 0;  // each fragment is finished inside its own pool task
}

FragmentSink::~FragmentSink() {
  while (!in_flight_.empty()) {
    (void)in_flight_.front().task.Get();
    in_flight_.pop_front();
  }
}

Status FragmentSink::Submit(std::vector<table::LanceField> fields,
                            std::vector<array::RecordBatchPtr> batches, std::uint64_t arrow_bytes) {
  while (in_flight_.size() >= parallelism_) LND_RETURN_NOT_OK(CollectOldest());
  auto write = [location = location_, options = options_, fields = std::move(fields),
                batches = std::move(batches)]() {
    return table::WriteFragments(location, fields, batches, options);
  };
  in_flight_.push_back(
      Pending{PoolTask<Result<std::vector<table::Fragment>>>(std::move(write)), arrow_bytes});
  return Status::OK();
}

Status FragmentSink::CollectOldest() {
  Pending p = std::move(in_flight_.front());
  in_flight_.pop_front();
  LND_ASSIGN_OR_RETURN(std::vector<table::Fragment> written, p.task.Get());
  for (table::Fragment& f : written) {
    for (const table::DataFile& file : f.files) disk_bytes_ += file.file_size_bytes;
    fragments_.push_back(std::move(f));
  }
  arrow_bytes_ += p.arrow_bytes;
  return Status::OK();
}

Status FragmentSink::LearnRatio() {
  if (arrow_bytes_ == 0 && !in_flight_.empty()) return CollectOldest();
  return Status::OK();
}

Result<std::vector<table::Fragment>> FragmentSink::Finish() {
  Status first;
  while (!in_flight_.empty()) {
    const Status st = CollectOldest();
    if (first.ok()) first = st;
  }
  LND_RETURN_NOT_OK(first);
  return fragments_;
}

void FragmentSink::RemoveFiles() {
  while (!in_flight_.empty()) (void)CollectOldest();
  for (const table::Fragment& f : fragments_) {
    for (const table::DataFile& file : f.files) {
      (void)location_.fs().Delete(location_.Path(table::kDataDir, file.path));
    }
  }
  fragments_.clear();
}

double FragmentSink::disk_ratio() const {
  if (arrow_bytes_ == 0 || disk_bytes_ == 0) return 1.0;
  return static_cast<double>(disk_bytes_) / static_cast<double>(arrow_bytes_);
}

}  // namespace lance_nd::internal
