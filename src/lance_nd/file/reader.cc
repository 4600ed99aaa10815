// FileReader, the public facade: opening (reader_state.h), the layout and description
// (describe.h), row selections checked and handed to one read (batch_read.h).
#include "lance_nd/file/reader.h"

#include <algorithm>

#include "lance_nd/file/batch_read.h"
#include "lance_nd/file/describe.h"
#include "lance_nd/file/page_cache.h"
#include "lance_nd/file/projected_fields.h"
#include "lance_nd/file/read_plan.h"
#include "lance_nd/file/reader_state.h"

namespace lance_nd::file {

struct FileReader::Impl {
  std::shared_ptr<const internal::ReaderState> state;
  std::shared_ptr<const FileLayout> layout;
  mutable internal::PageCache cache;

  Result<array::RecordBatchPtr> Read(const internal::Runs& runs, const Projection& projection,
                                     bool take) const {
    LND_ASSIGN_OR_RETURN(auto proj, internal::ResolveProjection(*state, projection));
    return internal::ReadBatch(*state, cache, runs, proj, take);
  }
};

Result<FileReader> FileReader::Open(std::shared_ptr<io::RandomAccessFile> file,
                                    ReaderOptions options) {
  if (!file) return Status::InvalidArgument("FileReader::Open: file is null");
  auto impl = std::make_shared<Impl>();
  LND_ASSIGN_OR_RETURN(impl->state, internal::ReaderState::Open(std::move(file), options));
  impl->layout = std::make_shared<const FileLayout>(internal::MakeLayout(*impl->state));
  return FileReader(std::move(impl));
}

FileReader FileReader::Share() const {
  auto impl = std::make_shared<Impl>();
  impl->state = impl_->state;
  impl->layout = impl_->layout;
  return FileReader(std::move(impl));
}

const array::SchemaPtr& FileReader::schema() const { return impl_->state->tree.schema; }
std::int64_t FileReader::num_rows() const {
  return static_cast<std::int64_t>(impl_->state->container.descriptor.length());
}
FileVersion FileReader::version() const { return impl_->layout->version; }
const FileLayout& FileReader::layout() const { return *impl_->layout; }
FileDescription FileReader::Describe() const { return internal::DescribeFile(*impl_->state); }

Result<array::SchemaPtr> FileReader::ProjectedSchema(const Projection& projection) const {
  LND_ASSIGN_OR_RETURN(auto proj, internal::ResolveProjection(*impl_->state, projection));
  std::vector<array::FieldPtr> fields;
  for (const auto& pn : proj) fields.push_back(internal::ProjectedField(pn));
  return array::MakeSchema(std::move(fields), impl_->state->tree.schema->metadata());
}

Result<array::RecordBatchPtr> FileReader::ReadAll(const Projection& projection) const {
  return ReadRange(0, num_rows(), projection);
}

Result<array::RecordBatchPtr> FileReader::ReadRange(std::int64_t offset, std::int64_t length,
                                                    const Projection& projection) const {
  if (offset < 0 || length < 0 || offset > num_rows() || length > num_rows() - offset) {
    return Status::InvalidArgument("row range [", offset, ", ", offset + length,
                                   ") is outside the file's ", num_rows(), " rows");
  }
  internal::Runs runs;
  if (length > 0) {
    runs.emplace_back(static_cast<std::uint64_t>(offset),
                      static_cast<std::uint64_t>(offset + length));
  }
  return impl_->Read(runs, projection, /*take=*/false);
}

Result<array::RecordBatchPtr> FileReader::Take(std::span<const std::uint64_t> indices,
                                               const Projection& projection) const {
  internal::Runs runs;
  for (std::uint64_t i : indices) {
    if (i >= static_cast<std::uint64_t>(num_rows())) {
      return Status::InvalidArgument("row index ", i, " is out of range; the file has ", num_rows(),
                                     " rows");
    }
    if (!runs.empty() && runs.back().second == i) {
      runs.back().second = i + 1;
    } else {
      runs.emplace_back(i, i + 1);
    }
  }
  return impl_->Read(runs, projection, /*take=*/true);
}

Result<BatchReader> FileReader::Scan(const Projection& projection, ScanOptions options) const {
  LND_ASSIGN_OR_RETURN(auto schema, ProjectedSchema(projection));
  LND_ASSIGN_OR_RETURN(auto proj, internal::ResolveProjection(*impl_->state, projection));
  std::vector<int> leaves;
  for (const auto& pn : proj) internal::CollectLeaves(pn, &leaves);
  // Rows per batch from the projected columns' average stored bytes per row.
  std::uint64_t bytes = 0;
  for (int c : leaves) {
    for (const auto& p : impl_->state->column_meta(c).pages) {
      for (const auto& b : p.buffers) bytes += b.size;
    }
  }
  std::int64_t rows = std::max<std::int64_t>(1, options.max_rows);
  if (num_rows() > 0 && bytes > 0 && options.max_bytes > 0) {
    const double per_row = static_cast<double>(bytes) / static_cast<double>(num_rows());
    const auto by_bytes =
        static_cast<std::int64_t>(static_cast<double>(options.max_bytes) / per_row);
    rows = std::max<std::int64_t>(1, std::min(rows, by_bytes));
  }
  return BatchReader(*this, projection, std::move(schema), rows);
}

Result<array::RecordBatchPtr> BatchReader::Next() {
  const std::int64_t total = reader_.num_rows();
  if (next_row_ >= total) return array::RecordBatchPtr();
  const std::int64_t n = std::min(rows_per_batch_, total - next_row_);
  LND_ASSIGN_OR_RETURN(auto batch, reader_.ReadRange(next_row_, n, projection_));
  next_row_ += n;
  return batch;
}

}  // namespace lance_nd::file
