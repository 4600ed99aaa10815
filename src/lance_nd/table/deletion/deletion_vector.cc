#include <algorithm>

#include "lance_nd/table/deletion.h"

namespace lance_nd::table {

DeletionVector::DeletionVector(std::vector<std::uint32_t> offsets) : offsets_(std::move(offsets)) {
  std::sort(offsets_.begin(), offsets_.end());
  offsets_.erase(std::unique(offsets_.begin(), offsets_.end()), offsets_.end());
}

bool DeletionVector::Contains(std::uint32_t offset) const {
  return std::binary_search(offsets_.begin(), offsets_.end(), offset);
}

bool DeletionVector::Insert(std::uint32_t offset) {
  auto it = std::lower_bound(offsets_.begin(), offsets_.end(), offset);
  if (it != offsets_.end() && *it == offset) return false;
  offsets_.insert(it, offset);
  return true;
}

void DeletionVector::InsertMany(std::span<const std::uint32_t> offsets) {
  if (offsets.empty()) return;
  const std::size_t old_size = offsets_.size();
  offsets_.insert(offsets_.end(), offsets.begin(), offsets.end());
  std::sort(offsets_.begin() + static_cast<std::ptrdiff_t>(old_size), offsets_.end());
  std::inplace_merge(offsets_.begin(), offsets_.begin() + static_cast<std::ptrdiff_t>(old_size),
                     offsets_.end());
  offsets_.erase(std::unique(offsets_.begin(), offsets_.end()), offsets_.end());
}

void DeletionVector::Union(const DeletionVector& other) { InsertMany(other.offsets_); }

std::size_t DeletionVector::CountBelow(std::uint32_t offset) const {
  return static_cast<std::size_t>(std::lower_bound(offsets_.begin(), offsets_.end(), offset) -
                                  offsets_.begin());
}

DeletionFileType PreferredDeletionFileType(std::size_t num_rows) {
  return num_rows <= kDeletionArrowMaxRows ? DeletionFileType::kArrowArray
                                           : DeletionFileType::kBitmap;
}

}  // namespace lance_nd::table
