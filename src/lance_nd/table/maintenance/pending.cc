// Placeholders until DeleteRows / Restore / Compact land (they need commit.h, write.h, scan.h).
#include "lance_nd/table/maintenance.h"

namespace lance_nd::table {

Result<Dataset> DeleteRows(const Dataset&, std::span<const std::uint64_t>) {
  return Status::NotImplemented("DeleteRows is not implemented yet");
}
Result<Dataset> Restore(const Dataset&) {
  return Status::NotImplemented("Restore is not implemented yet");
}
Result<CompactionMetrics> Compact(const Dataset&, const CompactionOptions&) {
  return Status::NotImplemented("Compact is not implemented yet");
}

}  // namespace lance_nd::table
