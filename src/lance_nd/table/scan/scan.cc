#include "lance_nd/table/scan.h"

#include <algorithm>
#include <map>
#include <utility>

#include "lance_nd/table/scan/fragment_reader.h"
#include "lance_nd/table/scan/plan.h"

namespace lance_nd::table {

TableBatchReader::TableBatchReader(Dataset ds, std::shared_ptr<const internal::ScanPlan> plan,
                                   std::int64_t batch_rows)
    : ds_(std::move(ds)), plan_(std::move(plan)), batch_rows_(batch_rows) {}
TableBatchReader::TableBatchReader(TableBatchReader&&) noexcept = default;
TableBatchReader& TableBatchReader::operator=(TableBatchReader&&) noexcept = default;
TableBatchReader::~TableBatchReader() = default;

const array::SchemaPtr& TableBatchReader::schema() const { return plan_->schema; }

Result<array::RecordBatchPtr> TableBatchReader::Next() {
  while (true) {
    if (cursor_ == nullptr) {
      const auto& fragments = ds_.fragments();
      // Skip fragments whose rows are all deleted (Lance drops them, but be safe).
      while (next_fragment_ < fragments.size() && fragments[next_fragment_].physical_rows != 0 &&
             fragments[next_fragment_].num_rows() == 0) {
        ++next_fragment_;
      }
      if (next_fragment_ >= fragments.size()) return array::RecordBatchPtr();
      LND_ASSIGN_OR_RETURN(cursor_, internal::OpenFragment(ds_, *plan_, fragments[next_fragment_]));
      ++next_fragment_;
    }
    internal::RowSelection sel = cursor_->NextSelection(static_cast<std::uint64_t>(batch_rows_));
    if (sel.size() == 0) {
      cursor_.reset();
      continue;
    }
    return internal::ReadSelection(*plan_, *cursor_, sel);
  }
}

Result<array::SchemaPtr> ScanSchema(const Dataset& ds, const TableScanOptions& o) {
  LND_ASSIGN_OR_RETURN(auto plan, internal::MakeScanPlan(ds, o));
  return plan->schema;
}

Result<TableBatchReader> ScanTable(const Dataset& ds, const TableScanOptions& o) {
  if (o.batch_rows < 1) {
    return Status::InvalidArgument("TableScanOptions.batch_rows is " +
                                   std::to_string(o.batch_rows) + "; it must be at least 1");
  }
  LND_ASSIGN_OR_RETURN(auto plan, internal::MakeScanPlan(ds, o));
  return TableBatchReader(ds, std::move(plan), o.batch_rows);
}

Result<array::RecordBatchPtr> ReadTable(const Dataset& ds, const TableScanOptions& o) {
  LND_ASSIGN_OR_RETURN(TableBatchReader reader, ScanTable(ds, o));
  std::vector<array::RecordBatchPtr> batches;
  while (true) {
    LND_ASSIGN_OR_RETURN(auto batch, reader.Next());
    if (batch == nullptr) break;
    batches.push_back(std::move(batch));
  }
  return internal::ConcatenateBatches(reader.schema(), batches);
}

Result<array::RecordBatchPtr> ReadFragment(const Dataset& ds, const Fragment& f,
                                           const TableScanOptions& o) {
  LND_ASSIGN_OR_RETURN(auto plan, internal::MakeScanPlan(ds, o));
  LND_ASSIGN_OR_RETURN(auto cursor, internal::OpenFragment(ds, *plan, f));
  internal::RowSelection sel = cursor->NextSelection(cursor->physical_rows);
  return internal::ReadSelection(*plan, *cursor, sel);
}

FragmentTaker::FragmentTaker(std::shared_ptr<const internal::ScanPlan> plan,
                             std::unique_ptr<internal::FragmentCursor> cursor)
    : plan_(std::move(plan)), cursor_(std::move(cursor)) {}
FragmentTaker::FragmentTaker(FragmentTaker&&) noexcept = default;
FragmentTaker& FragmentTaker::operator=(FragmentTaker&&) noexcept = default;
FragmentTaker::~FragmentTaker() = default;

Result<FragmentTaker> FragmentTaker::Open(const Dataset& ds, const Fragment& f,
                                          const TableScanOptions& o) {
  LND_ASSIGN_OR_RETURN(auto plan, internal::MakeScanPlan(ds, o));
  LND_ASSIGN_OR_RETURN(auto cursor, internal::OpenFragment(ds, *plan, f));
  if (cursor->live_rows() != f.num_rows()) {
    return Status::Corrupt("fragment " + std::to_string(f.id) + " holds " +
                           std::to_string(cursor->live_rows()) +
                           " live rows but the manifest counts " + std::to_string(f.num_rows()));
  }
  return FragmentTaker(std::move(plan), std::move(cursor));
}

Result<array::RecordBatchPtr> FragmentTaker::Take(std::span<const std::uint64_t> rows) const {
  internal::RowSelection sel;
  sel.offsets.reserve(rows.size());
  for (std::uint64_t r : rows) {
    if (r >= cursor_->live_rows()) {
      return Status::InvalidArgument("FragmentTaker: row " + std::to_string(r) +
                                     " is out of range; fragment " +
                                     std::to_string(cursor_->fragment->id) + " has " +
                                     std::to_string(cursor_->live_rows()) + " rows");
    }
    sel.offsets.push_back(cursor_->PhysicalOffset(r));
  }
  return internal::ReadSelection(*plan_, *cursor_, sel);
}

Result<array::RecordBatchPtr> TakeRows(const Dataset& ds, std::span<const std::uint64_t> rows,
                                       const TableScanOptions& o) {
  LND_ASSIGN_OR_RETURN(auto plan, internal::MakeScanPlan(ds, o));
  const auto& fragments = ds.fragments();
  std::vector<std::uint64_t> starts;  // first logical row of each fragment
  std::uint64_t total = 0;
  for (const Fragment& f : fragments) {
    starts.push_back(total);
    total += f.num_rows();
  }
  std::map<std::size_t, std::unique_ptr<internal::FragmentCursor>> cursors;
  std::vector<array::RecordBatchPtr> batches;
  std::size_t i = 0;
  while (i < rows.size()) {
    if (rows[i] >= total) {
      return Status::InvalidArgument("TakeRows: row " + std::to_string(rows[i]) +
                                     " is out of range; the table has " + std::to_string(total) +
                                     " rows at version " + std::to_string(ds.version()));
    }
    const std::size_t frag = static_cast<std::size_t>(
        std::upper_bound(starts.begin(), starts.end(), rows[i]) - starts.begin() - 1);
    auto& cursor = cursors[frag];
    if (cursor == nullptr) {
      LND_ASSIGN_OR_RETURN(cursor, internal::OpenFragment(ds, *plan, fragments[frag]));
      if (cursor->live_rows() != fragments[frag].num_rows()) {
        return Status::Corrupt("fragment " + std::to_string(fragments[frag].id) + " holds " +
                               std::to_string(cursor->live_rows()) +
                               " live rows but the manifest counts " +
                               std::to_string(fragments[frag].num_rows()));
      }
    }
    // A run of requests in the same fragment becomes one read.
    internal::RowSelection sel;
    const std::uint64_t lo = starts[frag];
    const std::uint64_t hi = lo + fragments[frag].num_rows();
    while (i < rows.size() && rows[i] >= lo && rows[i] < hi) {
      sel.offsets.push_back(cursor->PhysicalOffset(rows[i] - lo));
      ++i;
    }
    LND_ASSIGN_OR_RETURN(auto batch, internal::ReadSelection(*plan, *cursor, sel));
    batches.push_back(std::move(batch));
  }
  return internal::ConcatenateBatches(plan->schema, batches);
}

}  // namespace lance_nd::table
