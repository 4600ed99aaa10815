#include "row_checks.h"

#include <algorithm>
#include <string>
#include <unordered_set>

#include "lance_nd/array/view.h"
#include "lance_nd/core/internal/untrusted_text.h"
#include "lance_nd/nd/errors.h"
#include "lance_nd/nd/format.h"

namespace lance_nd::nd::internal {

using array::ArrayData;
using array::ArrayPtr;

namespace {

/// Bytes of every buffer of `array` and its descendants (shared buffers count once per use).
uint64_t BufferBytes(const ArrayData& array) {
  uint64_t total = 0;
  for (const auto& buffer : array.buffers) {
    if (buffer) total += static_cast<uint64_t>(buffer->size());
  }
  for (const ArrayPtr& child : array.children) {
    if (child) total += BufferBytes(*child);
  }
  return total;
}

/// Rows a batch may declare with no buffer bytes behind them: rows that hold no nd variable and
/// no attribute (an empty nd batch each) are legal but backed by nothing.
constexpr uint64_t kMaxUnbackedRows = 65536;

}  // namespace

/// The batch's row count is a size read from input. A row of a lance-nd batch that holds data
/// is backed by at least one bit of its columns (a validity bit, or an offset of a list), so a
/// count beyond eight rows per buffer byte (and kMaxUnbackedRows) is corrupt and must not size
/// an allocation.
Status CheckUniqueAttributeKeys(const std::vector<array::FieldPtr>& fields, std::string_view what) {
  std::unordered_set<std::string_view> seen;
  for (const array::FieldPtr& f : fields) {
    if (!seen.insert(f->name()).second) {
      return InvalidEncoding(std::string(what) + " has two children named '" +
                             lance_nd::internal::TextPreview(f->name()) +
                             "'; an attribute key names one child");
    }
  }
  return Status::OK();
}

Status CheckRowsBacked(const array::RecordBatch& batch) {
  uint64_t bytes = 0;
  for (int i = 0; i < batch.num_columns(); ++i) bytes += BufferBytes(*batch.column(i));
  const auto rows = static_cast<uint64_t>(batch.num_rows());
  const uint64_t limit =
      std::max(kMaxUnbackedRows, bytes > UINT64_MAX / 8 ? UINT64_MAX : bytes * 8);
  if (rows > limit) {
    return InvalidEncoding("the batch declares " + std::to_string(rows) +
                           " rows but its columns hold only " + std::to_string(bytes) +
                           " bytes of buffers; a row needs at least one bit (a validity bit or "
                           "a list offset), so at most " +
                           std::to_string(limit) + " rows are possible: the row count is corrupt");
  }
  return Status::OK();
}

/// The child slot range [begin, end) of list slot `slot`, checked against the child length.
Result<std::pair<int64_t, int64_t>> ListRange(const ArrayData& list, int64_t slot,
                                              const Where& where, std::string_view what) {
  if (list.IsNull(slot)) {
    return InvalidEncoding(where + std::string(what) +
                           " is null in a non-null row; it must be a list");
  }
  if (list.children.size() != 1 || !list.children[0]) {
    return InvalidEncoding(where + std::string(what) + " has no item array");
  }
  const array::ListView view(list);
  const int64_t begin = view.ValueOffset(slot);
  const int64_t end = view.ValueOffset(slot + 1);
  if (begin < 0 || end < begin || end > list.children[0]->length) {
    return InvalidEncoding(where + std::string(what) + " offsets [" + std::to_string(begin) + ", " +
                           std::to_string(end) + ") are outside its " +
                           std::to_string(list.children[0]->length) + " items");
  }
  return std::make_pair(begin, end);
}

Result<AxisRanges> DimensionRanges(const array::ArrayData& names_list,
                                   const array::ArrayData& sizes_list, int64_t slot,
                                   const Where& where) {
  AxisRanges r;
  LND_ASSIGN_OR_RETURN(r.names, ListRange(names_list, slot, where, kDimNamesField));
  LND_ASSIGN_OR_RETURN(r.sizes, ListRange(sizes_list, slot, where, kDimSizesField));
  if (r.rank() != r.sizes.second - r.sizes.first) {
    return InvalidEncoding(
        where + "dim_names has " + std::to_string(r.rank()) + " entries but dim_sizes has " +
        std::to_string(r.sizes.second - r.sizes.first) + "; they must be equal (the rank)");
  }
  return r;
}

}  // namespace lance_nd::nd::internal
